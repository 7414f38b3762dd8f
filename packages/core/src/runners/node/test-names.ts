import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import * as z from "zod/mini";
import { lazy } from "../../util/lazy.ts";
import type { TestNameMemo } from "../project-runners.ts";
import { statFolder } from "../../project/node/fs-view.ts";
import { STATE_DIR } from "../../project/node/project.ts";

/**
 * The name search's listing kept between hook calls (`findTestTarget`'s `TestNameMemo`): a new
 * file's note asks whether a test with its name sits anywhere in the test folders, and on a
 * project of thousands of tests that search read up to 4,000 entries on every such edit. The
 * first search that finds no name keeps what it listed; the next answers from it with a search of
 * the file's bytes, and looks on disk only at the file it names.
 *
 * It is a cache of the tree, so it is set aside whenever the tree may have changed in a way the
 * listing would miss (`forgetTestNames`): at a session's start, a turn's start and end, after a
 * shell command that may write, and when an edit names more than one file or any file that is not
 * a source to queue (a test, its support, a config). The next note takes it back only if every
 * folder it listed is the same folder with the same modification and change times as before its
 * read (`unchangedListing`: an `lstat` per folder instead of a `readdir`, the sorting and the
 * write); otherwise it searches the disk and keeps a new listing. What is left is a test made behind the hooks'
 * back in a sub-folder during the turn (by a person or another program), which the listing misses
 * until the turn ends; the roots' own modification times are checked, so one made directly in a
 * test folder is not missed. The end of a turn still searches the disk (`plan.ts`), so the tests
 * it runs never depend on this file.
 */

/**
 * What a kept listing may answer (the file's one value used as read; its header and trailer are
 * compared byte for byte with the ones this search would write): a project path with no empty,
 * `.` or `..` folder in it. Built when a listing first names a file (most notes find none).
 */
const KeptPathSchema = lazy(() =>
  z
    .string()
    .check(
      z.refine((path) =>
        path.split("/").every((part) => part !== "" && part !== "." && part !== ".."),
      ),
    ),
);

/** Where the listing is kept: one, for the folders of the last search that kept one. */
export const TEST_NAMES_PATH = `${STATE_DIR}/test-names.txt`;
/** Where `forgetTestNames` sets it aside, for a later note that finds its folders unchanged. */
export const EARLIER_TEST_NAMES_PATH = `${STATE_DIR}/test-names.earlier.txt`;
const HEADER = "tailtest test names 4\t";
const TRAILER = "\nend\n";

/**
 * The file: a header line naming the searched folders and their times, a line with each listed
 * folder's stamp in the order of its folder lines (for a later turn's check: base64, or `-`), then
 * each listed folder as a line `\t<folder>` followed by its entries one a line, then `end`. An entry is found by one search of the bytes for
 * its line, its folder by the nearest folder line before it.
 */
export function keptTestNames(root: string): TestNameMemo {
  const file = `${root}/${TEST_NAMES_PATH}`;
  const earlier = `${root}/${EARLIER_TEST_NAMES_PATH}`;
  return {
    first: (roots, names) => {
      const now = existsSync(file);
      if (!now && !existsSync(earlier)) return undefined;
      const header = Buffer.from(`${HEADER}${stamp(root, roots)}\n`);
      let bytes = now ? readListing(file, header) : undefined;
      if (bytes === undefined) {
        // The turn's first note: an earlier turn's listing, if each folder it read is unchanged.
        bytes = unchangedListing(root, earlier, header);
        if (bytes === undefined) return undefined;
        try {
          renameSync(earlier, file);
        } catch {
          // Another call took it back first, or dropped it: this answer was checked either way.
        }
      }
      // The folders' line holds no entry.
      const from = bytes.indexOf(10, header.length);
      // The trailer's line is no entry's.
      const end = bytes.length - TRAILER.length;
      let first = -1;
      let length = 0;
      for (const name of names) {
        const at = bytes.indexOf(`\n${name}\n`, from);
        if (at !== -1 && at < end && (first === -1 || at < first)) {
          first = at;
          length = Buffer.byteLength(name);
        }
      }
      if (first === -1) return null;
      const folder = bytes.lastIndexOf("\n\t", first);
      if (folder < from) return undefined;
      const dir = bytes.toString("utf8", folder + 2, bytes.indexOf(10, folder + 2));
      const name = bytes.toString("utf8", first + 1, first + 1 + length);
      const path = dir === "" ? name : `${dir}/${name}`;
      // Read as written, not trusted: an answer outside the searched folders is no answer.
      const inside = roots.some((at) => at === "" || dir === at || dir.startsWith(`${at}/`));
      return inside && KeptPathSchema.safeParse(path).success ? path : undefined;
    },
    keep: (roots, listing) => {
      const parts: string[] = [];
      let entries = 0;
      const stats = new Float64Array(listing.length * 4);
      let stamped = 0;
      for (const { dir, files, stamp: seen } of listing) {
        // An entry with a line break, or one that starts as a folder's line does, could not be
        // told from the lines around it: such a listing is not kept. No entry's name holds a
        // `/`, so the names joined by one show both with one search each, not a call per name.
        const joined = files.join("/");
        if (
          dir.includes("\n") ||
          joined.includes("\n") ||
          joined.startsWith("\t") ||
          joined.includes("/\t")
        )
          return;
        parts.push(files.length === 0 ? `\t${dir}` : `\t${dir}\n${files.join("\n")}`);
        entries += files.length;
        if (seen !== undefined) {
          stats.set(seen, stamped * 4);
          stamped += 1;
        }
      }
      // A few entries are read again sooner than the file is.
      if (entries < KEEP_FROM) return;
      // Each folder as it was before its read, in the order of the folder lines, for a later
      // turn's check (none if one is unknown).
      const checks =
        stamped === listing.length ? Buffer.from(stats.buffer).toString("base64") : NO_CHECKS;
      const text = `${HEADER}${stamp(root, roots)}\n${checks}\n${parts.join("\n")}${TRAILER}`;
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        mkdirSync(`${root}/${STATE_DIR}`, { recursive: true });
        writeFileSync(temporary, text);
        renameSync(temporary, file);
      } catch {
        // A cache: a search not kept is made again by the next call.
        try {
          unlinkSync(temporary);
        } catch {
          // Nothing was written.
        }
      }
    },
  };
}

