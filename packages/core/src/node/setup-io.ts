import { readFile } from "node:fs/promises";

/** A refusal the user can act on; its message is one line and nothing was written. */
export class SetupError extends Error {}

/** What an installer did, for its summary. */
export interface SetupReport {
  /** What changed, one line each (paths relative to the project root). */
  lines: string[];
  warnings: string[];
}

/** A file's text, or undefined when it does not exist (other errors are thrown). */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
