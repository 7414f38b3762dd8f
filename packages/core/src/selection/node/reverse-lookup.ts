import { join } from "node:path";
import type { Budget } from "../../analysis/budget.ts";
import { WHOLE_TREE_FLAGS, addV8Flags } from "../../hook/node/code-cache.ts";
import {
  aliasSpecifierWords,
  packageImportWords,
  resolveJsImport,
  folderMain,
  folderMainPath,
  FOLDER_MAIN_SCOPE,
  workspaceAliases,
  type PathAliases,
  type ResolveContext,
} from "../../analysis/resolve.ts";
import { walkSkipsDir } from "../../filter/filter.ts";
import { baseName, extensionOf, stemOf } from "../../filter/languages.ts";
import { dirnameRel } from "../../project/project-view.ts";
import { ENTRY_STEMS } from "../related.ts";
import type { GraphView } from "./covering.ts";
import { isGraphSource, lookupContext, readFileImports } from "../../analysis/node/impact.ts";
import type { Project } from "../../project/node/project.ts";
import { continueWalk, readSmallFile } from "../../analysis/node/project-walk.ts";
import { SortedFileTable } from "../graph-shards.ts";
import { eachGitChunk, gitOutputFile } from "../../project/node/git-output.ts";

/**
 * Selection's cold path: who imports a file, found without the whole import graph (which a
 * 50,000-file project cannot build within a hook). Each hop is one fast text search for the
 * names an import of the current files must spell (`m7` for `src/pkg/m7.py`, `ui` for
 * `src/ui/index.ts`) — `git grep -l -F` over the work tree's files in a git repository
 * (multi-threaded C), else a scan of the project's source files — and the candidates found are
 * lexed and resolved to confirm the import, hop after hop up to the tests, as the graph would
 * answer. The full graph still builds in the end of a turn's box (`graph-selection.ts`).
 * `loadJsLexers` must have been awaited.
 */

const PY = [".py"];
const JS = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];
/** Single-file components: their `<script>` blocks import too (`readFileImports`). */
const COMPONENTS = [".vue", ".svelte"];
const SEARCH = new Set([...PY, ...JS, ...COMPONENTS]);
/**
 * The search's V8 flags, set as it starts: the whole tree's (`WHOLE_TREE_FLAGS`) and
 * `--optimize-for-size`, under which V8 keeps its heap smaller for the rest of the process: the
 * cold search on 50,000 files peaked 3 MiB lower (62.8-66.2 MiB against 65.4-67.8) and ran
 * fewer instructions, not more (2,363-2,382 M against 2,422-2,438 M; ADR 0014).
 */
const COLD_SEARCH_FLAGS = [...WHOLE_TREE_FLAGS, "--optimize-for-size"];
/** A text search's output larger than this is not taken (the project is not a project). */
const MAX_OUTPUT = 256 * 1024 * 1024;
const READ_CAP = 256 * 1024;

/**
 * The words an import of `rel` must spell, one at least: its stem (`billing`, `option`); for a
 * folder's index or `__init__.py` also the folder's name, and the relative specifiers that name a
 * folder without naming the file (`require("..")`, `from "./"`, Python's `from . import x`): the
 * folders above by their end (`..'` for `'..'`, `'../..'`; `../'` for `'../'`, `'../../'`;
 * `/.'` for express's `'../.'`).
 */
export function importWords(rel: string): string[] {
  const stem = stemOf(rel);
  if (!ENTRY_STEMS.has(stem)) return [stem];
  const dir = dirnameRel(rel);
  return [...folderName(dir), stem, ...relativeWords(extensionOf(rel) === ".py")];
}

function folderName(dir: string): string[] {
  const folder = baseName(dir);
  return folder === "" ? [] : [folder];
}

/** The relative specifiers that name a folder without naming a file in it (`importWords`). */
function relativeWords(python: boolean): string[] {
  return python
    ? ["from ."]
    : [
        ...[".", "./"].flatMap((spec) => [`"${spec}"`, `'${spec}'`]),
        ...["..", "../", "/."].flatMap((spec) => [`${spec}"`, `${spec}'`]),
      ];
}

