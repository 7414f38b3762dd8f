import ignore, { type Ignore } from "ignore";
import { detectLanguage, extensionOf, type Language } from "./languages.ts";
import { stripCommentsAndStrings } from "../config/complexity.ts";
import { quickTest } from "../util/literal-guard.ts";
import { goBuildExcluded } from "./go-build.ts";
import { moduleShape } from "./module-shape.ts";

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
  | "unsupported"
  | "test-support"
  | "example"
  | "script"
  | "benchmark"
  | "story"
  | "migration"
  | "type-only"
  | "re-export";

export type SkipKind = Exclude<FileKind, "source">;

/**
 * The verdict on one file. `rule` names the rule that decided (stable, for `tailtest explain`
 * and its `--json`); `reason` says why in words.
 */
export type FileVerdict =
  | { queue: true; kind: "source"; language: Language; reason: string; rule: string }
  | { queue: false; kind: SkipKind; language?: Language; reason: string; rule: string };

/** Rules from `.gitignore` and `.tailtest-ignore`, with the file each rule came from. */
export interface IgnoreRules {
  readonly matcher: Ignore;
  /** `.tailtest-ignore`'s negations (`!scripts/deploy.py`): files to queue whatever a built-in rule says. */
  readonly reinclude?: Ignore | undefined;
  /**
   * Every rule names folders only (`node_modules/`) and none re-includes: a file is ignored only
   * through a folder, so a long list of files need not be matched one by one.
   */
  readonly foldersOnly?: boolean;
}

/** How many files `walkedFileIgnored` asks one copy of the matcher about. */
const FILES_PER_MATCHER = 2048;

/**
 * For a walk that enters no folder `isSkippedDir` skips: whether each file it meets is ignored,
 * without the matcher keeping every answer. The matcher caches each path it is asked about (4 MB
 * over a 50,000-file tree), so the files go to a copy of it (its compiled rules shared) made anew
 * every `FILES_PER_MATCHER` files. With only folder rules no file in an entered folder is ignored.
 */
export function walkedFileIgnored(rules: IgnoreRules | undefined): (rel: string) => boolean {
  if (rules === undefined || rules.foldersOnly === true) return () => false;
  let copy = ignore().add(rules.matcher);
  let asked = 0;
  return (rel) => {
    if (asked === FILES_PER_MATCHER) {
      copy = ignore().add(rules.matcher);
      asked = 0;
    }
    asked += 1;
    return copy.ignores(rel);
  };
}

export function buildIgnoreRules(sources: {
  gitignore?: string | undefined;
  tailtestIgnore?: string | undefined;
}): IgnoreRules {
  const matcher = ignore();
  let foldersOnly = true;
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
    if (patterns.some(({ pattern }) => pattern.startsWith("!") || !pattern.trim().endsWith("/")))
      foldersOnly = false;
  }
  const negations = (sources.tailtestIgnore ?? "")
    .split(/\r?\n/)
    .filter((line) => line.startsWith("!") && line.trim() !== "!")
    .map((line) => line.slice(1));
  return {
    matcher,
    reinclude: negations.length > 0 ? ignore().add(negations) : undefined,
    foldersOnly,
  };
}

