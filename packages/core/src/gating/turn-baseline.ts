import * as z from "zod/mini";

/**
 * The content-based end-of-turn check of the gating modes (tdd, strict), pure: what the work tree
 * held when the turn began, as git sees it (HEAD's commit plus the content id of every file git
 * reports as changed, added, deleted or untracked), and which files hold other content now. A
 * file's mtime plays no part, so a write that puts the old mtime back is still seen; a tracked
 * file is never hidden by an ignore rule, and the ignore rules a file is judged by are the ones
 * of the turn's start. The node edge (`node/content-sweep.ts`) runs git and reads the files.
 */

export const TURN_BASELINE_VERSION = 1;

/** A content id: git's blob id of the bytes (sha1 or sha256 by the repository), null: absent. */
const ContentIdSchema = z.nullable(z.string().check(z.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)));

export const BaselineFileSchema = z.object({
  /** The file's content at the baseline (null: it did not exist). */
  id: ContentIdSchema,
  /** The blob HEAD held for the path at the baseline (null: none), when git said. */
  head: z.optional(ContentIdSchema),
  /** inode, size, mtime and ctime (ns): the same four later mean the same bytes, unread. */
  stat: z.optional(z.string()),
  /** sha256 of the bytes in `.tailtest/objects` (strict keeps production files to revert to). */
  object: z.optional(z.nullable(z.string())),
});
export type BaselineFile = z.infer<typeof BaselineFileSchema>;

export const TurnBaselineSchema = z.object({
  v: z.literal(TURN_BASELINE_VERSION),
  /** When it was taken (ISO). */
  at: z.string(),
  /** HEAD's commit (null: no commit yet). */
  head: z.nullable(z.string()),
  /** Every file git reported as not matching HEAD, by project-relative path. */
  files: z.record(z.string(), BaselineFileSchema),
  /** The project-level ignore rules of that moment: root `.gitignore`, `.tailtest-ignore`, `info/exclude`. */
  ignore: z.object({
    gitignore: z.optional(z.string()),
    tailtestIgnore: z.optional(z.string()),
    exclude: z.optional(z.string()),
    /**
     * The `.gitignore` files below the root that git listed (untracked, ignored, changed), by
     * path, with their text (null: gone). A tracked one git calls clean is not here.
     */
    nested: z.optional(z.record(z.string(), z.nullable(z.string()))),
  }),
});
export type TurnBaseline = z.infer<typeof TurnBaselineSchema>;
export type IgnoreSources = TurnBaseline["ignore"];

/** One path of `git status --porcelain=v2 -z`. */
export interface StatusEntry {
  /** HEAD's blob for the path, when the entry says (null: not in HEAD). */
  head?: string | null;
  untracked: boolean;
  /** `!`: ignored (listed only when asked for). */
  ignored: boolean;
}

export interface WorkTreeStatus {
  /** HEAD's commit, null before the first commit. */
  head: string | null;
  entries: Map<string, StatusEntry>;
}

const ZERO_ID = /^0+$/;

function blobOrNull(id: string | undefined): string | null | undefined {
  if (id === undefined) return undefined;
  return ZERO_ID.test(id) ? null : id;
}

/**
 * `git status --porcelain=v2 -z --branch`: the headers give HEAD's commit; ordinary (`1`),
 * renamed or copied (`2`, its source path next), unmerged (`u`), untracked (`?`) and ignored
 * (`!`) entries give each path and, for tracked ones, HEAD's blob.
 */
export function parseStatusV2(text: string): WorkTreeStatus {
  const fields = text.split("\0");
  const entries = new Map<string, StatusEntry>();
  let head: string | null = null;
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? "";
    if (field === "") continue;
    if (field.startsWith("# branch.oid ")) {
      const oid = field.slice("# branch.oid ".length);
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    if (field.startsWith("#")) continue;
    const kind = field[0];
    if (kind === "1") {
      // 1 XY sub mH mI mW hH hI path
      const parts = field.split(" ");
      const path = parts.slice(8).join(" ");
      entries.set(path, { head: blobOrNull(parts[6]), untracked: false, ignored: false });
    } else if (kind === "2") {
      // 2 XY sub mH mI mW hH hI Xscore path, then the source path as the next field
      const parts = field.split(" ");
      const path = parts.slice(9).join(" ");
      const source = fields[i + 1] ?? "";
      i += 1;
      entries.set(path, { untracked: false, ignored: false });
      if (source !== "")
        entries.set(source, { head: blobOrNull(parts[6]), untracked: false, ignored: false });
    } else if (kind === "u") {
      // u XY sub m1 m2 m3 mW h1 h2 h3 path
      const path = field.split(" ").slice(10).join(" ");
      entries.set(path, { untracked: false, ignored: false });
    } else if (kind === "?") {
      entries.set(field.slice(2), { head: null, untracked: true, ignored: false });
    } else if (kind === "!") {
      entries.set(field.slice(2), { head: null, untracked: true, ignored: true });
    }
  }
  return { head, entries };
}

/** `git diff --raw -z --no-renames --no-abbrev A B`: each changed path's blob before and after. */
export function parseDiffRaw(
  text: string,
): Map<string, { old: string | null; new: string | null }> {
  const fields = text.split("\0");
  const changes = new Map<string, { old: string | null; new: string | null }>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] ?? "";
    const path = fields[i + 1] ?? "";
    if (!meta.startsWith(":") || path === "") {
      // Out of step (should not happen): stop rather than misread the rest.
      if (meta !== "") break;
      continue;
    }
    const parts = meta.slice(1).split(" ");
    changes.set(path, { old: blobOrNull(parts[2]) ?? null, new: blobOrNull(parts[3]) ?? null });
  }
  return changes;
}

