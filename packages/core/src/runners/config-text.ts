import picomatch from "picomatch";
import { joinRel, type ProjectView } from "../project/project-view.ts";
import type { SuiteMatcher } from "./spec.ts";

/**
 * Reading runner configuration as text, without running it: ini sections, TOML tables,
 * literal strings in a JS config, a package.json test script's arguments, a YAML list. Pure.
 */

export const JS_EXT = /\.[cm]?[jt]sx?$/;

export function globShape(globs: readonly string[], evidence: string, ext?: RegExp): SuiteMatcher {
  const match = picomatch([...globs], { dot: false });
  return { evidence, isTest: (path) => (ext === undefined || ext.test(path)) && match(path) };
}

/** The sections an ini-style text opens (`[pytest]`, `[tool:pytest]`). */
function iniSections(text: string): Set<string> {
  return new Set([...text.matchAll(/^\s*\[([^\]]+)\]\s*$/gm)].map((m) => (m[1] ?? "").trim()));
}

/** A key of an ini-style section (`[pytest]`, `[tool:pytest]`), continuation lines joined. */
export function iniValue(text: string, section: string, key: string): string | undefined {
  const lines = text.split(/\r?\n/);
  let inSection = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header !== null) {
      inSection = header[1]?.trim() === section;
      continue;
    }
    if (!inSection) continue;
    const entry = new RegExp(`^${key}\\s*[=:]\\s*(.*)$`).exec(line);
    if (entry === null) continue;
    const parts = [entry[1] ?? ""];
    while (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1] ?? "")) {
      i += 1;
      parts.push(lines[i] ?? "");
    }
    return parts.join(" ").trim();
  }
  return undefined;
}

/**
 * A key of a TOML table: a string or an array of strings (one line or several). `table` and `key`
 * are plain names (`tool.pytest.ini_options`, `testpaths`). Each pattern below is tried only on
 * a text holding the name it matches literally: V8 compiles a regex on its first run, in every
 * process, and most projects' files name neither.
 */
export function tomlStrings(
  text: string,
  table: string,
  key: string,
  /** A plain string's words rather than the string (pytest's ini-style `addopts = "-v -x"`). */
  splitString = false,
): string[] | undefined {
  if (!text.includes(`[${table}]`)) return undefined;
  const start = text.search(new RegExp(`^\\[${table.replace(/\./g, "\\.")}\\]\\s*$`, "m"));
  if (start === -1) return undefined;
  const rest = text.slice(start).split(/\r?\n/).slice(1);
  const end = rest.findIndex((line) => /^\s*\[/.test(line));
  const body = (end === -1 ? rest : rest.slice(0, end)).join("\n");
  if (!body.includes(key)) return undefined;
  // An array's strings may hold a `]` (`"--ignore-glob=*_[0-9].py"`): it ends at a `]` outside them.
  const match = new RegExp(
    `^\\s*${key}\\s*=\\s*(\\[(?:[^\\]"'#]|"[^"]*"|'[^']*'|#[^\\n]*)*\\]|"[^"]*"|'[^']*')`,
    "m",
  ).exec(body);
  if (match === null) return undefined;
  const raw = match[1] ?? "";
  if (splitString && !raw.startsWith("[")) return splitWords(raw.slice(1, -1)) ?? [];
  return [...raw.matchAll(/"([^"]*)"|'([^']*)'|#[^\n]*/g)].flatMap((m) =>
    m[0].startsWith("#") ? [] : [m[1] ?? m[2] ?? ""],
  );
}

export function splitWords(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const words = value.split(/[\s,]+/).filter((word) => word !== "");
  return words.length === 0 ? undefined : words;
}

/**
 * The top level of an object literal's body (`body` starts just inside its `{`): the text up to
 * its closing brace with every nested `{ … }` left out, so a key read from it is the object's own
 * (vitest's `test.include`, not `test.coverage.include`). Braces inside strings and comments are
 * skipped.
 */
