import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { witnessFolder } from "./mode-witness-path.ts";

/**
 * What a write really lands on, and whether it is one of the things an agent may never change
 * (ADR 0012): tailtest's state and config (`.tailtest/`, Cursor's `.cursor/hooks/state/`), its
 * installed bundle (`node_modules/@tailtest/*`, and the folder of the hook bin that is running),
 * the copies of the sessions' modes in the person's state folder (`mode-witness.ts`),
 * and the agents' hook settings at project, user and machine level (`.claude/settings*.json`,
 * `.cursor/hooks.json`, `.codex/hooks.json`, `.codex/config.toml`, under the project and under the
 * home folder, `$CODEX_HOME` or `$CLAUDE_CONFIG_DIR`; Claude Code's managed settings, Cursor's
 * enterprise hooks and Codex's `/etc/codex`).
 *
 * They are recognised by identity, not by the name a command spells: a path is judged by where
 * it leads after every link on the way (a link made without naming `.tailtest`, a dangling link
 * to a file not there yet), and a file by its inode too (a hard link shares it). A write to a
 * folder that holds one of them (`rm -rf node_modules`, `mv .tailtest x`) counts as a write to it.
 */

export interface Protection {
  /** Real paths of folders whose whole content is protected. */
  folders: readonly string[];
  /** Real paths of protected files (some may not exist yet: creating one adds hooks). */
  files: readonly string[];
  /** `dev:ino` of every protected file that exists. */
  inodes: ReadonlySet<string>;
  /** Real home folder, to show user-level paths as `~/…`. */
  home: string | undefined;
}

const MAX_LINKS = 40;

/**
 * Where a path leads: every symbolic link on the way followed, also a dangling one at the end
 * (a link to a file that does not exist yet is a write to that file). Never throws.
 */
export function realTarget(path: string): string {
  return resolveReal(path, 0, undefined).real;
}

/**
 * `realTarget` of each path, in one look at the tree: the ~40 protected paths share their missing
 * folders (`.claude`, `.codex`, the home folder's), and each was resolved up its parents again,
 * a `realpath(3)`, `dirname`, `join` and `resolve` per level. The same answers as `realTarget`
 * path by path while the tree does not change.
 */
export function realTargets(paths: readonly string[]): string[] {
  const memo: RealMemo = new Map();
  return paths.map((path) => resolveReal(path, 0, memo).real);
}

/**
 * What `resolveReal` found for a path asked at `depth`, kept only when no step on the way hit
 * the link bound: the same path asked again at that depth or a smaller one leads to the same
 * place, one asked deeper may hit the bound and is resolved afresh.
 */
type RealMemo = Map<string, { real: string; depth: number }>;

interface Resolved {
  real: string;
  /** False when the link bound cut the walk short (a loop, or a chain of over 40 links). */
  whole: boolean;
}

/**
 * `realTarget`, through a memo of the paths already resolved when one is given. `absolute` says
 * `path` is already what `resolve` makes of it (a walk's own parent): no second pass over it.
 */
function resolveReal(
  path: string,
  depth: number,
  memo: RealMemo | undefined,
  absolute = false,
): Resolved {
  const abs = absolute || isResolved(path) ? path : resolve(path);
  const known = memo?.get(abs);
  if (known !== undefined && depth <= known.depth) return { real: known.real, whole: true };
  const found = walkReal(abs, depth, memo);
  if (memo !== undefined && found.whole) memo.set(abs, { real: found.real, depth });
  return found;
}

/*
 * Most paths asked here do not exist, and a failed call throws an Error node builds with a
 * message and a stack: `existsSync` and `throwIfNoEntry: false` ask without one. What they answer
 * "missing" the throwing call would have failed on too, and the answers stay the same.
 */