/** `git ls-tree -r -z <commit>`: every path's blob (a first commit made during the turn). */
export function parseLsTree(text: string): Map<string, string> {
  const blobs = new Map<string, string>();
  for (const field of text.split("\0")) {
    const tab = field.indexOf("\t");
    if (tab < 0) continue;
    const [, type, id] = field.slice(0, tab).split(" ");
    if (type === "blob" && id !== undefined) blobs.set(field.slice(tab + 1), id);
  }
  return blobs;
}

export interface ComparePlan {
  /** Every path whose content may differ from the baseline. */
  candidates: string[];
  /** Paths whose blob in the current HEAD is not known from git's answers yet. */
  lookups: string[];
}

export interface CompareInput {
  baseline: TurnBaseline;
  now: WorkTreeStatus;
  /** HEAD's changes between the baseline's commit and now (empty when HEAD did not move). */
  headChanges: ReadonlyMap<string, { old: string | null; new: string | null }>;
  /** Which paths are worth comparing at all (a known language, no dependency folder). */
  relevant: (path: string) => boolean;
}

function headNow(input: CompareInput, path: string): string | null | undefined {
  const entry = input.now.entries.get(path);
  if (entry?.head !== undefined) return entry.head;
  const change = input.headChanges.get(path);
  if (change !== undefined) return change.new;
  const before = input.baseline.files[path];
  if (before?.head !== undefined) return before.head;
  return undefined;
}

/** Which paths to compare, and which of them need HEAD's blob looked up. */
export function planCompare(input: CompareInput): ComparePlan {
  const paths = new Set<string>([
    ...Object.keys(input.baseline.files),
    ...input.now.entries.keys(),
    ...input.headChanges.keys(),
  ]);
  const candidates = [...paths].filter((path) => input.relevant(path)).sort();
  const lookups = candidates.filter((path) => {
    const entry = input.now.entries.get(path);
    // A path git lists now is read from the work tree; only clean ones take HEAD's blob.
    if (entry !== undefined) return false;
    return headNow(input, path) === undefined;
  });
  return { candidates, lookups };
}

export interface CompareResult {
  /** Paths whose content is not the baseline's, sorted. */
  changed: string[];
  /** What each changed path held at the baseline (null: it did not exist). */
  before: Map<string, BaselineFile & { fromHead: boolean }>;
}

/**
 * The paths whose content differs from the baseline. `heads` holds the looked-up blobs of HEAD
 * (absent or null: not in HEAD); `work(path)` reads the work tree's content id (null: absent).
 * A path git does not list now is HEAD's blob when HEAD has it (git says it is clean), else it
 * is read (an untracked file that an ignore rule now hides, or a file gone).
 */
export function compareWithBaseline(
  input: CompareInput,
  plan: ComparePlan,
  heads: ReadonlyMap<string, string | null>,
  work: (path: string) => string | null,
): CompareResult {
  const changed: string[] = [];
  const before = new Map<string, BaselineFile & { fromHead: boolean }>();
  for (const path of plan.candidates) {
    const current = headNow(input, path);
    const headBlob = current === undefined ? (heads.get(path) ?? null) : current;
    const headThen = input.headChanges.get(path)?.old;
    const recorded = input.baseline.files[path];
    const was: BaselineFile & { fromHead: boolean } =
      recorded !== undefined
        ? { ...recorded, fromHead: false }
        : { id: headThen === undefined ? headBlob : headThen, fromHead: true };
    const listed = input.now.entries.has(path);
    const is = listed || headBlob === null ? work(path) : headBlob;
    if (is !== was.id) {
      changed.push(path);
      before.set(path, was);
    }
  }
  return { changed, before };
}

/**
 * Whether the ignore rules differ from the baseline's: the project-level ones, or a folder's
 * `.gitignore` that git lists now or listed then (a baseline from before `nested` was kept
 * compares the project-level ones only).
 */
export function ignoreChanged(then: IgnoreSources, now: IgnoreSources): boolean {
  if (
    then.gitignore !== now.gitignore ||
    then.tailtestIgnore !== now.tailtestIgnore ||
    then.exclude !== now.exclude
  )
    return true;
  if (then.nested === undefined) return false;
  const before = then.nested;
  const after = now.nested ?? {};
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  // A path listed on one side only held, on the other, what HEAD holds (clean) or nothing.
  return [...paths].some((path) => before[path] !== after[path]);
}

/**
 * A folder's `.gitignore` as rules of the project root's (gitignore syntax): a bare `x` there
 * matches at any depth under the folder, `/x` and `a/b` only from the folder itself; negations
 * stay negations.
 */
export function rebaseIgnoreRules(dir: string, text: string): string[] {
  const rules: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    const body = negated ? line.slice(1) : line;
    const anchored = body.startsWith("/") || body.replace(/\/$/, "").includes("/");
    const rest = body.replace(/^\//, "");
    if (rest === "") continue;
    rules.push(`${negated ? "!" : ""}/${dir}/${anchored ? "" : "**/"}${rest}`);
  }
  return rules;
}

/**
 * The sentence the Stop and `status` repeat while tailtest's copy of the production files is not
 * whole (`node/tree-snapshot.ts` passed a bound).
 */
export function partialCopyLine(over: string, strict: boolean): string {
  return `tailtest's copy of the production files is incomplete (${over}): without git, a change outside the gate to a file past it is found only by its modification time${strict ? " and cannot be put back" : ""}.`;
}
