import { readdirSync, readSync, openSync, closeSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ProjectView } from "../project-view.ts";

const READ_CAP = 256 * 1024;

/** A ProjectView over the real file system, rooted at `root`; reads are capped at 256 KB. */
export function createFsView(root: string): ProjectView {
  const abs = (rel: string): string => (rel === "" ? root : join(root, rel));
  return {
    exists: (rel) => statSafe(abs(rel)) !== undefined,
    isDirectory: (rel) => statSafe(abs(rel))?.isDirectory() === true,
    readText: (rel) => readHead(abs(rel), READ_CAP),
    list: (rel) => {
      try {
        return readdirSync(abs(rel)).sort();
      } catch {
        return [];
      }
    },
  };
}

/** The first `limit` bytes of a file as UTF-8, or undefined when it cannot be read. */
export function readHead(path: string, limit: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(limit);
    const size = readSync(fd, buffer, 0, limit, 0);
    return buffer.subarray(0, size).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function statSafe(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
