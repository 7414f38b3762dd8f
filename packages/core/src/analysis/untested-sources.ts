import { classifyFile, isTestFile } from "../filter/filter.ts";
import { baseName, extensionOf } from "../filter/languages.ts";
import {
  addTestStem,
  folderPoints,
  hasTestStem,
  scoreOfCommits,
  type CandidateGroup,
} from "./ramp-up.ts";

/**
 * The ramp-up scan's sort of a project's files into tests and untested sources, fed a file at a
 * time as the walk finds them, and holding no string per file: a test leaves its stem (one entry
 * per tested stem), a source its name in its folder's one packed string. On 50,000 files the
 * walk's list of every path held 4-5 MiB of a first session's peak, and its sort, then the
 * untested paths' map of commits, 2 MiB more each (ADR 0014); the paths are made again, for a
 * moment, only where one is needed (a test's stem, a git line's folder, the best candidates).
 */
export class UntestedSources {
  /** How many files were sorted. */
  files = 0;
  private readonly stems = new Set<string>();
  private readonly folders = new Map<string, string>();
  private dir = "";
  private names: string[] = [];

  constructor(private readonly extraTestPatterns: readonly string[]) {}

  /**
   * One project-relative file (`/` separators, not ignored). A folder's files may come in any
   * order and need not come together (the walk's do).
   */
  add(path: string): void {
    this.files += 1;
    // A queued file is never a test file (nothing in this context re-includes one): a source
    // is classified once, and only the others are asked whether they are tests.
    if (classifyFile(path, { extraTestPatterns: this.extraTestPatterns }).queue) {
      const slash = path.lastIndexOf("/");
      const dir = slash === -1 ? "" : path.slice(0, slash);
      if (dir !== this.dir) this.flush(dir);
      this.names.push(path.slice(slash + 1));
    } else if (isTestFile(path, this.extraTestPatterns)) {
      addTestStem(this.stems, path);
    }
  }

  /** Once every file is in: the sources no test file names, to be ranked. */
  finish(): Candidates {
    this.flush("");
    const folders: Folder[] = [];
    let count = 0;
    let js = false;
    for (const [dir, names] of this.folders) {
      const untested = names
        .split("/")
        .filter((name) => !hasTestStem(this.stems, pathOf(dir, name)));
      if (untested.length === 0) continue;
      js ||= untested.some(isJsFile);
      folders.push({ dir, names: `/${untested.join("/")}/`, first: count });
      count += untested.length;
    }
    this.stems.clear();
    this.folders.clear();
    return new Candidates(folders, count, js);
  }

  /** The current folder's names joined into its packed string; `dir` is next. */
  private flush(dir: string): void {
    if (this.names.length > 0) {
      const packed = this.names.join("/");
      const before = this.folders.get(this.dir);
      this.folders.set(this.dir, before === undefined ? packed : `${before}/${packed}`);
    }
    this.dir = dir;
    this.names = [];
  }
}

interface Folder {
  dir: string;
  /** The untested names, each between slashes (`/a.py/b.py/`): no name holds a slash. */
  names: string;
  /** The number of the folder's first name among all candidates. */
  first: number;
}

/**
 * The untested sources, packed by folder, with their commits: counted from git's lines
 * (`addCommit`), then handed out best-first by the score known without reading them.
 */
export class Candidates {
  private readonly byDir: Map<string, Folder>;
  private readonly commits: Int32Array;

  constructor(
    private readonly folders: readonly Folder[],
    /** How many untested sources there are. */
    readonly count: number,
    /** Whether any of them is a JS/TS file (their reading needs the JS lexers). */
    readonly js: boolean,
  ) {
    this.byDir = new Map(folders.map((folder) => [folder.dir, folder]));
    this.commits = new Int32Array(count);
  }

  /** One more commit for `path` when it is a candidate; any other path is not counted. */
  addCommit(path: string): void {
    const slash = path.lastIndexOf("/");
    const folder = this.byDir.get(slash === -1 ? "" : path.slice(0, slash));
    if (folder === undefined) return;
    const at = folder.names.indexOf(`/${path.slice(slash + 1)}/`);
    if (at === -1) return;
    // The name's place in its folder: the slashes before it, less the leading one.
    let index = -1;
    for (let i = 0; i <= at; i += 1) if (folder.names.charCodeAt(i) === SLASH) index += 1;
    const id = folder.first + index;
    this.commits[id] = (this.commits[id] ?? 0) + 1;
  }

  /** Back to no commits (git's output could not be read to its end). */
  forgetCommits(): void {
    this.commits.fill(0);
  }

  /**
   * The candidates grouped by their `partial` score, best first, each group's paths in order (as
   * `pickTop` orders them). A group's paths are made only when asked for: the ranking stops
   * after the first few, and most paths are never made.
   */
  *groups(): Generator<CandidateGroup> {
    const partials = new Uint8Array(this.count);
    const scores = new Set<number>();
    this.folders.forEach((folder, f) => {
      const base = folderPoints(folder.dir);
      for (let id = folder.first; id < this.endOf(f); id += 1) {
        const partial = base + scoreOfCommits(this.commits[id] ?? 0);
        partials[id] = partial;
        scores.add(partial);
      }
    });
    for (const partial of [...scores].sort((a, b) => b - a))
      yield { partial, paths: () => this.pathsScoring(partials, partial) };
  }

  /** The paths of the candidates whose partial score is `partial`, sorted. */
  private pathsScoring(partials: Uint8Array, partial: number): string[] {
    const paths: string[] = [];
    this.folders.forEach((folder, f) => {
      const ids = partials.subarray(folder.first, this.endOf(f));
      if (!ids.includes(partial)) return;
      folder.names
        .slice(1, -1)
        .split("/")
        .forEach((name, index) => {
          if (ids[index] === partial) paths.push(pathOf(folder.dir, name));
        });
    });
    return paths.sort((a, b) => (a < b ? -1 : 1));
  }

  private endOf(folder: number): number {
    return this.folders[folder + 1]?.first ?? this.count;
  }
}

const SLASH = 47;

function pathOf(dir: string, name: string): string {
  // Joined, not concatenated: a cons string is flattened into a third by the first regular
  // expression run on it.
  return dir === "" ? name : [dir, name].join("/");
}

const JS_EXTENSIONS = new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"]);

/** A JS/TS file by its extension: one the JS lexers parse. */
export function isJsFile(path: string): boolean {
  return JS_EXTENSIONS.has(extensionOf(baseName(path)));
}
