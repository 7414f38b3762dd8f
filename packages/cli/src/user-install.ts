import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { SetupError, type SetupReport } from "@tailtest/core/node";
import { OPT_OUT_FILE } from "@tailtest/core/quiet";

/**
 * A user-level install (`init --user`, ADR 0011), the same for every agent: a pinned copy of the
 * adapter's hook in the user's data folder, laid out as a package in a node_modules/ so its
 * command carries the same marker as a project's, and the agent's user-level hook file pointing
 * at it. Each adapter supplies only how its hook file is read, changed and written.
 */

export type Env = Readonly<Record<string, string | undefined>>;

/** What the copy holds: the launcher, its bundles and the bash parser's files. */
export const USER_COPY_FILES = [
  "hook.cjs",
  "hook-main.cjs",
  "hook-post.cjs",
  "hook-gate.cjs",
  "tree-sitter.wasm",
  "tree-sitter-bash.wasm",
] as const;

/** The adapter a user-level install copies. */
export interface UserPackage {
  /** The agent's folder under the data folder, e.g. `cursor`. */
  folder: string;
  /** e.g. `@tailtest/cursor`. */
  name: string;
  version: string;
  /** The adapter's built hook files (its dist/). */
  dist: string;
}

/**
 * Where user-level installs keep their pinned copies: `$TAILTEST_DATA_DIR`, else
 * `$XDG_DATA_HOME/tailtest`, else `~/.local/share/tailtest`.
 */
export function userDataDir(env: Env = process.env): string {
  return (
    env["TAILTEST_DATA_DIR"] ??
    join(env["XDG_DATA_HOME"] ?? join(homedir(), ".local", "share"), "tailtest")
  );
}

/** The pinned copy's package folder: `<data>/<agent>/node_modules/<name>`. */
export function userPackageDir(pkg: Pick<UserPackage, "folder" | "name">, env: Env): string {
  return join(userDataDir(env), pkg.folder, "node_modules", ...pkg.name.split("/"));
}

/**
 * What the user-level hook commands run: the pinned copy's hook file, and the project files in
 * whose presence they stand aside (the project opted out, or installed the package itself).
 * Each adapter writes one command per event from it, with `--user` and `--event=<name>`.
 */
export interface UserHook {
  path: string;
  standAside: readonly string[];
}

/** Characters a path in a hook command cannot hold: the commands quote it for sh. */
const UNQUOTABLE = /["'$`\\\n]/;

export function userHook(pkg: Pick<UserPackage, "folder" | "name">, env: Env): UserHook {
  const path = join(userPackageDir(pkg, env), "dist", "hook.cjs");
  if (UNQUOTABLE.test(path))
    throw new SetupError(
      `${shownPath(userDataDir(env))} holds a character a hook command cannot quote; set TAILTEST_DATA_DIR to another folder, nothing was changed`,
    );
  return { path, standAside: [OPT_OUT_FILE, `node_modules/${pkg.name}/dist/hook.cjs`] };
}

/** A path as a report shows it: the home folder as `~`. */
export function shownPath(path: string): string {
  const home = homedir();
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/**
 * The agent's side of a user-level install: `prepare` reads and checks the hook file (throwing a
 * SetupError, with nothing written, when it cannot be changed safely) and returns the write,
 * which reports what it did.
 */
export interface UserHooksFile {
  prepareAdd(hook: UserHook): Promise<{ write: () => Promise<string[]>; warnings?: string[] }>;
  prepareRemove(): Promise<() => Promise<string[]>>;
}

/**
 * `init --user`: checks the hook file, then copies this version's hook into the data folder and
 * registers it for every project. A project opts out with `opt-out`; one that installs the
 * package itself is left to its own hooks. Nothing is written into any project.
 */
export async function installForUser(
  pkg: UserPackage,
  hooks: UserHooksFile,
  env: Env = process.env,
): Promise<SetupReport> {
  const { write, warnings = [] } = await hooks.prepareAdd(userHook(pkg, env));
  const missing = USER_COPY_FILES.filter((file) => !existsSync(join(pkg.dist, file)));
  if (missing.length > 0)
    throw new SetupError(`this install of ${pkg.name} lacks dist/${missing[0] ?? ""}`);
  const target = userPackageDir(pkg, env);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, "dist"), { recursive: true });
  for (const file of USER_COPY_FILES) cpSync(join(pkg.dist, file), join(target, "dist", file));
  writeFileSync(
    join(target, "package.json"),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true }, null, 2)}\n`,
  );
  const lines = [`${shownPath(target)}: ${pkg.name} ${pkg.version}`, ...(await write())];
  return { lines, warnings };
}

/** `uninstall --user`: the user-level hooks, then the pinned copy; nothing else. */
export async function uninstallForUser(
  pkg: Pick<UserPackage, "folder">,
  hooks: UserHooksFile,
  env: Env = process.env,
): Promise<SetupReport> {
  const write = await hooks.prepareRemove();
  const lines = await write();
  const data = userDataDir(env);
  const copy = join(data, pkg.folder);
  if (existsSync(copy)) {
    rmSync(copy, { recursive: true, force: true });
    lines.push(`${shownPath(copy)}: removed`);
  }
  if (existsSync(data) && readdirSync(data).length === 0) rmSync(data, { recursive: true });
  return { lines, warnings: [] };
}