export function jsTopLevel(body: string): string {
  let depth = 0;
  let out = "";
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i] as string;
    const next = body[i + 1];
    let end = i;
    if (ch === '"' || ch === "'" || ch === "`") {
      end = i + 1;
      while (end < body.length && body[end] !== ch) end += body[end] === "\\" ? 2 : 1;
    } else if (ch === "/" && next === "/") {
      end = body.indexOf("\n", i);
      if (end === -1) end = body.length;
    } else if (ch === "/" && next === "*") {
      end = body.indexOf("*/", i + 2);
      end = end === -1 ? body.length : end + 1;
    } else if (ch === "{") depth += 1;
    else if (ch === "}") {
      if (depth === 0) break;
      depth -= 1;
      continue;
    }
    if (depth === 0) out += body.slice(i, end + 1);
    i = end;
  }
  return out;
}

/** String literals inside `key: [ … ]` or `key: "…"` of a JS/TS config, if written literally. */
export function jsConfigStrings(text: string, key: string): string[] | undefined {
  const match = new RegExp(`\\b${key}\\s*:\\s*(\\[[^\\]]*\\]|"[^"]*"|'[^']*'|\`[^\`]*\`)`).exec(
    text,
  );
  if (match === null) return undefined;
  const found = [...(match[1] ?? "").matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`]*)`/g)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? "")
    .filter((s) => s !== "");
  return found.length === 0 ? undefined : found;
}

export function firstConfig(view: ProjectView, dir: string, pattern: RegExp): string | undefined {
  const name = view.list(dir).find((entry) => pattern.test(entry));
  return name === undefined ? undefined : view.readText(joinRel(dir, name));
}

export function yamlList(text: string, key: string): string[] | undefined {
  const inline = new RegExp(`^${key}\\s*:\\s*['"]?([^'"\\n]+)['"]?\\s*$`, "m").exec(text);
  if (inline !== null && !(inline[1] ?? "").startsWith("[")) return [(inline[1] ?? "").trim()];
  const block = new RegExp(`^${key}\\s*:\\s*\\n((?:\\s*-\\s*.+\\n?)+)`, "m").exec(text);
  if (block === null) return undefined;
  return [...(block[1] ?? "").matchAll(/-\s*['"]?([^'"\n]+)['"]?/g)].map((m) =>
    (m[1] ?? "").trim(),
  );
}

