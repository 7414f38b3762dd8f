import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  changedHelpers,
  conftestMaySkip,
  editedTests,
  holdsTests,
  isRunnerConfig,
  leavesTestsOut,
  newSupportForms,
  newTestForms,
  testsCallingHelpers,
  testsNothingSkips,
  weakeningForms,
  type WeakenedTest,
} from "../test-weakening.ts";
import type { TurnLook } from "./content-sweep.ts";
import { gitBlobs } from "./git-blobs.ts";
import { toProjectPath, type Project } from "../../project/node/project.ts";
import { readObject } from "../../strict/node/strict-store.ts";
import { classifyTddFile, tddPatternsFromConfig } from "../../tdd/file-classes.ts";
import { parseRedTarget } from "../../tdd/guide.ts";
import { readTddEntries, TDD_DIR } from "../../tdd/node/tdd-store.ts";

/** A test file larger than this is not read (its change is not judged). */
const MAX_BYTES = 1024 * 1024;
/** At most this many changed test files are read per Stop. */
const MAX_FILES = 200;

function textNow(root: string, path: string): string | undefined | null {
  try {
    const bytes = readFileSync(join(root, path));
    return bytes.length > MAX_BYTES ? null : bytes.toString("utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? undefined : null;
  }
}

/** What a change of a test file or a runner config did to the run (empty: nothing said). */
function formsOf(
  path: string,
  kind: { test: boolean; config: boolean },
  before: string | undefined,
  after: string | undefined,
): string[] {
  let test: string[] = [];
  if (kind.test && before !== undefined) test = weakeningForms(path, before, after);
  else if (kind.test && after !== undefined)
    test = [...newSupportForms(path, after), ...newTestForms(path, after)];
  return [...test, ...(kind.config ? leavesTestsOut(path, before, after) : [])];
}

/**
 * A changed test file that held tests at the turn's start: it must still run one
 * (`ranNoTestLine`), and `edited`, its tests the run may not report skipped (`editedTests`).
 */
export interface TestedFile {
  path: string;
  edited: string[];
  /**
   * Not changed itself: read because a conftest.py above it changed. Its tests must not be
   * skipped, but a file running none is not said (it may be skipped whole on this machine).
   */
  support?: true;
  /**
   * No conftest.py above it could skip a test: one case of an edited test reported skipped is
   * said, though another ran (a conftest's fixture may skip some cases of a parametrised test).
   */
  cases?: true;
  /** Read because a helper module it calls changed: the helper's path (said as the file). */
  via?: string;
}

/**
 * What the turn did to its tests: `weakened`, the changes read as weakening; `tested`, the other
 * changed test files that held tests at the turn's start.
 */
export interface TurnTestChanges {
  weakened: WeakenedTest[];
  tested: TestedFile[];
}

/**
 * The existing test files this turn changed so that less of them can fail, and the new support
 * files of a test area that skip or stand in for tested code (`test-weakening.ts`), compared by
 * content with the turn's start: its kept bytes (strict, and tailtest's copy where git cannot
 * compare) or git's blob (one `git cat-file` for all). `exempt`: the tests a declared cycle or claim covers (their own rules hold them).
 * Nothing for a file whose bytes at the turn's start are not to be had.
 */
export function weakenedTests(
  project: Project,
  look: TurnLook,
  exempt: ReadonlySet<string>,
): TurnTestChanges {
  const tested: TestedFile[] = [];
  if (look.before === undefined) return { weakened: [], tested };
  // The mtime look has bytes only where tailtest's copy kept them (a project git cannot compare,
  // ADR 0012, the twenty-fifth round): never git's blobs.
  const git = look.via === "content";
  const patterns = tddPatternsFromConfig(project.config);
  const root = project.root;
  const found: WeakenedTest[] = [];
  const conftests: string[] = [];
  const helpers: { path: string; names: string[] }[] = [];
  const before = look.before;
  const judged = look.changed
    .filter((path) => !exempt.has(path))
    .slice(0, MAX_FILES)
    .flatMap((path) => {
      const test = classifyTddFile(path, patterns) === "test";
      const config = isRunnerConfig(path);
      const was = before.get(path);
      if (!git && was !== undefined && was.id !== null && typeof was.object !== "string") return [];
      return (test || config) && was !== undefined ? [{ path, test, config, was }] : [];
    });
  // git's blobs of the turn's start, all read by one process.
  const fromGit = judged.flatMap(({ was }) =>
    was.id !== null && typeof was.object !== "string" ? [was.id] : [],
  );
  const blobs = fromGit.length > 0 ? gitBlobs(root, fromGit, MAX_BYTES) : undefined;
  for (const { path, test, config, was } of judged) {
    const then = textThen(root, was, blobs);
    if (then === null) continue;
    const after = textNow(root, path);
    if (after === null) continue;
    const forms = formsOf(path, { test, config }, then, after);
    if (test && forms.length === 0 && then !== undefined && after !== undefined) {
      const names = changedHelpers(path, then, after);
      if (names.length > 0) helpers.push({ path, names });
    }
    if (forms.length > 0) found.push({ path, forms });
    else if (test && then !== undefined && after !== undefined && holdsTests(path, then))
      tested.push(testedOf(root, path, then, after));
    else if (quietConftest(path, then, after)) conftests.push(path);
  }
  tested.push(...underConftests(root, conftests, patterns, [...found, ...tested]));
  tested.push(...underHelpers(root, helpers, patterns, [...found, ...tested]));
  return { weakened: found, tested };
}

/**
 * A file's text at the turn's start: undefined, it was not there; null, not to be had (or too
 * large to read).
 */
function textThen(
  root: string,
  was: { id: string | null; object?: unknown },
  blobs: ReadonlyMap<string, Buffer> | undefined,
): string | undefined | null {
  if (was.id === null) return undefined;
  const text =
    typeof was.object === "string"
      ? readObject(root, was.object)?.toString("utf8")
      : blobs?.get(was.id)?.toString("utf8");
  return text === undefined || text.length > MAX_BYTES ? null : text;
}

/**
 * A conftest.py the turn added or changed that could skip nothing at its start: the tests under
 * it that nothing in their own file could skip are judged as edited ones (the twenty-eighth
 * round: an autouse fixture there skipping `test_add` by its name). `judged`: files read already.
 */
function underConftests(
  root: string,
  conftests: readonly string[],
  patterns: ReturnType<typeof tddPatternsFromConfig>,
  judged: readonly { path: string }[],
): TestedFile[] {
  const tested: TestedFile[] = [];
  const seen = new Set(judged.map(({ path }) => path));
  for (const conftest of conftests) {
    const folder = conftest.includes("/") ? conftest.slice(0, conftest.lastIndexOf("/") + 1) : "";
    if (ancestorConftests(root, folder).some((text) => conftestMaySkip(text))) continue;
    for (const path of pythonTestsUnder(root, folder, patterns)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const text = textNow(root, path);
      if (typeof text !== "string") continue;
      const names = testsNothingSkips(path, text);
      if (names.length > 0) tested.push({ path, edited: names, support: true });
    }
  }
  return tested;
}

/**
 * A helper module of a test area the turn changed (`tests/helpers.py`, and since the thirtieth
 * round `test/helpers.js`, which vitest's `getCurrentTest()` lets skip a test): the tests of the
 * test files under its test folder that import it and call a changed function of it, and that
 * nothing in their own file could skip, are judged as edited ones (the twenty-ninth round: a
 * skip put in a helper the failing test imports). `judged`: files read already.
 */
function underHelpers(
  root: string,
  helpers: readonly { path: string; names: string[] }[],
  patterns: ReturnType<typeof tddPatternsFromConfig>,
  judged: readonly { path: string }[],
): TestedFile[] {
  const tested: TestedFile[] = [];
  const seen = new Set(judged.map(({ path }) => path));
  const quietFolders = new Map<string, boolean>();
  for (const helper of helpers) {
    const parts = helper.path.split("/");
    const module = (parts.pop() ?? "").replace(/\.(py|[cm]?[jt]sx?)$/, "");
    const name = module === "__init__" || module === "index" ? parts.at(-1) : module;
    const python = helper.path.endsWith(".py");
    if (name === undefined) continue;
    // The test folder it sits in, from its top (`tests/` for `tests/support/helpers.py`).
    const top = parts.findIndex((part) => TEST_FOLDERS.test(part));
    const folder = parts.slice(0, top === -1 ? parts.length : top + 1).join("/");
    const under = folder === "" ? "" : `${folder}/`;
    for (const path of testsUnder(root, under, patterns, python ? PYTHON : JAVASCRIPT)) {
      if (seen.has(path)) continue;
      const text = textNow(root, path);
      if (typeof text !== "string") continue;
      // A conftest.py above that may skip a test leaves its skips unexplained by the helper.
      const at = path.slice(0, path.lastIndexOf("/") + 1);
      let quiet = quietFolders.get(at);
      if (quiet === undefined) {
        const own = textNow(root, `${at}conftest.py`);
        const texts = [...ancestorConftests(root, at), ...(typeof own === "string" ? [own] : [])];
        quiet = !texts.some(conftestMaySkip);
        quietFolders.set(at, quiet);
      }
      if (!quiet) continue;
      const edited = testsCallingHelpers(path, text, name, helper.names);
      if (edited.length === 0) continue;
      seen.add(path);
      tested.push({ path, edited, support: true, via: helper.path });
    }
  }
  return tested;
}

/** A folder of tests. */
const TEST_FOLDERS = /^(tests?|testing|__tests__)$/;

/** A changed test file's entry: its edited tests, and whether each case must run. */
function testedOf(root: string, path: string, then: string, after: string): TestedFile {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const edited = editedTests(path, then, after);
  const held = edited.length > 0 && !ancestorConftests(root, folder).some(conftestMaySkip);
  return held ? { path, edited, cases: true } : { path, edited };
}

const isConftest = (path: string) => /(^|\/)conftest\.py$/.test(path);

/** A conftest.py the turn added or changed that could skip nothing at the turn's start. */
function quietConftest(path: string, then: string | undefined, after: string | undefined): boolean {
  return isConftest(path) && after !== undefined && !conftestMaySkip(then ?? "");
}

/** The texts of the conftest.py files of the folders above `folder` (`a/b/`: `a/`, the root). */
function ancestorConftests(root: string, folder: string): string[] {
  const parts = folder.split("/").filter((part) => part !== "");
  const texts: string[] = [];
  for (let depth = 0; depth < parts.length; depth += 1) {
    const text = textNow(root, [...parts.slice(0, depth), "conftest.py"].join("/"));
    if (typeof text === "string") texts.push(text);
  }
  return texts;
}

/** At most this many test files under a changed conftest.py are read. */
const MAX_UNDER = 200;

const PYTHON = /\.py$/;
const JAVASCRIPT = /\.[cm]?[jt]sx?$/;

/** The Python test files under `folder` (project-relative, depth first, bounded). */
function pythonTestsUnder(
  root: string,
  folder: string,
  patterns: ReturnType<typeof tddPatternsFromConfig>,
): string[] {
  return testsUnder(root, folder, patterns, PYTHON);
}

/** The test files under `folder` whose name ends so (project-relative, depth first, bounded). */
function testsUnder(
  root: string,
  folder: string,
  patterns: ReturnType<typeof tddPatternsFromConfig>,
  ending: RegExp,
  found: string[] = [],
): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (found.length >= MAX_UNDER) break;
    const rel = `${folder}${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && !SKIPPED_FOLDERS.has(entry.name))
        testsUnder(root, `${rel}/`, patterns, ending, found);
    } else if (
      entry.isFile() &&
      ending.test(rel) &&
      !isConftest(rel) &&
      classifyTddFile(rel, patterns) === "test"
    )
      found.push(rel);
  }
  return found;
}

/** Folders no test is looked for in. */
const SKIPPED_FOLDERS = new Set(["node_modules", "__pycache__", "venv", "site-packages"]);

/**
 * tdd: the test files of Reds that reached a Green (not `--skip-red`), in any agent's log. Their
 * edits were made before a failing run confirmed the Red, and the test file cannot change during
 * its Green: the cycle's own rules hold them.
 */
export async function cycleTests(project: Project): Promise<Set<string>> {
  const files = new Set<string>();
  let logs: string[];
  try {
    logs = readdirSync(join(project.root, TDD_DIR)).filter((name) => name.endsWith(".log"));
  } catch {
    return files;
  }
  for (const log of logs) {
    const key = log.slice(0, -".log".length);
    let entries;
    try {
      ({ entries } = await readTddEntries(project.root, key, { mineOnly: true }));
    } catch {
      continue;
    }
    let red: string | undefined;
    for (const entry of entries) {
      if (entry.kind === "red") red = entry.test;
      else if (entry.kind === "green" && entry.skip_red === undefined && red !== undefined) {
        const file = toProjectPath(project, parseRedTarget(red).file);
        if (file !== undefined) files.add(file);
      }
    }
  }
  return files;
}
