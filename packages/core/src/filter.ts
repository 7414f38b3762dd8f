import ignore, { type Ignore } from "ignore";
import { detectLanguage, extensionOf, type Language } from "./languages.ts";

export type FileKind =
  | "source"
  | "test"
  | "generated"
  | "config"
  | "lockfile"
  | "docs"
  | "asset"
  | "build-output"
  | "dependency"
  | "cache"
  | "tool-state"
  | "ignored"
  | "outside"
  | "unsupported";

export type SkipKind = Exclude<FileKind, "source">;

export type FileVerdict =
  | { queue: true; kind: "source"; language: Language; reason: string }
  | { queue: false; kind: SkipKind; language?: Language; reason: string };

/** Rules from `.gitignore` and `.tailtest-ignore`, with the file each rule came from. */
export interface IgnoreRules {
  readonly matcher: Ignore;
}

export function buildIgnoreRules(sources: {
  gitignore?: string | undefined;
  tailtestIgnore?: string | undefined;
}): IgnoreRules {
  const matcher = ignore();
  // .tailtest-ignore goes last so its negations can re-include what .gitignore excludes.
  for (const [mark, text] of [
    [".gitignore", sources.gitignore],
    [".tailtest-ignore", sources.tailtestIgnore],
  ] as const) {
    if (text === undefined) continue;
    const patterns = text
      .split(/\r?\n/)
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
      .map((pattern) => ({ pattern, mark }));
    matcher.add(patterns);
  }
  return { matcher };
}

export interface FilterContext {
  ignoreRules?: IgnoreRules | undefined;
  /** Package directories (relative, no trailing slash) whose build folders are anchored there. */
  packageDirs?: readonly string[] | undefined;
  /** The first bytes of the file, when the caller read them: generated markers, empty files. */
  head?: string | undefined;
  /** Extra patterns (gitignore syntax) that mark test files, from config `file_classes.test`. */
  extraTestPatterns?: readonly string[] | undefined;
}

/**
 * Folder names that mean "not the project's own source" wherever they appear: installed
 * dependencies, virtualenvs, caches and agent/tool state.
 */
const ANYWHERE_SEGMENTS: ReadonlyMap<string, [SkipKind, string]> = new Map([
  ...[
    "node_modules",
    "bower_components",
    "site-packages",
    ".venv",
    "venv",
    "virtualenv",
    ".tox",
    ".nox",
  ].map(
    (s) =>
      [s, ["dependency", `inside ${s}/ (installed dependencies)`]] as [string, [SkipKind, string]],
  ),
  ...[
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".cache",
    ".parcel-cache",
    ".turbo",
    ".gradle",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".angular",
    ".terraform",
    ".eggs",
  ].map((s) => [s, ["cache", `inside ${s}/ (tool cache)`]] as [string, [SkipKind, string]]),
  ...[".git", ".hg", ".svn", ".tailtest", ".claude", ".cursor", ".codex", ".idea", ".vscode"].map(
    (s) => [s, ["tool-state", `inside ${s}/ (tool state)`]] as [string, [SkipKind, string]],
  ),
]);

/**
 * Folder names that are build output or vendored code only as the first folder of the project
 * or of a package: `dist/x.js` is output, `src/dist/x.js` is someone's source.
 */
const ANCHORED_SEGMENTS: ReadonlyMap<string, [SkipKind, string]> = new Map([
  ...[
    "dist",
    "build",
    "out",
    "target",
    "coverage",
    ".nyc_output",
    "htmlcov",
    "bin",
    "obj",
    "public/build",
  ].map(
    (s) =>
      [s, ["build-output", `${s}/ at the package root is build output`]] as [
        string,
        [SkipKind, string],
      ],
  ),
  ...["vendor", "third_party", "third-party", "external"].map(
    (s) =>
      [s, ["dependency", `${s}/ at the package root is vendored code`]] as [
        string,
        [SkipKind, string],
      ],
  ),
]);