export interface FilterContext {
  ignoreRules?: IgnoreRules | undefined;
  /** Package directories (relative, no trailing slash) whose build folders are anchored there. */
  packageDirs?: readonly string[] | undefined;
  /** The first bytes of the file, when the caller read them: generated markers, empty files. */
  head?: string | undefined;
  /** True when `head` is the whole file (content rules that need every line apply only then). */
  headComplete?: boolean | undefined;
  /** Extra patterns (gitignore syntax) that mark test files, from config `file_classes.test`. */
  extraTestPatterns?: readonly string[] | undefined;
  /** Config `file_classes.production`: always queued (when in a known language). */
  productionPatterns?: readonly string[] | undefined;
  /** Config `file_classes.exempt`: never queued. */
  exemptPatterns?: readonly string[] | undefined;
  /**
   * Git tracks the file: `.gitignore` does not apply to it, as in git (a package's `index.js`
   * pattern for release files at the root still leaves the tracked `src/index.js` a source).
   * `.tailtest-ignore` and config rules still do.
   */
  tracked?: boolean | undefined;
  /**
   * Go only: the `go` line of the go.mod above the file (`1.18`), read when the file's build
   * constraint names a Go version: `//go:build !go1.18` in a go 1.18 module is never built.
   */
  goVersion?: string | undefined;
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
    "_vendor",
    "vendored",
    "third_party",
    "third-party",
    ".yarn",
    "jspm_packages",
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
  ...[
    ".output",
    "storybook-static",
    ".vercel",
    ".netlify",
    ".docusaurus",
    ".expo",
    ".wrangler",
  ].map(
    (s) => [s, ["build-output", `inside ${s}/ (build output)`]] as [string, [SkipKind, string]],
  ),
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
  ...["vendor", "external"].map(
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

/**
 * Folders whose data files (JSON, YAML, text: no language of their own) are test data: the test
 * folders and `fixtures/`. An edit to one runs the tests that load it (`project/test-data.ts`).
 */
export const TEST_DATA_DIRS: ReadonlySet<string> = new Set([...TEST_DIRS, "fixtures"]);

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
  /_(grpc_)?pb\.[cm]?[jt]s$/,
  /_grpc_web_pb\.[jt]s$/,
  /ServiceClientPb\.ts$/,
  /_connect\.[jt]s$/,
  /\.(g|designer|Designer|generated)\.cs$/,
  /\.g\.dart$/,
];

/** Folders whose files a generator writes (relay, GraphQL codegen, OpenAPI clients). */
const GENERATED_DIRS = new Set(["__generated__", "generated", "_generated", "gen-src"]);

/**
 * Generated-code markers in a file's first lines. Upper-case `DO NOT EDIT` is the convention
 * (Go, protoc); prose that says "the generated id" or "do not edit the array" is not a marker.
 */
export const GENERATED_HEADER_EXACT = /@generated\b|\bDO NOT EDIT\b|<auto-generated/;
export const GENERATED_HEADER_WORDS =
  /\b(?:auto-?generated|automatically generated|generated automatically|code generated) by\b|\bgenerated by (?:the )?(?:protocol buffer compiler|grpc|openapi|swagger|orval|graphql-codegen|prisma|kysely|drizzle|protoc|setuptools[-_]scm|versioneer|hatch|sqlc|buf|@hey-api|openapi-typescript|apollo|relay)|\bthis (?:file|class|module) (?:is|was|has been) (?:auto-?generated|automatically generated|generated by)\b|\bdo not edit (?:this file )?manually\b|\bdon't change, don't track in version control\b/i;
const HEADER_LINES = 10;
/** Bundler output by its first bytes: banners, runtimes, source maps. */
const BUNDLE_MARKERS =
  /^\/\/# sourceMappingURL=|\/\*! For license information please see|webpackBootstrap|__webpack_require__|\/\*!\s*\*{5,}|\bparcelRequire\b|\/\/ modules are defined as an array|System\.register\(\[|^\(function\s*\(modules\)/m;
/** A line this long is minified or packed data, not hand-written code. */
const MINIFIED_LINE = 1000;
/** `index-D8aKx2Vt.js`, `main.3f2a9b1c.js`: a content hash in the name is a bundler's output. */
const HASHED_NAME = /^[\w.-]+?[-.]([A-Za-z0-9_]{8,20})\.(?:min\.)?[cm]?js$/;

/** Folders whose code is not the project's tested source, wherever they are (any language). */
const FOLDER_RULES: ReadonlyMap<string, [SkipKind, string, string]> = new Map([
  ...["examples", "example", "docs_src", "docs_examples"].map(
    (s) =>
      [s, ["example", "example-folder", `inside ${s}/ (example code)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
  ...["benchmarks", "benchmark", "bench", "benches"].map(
    (s) =>
      [s, ["benchmark", "benchmark-folder", `inside ${s}/ (benchmarks)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
  ...["migrations", "db-migrations"].map(
    (s) =>
      [s, ["migration", "migration-folder", `inside ${s}/ (database migrations)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
  ...["_static", "_ext", "_templates"].map(
    (s) =>
      [s, ["example", "docs-folder", `inside ${s}/ (documentation tooling)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
  ...["locale", "locales", "translations"].map(
    (s) =>
      [s, ["asset", "locale-folder", `inside ${s}/ (translations and locale data)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
  ...[".storybook", ".vitepress", ".vuepress", ".docz", ".husky", ".github", ".circleci"].map(
    (s) =>
      [s, ["config", "tool-folder", `inside ${s}/ (tool configuration)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
]);

/**
 * Folders that are scripts, samples or docs only as the first folder of the project or of a
 * package: `scripts/release.mjs` is a build task, `src/features/tasks/list.ts` is source.
 */
const ROOT_FOLDER_RULES: ReadonlyMap<string, [SkipKind, string, string]> = new Map([
  ...[
    "scripts",
    "script",
    "tasks",
    "tools",
    "tooling",
    "build-scripts",
    "seeds",
    "seeders",
    "templates",
  ].map(
    (s) =>
      [s, ["script", "script-folder", `${s}/ at the package root (scripts and build tasks)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
  ...["sample", "samples", "demo", "demos", "playground", "playgrounds", "sandbox"].map(
    (s) =>
      [s, ["example", "example-folder", `${s}/ at the package root (example code)`]] as [
        string,
        [SkipKind, string, string],
      ],
  ),
]);

/** First segments of reversed-domain package names (`com/example/`, `org/example/`). */
const JAVA_ROOTS = /^(com|org|net|io|dev|co|de|fr|uk|nl|me|edu|gov)$/;
/** Folders whose subfolders are named after the URL they serve (fastify autoload, file routers). */
const ROUTE_DIRS: ReadonlySet<string> = new Set(["routes", "pages"]);

/** Folders that hold packages in a monorepo: `packages/web/scripts/x.mjs` is at a package root. */
const MONOREPO_CONTAINERS = new Set(["packages", "apps", "libs", "services", "plugins", "modules"]);

/** Folders of end-to-end suites, their page objects and fixtures. */
const E2E_DIRS = new Set(["e2e", "cypress", "playwright", "e2e-tests", "playwright-tests"]);

/** Test support by name: setup files, test utilities, MSW's worker. */
const TEST_SUPPORT_NAMES: readonly RegExp[] = [
  /^(setupTests|setup-tests|setupTest|test-setup|testSetup|setup\.tests?)\.[cm]?[jt]sx?$/,
  /^(vitest|jest|playwright|cypress|karma|ava|mocha)\.(setup|setup-after-env|global-setup|global-teardown|teardown)\.[cm]?[jt]sx?$/,
  /^(global-setup|global-teardown|globalSetup|globalTeardown)\.[cm]?[jt]s$/,
  /^(test-utils|testUtils|test-helpers|testHelpers|test_utils|test-utilities|testing-utils|render-with-providers)\.[cm]?[jt]sx?$/,
  /^mockServiceWorker\.js$/,
];
/** JS/TS folders of mocks and test data. */
const TEST_SUPPORT_DIRS = new Set(["mocks", "__mocks__", "__fixtures__", "test-utils", "testing"]);

const STORY_NAME = /\.(stories|story)\.[cm]?[jt]sx?$|\.(stories|story)\.(vue|svelte|mdx)$/;
const BENCH_NAME = /\.(bench|benchmark|perf)\.[cm]?[jt]sx?$|^bench_.+\.py$|_bench(mark)?\.py$/;
const TIMESTAMPED_MIGRATION = /^\d{8,17}[-_]\w[\w-]*\.[cm]?[jt]s$/;
const DJANGO_TESTS_NAME = /^tests?(_\w+)?\.py$/;
const PLAIN_JS_NAME = /\.[cm]?js$/;
const COMPONENT_NAME = /\.(?:[jt]sx|vue|svelte)$/;
const TYPE_DECLARATIONS_NAME = /\.d\.[cm]?ts$/;
const MINIFIED_NAME = /[.-]min\.[cm]?js$/;
const ROOT_TEST_NAME = /^(test|spec)\.[cm]?[jt]sx?$/;
const E2E_TEST_NAME = /\.(cy|e2e|e2e-spec)\.[cm]?[jt]sx?$|_spec\.[cm]?[jt]sx?$/;
const TEMPLATE_HOOK_NAME = /^(pre|post)_gen_project\.py$/;
const PYTHON_TEST_UTILS_NAME = /^(testutils|testing_utils|test_helpers)\.py$/;

/** A folder of documentation, where Sphinx's `conf.py` lives (`docs/source/conf.py`). */
const isDocsFolder = (dir: string) => /^(docs?|documentation|sphinx)$/i.test(dir);

/**
 * The tool or framework file a name says, less two names a module of the project takes too
 * (the thirty-second round; each was neither gated nor tested): a `build.rs` inside `src/` is a
 * module of the crate (`mod build;`), not the build script Cargo runs from beside Cargo.toml,
 * and a `conf.py` outside the root and a docs folder is a package's own module
 * (`from mypkg.conf import settings`, django-appconf's pattern), not Sphinx's.
 */
function configByName(
  name: string,
  dirs: readonly string[],
): (typeof CONFIG_NAME_PATTERNS)[number] | undefined {
  if (name === "build.rs" && dirs.includes("src")) return undefined;
  if (name === "conf.py" && dirs.length > 0 && !dirs.some(isDocsFolder)) return undefined;
  return CONFIG_NAME_PATTERNS.find(([pattern]) => quickTest(pattern, name));
}

/** Tool and framework files by name, in any folder. */
const CONFIG_NAME_PATTERNS: readonly [RegExp, string, string, SkipKind?][] = [
  [/^[\w.-]+\.config\.[cm]?[jt]sx?$/, "config-name", "a tool config file"],
  [/^\.[\w-]+rc\.[cm]?[jt]s$/, "config-name", "a tool config file"],
  [/^vitest\.workspace\.[cm]?[jt]s$/, "config-name", "a tool config file"],
  [/^[\w.-]+\.conf\.[cm]?js$/, "config-name", "a tool config file"],
  [/^(docusaurus\.[\w.-]+|sidebars)\.[cm]?[jt]s$/, "config-name", "a Docusaurus config file"],
  [/^setupProxy\.js$/, "config-name", "a dev-server proxy config"],
  [/^seed\.[cm]?[jt]s$|^seed\.py$/, "script-name", "a database seed script", "script"],
  [
    /\.(dto|entity|interface)\.ts$/,
    "declaration-name",
    "a DTO, entity or interface declaration",
    "type-only",
  ],
  [/\.module\.ts$/, "declaration-name", "a framework module declaration (wiring only)"],
  [/^(Gruntfile|Gulpfile|gulpfile|Jakefile)\.[cm]?[jt]s$/, "config-name", "a task runner file"],
  [/^gatsby-(config|node|browser|ssr)\.[cm]?[jt]sx?$/, "config-name", "a Gatsby config file"],
  [/^knexfile\.[cm]?[jt]s$/, "config-name", "a knex config file"],
  [/^\.pnp\.(c?js|loader\.mjs)$/, "config-name", "Yarn Plug'n'Play's generated loader"],
  [
    /^(setup|noxfile|fabfile|conf|gunicorn\.conf|gunicorn_config)\.py$/,
    "config-name",
    "packaging or tool configuration",
  ],
  [/^(manage|wsgi|asgi)\.py$/, "boilerplate", "framework boilerplate"],
  [/^settings\.py$/, "settings", "a settings module"],
  [/^(Rakefile|Gemfile|Guardfile|Podfile|Fastfile|config\.ru)$/, "config-name", "a Ruby tool file"],
  [/^(build\.gradle\.kts|settings\.gradle\.kts)$/, "config-name", "a Gradle build script"],
  [/^Package\.swift$/, "config-name", "the Swift package manifest"],
  [/^build\.rs$/, "config-name", "a Cargo build script"],
];

/** The rule ids `tailtest explain` shows, so a skip can be traced to what decided it. */
type Verdict = FileVerdict;

/**
 * True for a folder (relative, `/` separators) that a project walk never needs to enter:
 * dependency, cache and tool-state folders anywhere, build output and vendored code at the
 * project root, and folders the ignore rules exclude. Nothing in them would be queued. Asked for
 * a file of a `language`, a root `bin/` or `obj/` holds source unless the language compiles to
 * them, as `classifyFile` says (a JavaScript package's `bin/cli.js`); a walk, which does not know
 * the languages below, asks `walkSkipsDir`.
 */
export function isSkippedDir(relDir: string, rules?: IgnoreRules, language?: Language): boolean {
  const segments = relDir.split("/");
  const name = segments[segments.length - 1] ?? relDir;
  if (ANYWHERE_SEGMENTS.has(name)) return true;
  if (segments.length === 1 && ANCHORED_SEGMENTS.has(name) && !entryFolder(name, language))
    return true;
  return rules?.matcher.ignores(`${relDir}/`) === true;
}

/**
 * `isSkippedDir` for a walk, which does not know the languages below a folder: a root `bin/` is
 * entered (a JavaScript or Python package's command lives there), and each file met in it is
 * judged with its own language (`classifyFile`, `inSourceFolder`), so build output there is still
 * left out. A root `obj/` holds only .NET's intermediate output and stays skipped.
 */
export function walkSkipsDir(relDir: string, rules?: IgnoreRules): boolean {
  return relDir === "bin" ? rules?.matcher.ignores("bin/") === true : isSkippedDir(relDir, rules);
}

/**
 * Whether the ignore rules skip a file git tracks, by its own path or a folder on its way: as
 * `classifyFile` says for a tracked file, a `.gitignore` rule leaves it alone (a committed
 * `lib/` that `.gitignore` lists), `.tailtest-ignore` still skips it.
 */
export function trackedFileIgnored(rel: string, rules: IgnoreRules | undefined): boolean {
  if (rules === undefined) return false;
  const own = (path: string): boolean => {
    const result = rules.matcher.test(path);
    return result.ignored && result.rule?.mark !== ".gitignore";
  };
  const parts = rel.split("/");
  for (let depth = 1; depth < parts.length; depth += 1)
    if (own(`${parts.slice(0, depth).join("/")}/`)) return true;
  return own(rel);
}

/** `bin/` or `obj/` asked for a file of a language that does not build into them. */
function entryFolder(name: string, language: Language | undefined): boolean {
  return language !== undefined && (name === "bin" || name === "obj") && !COMPILED.has(language);
}

/**
 * Decides whether an edited file is source that deserves a test. `relPath` is relative to the
 * project root with `/` separators. The first rule that matches wins, and says why: the
 * project's own rules (config `file_classes`, `.tailtest-ignore`, `.gitignore`) first, then the
 * built-in ones by folder, by name, and last by the file's first bytes.
 */
export function classifyFile(relPath: string, context: FilterContext = {}): FileVerdict {
  const path = relPath.replace(/\\/g, "/").replace(/^\.\//, "");
  if (path === "" || path === ".." || path.startsWith("../") || path.startsWith("/")) {
    return { queue: false, kind: "outside", reason: "outside the project", rule: "outside" };
  }
  const segments = path.split("/");
  const name = segments[segments.length - 1] ?? path;
  const dirs = segments.slice(0, -1);
  const language = detectLanguage(path);
  const own = classifyByProjectRules(path, language, context);
  if (own !== undefined) return own;
  return (
    classifyBySegments(dirs, context.packageDirs ?? [], language) ??
    (language === undefined
      ? classifyNonSource(name, path)
      : classifySourceFile(name, dirs, path, language, context))
  );
}

/**
 * The project's own rules, which override every built-in one: config `file_classes.test` and
 * `exempt` skip, `.tailtest-ignore`/`.gitignore` skip, a `.tailtest-ignore` negation or config
 * `file_classes.production` queues.
 */
function classifyByProjectRules(
  path: string,
  language: Language | undefined,
  context: FilterContext,
): FileVerdict | undefined {
  const test = matchingPattern(context.extraTestPatterns, path);
  if (test !== undefined && language !== undefined) {
    const reason = `a test file (config file_classes.test ${test})`;
    return { queue: false, kind: "test", language, reason, rule: "file_classes.test" };
  }
  const exempt = matchingPattern(context.exemptPatterns, path);
  if (exempt !== undefined) {
    const reason = `exempt (config file_classes.exempt ${exempt})`;
    return { queue: false, kind: "ignored", reason, rule: "file_classes.exempt" };
  }
  const ignored = ignoredByRules(path, context);
  if (ignored !== undefined) return ignored;
  if (language === undefined) return undefined;
  const production = matchingPattern(context.productionPatterns, path);
  if (production !== undefined) {
    const reason = `${language} source (config file_classes.production ${production})`;
    return { queue: true, kind: "source", language, reason, rule: "file_classes.production" };
  }
  const reincluded = context.ignoreRules?.reinclude?.test(path);
  if (reincluded?.ignored === true) {
    const pattern = reincluded.rule?.pattern ?? "pattern";
    const reason = `${language} source (re-included by .tailtest-ignore !${pattern})`;
    return { queue: true, kind: "source", language, reason, rule: "tailtest-ignore" };
  }
  return undefined;
}

/** `.gitignore`'s or `.tailtest-ignore`'s skip; `.gitignore` leaves a tracked file alone. */
function ignoredByRules(path: string, context: FilterContext): FileVerdict | undefined {
  const result = context.ignoreRules?.matcher.test(path);
  if (result?.ignored !== true) return undefined;
  const rule = result.rule;
  if (context.tracked === true && rule?.mark === ".gitignore") return undefined;
  const reason =
    rule === undefined ? "ignored" : `ignored by ${rule.mark ?? "ignore rules"} (${rule.pattern})`;
  const mark = rule?.mark === ".gitignore" ? "gitignore" : "tailtest-ignore";
  return { queue: false, kind: "ignored", reason, rule: mark };
}

const compiledPatterns = new Map<string, Ignore>();

function matchingPattern(list: readonly string[] | undefined, path: string): string | undefined {
  if (list === undefined || list.length === 0) return undefined;
  const key = list.join("\n");
  let matcher = compiledPatterns.get(key);
  if (matcher === undefined) {
    matcher = ignore().add(list.filter((pattern) => pattern.trim() !== ""));
    if (compiledPatterns.size > 64) compiledPatterns.clear();
    compiledPatterns.set(key, matcher);
  }
  const result = matcher.test(path);
  return result.ignored ? (result.rule?.pattern ?? "pattern") : undefined;
}

function classifyNonSource(name: string, path: string): FileVerdict {
  if (LOCKFILES.has(name))
    return { queue: false, kind: "lockfile", reason: "a lock file", rule: "lockfile" };
  if (
    /^(Dockerfile|Containerfile|Makefile|Procfile|Justfile)$/.test(name) ||
    name.endsWith(".dockerfile")
  ) {
    return {
      queue: false,
      kind: "config",
      reason: "a build or container file",
      rule: "config-name",
    };
  }
  const ext = extensionOf(path);
  const known = NON_SOURCE_EXTENSIONS.get(ext);
  if (known !== undefined)
    return { queue: false, kind: known[0], reason: known[1], rule: "extension" };
  const reason = ext === "" ? "no file extension" : `not a supported source language (${ext})`;
  return { queue: false, kind: "unsupported", reason, rule: "extension" };
}

/** Rules that decide by folder names and file names, before any content is read. */
function classifyByName(
  name: string,
  dirs: readonly string[],
  path: string,
  language: Language,
  context: FilterContext,
): Verdict | undefined {
  const skip = (kind: SkipKind, rule: string, reason: string): Verdict => ({
    queue: false,
    kind,
    language,
    reason,
    rule,
  });
  if (LOCKFILES.has(name)) return skip("lockfile", "lockfile", "a lock file");
  const test = testFileVerdict(name, dirs, language, path);
  if (test !== undefined) return skip("test", test[0], test[1]);
  const support = testSupportReason(name, dirs, language);
  if (support !== undefined) return skip("test-support", support[0], support[1]);
  if (quickTest(STORY_NAME, name)) return skip("story", "story", "a Storybook story");
  if (quickTest(BENCH_NAME, name)) return skip("benchmark", "benchmark", "a benchmark");
  const config = configByName(name, dirs);
  if (config !== undefined) return skip(config[3] ?? "config", config[1], config[2]);
  const folder = folderRule(dirs, context.packageDirs ?? [], language);
  if (folder !== undefined) return skip(folder[0], folder[1], folder[2]);
  if (language === "python") {
    const python = pythonNameRule(name, dirs, context.head);
    if (python !== undefined) return skip(python[0], python[1], python[2]);
  }
  if (quickTest(TIMESTAMPED_MIGRATION, name))
    return skip("migration", "migration-name", "a timestamped database migration");
  if (name.endsWith(".pyi") || quickTest(TYPE_DECLARATIONS_NAME, name))
    return skip("type-only", "type-declarations", "type declarations only");
  if (quickTest(MINIFIED_NAME, name)) return skip("build-output", "minified", "minified code");
  if (GENERATED_NAME_PATTERNS.some((pattern) => quickTest(pattern, name)))
    return skip("generated", "generated-name", "generated code (by file name)");
  const generatedDir = dirs.find((dir) => GENERATED_DIRS.has(dir));
  if (generatedDir !== undefined)
    return skip("generated", "generated-folder", `inside ${generatedDir}/ (generated code)`);
  return undefined;
}

function folderRule(
  dirs: readonly string[],
  packageDirs: readonly string[],
  language: Language,
): [SkipKind, string, string] | undefined {
  for (const [i, dir] of dirs.entries()) {
    const hit = FOLDER_RULES.get(dir);
    // `com/example/Calc.java` is a package name, `routes/example/index.js` a route (fastify's
    // autoload serves it at /example), not an examples folder.
    const parent = dirs[i - 1] ?? "";
    if (
      hit !== undefined &&
      !(hit[0] === "example" && (JAVA_ROOTS.test(parent) || ROUTE_DIRS.has(parent)))
    )
      return hit;
    if (dir.startsWith("template-"))
      return ["example", "template-folder", `inside ${dir}/ (a project template)`];
    if (dir === "migrate" && dirs[i - 1] === "db")
      return ["migration", "migration-folder", "inside db/migrate/ (database migrations)"];
  }
  for (const start of anchorsOf(dirs, packageDirs)) {
    const first = dirs[start];
    const hit = first === undefined ? undefined : ROOT_FOLDER_RULES.get(first);
    if (hit !== undefined) return hit;
    // A docs site's code (VitePress, Docusaurus themes); a Python `docs/` is often a Django app.
    if (first === "docs" && language !== "python")
      return ["example", "docs-folder", "docs/ at the package root (documentation site code)"];
  }
  return undefined;
}

const ALEMBIC_DIRS = new Set(["alembic", "migrations"]);
const DEFINES_CODE = /^(?:async\s+)?(?:def|class)\s/m;

/** Python files that are settings, migrations, entry points or version stamps by their place. */
function pythonNameRule(
  name: string,
  dirs: readonly string[],
  head: string | undefined,
): [SkipKind, string, string] | undefined {
  const parent = dirs[dirs.length - 1] ?? "";
  const grandparent = dirs[dirs.length - 2] ?? "";
  if (parent === "settings") return ["config", "settings", "a settings module"];
  if (name === "tasks.py" && dirs.length === 0)
    return ["script", "script-name", "an invoke tasks file"];
  if (quickTest(TEMPLATE_HOOK_NAME, name))
    return ["script", "script-name", "a project template's generation hook"];
  const alembic = head?.includes("alembic") === true;
  if (parent === "versions" && (ALEMBIC_DIRS.has(grandparent) || alembic))
    return ["migration", "migration-folder", "an Alembic migration"];
  if (name === "env.py" && (ALEMBIC_DIRS.has(parent) || alembic))
    return ["migration", "migration-folder", "Alembic's migration environment"];
  const definesCode = head !== undefined && DEFINES_CODE.test(head);
  if (name === "__main__.py" && !definesCode)
    return ["config", "module-entry", "a package's `python -m` entry point"];
  if ((name === "_version.py" || name === "version.py") && !definesCode)
    return ["generated", "version-module", "a version stamp"];
  return undefined;
}

/** Rules that need the file's first bytes: generated markers, bundles, module shapes. */
function classifyByContent(
  name: string,
  path: string,
  language: Language,
  head: string,
  complete: boolean,
  goVersion: string | undefined,
): Verdict | undefined {
  const skip = (kind: SkipKind, rule: string, reason: string): Verdict => ({
    queue: false,
    kind,
    language,
    reason,
    rule,
  });
  if (head.trim() === "") return skip("unsupported", "empty", "empty file");
  const firstLines = head.split("\n", HEADER_LINES).join("\n");
  // V8 compiles a regex on its first test (~7 M instructions for the header words, in every
  // process that classifies a file's content): both are tested only on a header holding one of
  // the literals every match of them contains ("generated", "do not edit", …), and most have none.
  if (
    quickTest(GENERATED_HEADER_EXACT, firstLines) ||
    quickTest(GENERATED_HEADER_WORDS, firstLines)
  )
    return skip("generated", "generated-header", "generated code (header marker)");
  // Bundlers and minifiers write plain .js: a .ts/.tsx/.vue file is never their output.
  if (quickTest(PLAIN_JS_NAME, name)) {
    if (isHashedName(name))
      return skip("build-output", "hashed-name", "build output (a content hash in the name)");
    if (BUNDLE_MARKERS.test(head))
      return skip("build-output", "bundle", "build output (bundler banner or source map)");
    // Long string literals (SVG paths, data) are not minification: measure the code only.
    if (
      longestLine(head) >= MINIFIED_LINE &&
      longestLine(stripCommentsAndStrings(head, "javascript").code) >= MINIFIED_LINE
    )
      return skip("build-output", "minified", "minified code (one very long line)");
  }
  if (language === "go" && head.includes("build") && goBuildExcluded(head)) {
    return skip(
      "script",
      "go-build-ignore",
      "left out of every build by its constraint (`//go:build ignore`): a program for `go run`, no test of the package compiles it",
    );
  }
  if (language === "go" && goVersion !== undefined && goBuildExcluded(head, goVersion))
    return skip(
      "unsupported",
      "go-build-version",
      `left out of every build by its Go version constraint (the module says go ${goVersion}): no toolchain the module accepts compiles it, so no test covers it`,
    );
  if (quickTest(COMPONENT_NAME, name) && isIconComponent(head))
    return skip("asset", "icon-component", "an SVG icon component (markup, no logic)");
  const shape = moduleShape(path, language, head, complete);
  if (shape === "type-only")
    return skip("type-only", "type-only", "types only, no runtime code to test");
  if (shape === "no-code")
    return skip("unsupported", "empty", "no code (only comments, a docstring or directives)");
  if (shape === "re-export")
    return skip(
      "re-export",
      "re-export",
      "only imports and re-exports (and types), no logic of its own",
    );
  return undefined;
}

const LOGIC = /\bif\s*\(|\bswitch\s*\(|\buse[A-Z]\w*\(|\bv-if\b|\{#if\b|\bfor\s*\(|\bawait\b/;

/** A component that draws an SVG and decides nothing (the path data is a string literal). */
function isIconComponent(head: string): boolean {
  if (!head.includes("<svg")) return false;
  return !LOGIC.test(stripCommentsAndStrings(head, "typescript").code);
}

function isHashedName(name: string): boolean {
  const hash = HASHED_NAME.exec(name)?.[1];
  if (hash === undefined) return false;
  const digits = hash.replace(/\D/g, "").length;
  return digits >= 2 || (digits === 1 && /[A-Z]/.test(hash) && /[a-z]/.test(hash));
}

function longestLine(text: string): number {
  let longest = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    const length = (end === -1 ? text.length : end) - start;
    if (length > longest) longest = length;
    if (end === -1) return longest;
    start = end + 1;
  }
}

function classifySourceFile(
  name: string,
  dirs: readonly string[],
  path: string,
  language: Language,
  context: FilterContext,
): FileVerdict {
  const byName = classifyByName(name, dirs, path, language, context);
  if (byName !== undefined) return byName;
  const head = context.head;
  if (head !== undefined) {
    const byContent = classifyByContent(
      name,
      path,
      language,
      head,
      context.headComplete === true,
      context.goVersion,
    );
    if (byContent !== undefined) return byContent;
  }
  return { queue: true, kind: "source", language, reason: `${language} source`, rule: "source" };
}

/** True for files that are tests in their language (used for TDD file classes as well). */
export function isTestFile(relPath: string, extraTestPatterns?: readonly string[]): boolean {
  const path = relPath.replace(/\\/g, "/");
  const language = detectLanguage(path);
  if (language === undefined) return false;
  const segments = path.split("/");
  const name = segments[segments.length - 1] ?? path;
  return (
    testFileVerdict(name, segments.slice(0, -1), language, path) !== undefined ||
    matchingPattern(extraTestPatterns, path) !== undefined
  );
}

/** The first folder of the project, of each package the file is in, and of a monorepo package. */
function anchorsOf(dirs: readonly string[], packageDirs: readonly string[]): number[] {
  const anchors = [0];
  const joined = dirs.join("/");
  for (const pkg of packageDirs) {
    // A package inside a test folder is a fixture (oclif/test's `test/fixtures/single`, whose
    // committed `dist/` the tests load): its `dist/` is test data, not build output.
    if (pkg.split("/").some((dir) => TEST_DIRS.has(dir))) continue;
    if (pkg !== "" && (joined === pkg || joined.startsWith(`${pkg}/`)))
      anchors.push(pkg.split("/").length);
  }
  if (dirs.length > 2 && MONOREPO_CONTAINERS.has(dirs[0] ?? "")) anchors.push(2);
  return anchors;
}

/** `bin/` and `obj/` are build output for the compiled languages; elsewhere `bin/` holds entry points. */
const COMPILED = new Set<Language | undefined>(["csharp", "java", "kotlin", "swift", "go", "rust"]);

function classifyBySegments(
  dirs: readonly string[],
  packageDirs: readonly string[],
  language: Language | undefined,
): FileVerdict | undefined {
  for (const dir of dirs) {
    const hit = ANYWHERE_SEGMENTS.get(dir);
    if (hit !== undefined)
      return { queue: false, kind: hit[0], reason: hit[1], rule: `${hit[0]}-folder` };
  }
  if (language === "python" && dirs.includes("vendor")) {
    const reason = "inside vendor/ (vendored code)";
    return { queue: false, kind: "dependency", reason, rule: "dependency-folder" };
  }
  for (const start of anchorsOf(dirs, packageDirs)) {
    const first = dirs[start];
    if (first === undefined) continue;
    if ((first === "bin" || first === "obj") && !COMPILED.has(language)) continue;
    const hit = ANCHORED_SEGMENTS.get(first);
    if (hit !== undefined)
      return { queue: false, kind: hit[0], reason: hit[1], rule: `${hit[0]}-folder` };
  }
  return undefined;
}

function testFileVerdict(
  name: string,
  dirs: readonly string[],
  language: Language,
  path: string,
): [string, string] | undefined {
  if (TEST_NAME_PATTERNS[language].some((pattern) => quickTest(pattern, name))) {
    return ["test-name", `a ${language} test file (by name)`];
  }
  if (language === "python" && quickTest(DJANGO_TESTS_NAME, name))
    return ["test-name", "a python test module (Django's tests.py)"];
  if (quickTest(E2E_TEST_NAME, name)) return ["test-name", "an end-to-end test file (by name)"];
  // A bare `test.js` or `spec.ts` at a package's root is collected by jest's default testMatch,
  // ava's and node --test's defaults (vercel/arg's one test file); deeper down the name is also a
  // module's (ow's `source/test.ts`, the function its predicates call).
  if (
    (language === "javascript" || language === "typescript") &&
    quickTest(ROOT_TEST_NAME, name) &&
    (dirs.length === 0 || (dirs.length === 2 && MONOREPO_CONTAINERS.has(dirs[0] ?? "")))
  )
    return ["test-name", `a ${language} test file (${name} at a package's root)`];
  const testDir = dirs.find(
    (dir) => TEST_DIRS.has(dir) || /\.Tests?$/.test(dir) || /^__tests?_\w+__$/.test(dir),
  );
  if (testDir !== undefined) return ["test-folder", `inside ${testDir}/ (tests and test support)`];
  if (language === "rust" && (dirs[0] === "benches" || dirs.includes("tests")))
    return ["test-folder", "a rust integration test"];
  void path;
  return undefined;
}

function testSupportReason(
  name: string,
  dirs: readonly string[],
  language: Language,
): [string, string] | undefined {
  const e2e = dirs.find((dir) => E2E_DIRS.has(dir));
  if (e2e !== undefined)
    return ["e2e-folder", `inside ${e2e}/ (end-to-end tests and their support)`];
  if (TEST_SUPPORT_NAMES.some((pattern) => quickTest(pattern, name)))
    return ["test-support", "test support (setup, utilities or mocks)"];
  if (language === "javascript" || language === "typescript") {
    const dir = dirs.find((d) => TEST_SUPPORT_DIRS.has(d));
    if (dir !== undefined) return ["test-support", `inside ${dir}/ (test support)`];
  }
  if (language === "python") {
    if (quickTest(PYTHON_TEST_UTILS_NAME, name))
      return ["test-support", "test support (python test utilities)"];
    const dir = dirs.find((d) => d === "testing" || d === "_testing");
    if (dir !== undefined) return ["test-support", `inside ${dir}/ (test support)`];
  }
  return undefined;
}
