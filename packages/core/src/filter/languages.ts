import * as z from "zod/mini";

export const LanguageSchema = z.enum([
  "python",
  "javascript",
  "typescript",
  "php",
  "go",
  "ruby",
  "rust",
  "java",
  "csharp",
  "swift",
  "kotlin",
]);
export type Language = z.infer<typeof LanguageSchema>;

/**
 * Source extensions tailtest knows. The first 22 are the original's; `.ipynb` is new and
 * counts as Python, because a notebook's logic is tested from a Python test file.
 */
export const EXTENSION_LANGUAGES: Readonly<Record<string, Language>> = {
  ".py": "python",
  ".pyx": "python",
  ".pyi": "python",
  ".ipynb": "python",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".vue": "javascript",
  ".svelte": "javascript",
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".php": "php",
  ".go": "go",
  ".rb": "ruby",
  ".rs": "rust",
  ".java": "java",
  ".cs": "csharp",
  ".swift": "swift",
  ".kt": "kotlin",
  ".kts": "kotlin",
};

/** The extension of a path, lower-cased, with its dot (`""` when there is none). */
export function extensionOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot).toLowerCase() : "";
}

export function baseName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

/** The file name without its last extension: `src/billing.py` → `billing`. */
export function stemOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

export function detectLanguage(path: string): Language | undefined {
  return EXTENSION_LANGUAGES[extensionOf(path)];
}

/** A `<script>` tag that declares TypeScript: `<script setup lang="ts">`, `<script lang='ts'>`. */
const TS_SCRIPT = /<script\b[^>]*\blang\s*=\s*["']?(ts|typescript)\b/i;

/**
 * The language a file is written in, as told to the agent: a `.vue` or `.svelte` component whose
 * `<script>` declares `lang="ts"` is TypeScript, though its extension alone says JavaScript.
 */
export function writtenLanguage<L extends Language | undefined>(
  path: string,
  language: L,
  /** The file's text, read only for a component (every other edit reads nothing more). */
  text: () => string | undefined,
): L | "typescript" {
  if (language !== "javascript") return language;
  const ext = extensionOf(path);
  if (ext !== ".vue" && ext !== ".svelte") return language;
  return TS_SCRIPT.test(text() ?? "") ? "typescript" : language;
}
