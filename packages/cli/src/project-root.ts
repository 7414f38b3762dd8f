import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { findRoot } from "@tailtest/core/quiet";

/**
 * The project a command works on: `--root` (relative to the current folder) or, without it, the
 * nearest folder above the current one holding `.tailtest/`, else the git work tree's root, else
 * the current folder. Undefined when that is not a folder (the command exits 2).
 */
export function chooseRoot(root: string | undefined, cwd: string): string | undefined {
  const chosen = root === undefined ? findRoot(cwd) : resolve(cwd, root);
  try {
    return statSync(chosen).isDirectory() ? chosen : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `chooseRoot` as every command uses it: the folder, or undefined after the one line every
 * command gives for a bad `--root` (the command then exits 2).
 */
export function rootOrRefuse(
  root: string | undefined,
  io: { cwd: string; stderr: (text: string) => void },
): string | undefined {
  const chosen = chooseRoot(root, io.cwd);
  if (chosen === undefined) io.stderr(`tailtest: --root ${root ?? io.cwd}: not a folder\n`);
  return chosen;
}

/** A folder with its links resolved (paths an agent gives are compared with it), else as is. */
export function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