/**
 * The words an import of `rel` must spell, narrowed where the spelling allows: an import of a
 * module from another folder names its folder too, so a file's folder and name are searched for
 * everywhere (`p3.m7` for `from big.p3.m7 import f`, `p3 import` for `from big.p3 import m7`,
 * `d3/m7` for `"../d3/m7"` or `"@/d3/m7"`), and the bare name only in its own folder and below
 * (`from .m7`, `from ..m7`, `"./m7"`, `"../m7"`). A project where the folder's name can go
 * unspelled keeps the bare name everywhere (`importWords`): a module in a Python root or outside
 * a package, a folder a tsconfig alias or `baseUrl` points at, a file inside a workspace package,
 * a folder's index or `__init__.py`.
 */
export function searchWords(
  project: Project,
  rel: string,
  isFile: (rel: string) => boolean,
  contextOf: (rel: string) => ResolveContext = (file) => lookupContext(project, file),
): { everywhere: string[]; under?: { dir: string; words: string[] }; commands?: string[] } {
  const stem = stemOf(rel);
  const dir = dirnameRel(rel);
  const folder = baseName(dir);
  // A console script's module is run by the command's name (`subprocess.run(["tool"])`).
  // Found anywhere in a file's text, not on an import line (`searchText`).
  const scripts = extensionOf(rel) === ".py" ? scriptsOf(contextOf(rel), rel) : [];
  const commands = scripts.length === 0 ? {} : { commands: scripts };
  const broad = { everywhere: importWords(rel), ...commands };
  if (ENTRY_STEMS.has(stem) || dir === "" || folder === "") return broad;
  const under = { dir, words: [stem] };
  if (extensionOf(rel) === ".py") {
    if (!isFile(`${dir}/__init__.py`)) return broad;
    if (contextOf(rel).pythonRoots.includes(dir)) return broad;
    // A package's `__main__.py` is run by the package's name (`[sys.executable, "-m", "pkg"]`,
    // `"python -m pkg"`), which never spells the file.
    const run = stem === "__main__" ? [`${folder}"`, `${folder}'`, `-m ${folder}`] : [];
    return { everywhere: [`${folder}.${stem}`, `${folder} import`, ...run], under, ...commands };
  }
  if (inWorkspacePackage(project, dir)) return broad;
  if (contextOf(rel).aliases.some((alias) => aliasHidesFolder(alias, rel))) return broad;
  return { everywhere: [`${folder}/${stem}`], under };
}

/** The console scripts whose entry point is in the Python module `rel` (by its dotted path's end). */
function scriptsOf(context: ResolveContext, rel: string): string[] {
  const scripts = context.pythonScripts;
  if (scripts === undefined) return [];
  const dotted = `.${rel
    .replace(/(\/__init__)?\.py$/, "")
    .split("/")
    .join(".")}`;
  return Object.entries(scripts)
    .filter(([, module]) => dotted.endsWith(`.${module}`))
    .map(([name]) => name);
}

/**
 * Whether an alias can reach `rel` by a specifier that does not spell its folder and name
 * (`"@lib/m7"` for `"@lib/*": ["web/d3/*"]`, a bare `m7` from a `baseUrl` of its folder).
 */
function aliasHidesFolder(alias: PathAliases, rel: string): boolean {
  const dir = dirnameRel(rel);
  const parent = dirnameRel(dir);
  const within = (base: string): boolean => base === "" || `${parent}/`.startsWith(`${base}/`);
  const base = alias.base_url;
  if (base !== undefined && (base === "" || rel.startsWith(`${base}/`)) && !within(base))
    return true;
  for (const [, targets] of alias.paths)
    for (const target of targets) {
      const star = target.indexOf("*");
      const prefix = star === -1 ? target : target.slice(0, star);
      if (!rel.startsWith(prefix)) continue;
      if (star === -1 || !(parent === "" ? prefix === "" : `${parent}/`.startsWith(prefix)))
        return true;
    }
  return false;
}