/** How many listed entries make a search worth keeping (its folders cost a read each). */
export const KEEP_FROM = 64;

/**
 * Sets the kept listing aside: the project's tree may have changed where the turn's notes cannot
 * tell. The next note uses it only once each folder it read is seen unchanged.
 */
export function forgetTestNames(root: string): void {
  const file = `${root}/${TEST_NAMES_PATH}`;
  if (!existsSync(file)) return;
  try {
    renameSync(file, `${root}/${EARLIER_TEST_NAMES_PATH}`);
  } catch {
    try {
      unlinkSync(file);
    } catch {
      // Gone already, or not ours to remove: a listing that stays is still checked by its roots.
    }
  }
}

/** The file at `path` if it is a whole listing of the search `header` names. */
function readListing(path: string, header: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  // Another search's folders, a tree changed since, or a file cut short: not this listing.
  return startsWith(bytes, header) && endsWith(bytes, TRAILER) ? bytes : undefined;
}

/**
 * An earlier turn's listing at `path`, if every folder it read is the same folder with the same
 * times now: its entries, and so the search's reads, are then those it listed. A time as new as
 * the second the file was written may hide a change made in the same tick of a coarse clock, so
 * such a listing is not used (the search then reads the disk and keeps a newer one).
 */
function unchangedListing(root: string, path: string, header: Buffer): Buffer | undefined {
  const written = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  const bytes = written === undefined ? undefined : readListing(path, header);
  if (bytes === undefined || written === undefined) return undefined;
  const lineEnd = bytes.indexOf(10, header.length);
  const checks = bytes.toString("latin1", header.length, lineEnd);
  if (checks === NO_CHECKS || !ChecksSchema.safeParse(checks).success) return undefined;
  const packed = Buffer.from(checks, "base64");
  if (packed.length % 32 !== 0) return undefined;
  // The numbers as written, bit for bit: no text per number either way.
  const stats = new Float64Array(new Uint8Array(packed).buffer);
  // A time in the second the file was written may hide a change made in the same tick.
  const racy = Math.floor(written / 1000) * 1000;
  // The folders are the listing's folder lines, in order: each follows a line break and a tab,
  // which no entry starts with and no folder holds, and the trailer holds neither.
  const text = bytes.toString("utf8", lineEnd);
  let at = 0;
  for (let line = text.indexOf("\n\t"); line !== -1; line = text.indexOf("\n\t", line + 2)) {
    const end = text.indexOf("\n", line + 2);
    const dir = text.slice(line + 2, end);
    if (at + 4 > stats.length) return undefined;
    const seen = statFolder(dir === "" ? root : `${root}/${dir}`);
    if (
      seen === undefined ||
      seen.dev !== stats[at] ||
      seen.ino !== stats[at + 1] ||
      seen.mtimeMs !== stats[at + 2] ||
      seen.ctimeMs !== stats[at + 3] ||
      seen.mtimeMs >= racy
    )
      return undefined;
    at += 4;
  }
  return at === stats.length ? bytes : undefined;
}

/** A listing's check line when a folder's stamp is unknown: no later turn takes it back. */
const NO_CHECKS = "-";

/**
 * A listing's check line: each listed folder's device, inode, modification and change times four
 * by four (`ProjectView.listedStamp`), in the order of its folder lines, as the base64 of their
 * doubles: formatting ~1,800 numbers as text cost the walk that keeps it ~10 M, and the folders'
 * names are the listing's own lines (a JSON list of them cost the check ~3 M to read).
 */
const ChecksSchema = lazy(() => z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/)));

/** The searched folders and their modification times: a file added to or taken from one changes it. */
function stamp(root: string, roots: readonly string[]): string {
  return JSON.stringify(
    roots.map((dir) => [dir, statSync(`${root}/${dir}`, { throwIfNoEntry: false })?.mtimeMs ?? 0]),
  );
}

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return (
    bytes.length >= prefix.length && bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0
  );
}

function endsWith(bytes: Buffer, suffix: string): boolean {
  return (
    bytes.length >= suffix.length &&
    bytes.toString("latin1", bytes.length - suffix.length) === suffix
  );
}