const LOCKFILES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lockb",
  "bun.lock",
  "deno.lock",
  "Cargo.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "pdm.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
  "gradle.lockfile",
  "packages.lock.json",
  "Package.resolved",
]);

/** Source-language files that are configuration, packaging or framework boilerplate. */
const CONFIG_FILE_PATTERNS: readonly [RegExp, string][] = [
  [/^[\w.-]+\.config\.[cm]?[jt]sx?$/, "a tool config file"],
  [/^\.[\w-]+rc\.[cm]?[jt]s$/, "a tool config file"],
  [/^(Gruntfile|Gulpfile|gulpfile|Jakefile)\.[cm]?[jt]s$/, "a task runner file"],
  [/^(setup|noxfile|fabfile|conf)\.py$/, "packaging or tool configuration"],
  [/^(manage|wsgi|asgi)\.py$/, "framework boilerplate"],
  [/^(Rakefile|Gemfile|Guardfile|Podfile|Fastfile|config\.ru)$/, "a Ruby tool file"],
  [/^(build\.gradle\.kts|settings\.gradle\.kts)$/, "a Gradle build script"],
  [/^Package\.swift$/, "the Swift package manifest"],
  [/^build\.rs$/, "a Cargo build script"],
];

const NON_SOURCE_EXTENSIONS: ReadonlyMap<string, [SkipKind, string]> = new Map([
  ...[".md", ".mdx", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".rtf"].map(
    (e) => [e, ["docs", "documentation"]] as [string, [SkipKind, string]],
  ),
  ...[
    ".json",
    ".jsonc",
    ".json5",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".env",
    ".properties",
    ".xml",
    ".plist",
    ".editorconfig",
    ".lock",
    ".tf",
    ".tfvars",
    ".hcl",
    ".csproj",
    ".sln",
    ".gradle",
  ].map((e) => [e, ["config", "a configuration file"]] as [string, [SkipKind, string]]),
  ...[
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".webp",
    ".svg",
    ".ico",
    ".bmp",
    ".avif",
    ".mp3",
    ".mp4",
    ".wav",
    ".ogg",
    ".webm",
    ".pdf",
    ".woff",
    ".woff2",
    ".ttf",
    ".otf",
    ".eot",
    ".zip",
    ".gz",
    ".tar",
    ".css",
    ".scss",
    ".sass",
    ".less",
    ".styl",
    ".html",
    ".htm",
    ".csv",
    ".tsv",
    ".parquet",
    ".sqlite",
    ".db",
  ].map((e) => [e, ["asset", "an asset or data file"]] as [string, [SkipKind, string]]),
]);

/** Test-file patterns per language, matched against the file name only and anchored. */
const TEST_NAME_PATTERNS: Readonly<Record<Language, readonly RegExp[]>> = {
  python: [/^test_.+\.pyx?$/, /^.+_test\.pyx?$/, /^conftest\.py$/],
  javascript: [/\.(test|spec)\.[cm]?jsx?$/, /_test\.[cm]?jsx?$/, /\.(test|spec)\.(vue|svelte)$/],
  typescript: [/\.(test|spec|test-d)\.[cm]?tsx?$/, /_test\.[cm]?tsx?$/],
  go: [/_test\.go$/],
  ruby: [
    /_spec\.rb$/,
    /_test\.rb$/,
    /^test_.+\.rb$/,
    /^(spec_helper|rails_helper|test_helper)\.rb$/,
  ],
  php: [/^[A-Z]\w*Test\.php$/, /^Pest\.php$/],
  // `IT` needs a lower-case letter or digit before it: `AUDIT.java` is not an integration test.
  java: [
    /^\w*Tests?\.java$/,
    /^\w*[a-z0-9]IT\.java$/,
    /^\w*TestCase\.java$/,
    /^Test[A-Z]\w*\.java$/,
  ],
  kotlin: [/^\w*Tests?\.kts?$/, /^\w*[a-z0-9]IT\.kt$/, /^Test[A-Z]\w*\.kt$/],
  csharp: [/^\w*Tests?\.cs$/],
  swift: [/^\w*Tests?\.swift$/],
  rust: [],
};

