/**
 * The script of a single-file component (`.vue`, `.svelte`): the text of each of its `<script>`
 * blocks (Vue's `<script>` and `<script setup>`, Svelte's module and instance scripts), joined,
 * for the JavaScript lexer; a block's `src` attribute is an import of that file. Only the blocks
 * are lexed: the template and style around them are skipped by one regular expression.
 */

export interface SfcScript {
  code: string;
  /** A block with `lang="tsx"` or `lang="jsx"`: its markup must be blanked before lexing. */
  jsx: boolean;
}

const COMMENT = /<!--[\s\S]*?-->/g;
const SCRIPT_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const LANG = /\blang\s*=\s*["']?([\w-]+)/i;
const SRC = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

export function sfcScripts(text: string): SfcScript {
  const source = text.includes("<!--") ? text.replace(COMMENT, "") : text;
  const parts: string[] = [];
  let jsx = false;
  for (const match of source.matchAll(SCRIPT_BLOCK)) {
    const attributes = match[1] ?? "";
    const lang = LANG.exec(attributes)?.[1]?.toLowerCase();
    if (lang === "tsx" || lang === "jsx") jsx = true;
    const src = SRC.exec(attributes);
    const from = src?.[1] ?? src?.[2];
    if (from !== undefined && from !== "") parts.push(`import ${JSON.stringify(from)};`);
    parts.push(match[2] ?? "");
  }
  return { code: parts.join("\n;\n"), jsx };
}
