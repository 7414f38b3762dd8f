import { join } from "node:path";
import type { TurnLook } from "./content-sweep.ts";
import { gitBlobs } from "./git-blobs.ts";
import { readHead } from "../../project/node/fs-view.ts";
import { readObject } from "../../strict/node/strict-store.ts";
import { goHeadOutsideBuild } from "../../tdd/node/tdd-gate-call.ts";

/** The first bytes of a Go file read for its build constraint (a license header comes first). */
const GO_HEAD_BYTES = 4096;

/**
 * The Go files among `paths` (changed this turn) that a build constraint leaves out of every
 * build both as they stand now and at the turn's start (or that did not exist then): programs
 * for `go run` beside a package (a `gen.go` with `//go:build ignore`), which no test compiles.
 * The gate lets their edits through as no production file (`gatedFiles`), so the end of the turn
 * does not count them as production changed around it. A file that was built at the turn's start
 * and is not now (the constraint written in), or the reverse, stays production: taking a file in
 * or out of the package changes what the tests build. Read only for `.go` files whose text now
 * is outside the build; the start's bytes come from git's blobs or tailtest's copy, and a file
 * whose start is not to be had stays production.
 */
export function goProgramsOutsideBuild(
  root: string,
  look: Pick<TurnLook, "before" | "via">,
  paths: readonly string[],
): Set<string> {
  const outside = new Set<string>();
  const candidates = paths.filter((path) => {
    if (!path.endsWith(".go")) return false;
    const head = readHead(join(root, path), GO_HEAD_BYTES);
    return head !== undefined && goHeadOutsideBuild(root, path, head);
  });
  if (candidates.length === 0 || look.before === undefined) return outside;
  const before = look.before;
  // The mtime look has bytes only where tailtest's copy kept them, never git's blobs.
  const git = look.via === "content";
  const fromGit = candidates.flatMap((path) => {
    const was = before.get(path);
    return was?.id !== undefined && was.id !== null && typeof was.object !== "string"
      ? [was.id]
      : [];
  });
  const blobs = fromGit.length > 0 ? gitBlobs(root, fromGit, GO_HEAD_BYTES * 64) : undefined;
  for (const path of candidates) {
    const was = before.get(path);
    if (was === undefined) continue;
    if (was.id === null) {
      outside.add(path);
      continue;
    }
    const bytes =
      typeof was.object === "string" ? readObject(root, was.object) : blobs?.get(was.id);
    if (bytes === undefined || (!git && typeof was.object !== "string")) continue;
    const then = bytes.subarray(0, GO_HEAD_BYTES).toString("utf8");
    if (goHeadOutsideBuild(root, path, then)) outside.add(path);
  }
  return outside;
}
