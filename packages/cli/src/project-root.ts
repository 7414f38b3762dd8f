import { statSync } from "node:fs";
import { resolve } from "node:path";
import { findProjectRoot } from "@tailtest/core/node";

/**
 * The project a command works on: `--root` (relative to the current folder) or, without it, the
 * nearest folder above the current one holding `.tailtest/`, else the git work tree's root, else
 * the current folder. Undefined when that is not a folder (the command exits 2).
 */
export function chooseRoot(root: string | undefined, cwd: string): string | undefined {
  const chosen = root === undefined ? findProjectRoot(cwd) : resolve(cwd, root);
  try {
    return statSync(chosen).isDirectory() ? chosen : undefined;
  } catch {
    return undefined;
  }
}