/** Folders whose files are tests or test support (fixtures, mocks, helpers) in any language. */
const TEST_DIRS = new Set([
  "tests",
  "test",
  "__tests__",
  "spec",
  "__mocks__",
  "__fixtures__",
  "testdata",
  "Tests",
]);

const GENERATED_NAME_PATTERNS: readonly RegExp[] = [
  /\.pb\.go$/,
  /\.pb\.gw\.go$/,
  /_gen\.go$/,
  /\.gen\.go$/,
  /_generated\.go$/,
  /^zz_generated.*\.go$/,
  /^mock_.+\.go$/,
  /_mock\.go$/,
  /\.generated\.[cm]?[jt]sx?$/,
  /\.gen\.[cm]?[jt]sx?$/,
  /\.graphql\.[jt]s$/,
  /_pb2(_grpc)?\.pyi?$/,
  /\.(g|designer|Designer|generated)\.cs$/,
  /\.g\.dart$/,
];

const GENERATED_HEADER =
  /@generated|DO NOT EDIT|Code generated .* DO NOT EDIT|<auto-generated|auto-generated by|automatically generated by/i;
const HEADER_LINES = 10;

/**
 * True for a folder (relative, `/` separators) that a project walk never needs to enter:
 * dependency, cache and tool-state folders anywhere, build output and vendored code at the
 * project root, and folders the ignore rules exclude. Nothing in them would be queued.
 */
export function isSkippedDir(relDir: string, rules?: IgnoreRules): boolean {
  const segments = relDir.split("/");
  const name = segments[segments.length - 1] ?? relDir;
  if (ANYWHERE_SEGMENTS.has(name)) return true;
  if (segments.length === 1 && ANCHORED_SEGMENTS.has(name)) return true;
  return rules?.matcher.ignores(`${relDir}/`) === true;
}

/**
 * Decides whether an edited file is source that deserves a test. `relPath` is relative to the
 * project root with `/` separators. The first rule that matches wins, and says why.
 */
