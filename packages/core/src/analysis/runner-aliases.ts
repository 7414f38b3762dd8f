import { dirnameRel } from "../project/project-view.ts";
import { normalizeRel, RUNNER_ALIAS_SCOPE, type PathAliases } from "./resolve.ts";
import { parseJsonc } from "../util/jsonc.ts";

/**
 * Import aliases a test runner's own config declares, read as text (nothing is run): jest's
 * `moduleNameMapper` (`'^@/(.*)$': '<rootDir>/src/$1'`) and vite/vitest's `resolve.alias` or
 * `test.alias` (`'@': path.resolve(__dirname, './src')`), and SvelteKit's `$lib` where its vite
 * plugin is used. Tests that import `@/utils/x` reach `src/utils/x` only through them when no
 * tsconfig `paths` says the same. Pure.
 */

/** Config file names whose aliases are read. */
export const RUNNER_ALIAS_CONFIG = /^(jest|vitest|vite)\.config\.[cm]?[jt]s$|^jest\.config\.json$/;

/**
 * The alias entries of one runner config (`rel`, its text), or undefined when it declares none
 * that maps a plain prefix to project files. A `package.json` is read for its `jest` key.
 */
export function runnerAliases(rel: string, text: string): PathAliases | undefined {
  const dir = dirnameRel(rel);
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  let paths: [string, string[]][];
  if (name === "package.json" || name.endsWith(".json")) {
    if (!text.includes("moduleNameMapper")) return undefined;
    const json = parseJsonc(text);
    const config =
      name === "package.json" && json !== null && typeof json === "object"
        ? (json as Record<string, unknown>)["jest"]
        : json;
    if (config === null || typeof config !== "object") return undefined;
    const record = config as Record<string, unknown>;
    const rootDir = typeof record["rootDir"] === "string" ? record["rootDir"] : undefined;
    paths = jestPaths(dir, rootDir, objectEntries(record["moduleNameMapper"]));
  } else if (name.startsWith("jest.")) {
    const body = objectAfter(text, "moduleNameMapper");
    if (body === undefined) return undefined;
    const rootDir = /\brootDir\s*:\s*["'`]([^"'`]*)["'`]/.exec(text)?.[1];
    paths = jestPaths(dir, rootDir, literalPairs(body));
  } else {
    paths = [...viteAliasPaths(dir, text), ...svelteKitPaths(dir, text)];
  }
  return paths.length === 0 ? undefined : { scope: `${RUNNER_ALIAS_SCOPE}${dir}`, paths };
}

function objectEntries(value: unknown): [string, unknown][] {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>)
    : [];
}

/** jest's `moduleNameMapper` entries whose key is a prefix (then one `(.*)`) or a whole name. */
function jestPaths(
  dir: string,
  rootDir: string | undefined,
  entries: readonly [string, unknown][],
): [string, string[]][] {
  const root =
    rootDir === undefined ? dir : (joinDir(dir, rootDir.replace(/^<rootDir>\/?/, "")) ?? dir);
  const out: [string, string[]][] = [];
  for (const [key, value] of entries) {
    const pattern = jestKeyPattern(key);
    if (pattern === undefined) continue;
    const targets = (Array.isArray(value) ? value : [value]).flatMap((target) => {
      if (typeof target !== "string") return [];
      const starred = target.replace(/\$1\b/, "*");
      if (pattern.includes("*") !== starred.includes("*") || /\$\d/.test(starred)) return [];
      const inRoot = starred.replace(/^<rootDir>\/?/, "");
      if (inRoot === starred && !starred.startsWith(".")) return [];
      const path = joinDir(root, inRoot);
      return path === undefined ? [] : [path];
    });
    if (targets.length > 0) out.push([pattern, targets]);
  }
  return out;
}

/**
 * A jest regex as an alias pattern: `^@/(.*)$` → `@/*`, `^~(.*)` → `~*`, `^config$` → `config`;
 * undefined for anything else a plain prefix cannot say (`\.(css|less)$`, alternations).
 */
function jestKeyPattern(key: string): string | undefined {
  const match = /^\^?((?:[^\\^$.*+?()[\]{}|]|\\.)*)(\(\.[*+]\))?\$?$/.exec(key);
  if (match === null) return undefined;
  const prefix = (match[1] ?? "").replace(/\\(.)/g, "$1");
  if (prefix === "" || (!key.startsWith("^") && match[2] === undefined)) return undefined;
  return match[2] === undefined ? prefix : `${prefix}*`;
}

/**
 * vite's `alias` (in `resolve` or `test`), object or array form: `'@': path.resolve(__dirname,
 * './src')`, `'@/': new URL('./src/', import.meta.url).pathname`, `{ find: '@', replacement: … }`.
 * A key matches itself and itself then `/`.
 */
function viteAliasPaths(dir: string, text: string): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const at of [...text.matchAll(/\balias\s*:\s*([[{])/g)]) {
    const start = (at.index ?? 0) + at[0].length;
    const body = balanced(text, start, at[1] === "[" ? "[" : "{");
    const pairs =
      at[1] === "["
        ? [...body.matchAll(/find\s*:\s*(["'`])([^"'`]+)\1\s*,\s*replacement\s*:\s*([^}]*)/g)].map(
            (m): [string, string] => [m[2] ?? "", m[3] ?? ""],
          )
        : literalPairs(body).map(([key, value]): [string, string] => [key, String(value)]);
    for (const [key, value] of pairs) {
      const target = viteTarget(dir, value);
      if (target === undefined || key === "") continue;
      if (key.endsWith("/")) out.push([`${key}*`, [`${target}/*`]]);
      else out.push([key, [target]], [`${key}/*`, [`${target}/*`]]);
    }
  }
  return out;
}

/**
 * SvelteKit's `$lib` (`kit.files.lib`, `src/lib` by default), which its vite plugin `sveltekit()`
 * resolves: only the tsconfig that `svelte-kit sync` writes into `.svelte-kit/` spells it, and a
 * checkout has none of it before its first sync. Other `kit.alias` entries are not read.
 */
function svelteKitPaths(dir: string, text: string): [string, string[]][] {
  if (!/\bsveltekit\s*\(/.test(text)) return [];
  const files = objectAfter(text, "files");
  const lib = files === undefined ? undefined : /\blib\s*:\s*(["'`])([^"'`]+)\1/.exec(files)?.[2];
  const target = joinDir(dir, (lib ?? "src/lib").replace(/^\.\//, "").replace(/\/$/, ""));
  return target === undefined
    ? []
    : [
        ["$lib", [target]],
        ["$lib/*", [`${target}/*`]],
      ];
}

/** A path expression relative to the config's folder, when it is one of the usual spellings. */
function viteTarget(dir: string, expression: string): string | undefined {
  const literal = /^\s*(["'`])(\.{1,2}\/[^"'`]*|\.)\1/.exec(expression)?.[2];
  const resolved =
    /(?:resolve|join)\(\s*(?:__dirname|import\.meta\.dirname|process\.cwd\(\))?\s*,?\s*(["'`])([^"'`]*)\1\s*\)/.exec(
      expression,
    )?.[2] ?? /new URL\(\s*(["'`])([^"'`]*)\1\s*,\s*import\.meta\.url\s*\)/.exec(expression)?.[2];
  const path = literal ?? resolved;
  if (path === undefined || path.startsWith("/")) return undefined;
  return joinDir(dir, path.replace(/\/$/, ""));
}

/** The text of the `{ … }` after `key:`, without its braces. */
function objectAfter(text: string, key: string): string | undefined {
  const at = new RegExp(`\\b["']?${key}["']?\\s*:\\s*\\{`).exec(text);
  return at === null ? undefined : balanced(text, at.index + at[0].length, "{");
}

/** From just inside an opening bracket to its closing one (strings and comments skipped). */
function balanced(text: string, start: number, open: "{" | "["): string {
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (ch === '"' || ch === "'" || ch === "`") {
      let end = i + 1;
      while (end < text.length && text[end] !== ch) end += text[end] === "\\" ? 2 : 1;
      i = end;
    } else if (ch === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === open) depth += 1;
    else if (ch === close) {
      if (depth === 0) return text.slice(start, i);
      depth -= 1;
    }
  }
  return text.slice(start);
}

/**
 * An object literal's `key: value` pairs whose key is a string or a name: the value a string
 * literal (its text), an array of them (the strings), or an expression (its text to the comma).
 */
function literalPairs(body: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  const pair =
    /(?:^|[,{\s])(?:(["'`])((?:[^\\]|\\.)*?)\1|([A-Za-z_$][\w$]*))\s*:\s*(?:(["'`])((?:[^\\]|\\.)*?)\4|\[([^\]]*)\]|((?:[^,\n}()]|\((?:[^()]|\([^()]*\))*\))+))/g;
  for (const m of body.matchAll(pair)) {
    const key = m[2] ?? m[3] ?? "";
    if (m[5] !== undefined) out.push([key, m[5].replace(/\\\\/g, "\\")]);
    else if (m[6] !== undefined)
      out.push([key, [...m[6].matchAll(/(["'`])((?:[^\\]|\\.)*?)\1/g)].map((s) => s[2] ?? "")]);
    else out.push([key, (m[7] ?? "").trim()]);
  }
  return out.map(([key, value]) => [key.replace(/\\\\/g, "\\"), value]);
}

function joinDir(dir: string, rest: string): string | undefined {
  return normalizeRel(dir === "" ? rest : `${dir}/${rest}`);
}
