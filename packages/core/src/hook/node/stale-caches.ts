import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Removes the code caches beside `bundle` that belong to another build of it: shipped ones
 * (`<stem>.<hash>-….cache`) and the ones a node wrote for itself (`….local.cache`), whose names
 * carry the hash of the text they were compiled from (code-cache.ts `cachePathFor`). A build
 * stamps a new hash, so without this every rebuild left the last one's caches behind. Returns
 * the names removed.
 */
export function removeStaleCaches(bundle: string, buildId: string): string[] {
  const folder = dirname(bundle);
  const stem = basename(bundle).replace(/\.c?js$/, "");
  const removed: string[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(`${stem}.`) || !name.endsWith(".cache")) continue;
    if (name.startsWith(`${stem}.${buildId}-`)) continue;
    rmSync(join(folder, name), { force: true });
    removed.push(name);
  }
  return removed.sort();
}
