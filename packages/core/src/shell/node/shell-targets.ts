import { readdirSync, statSync, type Dirent } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ShellWrites, SimpleCommand } from "./bash-parser.ts";

/**
 * The files a shell command's writes may land on, read against the tree as it is before the
 * command runs (the gate's view; ADR 0006, ADR 0012): each literal target as written and after
 * every literal `cd`/`pushd` of the command line (relative or absolute, `~`), with `/proc/self/cwd`
 * read as the command's folder, brace lists and globs expanded as bash would (`rm -rf .tail*`
 * names `.tailtest`; a dot file matches too, as with `dotglob`), a folder target standing for
 * every file under it (`git restore src`, `rm -r src`), and `cp a.py src` also as `src/a.py` when
 * `src` is a folder. Listing more than a command writes may refuse a write; it never lets one by.
 */

/** Files listed under one folder or glob at most; the end-of-turn check sees the rest. */
export const MAX_EXPANDED = 2_000;

const GLOB = /[*?[]/;

export function gateTargets(
  commands: readonly SimpleCommand[],
  writes: Pick<ShellWrites, "written" | "deleted" | "into">,
  base: string,
  home: string | undefined = process.env.HOME,
): string[] {
  const dirs = cdFolders(commands, base, home);
  const found = new Set<string>();
  const candidates = (target: string) =>
    unique([base, ...dirs].flatMap((dir) => placed(target, dir, base, home)));
  for (const target of [...writes.written, ...writes.deleted])
    for (const path of candidates(target)) for (const file of expand(path)) found.add(file);
  for (const target of writes.into ?? [])
    for (const path of candidates(target))
      if (isFolder(dirname(path))) for (const file of expand(path)) found.add(file);
  return [...found];
}

/** The folders the command's `cd`s lead to, absolute (a folder in a variable is unknown). */
function cdFolders(commands: readonly SimpleCommand[], base: string, home: string | undefined) {
  const dirs: string[] = [];
  for (const { cwd } of commands) {
    if (cwd === undefined || cwd === "." || cwd === "-" || cwd.startsWith("$")) continue;
    const path = withHome(cwd, home);
    if (path !== undefined) dirs.push(resolve(base, path));
  }
  return unique(dirs);
}

function withHome(path: string, home: string | undefined): string | undefined {
  if (path === "~" || path.startsWith("~/"))
    return home === undefined ? undefined : home + path.slice(1);
  return path.startsWith("~") ? undefined : path;
}

const PROC_CWD = /^\/proc\/(?:self|thread-self|\d+|\$\$|\$BASHPID)\/cwd(?=\/|$)/;
const PROC_ROOT = /^\/proc\/(?:self|thread-self|\d+|\$\$|\$BASHPID)\/root(?=\/|$)/;

/** A target as an absolute path when the command runs in `dir`. */
function placed(target: string, dir: string, base: string, home: string | undefined): string[] {
  const path = withHome(target, home);
  if (path === undefined) return [];
  if (PROC_CWD.test(path))
    return [join(dir, path.replace(PROC_CWD, "")), join(base, path.replace(PROC_CWD, ""))];
  if (PROC_ROOT.test(path)) return [resolve("/", `.${path.replace(PROC_ROOT, "")}`)];
  return [isAbsolute(path) ? resolve(path) : resolve(dir, path)];
}

/** One absolute path as the files it stands for: braces, globs, then folders. */
function expand(path: string): string[] {
  const paths = braces(path).flatMap((one) => (GLOB.test(one) ? glob(one) : [one]));
  const files: string[] = [];
  for (const one of paths) {
    files.push(one);
    if (isFolder(one)) files.push(...walk(one));
  }
  return files;
}

/** `a.{py,txt}` → `a.py`, `a.txt` (one level at a time, as bash does, left to right). */
export function braces(word: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (match === null) return [word];
  const before = word.slice(0, match.index);
  const after = word.slice(match.index + match[0].length);
  return (match[1] ?? "")
    .split(",")
    .flatMap((part) => braces(`${before}${part}${after}`))
    .slice(0, MAX_EXPANDED);
}

/** The paths a glob matches now; none: the word itself, as bash leaves it. */
function glob(path: string): string[] {
  const parts = path.split("/").filter((part, index) => part !== "" || index === 0);
  let current = [parts[0] === "" ? "/" : (parts[0] ?? "/")];
  for (const part of parts.slice(1)) {
    const next: string[] = [];
    for (const dir of current) {
      if (!GLOB.test(part)) next.push(join(dir, part));
      else if (part === "**") next.push(dir, ...walk(dir, true));
      else {
        const pattern = segmentPattern(part);
        for (const entry of list(dir))
          if (pattern.test(entry.name)) next.push(join(dir, entry.name));
      }
      if (next.length > MAX_EXPANDED) break;
    }
    current = next.slice(0, MAX_EXPANDED);
  }
  const matched = current.filter((one) => exists(one));
  return matched.length === 0 ? [path] : matched;
}

/** One glob segment as a regular expression (`*`, `?`, `[a-z]`, `[!x]`; dot files match). */
export function segmentPattern(part: string): RegExp {
  let source = "";
  for (let i = 0; i < part.length; i += 1) {
    const ch = part.charAt(i);
    if (ch === "*") source += ".*";
    else if (ch === "?") source += ".";
    else if (ch === "[") {
      const end = part.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        const body = part.slice(i + 1, end);
        const negated = body.startsWith("!") || body.startsWith("^");
        const chars = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, "\\$&");
        source += `[${negated ? "^" : ""}${chars}]`;
        i = end;
      }
    } else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/** Everything under a folder (not `.git`), breadth first, at most `MAX_EXPANDED` entries. */
function walk(root: string, folders = false): string[] {
  const found: string[] = [];
  const queue = [root];
  while (queue.length > 0 && found.length < MAX_EXPANDED) {
    const dir = queue.shift() as string;
    for (const entry of list(dir)) {
      if (entry.name === ".git") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        queue.push(path);
        if (folders) found.push(path);
      } else found.push(path);
      if (found.length >= MAX_EXPANDED) break;
    }
  }
  return found;
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