/** Whether a folder is inside a workspace package (a package.json below the project's root). */
function inWorkspacePackage(project: Project, dir: string): boolean {
  for (let at = dir; at !== ""; at = dirnameRel(at))
    if (project.view.exists(`${at}/package.json`)) return true;
  return false;
}

/** The project's source files, and a text search over them. */
export interface SourceIndex {
  /**
   * Every source file the graph would hold (project-relative), sorted and packed: 50,000 paths
   * are one string and their offsets, not 50,000 strings and a set of them.
   */
  files: SortedFileTable;
  /** Whether `rel` is one of `files`. */
  has(rel: string): boolean;
  /**
   * The workspace packages' names to their sources (a package.json below the root, or the root's with `exports`, as the graph
   * reads them: `resolve.ts`'s `workspaceAliases`), for resolving `import "@acme/ui"`.
   */
  workspaces: readonly PathAliases[];
  /** The workspace package names that import `rel` by name alone (it is their entry). */
  packageNames(rel: string): readonly string[];
  /**
   * The folders whose package.json `main` is `rel`: a `require('..')` of such a folder imports
   * it without spelling its name (`lib/qs.js` for a `"main": "lib/qs.js"` at the root).
   */
  mainOf(rel: string): readonly string[];
  /**
   * The files among `files` whose text contains one of `words` (fixed strings); with `under`,
   * only the files in those folders and below.
   */
  containing(words: readonly string[], under?: readonly string[]): string[];
  /** The files whose text holds one of `words` anywhere, not only on an import line. */
  searchText(words: readonly string[]): string[];
  /** Lets go of what the searches keep (the tree's import lines in a temporary file). */
  close(): void;
}

/**
 * The project's source files: from git in a work tree (tracked and untracked, not ignored), else
 * from a walk; undefined when the walk ran out of the budget.
 */
export function sourceIndex(project: Project, budget: Budget): SourceIndex | undefined {
  // Its strings and loops would otherwise grow the process by megabytes (`WHOLE_TREE_FLAGS`).
  addV8Flags(COLD_SEARCH_FLAGS);
  const fromGit = gitFiles(project);
  const listed = fromGit ?? walkFiles(project, budget);
  if (listed === undefined) return undefined;
  const { files, manifests } = listed;
  const workspaces = manifests.flatMap((rel) => {
    let manifest: unknown;
    try {
      manifest = JSON.parse(project.view.readText(rel) ?? "null");
    } catch {
      return [];
    }
    const dir = dirnameRel(rel);
    return [workspaceAliases(dir, manifest), folderMain(dir, manifest)].filter(
      (entry) => entry !== undefined,
    );
  });
  let entries: Map<string, string[]> | undefined;
  const packageNames = (rel: string): readonly string[] => {
    if (entries === undefined) {
      entries = new Map();
      const context = { files, aliases: workspaces, pythonRoots: [] };
      for (const workspace of workspaces) {
        // A folder's `main` is reached by a relative path, never by a name.
        if (workspace.scope === FOLDER_MAIN_SCOPE) continue;
        for (const [name] of workspace.paths) {
          if (name.includes("*")) continue;
          const entry = resolveJsImport(context, "", name);
          if (entry !== undefined) entries.set(entry, [...(entries.get(entry) ?? []), name]);
        }
      }
    }
    return entries.get(rel) ?? [];
  };
  let mains: Map<string, string[]> | undefined;
  const mainOf = (rel: string): readonly string[] => {
    if (mains === undefined) {
      mains = new Map();
      const context = { files, aliases: workspaces, pythonRoots: [] };
      for (const workspace of workspaces) {
        const folder = workspace.paths[0]?.[0];
        if (workspace.scope !== FOLDER_MAIN_SCOPE || folder === undefined) continue;
        const main = folderMainPath(context, folder);
        if (main !== undefined) mains.set(main, [...(mains.get(main) ?? []), folder]);
      }
    }
    return mains.get(rel) ?? [];
  };
  const texts = new Map<string, string | undefined>();
  // The tree's import lines, kept in a file read for every hop (undefined: not yet; null: none).
  let lines: ImportLines | undefined | null;
  const read = (searchable: readonly string[], under?: readonly string[]): string[] => {
    const found =
      fromGit === undefined || under !== undefined ? undefined : gitGrep(project, searchable);
    if (found !== undefined) return found.filter((rel) => files.has(rel));
    const scope = under === undefined ? files.all() : filesUnder(files, under);
    return scope.filter((rel) => {
      if (budget.expired() || !SEARCH.has(extensionOf(rel))) return false;
      // A folder's files are read once for all the hops that search it.
      let text = texts.get(rel);
      if (text === undefined && !texts.has(rel)) {
        text = readSmallFile(join(project.root, rel), READ_CAP);
        if (under !== undefined) texts.set(rel, text);
      }
      return text !== undefined && searchable.some((word) => text.includes(word));
    });
  };
  return {
    files,
    has: (rel) => files.has(rel),
    workspaces,
    packageNames,
    mainOf,
    containing: (words, under) => {
      const searchable = words.filter((word) => word !== "");
      if (searchable.length === 0 || under?.length === 0) return [];
      // A few folders are read here: cheaper than another search of the whole tree.
      if (fromGit !== undefined && under === undefined) {
        lines ??= importLines(project) ?? null;
        const listed = lines?.containing(searchable);
        if (listed !== undefined) return listed.filter((rel) => files.has(rel));
      }
      return read(searchable, under);
    },
    searchText: (words) => {
      const searchable = words.filter((word) => word !== "");
      return searchable.length === 0 ? [] : read(searchable);
    },
    close: () => {
      lines?.close();
      lines = null;
    },
  };
}