/** A config module's default export computed by a function (`defineConfig(({ mode }) => …)`). */
const FUNCTION_EXPORT =
  /(?:defineConfig|defineProject|module\.exports\s*=|export\s+default)\s*\(?\s*(?:async\s*)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/;

/**
 * Why a JS/TS runner config cannot be read as text, if it cannot: it exports a function, holds
 * `projects`, spreads or merges another config, or gives one of `keys` as something other than
 * string literals. undefined: what the keys say (or their absence) can be trusted.
 */
export function opaqueJsConfig(
  name: string,
  text: string,
  keys: readonly string[],
): string | undefined {
  // Whole-line comments only: a glob such as "src/**/*.test.ts" is not a comment.
  const code = text.replace(/^\s*\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  if (FUNCTION_EXPORT.test(code)) return `${name} exports a function`;
  if (/\b(projects|workspace)\s*:/.test(code)) return `${name} has projects`;
  if (/\bmergeConfig\s*\(|\.\.\.\s*[A-Za-z_$]/.test(code))
    return `${name} builds on another config`;
  for (const key of keys) {
    if (new RegExp(`\\b${key}\\s*:`).test(code) && jsConfigStrings(code, key) === undefined)
      return `${name} computes ${key}`;
  }
  return undefined;
}

/**
 * The files a JS runner's config names to load before every test file (jest's `setupFiles` and
 * `setupFilesAfterEnv`, vitest's `test.setupFiles`), as a matcher of package-relative paths. A
 * path may start with `<rootDir>/` or `./` and may leave out its extension, as `require` does; a
 * package name (`jest-canvas-mock`) names no file of the project and matches nothing.
 */
export function setupFilesMatcher(paths: readonly string[]): (path: string) => boolean {
  const wanted = new Set(
    paths
      .map((path) => path.replace(/^<rootDir>\/?/, "").replace(/^\.\//, ""))
      .filter((path) => path !== "" && !path.startsWith("/")),
  );
  return (path) =>
    wanted.has(path) ||
    wanted.has(path.replace(/\.[cm]?[jt]sx?$/, "")) ||
    wanted.has(path.replace(/\/index\.[cm]?[jt]sx?$/, ""));
}

/** The first file in `dir` whose name matches, with its text. */
export function firstConfigFile(
  view: ProjectView,
  dir: string,
  pattern: RegExp,
): { name: string; text: string } | undefined {
  const name = view.list(dir).find((entry) => pattern.test(entry));
  const text = name === undefined ? undefined : view.readText(joinRel(dir, name));
  return name === undefined || text === undefined ? undefined : { name, text };
}

/**
 * A JSON array in a runner's stdout (warnings may come before it): vitest's `[{ "file": … }]`,
 * jest's `["/abs/a.test.js"]`. undefined when there is none.
 */
export function jsonArrayIn(stdout: string): unknown[] | undefined {
  const start = stdout.search(/^\s*\[/m);
  const end = stdout.lastIndexOf("]");
  if (start === -1 || end < start) return undefined;
  try {
    const parsed: unknown = JSON.parse(stdout.slice(start, end + 1));
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A runner's absolute (or package-relative) test path as a package-relative one. */
export function packageRelative(file: string, packageAbs: string): string | undefined {
  const path = file.replace(/\\/g, "/");
  const base = packageAbs.replace(/\\/g, "/").replace(/\/$/, "");
  if (path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  if (path.startsWith("/") || /^[A-Za-z]:\//.test(path)) return undefined;
  return path.replace(/^\.\//, "");
}

/**
 * The file pytest takes its settings from in `dir` and where they are in it, found as pytest 9's
 * `locate_config` does: the first of pytest.toml, .pytest.toml, pytest.ini and .pytest.ini (each
 * taken even when it holds no table), pyproject.toml with a `[tool.pytest]` or
 * `[tool.pytest.ini_options]` table, tox.ini with `[pytest]`, setup.cfg with `[tool:pytest]`. Only
 * that file counts: pytest reads no other (parse keeps its options in a hidden `.pytest.ini`).
 */
export function pytestConfig(
  view: ProjectView,
  dir: string,
): { file: string; text: string; format: "toml" | "ini"; section: string } | undefined {
  for (const file of ["pytest.toml", ".pytest.toml"]) {
    const text = view.readText(joinRel(dir, file));
    if (text !== undefined) return { file, text, format: "toml", section: "pytest" };
  }
  for (const file of ["pytest.ini", ".pytest.ini"]) {
    const text = view.readText(joinRel(dir, file));
    if (text !== undefined) return { file, text, format: "ini", section: "pytest" };
  }
  const pyproject = view.readText(joinRel(dir, "pyproject.toml"));
  if (pyproject?.includes("[tool.pytest") === true) {
    if (/^\[tool\.pytest\.ini_options\]\s*$/m.test(pyproject))
      return {
        file: "pyproject.toml",
        text: pyproject,
        format: "toml",
        section: "tool.pytest.ini_options",
      };
    if (/^\[tool\.pytest\]\s*$/m.test(pyproject))
      return { file: "pyproject.toml", text: pyproject, format: "toml", section: "tool.pytest" };
  }
  for (const [file, section] of [
    ["tox.ini", "pytest"],
    ["setup.cfg", "tool:pytest"],
  ] as const) {
    const text = view.readText(joinRel(dir, file));
    if (text?.includes(`[${section}]`) === true && iniSections(text).has(section))
      return { file, text, format: "ini", section };
  }
  return undefined;
}

/**
 * pytest's settings in `dir`, each as words, from the one config file pytest reads
 * (`pytestConfig`, found once for every key asked).
 */
export function pytestSettings(
  view: ProjectView,
  dir: string,
): (key: string) => string[] | undefined {
  const config = pytestConfig(view, dir);
  if (config === undefined) return () => undefined;
  return (key) =>
    config.format === "toml"
      ? tomlStrings(config.text, config.section, key, true)
      : splitWords(iniValue(config.text, config.section, key));
}
