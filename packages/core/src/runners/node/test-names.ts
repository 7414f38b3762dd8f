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
import { STATE_DIR } from "../../project/node/project.ts";

/**
 * The name search's listing kept between hook calls (`findTestTarget`'s `TestNameMemo`): a new
 * file's note asks whether a test with its name sits anywhere in the test folders, and on a
 * project of thousands of tests that search read up to 4,000 entries on every such edit. The
 * first search that finds no name keeps what it listed; the next answers from it with a search of
 * the file's bytes, and looks on disk only at the file it names.
 *
 * It is a cache of the tree, so it is dropped whenever the tree may have changed in a way the
 * listing would miss (`forgetTestNames`): at a session's start, a turn's start and end, after a
 * shell command that may write, and when an edit names more than one file or any file that is not
 * a source to queue (a test, its support, a config). What is left is a test made behind the hooks'
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
const HEADER = "tailtest test names 2\t";
const TRAILER = "\nend\n";

/**
 * The file: a header line naming the searched folders and their times, then each listed folder
 * as a line `\t<folder>` followed by its entries one a line, then `end`. An entry is found by one
 * search of the bytes for its line, its folder by the nearest folder line before it.
 */
export function keptTestNames(root: string): TestNameMemo {
  const file = `${root}/${TEST_NAMES_PATH}`;
  return {
    first: (roots, names) => {
      if (!existsSync(file)) return undefined;
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        return undefined;
      }
      const header = Buffer.from(`${HEADER}${stamp(root, roots)}\n`);
      // Another search's folders, a tree changed since, or a file cut short: not this listing.
      if (!startsWith(bytes, header) || !endsWith(bytes, TRAILER)) return undefined;
      // The trailer's line is no entry's.
      const end = bytes.length - TRAILER.length;
      let first = -1;
      let length = 0;
      for (const name of names) {
        const at = bytes.indexOf(`\n${name}\n`, header.length - 1);
        if (at !== -1 && at < end && (first === -1 || at < first)) {
          first = at;
          length = Buffer.byteLength(name);
        }
      }
      if (first === -1) return null;
      const folder = bytes.lastIndexOf("\n\t", first);
      if (folder < header.length - 1) return undefined;
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
      for (const { dir, files } of listing) {
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
      }
      // A few entries are read again sooner than the file is.
      if (entries < KEEP_FROM) return;
      const text = `${HEADER}${stamp(root, roots)}\n${parts.join("\n")}${TRAILER}`;
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

/** Drops the kept listing: the project's tree may have changed where it cannot tell. */
export function forgetTestNames(root: string): void {
  const file = `${root}/${TEST_NAMES_PATH}`;
  if (!existsSync(file)) return;
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or not ours to remove: a listing that stays is still checked by its roots.
  }
}

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
