/**
 * A read-only view of a project, relative to its root with `/` separators. The core reads
 * projects only through this port; `node/` provides one over the real file system and tests
 * can pass an in-memory one.
 */
export interface ProjectView {
  exists(relPath: string): boolean;
  isDirectory(relPath: string): boolean;
  /** File text, or undefined when missing or unreadable. Large files may be cut short. */
  readText(relPath: string): string | undefined;
  /**
   * Entry names in a directory (files and folders), or [] when missing. `checked`: the caller has
   * just had `isDirectory` answer true for it, so the view need not ask the file system again.
   */
  list(relDir: string, checked?: boolean): readonly string[];
  /**
   * The folder as the view saw it just before its last `list` read its entries: its device,
   * inode, modification and change times (ms), or undefined when not listed or not known. The same
   * four later mean the same entries, unread (`runners/node/test-names.ts`).
   */
  listedStamp?(relDir: string): readonly [number, number, number, number] | undefined;
  /**
   * The machine around the project, where known: whether a tool is on PATH, an environment
   * variable. Absent (an in-memory view): no tool is assumed present and no variable set.
   */
  host?: {
    onPath(name: string): boolean;
    env(name: string): string | undefined;
  };
  /**
   * A memoized view's store for answers computed from its files (runner detection of a folder):
   * `compute`'s value, kept under `key` for the view's life. Absent on a view that reads afresh,
   * whose callers compute each time.
   */
  remember?<T>(key: string, compute: () => T): T;
}

/** An in-memory project: a map of relative paths to file contents. */
export function createMemoryView(files: Readonly<Record<string, string>>): ProjectView {
  const paths = Object.keys(files).map(normalize);
  const contents = new Map(Object.entries(files).map(([path, text]) => [normalize(path), text]));
  const isDir = (rel: string): boolean => {
    const dir = normalize(rel);
    return dir === "" || paths.some((path) => path.startsWith(`${dir}/`));
  };
  return {
    exists: (rel) => contents.has(normalize(rel)) || isDir(rel),
    isDirectory: isDir,
    readText: (rel) => contents.get(normalize(rel)),
    list: (rel) => {
      const dir = normalize(rel);
      const prefix = dir === "" ? "" : `${dir}/`;
      const names = new Set<string>();
      for (const path of paths) {
        if (!path.startsWith(prefix)) continue;
        const first = path.slice(prefix.length).split("/")[0];
        if (first !== undefined && first !== "") names.add(first);
      }
      return [...names].sort();
    },
  };
}

/**
 * The same view with one more file, `rel` holding `text`: what the project was before that file
 * was deleted, for the questions only its presence answers (whose config it was).
 */
export function withFile(view: ProjectView, rel: string, text: string): ProjectView {
  const slash = rel.lastIndexOf("/");
  const dir = slash === -1 ? "" : rel.slice(0, slash);
  const name = rel.slice(slash + 1);
  return {
    ...(view.host === undefined ? {} : { host: view.host }),
    exists: (at) => at === rel || view.exists(at),
    isDirectory: (at) => at !== rel && view.isDirectory(at),
    readText: (at) => (at === rel ? text : view.readText(at)),
    list: (at, checked) => {
      const names = view.list(at, checked);
      return at !== dir || names.includes(name) ? names : [...names, name].sort();
    },
  };
}

/** How much file text one memoized view keeps: beyond it, reads go to the view underneath. */
const MEMO_TEXT_CAP = 4 * 1024 * 1024;

/**
 * The same view, each answer remembered: for one pass over a project that does not change
 * meanwhile (the end of a turn chooses its tests before any runs), where runner detection asks
 * the same folders and reads the same manifests once per changed file. File text is kept up to
 * 4 MiB in all, so a pass over a large project reads the rest as before.
 */
export function memoView(view: ProjectView): ProjectView {
  const exists = new Map<string, boolean>();
  const isDirectory = new Map<string, boolean>();
  const texts = new Map<string, string | undefined>();
  const lists = new Map<string, readonly string[]>();
  const derived = new Map<string, unknown>();
  let kept = 0;
  const once = <T>(cache: Map<string, T>, rel: string, read: (rel: string) => T): T => {
    if (cache.has(rel)) return cache.get(rel) as T;
    const value = read(rel);
    cache.set(rel, value);
    return value;
  };
  return {
    ...(view.host === undefined ? {} : { host: view.host }),
    exists: (rel) => once(exists, rel, (at) => view.exists(at)),
    isDirectory: (rel) => once(isDirectory, rel, (at) => view.isDirectory(at)),
    list: (rel, checked) => once(lists, rel, (at) => view.list(at, checked)),
    ...(view.listedStamp === undefined ? {} : { listedStamp: (rel) => view.listedStamp?.(rel) }),
    remember: <T>(key: string, compute: () => T): T => once(derived, key, compute) as T,
    readText: (rel) => {
      if (texts.has(rel)) return texts.get(rel);
      const text = view.readText(rel);
      if (kept + (text?.length ?? 0) <= MEMO_TEXT_CAP) {
        kept += text?.length ?? 0;
        texts.set(rel, text);
      }
      return text;
    },
  };
}

/** How `walkFiles` bounds its walk and which files it keeps. */
export interface WalkBounds {
  /** How many folder levels below the start it enters (0: the start folder's own files only). */
  readonly depth: number;
  /** How many kept files end the walk. */
  readonly files: number;
  /** Folder names never entered, beside dot folders (`node_modules`, `__pycache__`). */
  readonly skip?: ReadonlySet<string>;
  /** Whether a file (its path relative to `dir`) is kept. */
  readonly keep: (path: string) => boolean;
}

/**
 * The files below `dir/start` a walk keeps, as paths relative to `dir`, in the view's listing
 * order: dot entries and `skip` folders are passed over, and the walk stops at `bounds.files`
 * kept files (a caller tells a cut walk by `length === files`). The one bounded walk for a test
 * script's glob, a pytest doctest glob and a crate's modules.
 */
export function walkFiles(
  view: ProjectView,
  dir: string,
  start: string,
  bounds: WalkBounds,
): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number): void => {
    for (const name of view.list(joinRel(dir, rel), true)) {
      if (found.length >= bounds.files) return;
      if (name.startsWith(".") || bounds.skip?.has(name) === true) continue;
      const path = rel === "" ? name : `${rel}/${name}`;
      if (view.isDirectory(joinRel(dir, path))) {
        if (depth < bounds.depth) walk(path, depth + 1);
      } else if (bounds.keep(path)) found.push(path);
    }
  };
  if (view.isDirectory(joinRel(dir, start))) walk(start, 0);
  return found;
}

export function joinRel(...parts: readonly string[]): string {
  return normalize(parts.filter((part) => part !== "" && part !== ".").join("/"));
}

/** Folds `.` and `..` out of a project-relative path; undefined when it climbs out. */
export function normalizeRel(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

export function dirnameRel(relPath: string): string {
  const slash = relPath.lastIndexOf("/");
  return slash === -1 ? "" : relPath.slice(0, slash);
}

function normalize(path: string): string {
  // Most paths need none of it: four regular expressions on each of the ~200 joins of an explain.
  if (!path.includes("\\") && !path.startsWith("./") && !path.endsWith("/") && !path.includes("//"))
    return path;
  return path
    .replace(/\\/g, "/")
    .replace(/^\.\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\/{2,}/g, "/");
}
