import picomatch from "picomatch";
import { isTestFile } from "../filter.ts";
import { baseName, extensionOf } from "../languages.ts";
import { joinRel, type ProjectView } from "../project-view.ts";
import type { DetectedRunner } from "../runners.ts";

/**
 * Which files are a project's tests, as its runner sees them: read from the runner's own
 * configuration where it can be read without running anything (pytest's `testpaths` and
 * `python_files`, vitest's `include`, jest's `testMatch`/`testRegex`/`roots`, mocha's `spec`,
 * the globs a `node --test` script names), else the runner's documented defaults.
 */
export interface TestSuiteShape {
  /** Whether a project-relative path is one of this runner's test files. */
  isTest(rel: string): boolean;
  /** Whether a project-relative path is test support: conftest, helpers, fixtures, setup. */
  isSupport(rel: string): boolean;
  /** Where the shape came from, for `explain`: "pyproject.toml testpaths", "vitest defaults". */
  evidence: string;
}

const JS_EXT = /\.[cm]?[jt]sx?$/;

/** Folders a runner never collects from. */
const NEVER =
  /(^|\/)(node_modules|\.git|\.venv|venv|\.tox|\.nox|dist|build|coverage|__pycache__|\.tailtest)(\/|$)/;

export function suiteShape(view: ProjectView, runner: DetectedRunner): TestSuiteShape {
  const pkg = runner.package_dir;
  const local = (rel: string): string | undefined => {
    if (pkg === "") return rel;
    return rel.startsWith(`${pkg}/`) ? rel.slice(pkg.length + 1) : undefined;
  };
  const inner = innerShape(view, runner);
  return {
    evidence: inner.evidence,
    isTest: (rel) => {
      const path = local(rel);
      return path !== undefined && !NEVER.test(path) && inner.isTest(path);
    },
    isSupport: (rel) => {
      const path = local(rel);
      return path !== undefined && !NEVER.test(path) && !inner.isTest(path) && isSupportFile(path);
    },
  };
}

interface InnerShape {
  isTest(path: string): boolean;
  evidence: string;
}

function innerShape(view: ProjectView, runner: DetectedRunner): InnerShape {
  switch (runner.id) {
    case "pytest":
      return pytestShape(view, runner.package_dir);
    case "unittest": {
      const at = runner.command.indexOf("-s");
      const start = at === -1 ? "" : (runner.command[at + 1] ?? "");
      const root = start === "." ? "" : start;
      return {
        evidence: "unittest discover (test*.py)",
        isTest: (path) =>
          (root === "" || path.startsWith(`${root}/`)) && /^test.*\.py$/.test(baseName(path)),
      };
    }
    case "vitest":
      return vitestShape(view, runner.package_dir);
    case "jest":
      return jestShape(view, runner.package_dir);
    case "node-test":
      return nodeTestShape(view, runner);
    case "mocha":
      return mochaShape(view, runner.package_dir);
    case "bun":
      return globShape(["**/*.{test,spec}.*", "**/*_{test,spec}.*"], "bun test defaults", JS_EXT);
    case "deno":
      return globShape(["**/{*_,*.,}test.{ts,tsx,mts,js,mjs,jsx}"], "deno test defaults");
    case "go":
      return globShape(["**/*_test.go"], "go test (*_test.go)");
    case "cargo":
    case "nextest":
      return globShape(["tests/**/*.rs"], "cargo integration tests (tests/*.rs)");
    default:
      return { evidence: "test file names", isTest: (path) => isTestFile(path) };
  }
}

function globShape(globs: readonly string[], evidence: string, ext?: RegExp): InnerShape {
  const match = picomatch([...globs], { dot: false });
  return { evidence, isTest: (path) => (ext === undefined || ext.test(path)) && match(path) };
}

// ---------------------------------------------------------------- test support

const SUPPORT_NAMES =
  /^(conftest\.py|__init__\.py|setup[-_]?tests?\.[cm]?[jt]sx?|(vitest|jest)\.setup\.[cm]?[jt]s|test[-_]?(utils|helpers?|setup)\.[cm]?[jt]sx?|helpers?\.[cm]?[jt]sx?)$/i;
