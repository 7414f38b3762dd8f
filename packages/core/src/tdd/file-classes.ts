import type { Config } from "../config/config.ts";
import { classifyFile } from "../filter/filter.ts";
import { baseName, extensionOf } from "../filter/languages.ts";
import { pathRules, type PathRules } from "./path-rules.ts";

/**
 * What tdd mode makes of an edited file. `test` and `prod` are gated by the TDD state;
 * `e2e_test` and `other` never are.
 */
export type TddFileClass = "e2e_test" | "test" | "prod" | "other";

export const TDD_FILE_CLASSES: readonly TddFileClass[] = ["e2e_test", "test", "prod", "other"];

/** Patterns (gitignore syntax, relative to the project root) tried before the defaults. */
export type TddFilePatterns = Partial<Record<TddFileClass, readonly string[]>>;

export interface TddFileVerdict {
  fileClass: TddFileClass;
  /** Why, for the agent: "a typescript test file (by name)", "config tdd.file_classes.prod (lib/**)". */
  reason: string;
}

/**
 * End-to-end tests: folders named `e2e`, `cypress` or `playwright` at any depth (so `tests/e2e/`
 * too), and the usual e2e file names. Their config files (`playwright.config.ts`) are not in here.
 */
export const DEFAULT_E2E_PATTERNS: readonly string[] = [
  "e2e/",
  "cypress/",
  "playwright/",
  "*.e2e.*",
  "*.e2e-spec.*",
  "*.cy.*",
];

const defaultE2e = pathRules(DEFAULT_E2E_PATTERNS);

/**
 * Normalises a project-relative path: `\` → `/`, no `./`, no `//`, `a/./b` and `a/x/../b`
 * resolved, no trailing `/`. Undefined when the path is empty or leaves the project (absolute,
 * a drive letter, or `..` above the root). Case is kept: paths compare case-sensitively.
 */
