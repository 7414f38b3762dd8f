/**
 * How the CLI's text renderers mark words: plain, or with ANSI colours when the terminal wants
 * them (the CLI decides: `NO_COLOR`, `FORCE_COLOR`, a TTY). Renderers stay pure and take one.
 */
export interface TextStyle {
  good(text: string): string;
  bad(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const same = (text: string): string => text;

export const PLAIN_STYLE: TextStyle = { good: same, bad: same, warn: same, dim: same, bold: same };

const wrap =
  (open: number, close: number) =>
  (text: string): string =>
    text === "" ? text : `\u001b[${open}m${text}\u001b[${close}m`;

export const ANSI_STYLE: TextStyle = {
  good: wrap(32, 39),
  bad: wrap(31, 39),
  warn: wrap(33, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
};

/**
 * Pads a cell to `width` visible characters; ANSI colour codes take no room. Tables pad first
 * and colour after where they can; this is for the cells coloured before.
 */
export function padVisible(text: string, width: number): string {
  // eslint-disable-next-line no-control-regex
  const visible = text.replace(/\u001b\[[0-9;]*m/g, "").length;
  return visible >= width ? text : text + " ".repeat(width - visible);
}

/** Rows of cells as aligned columns, two spaces apart, trailing blanks trimmed. */
export function renderColumns(rows: readonly (readonly string[])[]): string[] {
  // eslint-disable-next-line no-control-regex
  const width = (cell: string) => cell.replace(/\u001b\[[0-9;]*m/g, "").length;
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, width(cell));
    });
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === row.length - 1 ? cell : padVisible(cell, widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}