const SUPPORT_DIRS = new Set([
  "fixtures",
  "__fixtures__",
  "__mocks__",
  "helpers",
  "support",
  "test-utils",
  "testutils",
  "testing",
]);
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs"]);

/** Test support: what tests load but that holds no tests itself. */
export function isSupportFile(path: string): boolean {
  const name = baseName(path);
  if (name === "conftest.py") return true;
  const dirs = path.split("/").slice(0, -1);
  const inTests = dirs.some((dir) => TEST_DIRS.has(dir));
  if (SUPPORT_NAMES.test(name)) return inTests || name !== "__init__.py";
  if (dirs.some((dir) => SUPPORT_DIRS.has(dir)) && inTests) return true;
  // Any other non-test file under a test folder is a helper the tests import.
  return inTests && (extensionOf(path) === ".py" || JS_EXT.test(path));
}

// ---------------------------------------------------------------- pytest

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

/** A key of a TOML table: a string or an array of strings (one line or several). */
export function tomlStrings(text: string, table: string, key: string): string[] | undefined {
  const start = text.search(new RegExp(`^\\[${table.replace(/\./g, "\\.")}\\]\\s*$`, "m"));
  if (start === -1) return undefined;
  const rest = text.slice(start).split(/\r?\n/).slice(1);
  const end = rest.findIndex((line) => /^\s*\[/.test(line));
  const body = (end === -1 ? rest : rest.slice(0, end)).join("\n");
  const match = new RegExp(`^\\s*${key}\\s*=\\s*(\\[[^\\]]*\\]|"[^"]*"|'[^']*')`, "m").exec(body);
  if (match === null) return undefined;
  return [...(match[1] ?? "").matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? "");
}

function splitWords(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const words = value.split(/[\s,]+/).filter((word) => word !== "");
  return words.length === 0 ? undefined : words;
}

function pytestSetting(view: ProjectView, dir: string, key: string): string[] | undefined {
  const pyproject = view.readText(joinRel(dir, "pyproject.toml"));
  const fromToml =
    pyproject === undefined ? undefined : tomlStrings(pyproject, "tool.pytest.ini_options", key);
  if (fromToml !== undefined) return fromToml;
  for (const [file, section] of [
    ["pytest.ini", "pytest"],
    ["tox.ini", "pytest"],
    ["setup.cfg", "tool:pytest"],
  ] as const) {
    const text = view.readText(joinRel(dir, file));
    if (text === undefined) continue;
    const words = splitWords(iniValue(text, section, key));
    if (words !== undefined) return words;
  }
  return undefined;
}

function pytestShape(view: ProjectView, dir: string): InnerShape {
  const testpaths = pytestSetting(view, dir, "testpaths")?.map((p) =>
    p.replace(/^\.\//, "").replace(/\/$/, ""),
  );
  const configured = pytestSetting(view, dir, "python_files");
  const django = view.exists(joinRel(dir, "manage.py"));
  const patterns = configured ?? ["test_*.py", "*_test.py"];
  const names = picomatch(patterns, { basename: true });
  const roots = testpaths?.filter((p) => p !== "." && p !== "");
  const parts: string[] = [];
  if (testpaths !== undefined) parts.push("testpaths");
  if (configured !== undefined) parts.push("python_files");
  return {
    evidence:
      parts.length === 0
        ? "pytest defaults (test_*.py, *_test.py)"
        : `pytest ${parts.join(" and ")} from the config`,
    isTest: (path) => {
      if (!path.endsWith(".py")) return false;
      if (roots !== undefined && roots.length > 0) {
        const under = roots.some(
          (root) => path === root || path.startsWith(`${root}/`) || picomatch.isMatch(path, root),
        );
        if (!under) return false;
      }
      if (names(baseName(path))) return true;
      // Django keeps an app's tests in tests.py or a tests/ package, collected with pytest-django's
      // python_files; without a config saying so, pytest itself does not collect tests.py.
      return django && configured === undefined && /(^|\/)tests\/test_?[^/]*\.py$/.test(path);
    },
  };
}

// ---------------------------------------------------------------- JS runners

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

function firstConfig(view: ProjectView, dir: string, pattern: RegExp): string | undefined {
  const name = view.list(dir).find((entry) => pattern.test(entry));
  return name === undefined ? undefined : view.readText(joinRel(dir, name));
}

const VITEST_DEFAULT = ["**/*.{test,spec}.?(c|m)[jt]s?(x)"];

function vitestShape(view: ProjectView, dir: string): InnerShape {
  const text =
    firstConfig(view, dir, /^vitest\.config\.[cm]?[jt]s$/) ??
    firstConfig(view, dir, /^vite\.config\.[cm]?[jt]s$/);
  const testBlock =
    text === undefined ? undefined : (/\btest\s*:\s*\{([\s\S]*)/.exec(text)?.[1] ?? undefined);
  const include = testBlock === undefined ? undefined : jsConfigStrings(testBlock, "include");
  const globs = include ?? VITEST_DEFAULT;
  const match = picomatch(
    globs.map((g) => g.replace(/^\.\//, "")),
    { dot: false },
  );
  return {
    evidence: include === undefined ? "vitest defaults (*.test.*, *.spec.*)" : "vitest include",
    isTest: (path) => match(path),
  };
}

const JEST_DEFAULT = ["**/__tests__/**/*.[jt]s?(x)", "**/?(*.)+(spec|test).[jt]s?(x)"];

function jestConfigText(view: ProjectView, dir: string): string | undefined {
  const file = firstConfig(view, dir, /^jest\.config\.[cm]?[jt]s(on)?$/);
  if (file !== undefined) return file;
  const pkg = view.readText(joinRel(dir, "package.json"));
  if (pkg === undefined) return undefined;
  try {
    const json = JSON.parse(pkg) as { jest?: unknown };
    return json.jest === undefined ? undefined : JSON.stringify(json.jest);
  } catch {
    return undefined;
  }
}

function jestShape(view: ProjectView, dir: string): InnerShape {
  const text = jestConfigText(view, dir);
  const testMatch =
    text === undefined
      ? undefined
      : jsConfigStrings(text.replace(/"(\w+)"\s*:/g, "$1:"), "testMatch");
  const testRegex =
    text === undefined
      ? undefined
      : jsConfigStrings(text.replace(/"(\w+)"\s*:/g, "$1:"), "testRegex");
  const roots = (
    text === undefined ? undefined : jsConfigStrings(text.replace(/"(\w+)"\s*:/g, "$1:"), "roots")
  )
    ?.map((root) => root.replace(/^<rootDir>\/?/, "").replace(/\/$/, ""))
    .filter((root) => root !== "");
  const inRoots = (path: string): boolean =>
    roots === undefined || roots.length === 0 || roots.some((root) => path.startsWith(`${root}/`));
  if (testRegex !== undefined) {
    const regexes = testRegex.flatMap((source) => {
      try {
        return [new RegExp(source.replace(/\\\\/g, "\\"))];
      } catch {
        return [];
      }
    });
    return {
      evidence: "jest testRegex",
      isTest: (path) => inRoots(path) && regexes.some((regex) => regex.test(`/${path}`)),
    };
  }
  const globs = (testMatch ?? JEST_DEFAULT).map((g) => g.replace(/^<rootDir>\/?/, ""));
  const match = picomatch(globs, { dot: false });
  return {
    evidence:
      testMatch === undefined ? "jest defaults (__tests__/, *.test.*, *.spec.*)" : "jest testMatch",
    isTest: (path) => inRoots(path) && match(path),
  };
}

/** Node 20's own patterns for `node --test` without arguments, and inside a folder argument. */
const NODE_TEST_DEFAULT = [
  "**/*.test.?(c|m)js",
  "**/*-test.?(c|m)js",
  "**/*_test.?(c|m)js",
  "**/test-*.?(c|m)js",
  "**/test.?(c|m)js",
  "**/test/**/*.?(c|m)js",
];

function scriptArgs(view: ProjectView, dir: string, marker: RegExp): string[] | undefined {
  const pkg = view.readText(joinRel(dir, "package.json"));
  if (pkg === undefined) return undefined;
  let script: unknown;
  try {
    script = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts?.["test"];
  } catch {
    return undefined;
  }
  if (typeof script !== "string") return undefined;
  const command = script.split(/&&|\|\||;/).find((part) =>
    part
      .trim()
      .split(/\s+/)
      .some((word) => marker.test(word)),
  );
  if (command === undefined) return undefined;
  const words = command.trim().split(/\s+/);
  const at = words.findIndex((word) => marker.test(word));
  return words
    .slice(at + 1)
    .filter((word) => !word.startsWith("-"))
    .map((word) => word.replace(/^["']|["']$/g, "").replace(/^\.\//, ""));
}

function nodeTestShape(view: ProjectView, runner: DetectedRunner): InnerShape {
  const args =
    scriptArgs(view, runner.package_dir, /^--test$/) ??
    runner.command
      .slice(runner.command.indexOf("--test") + 1)
      .filter((arg) => !arg.startsWith("-"));
  const defaults = picomatch(NODE_TEST_DEFAULT, { dot: false });
  if (args.length === 0)
    return { evidence: "node --test defaults", isTest: (path) => defaults(path) };
  const globs = args.map((arg) => (/[*?{[]/.test(arg) ? arg : undefined));
  const patterns = globs.filter((g): g is string => g !== undefined);
  const explicit = patterns.length === 0 ? () => false : picomatch(patterns, { dot: false });
  const folders = args.filter((arg) => !/[*?{[]/.test(arg) && !/\.[cm]?[jt]s$/.test(arg));
  const files = new Set(args.filter((arg) => /\.[cm]?[jt]s$/.test(arg)));
  return {
    evidence: `node --test ${args.join(" ")} (package.json scripts.test)`,
    isTest: (path) =>
      files.has(path) ||
      (globs.some((g) => g !== undefined) && explicit(path)) ||
      folders.some((folder) => path.startsWith(`${folder.replace(/\/$/, "")}/`) && defaults(path)),
  };
}

function mochaShape(view: ProjectView, dir: string): InnerShape {
  const rc = firstConfig(view, dir, /^\.mocharc\.(json|jsonc|ya?ml|[cm]?js)$/);
  let spec: string[] | undefined;
  let recursive = false;
  if (rc !== undefined) {
    spec = jsConfigStrings(rc.replace(/"(\w+)"\s*:/g, "$1:"), "spec") ?? yamlList(rc, "spec");
    recursive = /\brecursive\b\s*[:=]\s*true/.test(rc);
  }
  const args = scriptArgs(view, dir, /^mocha$/);
  if (spec === undefined && args !== undefined && args.length > 0) spec = args;
  const script = view.readText(joinRel(dir, "package.json")) ?? "";
  recursive ||= /mocha[^"]*--recursive/.test(script);
  const globs = (spec ?? [recursive ? "test/**/*.{js,cjs,mjs}" : "test/*.{js,cjs,mjs}"]).map((g) =>
    g.replace(/^\.\//, "").replace(/\/$/, ""),
  );
  const expanded = globs.flatMap((g) =>
    /[*?{[]/.test(g) || JS_EXT.test(g) ? [g] : [`${g}/${recursive ? "**/" : ""}*.{js,cjs,mjs,ts}`],
  );
  const match = picomatch(expanded, { dot: false });
  return {
    evidence: spec === undefined ? "mocha defaults (test/*.js)" : "mocha spec",
    isTest: (path) => match(path),
  };
}

function yamlList(text: string, key: string): string[] | undefined {
  const inline = new RegExp(`^${key}\\s*:\\s*['"]?([^'"\\n]+)['"]?\\s*$`, "m").exec(text);
  if (inline !== null && !(inline[1] ?? "").startsWith("[")) return [(inline[1] ?? "").trim()];
  const block = new RegExp(`^${key}\\s*:\\s*\\n((?:\\s*-\\s*.+\\n?)+)`, "m").exec(text);
  if (block === null) return undefined;
  return [...(block[1] ?? "").matchAll(/-\s*['"]?([^'"\n]+)['"]?/g)].map((m) =>
    (m[1] ?? "").trim(),
  );
}
