import { baseName } from "../filter/languages.ts";

/**
 * Style sampling: the first lines of the newest tests per runner and the helper modules they
 * import, so an agent writes new tests the way the project already does. Bounded: a few files, a
 * few lines each, short lines, one capped block.
 */

export const STYLE_FILES_PER_RUNNER = 2;
export const STYLE_FILES_TOTAL = 4;
export const STYLE_LINES = 15;
const LINE_CAP = 160;
const BLOCK_CAP = 3000;
const SHOWN_HELPERS = 6;

export interface StyleSample {
  path: string;
  runner: string;
  /** The file's first lines, leading blank lines dropped. */
  lines: readonly string[];
}

/** The first `count` lines of a file, leading blank lines dropped, each line cut at 160. */
export function headLines(text: string, count: number = STYLE_LINES): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1) return [];
  const head = lines
    .slice(first, first + count)
    .map((line) => (line.length > LINE_CAP ? `${line.slice(0, LINE_CAP - 1)}…` : line))
    .map((line) => line.trimEnd());
  while (head.length > 0 && head[head.length - 1] === "") head.pop();
  return head;
}

/** Test support by name: conftest, helpers, factories, fixtures, test utils and setup files. */
export function isHelperName(path: string): boolean {
  return /^(conftest\.py|.*(helpers?|factor(y|ies)|fixtures?|test[-_]?utils?|test[-_]?setup|testing|mocks?)\.[a-z]+)$/i.test(
    baseName(path),
  );
}

export function renderStyleBlock(
  samples: readonly StyleSample[],
  helpers: readonly string[],
  partial: boolean,
): string | undefined {
  if (samples.length === 0) return undefined;
  const where = partial ? " (from part of the project: the walk was cut by its time box)" : "";
  const parts = [
    `tailtest: how this project writes tests, from its newest test files${where}; write new tests the same way:`,
  ];
  for (const sample of samples) {
    parts.push(`${sample.path} (${sample.runner}):`);
    parts.push(...sample.lines.map((line) => `  | ${line}`));
  }
  if (helpers.length > 0) {
    const shown = helpers.slice(0, SHOWN_HELPERS).join(", ");
    const more = helpers.length > SHOWN_HELPERS ? ` (+${helpers.length - SHOWN_HELPERS} more)` : "";
    parts.push(`helpers these tests use: ${shown}${more}`);
  }
  const block = parts.join("\n");
  return block.length <= BLOCK_CAP ? block : `${block.slice(0, BLOCK_CAP - 2)} …`;
}