export function normaliseTddPath(path: string): string | undefined {
  const slashed = path.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[a-zA-Z]:\//.test(slashed)) return undefined;
  const parts: string[] = [];
  for (const part of slashed.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join("/");
}

/** The class of a project-relative path. See `explainTddFile` for the rules. */
export function classifyTddFile(relPath: string, patterns: TddFilePatterns = {}): TddFileClass {
  return explainTddFile(relPath, patterns).fileClass;
}

/**
 * The class of a project-relative path and why. First match wins: the configured patterns in the
 * order e2e_test, test, prod, other; then the defaults in the same order:
 * - e2e_test: `DEFAULT_E2E_PATTERNS`;
 * - test: what `filter.ts` calls a test file (anchored per-language names such as `*.spec.ts`,
 *   `test_*.py`, `*_test.go`, `*Test.php`, and test folders such as `tests/`, `spec/`,
 *   `src/test/`, `__tests__/`) or test support (`setupTests.ts`, `test-utils.tsx`, `mocks/`);
 * - prod: what `filter.ts` would queue for a test: source in a language tailtest knows that is
 *   not a test, test support, config, generated code, a dependency, build output, a script, an
 *   example, a benchmark, a story or a migration; and Go or C# named like generated code
 *   (`BUILT_WHOLE`);
 * - prod also: source of a language tailtest runs no tests for (`OTHER_SOURCE`: Scala, C, Astro,
 *   …), unless named or placed like a test (then test);
 * - other: everything else (docs, config, assets, lock files, shell scripts, tool state, paths
 *   outside the project).
 */
export function explainTddFile(relPath: string, patterns: TddFilePatterns = {}): TddFileVerdict {
  const path = normaliseTddPath(relPath);
  if (path === undefined) return { fileClass: "other", reason: "outside the project" };
  for (const fileClass of TDD_FILE_CLASSES) {
    const rule = matchingRule(compile(patterns[fileClass]), path);
    if (rule !== undefined) {
      return { fileClass, reason: `config tdd.file_classes.${fileClass} (${rule})` };
    }
  }
  const e2e = matchingRule(defaultE2e, path);
  if (e2e !== undefined) return { fileClass: "e2e_test", reason: `an end-to-end test (${e2e})` };
  const verdict = classifyFile(path);
  if (verdict.kind === "test" || verdict.kind === "test-support")
    return { fileClass: "test", reason: verdict.reason };
  if (verdict.kind === "source") return { fileClass: "prod", reason: verdict.reason };
  if (verdict.rule === "generated-name" && BUILT_WHOLE.has(verdict.language ?? ""))
    return {
      fileClass: "prod",
      reason: `${verdict.language} source named like generated code, built into its package all the same`,
    };
  if (verdict.kind === "unsupported" && shadowsModule(path))
    return looksLikeTest(path)
      ? { fileClass: "test", reason: "a file without an extension named or placed like a test" }
      : {
          fileClass: "prod",
          reason:
            "a file without an extension in a source folder: a bundler or `require` takes it for the module `./<name>` before `<name>.ts` or `<name>.js`",
        };
  if (verdict.kind === "unsupported" && OTHER_SOURCE.has(extensionOf(path))) {
    const language = extensionOf(path);
    return looksLikeTest(path)
      ? { fileClass: "test", reason: `a ${language} file named or placed like a test` }
      : {
          fileClass: "prod",
          reason: `${language} source: production, though tailtest runs no tests of this language`,
        };
  }
  return { fileClass: "other", reason: verdict.reason };
}

/**
 * Source of languages tailtest runs no tests for (ADR 0012): production all the same, since a
 * Scala file beside Java in a Gradle build, a C extension of a Python package or an Astro
 * component changes what the product does; "other" would leave it neither gated nor reported.
 * Shell scripts, markup and data stay "other".
 */
const OTHER_SOURCE: ReadonlySet<string> = new Set([
  ".scala",
  ".sc",
  ".groovy",
  ".fs",
  ".fsx",
  ".vb",
  ".astro",
  ".coffee",
  ".c",
  ".cc",
  ".cpp",
  ".cxx",
  ".h",
  ".hh",
  ".hpp",
  ".m",
  ".mm",
  ".ex",
  ".exs",
  ".erl",
  ".dart",
  ".hs",
  ".lua",
  ".pl",
  ".pm",
  ".zig",
  ".jl",
  ".r",
  ".clj",
  ".cljs",
  ".cljc",
  ".ml",
  ".nim",
  ".cr",
  ".elm",
  ".sol",
  ".pyw",
  ".pxd",
]);

// `babel.config.json` and `jest.config.json` too (the thirty-fifth round): babel-jest, jest's
// default transform, loads a babel config's plugins into every module a test requires.
const CODE_SHAPING_CONFIG =
  /^((vite|vitest|webpack|rollup|rolldown|tsup|esbuild|babel|jest)\.config|vitest\.workspace)\.[cm]?[jt]s$|^(babel|jest)\.config\.json$|^\.babelrc(\.[cm]?js|\.json)?$|^\.swcrc$/;

/**
 * Cargo's build script and config (the thirty-second round): `build.rs` outside `src/` runs
 * before every `cargo test` and can set a `cfg` or an environment variable the crate's code
 * reads (`cargo:rustc-cfg=…`, `cargo:rustc-env=…`) or generate code it includes;
 * `.cargo/config.toml` can do the same through `rustflags` and `[env]`.
 */
const CARGO_SHAPING = /(^|\/)build\.rs$|(^|\/)\.cargo\/config(\.toml)?$/;

/**
 * A build or test config that can rewrite or redirect production code without a production file
 * changing (a vite `transform` plugin, a babel plugin, an alias, jest's `moduleNameMapper`): "other"
 * to the gate, so an honest change of one is not refused, but said at the Stop (ADR 0012).
 */
export function shapesCode(path: string): boolean {
  if (CODE_SHAPING_CONFIG.test(baseName(path))) return true;
  return CARGO_SHAPING.test(path) && !/(^|\/)src\//.test(path);
}

/**
 * The build and test configs a turn changed that can rewrite production code (`shapesCode`):
 * said at every Stop of a gating mode, never refused (ADR 0012).
 */
export function configLine(mode: "tdd" | "strict", changed: readonly string[]): string[] {
  const configs = changed.filter(shapesCode);
  if (configs.length === 0) return [];
  return [
    `tailtest ${mode}: ${configs.join(", ")} changed this turn: a build or test config can rewrite or redirect what production code does (a transform plugin, an alias, a mapper) with no production file changing. If this change does that, it needs a failing test first, as a production edit does; say why it changed.`,
  ];
}

/** The folders source lives in, by name at any depth. */
const SOURCE_FOLDERS = new Set(["src", "lib", "app", "source", "components", "server", "client"]);

/**
 * A file with no extension in a source folder (`src/calc` beside `src/calc.ts`): vitest, vite,
 * jest and Node's `require` try the exact path before adding extensions, so it replaces the
 * module every `import "./calc"` loads (the twentieth round's red team). Dot files stay "other".
 */
function shadowsModule(path: string): boolean {
  const name = baseName(path);
  if (extensionOf(path) !== "" || name.startsWith(".")) return false;
  return path
    .split("/")
    .slice(0, -1)
    .some((dir) => SOURCE_FOLDERS.has(dir));
}

/** A test by its name or folder in a language the filter does not know (`FooSpec.scala`, `test/`). */
function looksLikeTest(path: string): boolean {
  const name = baseName(path);
  const dirs = path.split("/").slice(0, -1);
  return (
    /(^|[._-])(tests?|spec)([._-]|$)/i.test(name) ||
    /(Tests?|Spec|Suite)\.\w+$/.test(name) ||
    dirs.some((dir) => /^(tests?|spec|__tests__|testing)$/i.test(dir))
  );
}

/**
 * Languages whose compiler builds every file of a folder (Go's package, a C# project) into the
 * product, whatever the file is called: a `mul_gen.go` or `Calc.g.cs` the agent writes adds
 * production code that nothing has to import, so a generated-looking name does not make it
 * "other" (it would be neither gated nor reported, ADR 0012). Elsewhere a generated module
 * reaches production only through an import, which is itself a gated production edit.
 */
const BUILT_WHOLE: ReadonlySet<string> = new Set(["go", "csharp"]);

/**
 * The tdd patterns a config asks for: `tdd.file_classes`, then the older top-level
 * `file_classes` lists that meant the same (`test`, `production` → prod, `exempt` → other).
 */
export function tddPatternsFromConfig(
  config: Pick<Config, "tdd" | "file_classes">,
): Required<TddFilePatterns> {
  const tdd = config.tdd.file_classes;
  const legacy = config.file_classes;
  return {
    e2e_test: [...tdd.e2e_test],
    test: [...tdd.test, ...legacy.test],
    prod: [...tdd.prod, ...legacy.production],
    other: [...tdd.other, ...legacy.exempt],
  };
}

const compiled = new Map<string, PathRules>();

function compile(list: readonly string[] | undefined): PathRules | undefined {
  const patterns = (list ?? []).filter((pattern) => pattern.trim() !== "");
  if (patterns.length === 0) return undefined;
  const key = JSON.stringify(patterns);
  let matcher = compiled.get(key);
  if (matcher === undefined) {
    matcher = pathRules(patterns);
    if (compiled.size > 64) compiled.clear();
    compiled.set(key, matcher);
  }
  return matcher;
}

function matchingRule(matcher: PathRules | undefined, path: string): string | undefined {
  if (matcher === undefined) return undefined;
  const result = matcher.test(path);
  if (!result.ignored) return undefined;
  return result.rule?.pattern ?? "pattern";
}