function walkReal(abs: string, depth: number, memo: RealMemo | undefined): Resolved {
  try {
    if (existsSync(abs)) return { real: realpathSync.native(abs), whole: true };
  } catch {
    // Missing (or a dangling link): resolve the folder, then the last part.
  }
  const parent = dirname(abs);
  if (parent === abs) return { real: abs, whole: true };
  if (depth > MAX_LINKS) return { real: abs, whole: false };
  // `abs` is resolved, so its folder is too, and its last part is a plain name: the parent and
  // the path under the real parent are taken as strings (V8 compiles node's path normaliser once
  // it has run long enough in a process, and the ~40 protected paths' walks took it there).
  const realParent = resolveReal(parent, depth + 1, memo, true);
  const here = childPath(realParent.real, basename(abs));
  try {
    if (lstatSync(here, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
      const link = readlinkSync(here);
      const next = resolveReal(
        isAbsolute(link) ? link : join(realParent.real, link),
        depth + 1,
        memo,
      );
      return { real: next.real, whole: realParent.whole && next.whole };
    }
  } catch {
    // Not there at all: the path as its real folder names it.
  }
  return { real: here, whole: realParent.whole };
}

/**
 * Whether `resolve` would answer `path` itself: an absolute POSIX path without an empty, `.` or
 * `..` part and no trailing separator. The protected paths are built so (`join` under resolved
 * folders); looked at with the engine's own string search, not a second normalising pass.
 */
export function isResolved(path: string): boolean {
  if (sep !== "/" || !path.startsWith("/")) return false;
  if (path === "/") return true;
  return !(
    path.endsWith("/") ||
    path.endsWith("/.") ||
    path.endsWith("/..") ||
    path.includes("//") ||
    path.includes("/./") ||
    path.includes("/../")
  );
}

/**
 * `join(folder, name)` for a resolved absolute folder (a real path) and a name without a
 * separator that is not `.` or `..`: the same string without normalising it again.
 */
export function childPath(folder: string, name: string): string {
  return folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
}

/**
 * `join(folder, ...names)` for plain names (a file name, none `.`, `..` or with a separator):
 * under a folder already resolved, the same string built without normalising it again, which
 * for the folders above a deep project ran the normaliser over the whole path at every level.
 */
export function under(folder: string, ...names: string[]): string {
  return isResolved(folder) ? names.reduce(childPath, folder) : join(folder, ...names);
}

function inodeOf(path: string): string | undefined {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile() === true ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function listSafe(folder: string): string[] {
  try {
    return existsSync(folder) ? readdirSync(folder) : [];
  } catch {
    return [];
  }
}

/**
 * The agents' machine-wide settings, read by every session of the machine: Claude Code's managed
 * settings (`disableAllHooks`, `env`), Cursor's enterprise hooks, Codex's system config. Whole
 * folders: a new file there is as much a settings change as an edited one.
 */
export const SYSTEM_SETTINGS_FOLDERS: readonly string[] = [
  "/etc/claude-code",
  "/Library/Application Support/ClaudeCode",
  "/etc/cursor",
  "/etc/codex",
];

/** Cursor's enterprise hooks file on macOS (its folder holds the app's other files). */
const SYSTEM_SETTINGS_FILES: readonly string[] = ["/Library/Application Support/Cursor/hooks.json"];

/** Claude Code's settings files in one settings folder (`.claude`, or `CLAUDE_CONFIG_DIR`). */
function claudeSettings(claude: string): string[] {
  const named = listSafe(claude)
    .filter((name) => /^settings.*\.json$/i.test(name))
    .map((name) => under(claude, name));
  return [under(claude, "settings.json"), under(claude, "settings.local.json"), ...named];
}

/** The hook settings files of one agent folder set (a project root or the home folder). */
function settingsFiles(base: string, codexHome?: string): string[] {
  const codex = codexHome ?? under(base, ".codex");
  return [
    ...claudeSettings(under(base, ".claude")),
    under(base, ".cursor", "hooks.json"),
    under(codex, "hooks.json"),
    under(codex, "config.toml"),
  ];
}

/** The installed bundle folders: `node_modules/@tailtest/*` of the project and the folders above. */
function bundleFolders(root: string): string[] {
  const found: string[] = [];
  let dir = root;
  for (;;) {
    const scope = under(dir, "node_modules", "@tailtest");
    const names = listSafe(scope);
    if (names.length > 0) found.push(scope, ...names.map((name) => under(scope, name)));
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  // The bin running now (a hook bundle `dist/hook*.cjs`) and the package it belongs to.
  const bin = process.argv[1];
  if (bin !== undefined && /^hook(-[a-z]+)?\.c?js$/.test(basename(bin)))
    found.push(dirname(dirname(bin)));
  return found;
}

/**
 * What is protected for a project, read afresh (a few dozen system calls): a gate judges the
 * tree as it is when the tool call is about to run.
 */
export function protectionFor(root: string, env: NodeJS.ProcessEnv = process.env): Protection {
  const home = env.HOME ?? safeHome();
  const codexHome = env.CODEX_HOME === "" ? undefined : env.CODEX_HOME;
  // `CLAUDE_CONFIG_DIR` replaces `~/.claude` for Claude Code's user settings.
  const claudeDir = env.CLAUDE_CONFIG_DIR === "" ? undefined : env.CLAUDE_CONFIG_DIR;
  // The copies of the sessions' modes (mode-witness.ts), kept outside the project.
  const witnesses = witnessFolder(env);
  const folderPaths = [
    under(root, ".tailtest"),
    under(root, ".cursor", "hooks", "state"),
    ...(witnesses === undefined ? [] : [witnesses]),
    ...bundleFolders(root),
    ...SYSTEM_SETTINGS_FOLDERS,
  ];
  const filePaths = [
    ...settingsFiles(root),
    ...(home === undefined ? [] : settingsFiles(home, codexHome)),
    ...(codexHome === undefined || home === undefined ? [] : settingsFiles(home)),
    ...(claudeDir === undefined ? [] : claudeSettings(claudeDir)),
    ...SYSTEM_SETTINGS_FILES,
  ];
  // One look at the tree: a folder the paths share is resolved once.
  const real = realTargets([...folderPaths, ...filePaths, ...(home === undefined ? [] : [home])]);
  const folders = real.slice(0, folderPaths.length);
  const files = real.slice(folderPaths.length, folderPaths.length + filePaths.length);
  const inodes = new Set(files.map(inodeOf).filter((inode) => inode !== undefined));
  for (const folder of folders) for (const inode of folderInodes(folder)) inodes.add(inode);
  return {
    folders: unique(folders),
    files: unique(files),
    inodes,
    home: home === undefined ? undefined : real[real.length - 1],
  };
}

/** The files directly in tailtest's state folder (config, logs): a hard link to one is one. */
function folderInodes(folder: string): string[] {
  if (!folder.endsWith(`${sep}.tailtest`)) return [];
  return listSafe(folder)
    .map((name) => inodeOf(join(folder, name)))
    .filter((inode): inode is string => inode !== undefined);
}

function safeHome(): string | undefined {
  try {
    // Loaded here, where it is used (only without $HOME): node's os module is ~2 M instructions
    // of every gate's start otherwise (ADR 0010).
    return process.getBuiltinModule("node:os").homedir();
  } catch {
    return undefined;
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

const within = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);

/** True when writing (or deleting) the real path would change something protected. */
export function touchesProtected(real: string, protection: Protection): boolean {
  if (protection.folders.some((folder) => within(real, folder) || within(folder, real)))
    return true;
  if (protection.files.some((file) => file === real || within(file, real))) return true;
  const inode = inodeOf(real);
  return inode !== undefined && protection.inodes.has(inode);
}

export interface JudgedTarget {
  /** Where the path leads, project-relative with `/`, when that is inside the project. */
  relPath: string | undefined;
  /** For a protected target: how to name it to the agent (project-relative, or `~/…`). */
  protectedAs: string | undefined;
}

/**
 * One target of a write, judged by where it leads: the project-relative path of its real
 * location (a link `node_modules/x → src` makes `node_modules/x/a.py` the file `src/a.py`), and
 * whether it is protected. A path that leads out of the project is not the project's code
 * (relPath undefined) but may still be protected (`~/.claude/settings.json`).
 */
export function judgeTarget(
  root: string,
  path: string,
  protection: Protection = protectionFor(root),
): JudgedTarget {
  const abs = resolve(root, path);
  const real = realTarget(abs);
  const realRoot = realTarget(root);
  const rel = relative(realRoot, real);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const relPath = inside ? rel.split(sep).join("/") : undefined;
  if (!touchesProtected(real, protection)) return { relPath, protectedAs: undefined };
  return { relPath, protectedAs: displayOf(real, realRoot, protection.home, path) };
}

function displayOf(real: string, realRoot: string, home: string | undefined, asked: string) {
  const rel = relative(realRoot, real);
  if (rel === "") return ".";
  if (!rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
  if (home !== undefined) {
    const fromHome = relative(home, real);
    if (fromHome === "") return "~";
    if (!fromHome.startsWith("..") && !isAbsolute(fromHome))
      return `~/${fromHome.split(sep).join("/")}`;
  }
  // The machine-wide settings have the same path on every machine.
  const system = [...SYSTEM_SETTINGS_FOLDERS, ...SYSTEM_SETTINGS_FILES];
  if (system.some((path) => within(real, path))) return real;
  // Somewhere else (a bundle in a global store): the name the agent used, never a machine path.
  return isAbsolute(asked) ? basename(asked) : asked;
}