function git(project: Project, args: readonly string[]): string | undefined {
  // Loaded here: a selection the graph answers starts no process (`tailtest explain`'s start).
  const { execFileSync } = process.getBuiltinModule("node:child_process");
  try {
    return execFileSync("git", ["-c", "core.quotepath=off", ...args], {
      cwd: project.root,
      encoding: "utf8",
      maxBuffer: MAX_OUTPUT,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (error) {
    // git grep exits 1 when nothing matches: an answer, not a failure.
    const status = (error as { status?: unknown }).status;
    const stdout = (error as { stdout?: unknown }).stdout;
    return status === 1 && typeof stdout === "string" ? stdout : undefined;
  }
}

const splitZ = (text: string): string[] => text.split("\0").filter((line) => line !== "");

/**
 * git's output as strings of about 256 KiB, each ending at a record's end (the character `end`),
 * or undefined when git failed: read from a temporary file (`eachGitChunk`), held once.
 */
function gitChunks(project: Project, args: readonly string[], end: string): string[] | undefined {
  const chunks: string[] = [];
  const done = eachGitChunk(project.root, ["-c", "core.quotepath=off", ...args], end, (text) =>
    chunks.push(text),
  );
  return done ? chunks : undefined;
}

/** The source files a search looks at, and the package.json files (the root's and those below it). */
interface Listed {
  files: SortedFileTable;
  manifests: string[];
}

function gitFiles(project: Project): Listed | undefined {
  const chunks = gitChunks(
    project,
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    "\0",
  );
  if (chunks === undefined) return undefined;
  const skipped = new Map<string, boolean>();
  const inSkippedDir = (rel: string): boolean => {
    const dir = dirnameRel(rel);
    if (dir === "") return false;
    let known = skipped.get(dir);
    if (known === undefined) {
      known = walkSkipsDir(dir, project.ignoreRules) || inSkippedDir(dir);
      skipped.set(dir, known);
    }
    return known;
  };
  // One pass over git's output, keeping only the paths searched, packed a chunk at a time (50,000
  // paths in a large tree: no list of every path, which grew the heap by megabytes).
  const packed: string[] = [];
  const manifests: string[] = [];
  for (const out of chunks) {
    const files: string[] = [];
    for (let at = 0; at < out.length;) {
      let end = out.indexOf("\0", at);
      if (end === -1) end = out.length;
      const rel = out.slice(at, end);
      at = end + 1;
      const source = isGraphSource(rel);
      if (
        (source || isManifest(rel)) &&
        !inSkippedDir(rel) &&
        // Folder-only rules were applied with the folders (`ignores` costs 20 µs a path).
        (project.ignoreRules.foldersOnly === true || !project.ignoreRules.matcher.ignores(rel))
      )
        (source ? files : manifests).push(rel);
    }
    if (files.length > 0) packed.push(files.join("\n"));
  }
  // git lists untracked files apart from tracked ones, and a path both staged and modified once
  // per state: the table sorts and keeps each once.
  const unique = (list: string[]): string[] =>
    list.sort().filter((rel, index) => index === 0 || rel !== list[index - 1]);
  return { files: SortedFileTable.of(packed.join("\n")), manifests: unique(manifests) };
}

/** A package's manifest: a workspace package's below the root, or the root's own (self-import). */
function isManifest(rel: string): boolean {
  return rel === "package.json" || rel.endsWith("/package.json");
}

function gitGrep(project: Project, words: readonly string[]): string[] | undefined {
  const patterns = words.flatMap((word) => ["-e", word]);
  const specs = [...SEARCH].map((ext) => `*${ext}`);
  const out = git(project, [
    "grep",
    "-z",
    "-l",
    "-F",
    "--untracked",
    "--no-color",
    ...patterns,
    "--",
    ...specs,
  ]);
  return out === undefined ? undefined : splitZ(out);
}

/** The files (sorted) in `dirs` and below, each once, in order. */
function filesUnder(files: SortedFileTable, dirs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const dir of dirs) for (const rel of files.under(dir)) found.add(rel);
  return [...found].sort();
}

/**
 * Lines that can hold an import's specifier (`import`, `from`, `require`, Django's URLconfs named
 * by `include(` and `ROOT_URLCONF`, a module run by `-m`, or a string alone on its line, as in a wrapped `import(` or
 * `require(`), of every source file in the work tree:
 * one `git grep`, searched in memory for each hop's words. A word an import spells is on such
 * a line; files are confirmed by lexing them.
 */
interface ImportLines {
  /** The files with a line that holds one of `words`; undefined when the lines cannot be read. */
  containing(words: readonly string[]): string[] | undefined;
  close(): void;
}

export const IMPORT_LINE = `import|require|from|include[[:space:]]*\\(|ROOT_URLCONF|-m[[:space:]"']|^[[:space:]]*["'\`][^"'\`]*["'\`][[:space:]]*[),;]*[[:space:]]*$`;
/** The same lines in Perl's syntax: git's PCRE search costs a fifth of its POSIX one here. */
export const IMPORT_LINE_PCRE = `import|require|from|include\\s*\\(|ROOT_URLCONF|-m[\\s"']|^\\s*["'\`][^"'\`]*["'\`]\\s*[),;]*\\s*$`;

/**
 * The import lines are read for each hop in pieces of this size: decoded, each is a string young
 * enough to die in V8's young generation (over 128 KiB a string is allocated with the old one
 * and stays until a full collection).
 */
const LINES_PIECE = 64 * 1024;

/**
 * The tree's import lines stay in git's output file and are read again, a piece at a time, for
 * each hop's words: 4.5 MB of lines on 50,000 files were otherwise held in the heap for the whole
 * search. A piece is decoded byte for byte (`latin1`), so the words are searched for as their
 * UTF-8 bytes and a match's offset is its byte's; only the paths found are decoded as UTF-8.
 */
function importLines(project: Project): ImportLines | undefined {
  const specs = [...SEARCH].map((ext) => `*${ext}`);
  // One thread: on a busy machine more threads only add CPU; a git built without PCRE fails the
  // first search (exit 128) and the POSIX pattern is used.
  const search = (syntax: string, pattern: string) =>
    gitOutputFile(project.root, [
      "-c",
      "core.quotepath=off",
      "grep",
      "--threads",
      "1",
      "-z",
      "-I",
      syntax,
      "--untracked",
      "--no-color",
      "-e",
      pattern,
      "--",
      ...specs,
    ]);
  const output = search("-P", IMPORT_LINE_PCRE) ?? search("-E", IMPORT_LINE);
  if (output === undefined) return undefined;
  return {
    containing: (words) => {
      const found = new Set<string>();
      if (words.length === 0) return [];
      // One pass over the lines for all the words (a search per word would read them each time).
      const pattern = new RegExp(
        words
          .map((word) =>
            Buffer.from(word, "utf8")
              .toString("latin1")
              .replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"),
          )
          .join("|"),
        "g",
      );
      const read = output.eachChunk(
        "\n",
        (chunk) => {
          const text = chunk.toString("latin1");
          // Each output line is `path\0line\n`: a match's record starts after the newline before
          // it (a piece ends at a line's end).
          for (const match of text.matchAll(pattern)) {
            const at = match.index;
            const start = text.lastIndexOf("\n", at) + 1;
            const nul = text.indexOf("\0", start);
            // A match in the path, or across the end of the line, is not one in the line.
            if (nul === -1 || at <= nul) continue;
            const end = text.indexOf("\n", nul);
            if (end !== -1 && at + match[0].length > end) continue;
            found.add(chunk.toString("utf8", start, nul));
          }
        },
        LINES_PIECE,
      );
      return read ? [...found] : undefined;
    },
    close: () => output.close(),
  };
}

function walkFiles(project: Project, budget: Budget): Listed | undefined {
  const files: string[] = [];
  const manifests: string[] = [];
  const done = continueWalk(project.root, project.ignoreRules, [""], budget, {
    file: (rel) => {
      if (isGraphSource(rel)) files.push(rel);
      else if (isManifest(rel)) manifests.push(rel);
    },
  });
  return done
    ? { files: SortedFileTable.of(files.join("\n")), manifests: manifests.sort() }
    : undefined;
}

/**
 * The files that import `file`, by distance (as the graph's `findImporters`), found hop by hop
 * through `index`; `complete` is false when the budget ran out first.
 */
export function reverseImporters(
  project: Project,
  index: SourceIndex,
  file: string,
  depth: number,
  budget: Budget,
  importsOf: (rel: string) => readonly string[] = importReader(project, index),
  /**
   * Search a Python module's bare name everywhere too (`helpers` for `tests/helpers.py` in a
   * package): a folder put on `sys.path` lets any module import it so.
   */
  bareNames = false,
): { levels: string[][]; complete: boolean } {
  const isFile = (rel: string): boolean => index.has(rel);
  const contextOf = contextReader(project, index);
  const seen = new Set([file]);
  const levels: string[][] = [];
  let frontier = [file];
  for (let level = 0; level < depth && frontier.length > 0; level += 1) {
    if (budget.expired()) return { levels, complete: false };
    const targets = new Set(frontier);
    const everywhere = new Set<string>();
    const locally = new Set<string>();
    const dirs = new Set<string>();
    const commands = new Set<string>();
    for (const target of frontier) {
      const words = searchWords(project, target, isFile, contextOf);
      addEach(commands, words.commands);
      for (const word of wordsEverywhere(index, target, words.everywhere, contextOf, bareNames))
        everywhere.add(word);
      if (words.under === undefined) continue;
      dirs.add(words.under.dir);
      for (const word of words.under.words) locally.add(word);
    }
    const found = new Set(index.containing([...everywhere]));
    addEach(found, index.searchText([...commands]));
    if (dirs.size > 0) for (const rel of index.containing([...locally], [...dirs])) found.add(rel);
    const next: string[] = [];
    for (const candidate of [...found].sort()) {
      if (seen.has(candidate)) continue;
      if (budget.expired()) return { levels, complete: false };
      if (!importsOf(candidate).some((target) => targets.has(target))) continue;
      seen.add(candidate);
      next.push(candidate);
    }
    if (next.length === 0) break;
    levels.push(next.sort());
    frontier = next;
  }
  return { levels, complete: !budget.expired() };
}

function addEach(set: Set<string>, values: readonly string[] | undefined): void {
  for (const value of values ?? []) set.add(value);
}

/** The words searched for everywhere to find the importers of `target`. */
function wordsEverywhere(
  index: SourceIndex,
  target: string,
  words: readonly string[],
  contextOf: (rel: string) => ResolveContext,
  bareNames: boolean,
): string[] {
  return [
    ...words,
    ...(bareNames && extensionOf(target) === ".py" ? [stemOf(target)] : []),
    // A package's entry is imported by the package's name alone (`"@acme/ui"`), a file a
    // package.json `imports` map names by its key (`"#helpers"`).
    ...index.packageNames(target),
    // A folder's `main` is imported by the folder (`require('..')`), which never spells it.
    ...(ENTRY_STEMS.has(stemOf(target))
      ? []
      : index.mainOf(target).flatMap((folder) => [...folderName(folder), ...relativeWords(false)])),
    ...packageImportWords(contextOf(target).aliases, target),
    ...aliasSpecifierWords(contextOf(target).aliases, target),
  ];
}

/**
 * A file's resolve context (its folder's tsconfig aliases, the Python roots above it, then the
 * workspace packages' names), read once per folder. With the source index, an import resolves
 * to the files it lists, as the graph's own resolution does (no `stat` of each candidate).
 */
function contextReader(
  project: Project,
  index?: Pick<SourceIndex, "has" | "workspaces">,
  extraRoots: readonly string[] = [],
): (rel: string) => ResolveContext {
  const contexts = new Map<string, ResolveContext>();
  return (rel) => {
    const dir = dirnameRel(rel);
    let context = contexts.get(dir);
    if (context === undefined) {
      const found = lookupContext(project, rel);
      const own = {
        ...found,
        pythonRoots: [...new Set([...found.pythonRoots, ...extraRoots])],
      };
      context =
        index === undefined
          ? own
          : {
              ...own,
              files: { has: (path) => index.has(path) },
              aliases: [...own.aliases, ...index.workspaces],
            };
      contexts.set(dir, context);
    }
    return context;
  };
}

/**
 * The project files a file imports, each file read and lexed once; `extraRoots` are Python
 * roots tried after the project's own (the folders pytest puts on `sys.path`).
 */
export function importReader(
  project: Project,
  index?: Pick<SourceIndex, "has" | "workspaces">,
  extraRoots: readonly string[] = [],
): (rel: string) => readonly string[] {
  const imports = new Map<string, readonly string[]>();
  const contextOf = contextReader(project, index, extraRoots);
  return (rel) => {
    let found = imports.get(rel);
    if (found === undefined) {
      found = readFileImports(project, rel, contextOf(rel)) ?? [];
      imports.set(rel, found);
    }
    return found;
  };
}

/** A graph view for the files of one selection, answered by the cold path. */
export function coldGraphView(
  project: Project,
  index: SourceIndex,
  depth: number,
  budget: Budget,
): GraphView & { cut: () => boolean } {
  let cut = false;
  const answers = new Map<string, string[][]>();
  const importsOf = importReader(project, index);
  let all: string[] | undefined;
  return {
    filesMatching: (pattern) => index.files.matching(pattern),
    allFiles: () => (all ??= index.files.all()),
    // Every file's importers are looked for in full; one cut short says so (`cut`).
    complete: true,
    importers: (rel) => {
      let levels = answers.get(rel);
      if (levels === undefined) {
        const found = reverseImporters(project, index, rel, depth, budget, importsOf);
        if (!found.complete) cut = true;
        levels = found.levels;
        answers.set(rel, levels);
      }
      return levels;
    },
    cut: () => cut,
  };
}