export function classifyFile(relPath: string, context: FilterContext = {}): FileVerdict {
  const path = relPath.replace(/\\/g, "/").replace(/^\.\//, "");
  if (path === "" || path === ".." || path.startsWith("../") || path.startsWith("/")) {
    return { queue: false, kind: "outside", reason: "outside the project" };
  }
  const segments = path.split("/");
  const name = segments[segments.length - 1] ?? path;
  const dirs = segments.slice(0, -1);
  const language = detectLanguage(path);
  return (
    classifyByIgnoreRules(path, context.ignoreRules) ??
    classifyBySegments(dirs, context.packageDirs ?? []) ??
    (language === undefined
      ? classifyNonSource(name, path)
      : classifySourceFile(name, dirs, path, language, context))
  );
}

function classifyByIgnoreRules(
  path: string,
  rules: IgnoreRules | undefined,
): FileVerdict | undefined {
  const result = rules?.matcher.test(path);
  if (result?.ignored !== true) return undefined;
  const rule = result.rule;
  const reason =
    rule === undefined ? "ignored" : `ignored by ${rule.mark ?? "ignore rules"} (${rule.pattern})`;
  return { queue: false, kind: "ignored", reason };
}

function classifyNonSource(name: string, path: string): FileVerdict {
  if (LOCKFILES.has(name)) return { queue: false, kind: "lockfile", reason: "a lock file" };
  if (
    /^(Dockerfile|Containerfile|Makefile|Procfile|Justfile)$/.test(name) ||
    name.endsWith(".dockerfile")
  ) {
    return { queue: false, kind: "config", reason: "a build or container file" };
  }
  const ext = extensionOf(path);
  const known = NON_SOURCE_EXTENSIONS.get(ext);
  if (known !== undefined) return { queue: false, kind: known[0], reason: known[1] };
  const reason = ext === "" ? "no file extension" : `not a supported source language (${ext})`;
  return { queue: false, kind: "unsupported", reason };
}

function classifySourceFile(
  name: string,
  dirs: readonly string[],
  path: string,
  language: Language,
  context: FilterContext,
): FileVerdict {
  if (LOCKFILES.has(name)) return { queue: false, kind: "lockfile", reason: "a lock file" };
  const testReason = testFileReason(name, dirs, language, path, context.extraTestPatterns);
  if (testReason !== undefined) return { queue: false, kind: "test", language, reason: testReason };
  const config = CONFIG_FILE_PATTERNS.find(([pattern]) => pattern.test(name));
  if (config !== undefined) return { queue: false, kind: "config", language, reason: config[1] };
  if (name.endsWith(".pyi") || /\.d\.[cm]?ts$/.test(name)) {
    return { queue: false, kind: "generated", language, reason: "type declarations only" };
  }
  if (GENERATED_NAME_PATTERNS.some((pattern) => pattern.test(name))) {
    return { queue: false, kind: "generated", language, reason: "generated code (by file name)" };
  }
  const head = context.head;
  if (head !== undefined && GENERATED_HEADER.test(head.split("\n", HEADER_LINES).join("\n"))) {
    return { queue: false, kind: "generated", language, reason: "generated code (header marker)" };
  }
  if (head?.trim() === "")
    return { queue: false, kind: "unsupported", language, reason: "empty file" };
  return { queue: true, kind: "source", language, reason: `${language} source` };
}

/** True for files that are tests in their language (used for TDD file classes as well). */
export function isTestFile(relPath: string, extraTestPatterns?: readonly string[]): boolean {
  const path = relPath.replace(/\\/g, "/");
  const language = detectLanguage(path);
  if (language === undefined) return false;
  const segments = path.split("/");
  const name = segments[segments.length - 1] ?? path;
  return (
    testFileReason(name, segments.slice(0, -1), language, path, extraTestPatterns) !== undefined
  );
}

function classifyBySegments(
  dirs: readonly string[],
  packageDirs: readonly string[],
): FileVerdict | undefined {
  for (const dir of dirs) {
    const hit = ANYWHERE_SEGMENTS.get(dir);
    if (hit !== undefined) return { queue: false, kind: hit[0], reason: hit[1] };
  }
  const anchors = [0];
  const joined = dirs.join("/");
  for (const pkg of packageDirs) {
    if (pkg !== "" && (joined === pkg || joined.startsWith(`${pkg}/`)))
      anchors.push(pkg.split("/").length);
  }
  for (const start of anchors) {
    const first = dirs[start];
    if (first === undefined) continue;
    const hit = ANCHORED_SEGMENTS.get(first);
    if (hit !== undefined) return { queue: false, kind: hit[0], reason: hit[1] };
  }
  return undefined;
}

function testFileReason(
  name: string,
  dirs: readonly string[],
  language: Language,
  path: string,
  extraTestPatterns: readonly string[] | undefined,
): string | undefined {
  if (TEST_NAME_PATTERNS[language].some((pattern) => pattern.test(name))) {
    return `a ${language} test file (by name)`;
  }
  const testDir = dirs.find((dir) => TEST_DIRS.has(dir) || /\.Tests?$/.test(dir));
  if (testDir !== undefined) return `inside ${testDir}/ (tests and test support)`;
  if (language === "rust" && (dirs[0] === "benches" || dirs.includes("tests")))
    return "a rust integration test";
  if (
    extraTestPatterns !== undefined &&
    extraTestPatterns.length > 0 &&
    ignore()
      .add([...extraTestPatterns])
      .ignores(path)
  ) {
    return "a test file (config file_classes.test)";
  }
  return undefined;
}
