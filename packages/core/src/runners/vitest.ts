import picomatch from "picomatch";
import { joinRel, type ProjectView } from "../project/project-view.ts";
import {
  firstConfigFile,
  jsConfigStrings,
  jsTopLevel,
  jsonArrayIn,
  opaqueJsConfig,
  packageRelative,
  setupFilesMatcher,
} from "./config-text.ts";
import { detectByPackageJson, jsCandidates, jsToolCommand, packageTestScript } from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  type RunnerSpec,
  type SuiteMatcher,
  type TestLister,
} from "./spec.ts";

/** tailtest never reads coverage (vitest 1 to 4 take the option). */
const COVERAGE_OFF = "--coverage.enabled=false";
const WORKSPACE_FILE = /^vitest\.workspace\.([cm]?[jt]s|json)$/;
const VITEST_CONFIG = /^vitest\.config\.[cm]?[jt]s$/;
const VITE_CONFIG = /^vite\.config\.[cm]?[jt]s$/;

/** `vitest list --filesOnly --json`: the test files vitest itself would run. */
const listVitestTests: TestLister = {
  argv: (runner) => {
    const at = runner.command.indexOf("run");
    return at === -1
      ? [...runner.command, "list", "--filesOnly", "--json"]
      : [
          ...runner.command.slice(0, at),
          "list",
          "--filesOnly",
          "--json",
          ...runner.command.slice(at + 1),
        ];
  },
  parse: (stdout, packageAbs) => {
    const entries = jsonArrayIn(stdout);
    if (entries === undefined) return undefined;
    return entries.flatMap((entry) => {
      const file =
        typeof entry === "object" && entry !== null && "file" in entry ? entry.file : undefined;
      const rel = typeof file === "string" ? packageRelative(file, packageAbs) : undefined;
      return rel === undefined ? [] : [rel];
    });
  },
  configFiles: (view, dir) =>
    view
      .list(dir)
      .filter((name) => /^vite(st)?\.config\.[cm]?[jt]s$/.test(name) || WORKSPACE_FILE.test(name))
      .concat(view.exists(joinRel(dir, "package.json")) ? ["package.json"] : []),
};

/** vitest: its JSON reporter (jest's shape) to a file; `-t` selects tests by full name. */
export const vitest: RunnerSpec = {
  id: "vitest",
  languages: ["javascript", "typescript"],
  label: "vitest",
  packageJson: {
    script: /\bvitest\b/,
    dependency: "vitest",
    configFile: /^vitest\.(config|workspace)\.[cm]?[jt]s$/,
  },
  alsoReads: {
    name: VITE_CONFIG,
    // vitest reads vite's config when it has none of its own, and its own often merges vite's
    // (`mergeConfig(viteConfig, …)` over `import viteConfig from './vite.config'`).
    reads: (view, dir) => {
      const own = firstConfigFile(view, dir, VITEST_CONFIG);
      return own === undefined || /\bvite\.config\b/.test(own.text);
    },
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "vitest", table),
  command: (view, dir) => [...jsToolCommand(view, dir, "vitest"), "run"],
  testDirs: ["__tests__", "tests", "test", "src/__tests__", "src/test"],
  fallbackTestDir: undefined,
  testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
  // Coverage off, as for jest: a config's `coverage.enabled` with `thresholds` fails any run of
  // some files with every test green, and without its provider package installed (vitest asks
  // for `@vitest/coverage-v8`) fails before a test runs.
  fileCommand: (command, files) => [...command, COVERAGE_OFF, ...files],
  isolatesFiles: (view, runner) => vitestIsolates(view, runner.package_dir),
  argv: ({ view, runner, files, ids }) => {
    const filter =
      ids.length > 0
        ? ["-t", anchoredAlternation(idNames(ids, vitestJoiner(view, runner.package_dir)))]
        : [];
    return {
      argv: [
        ...runner.command,
        COVERAGE_OFF,
        "--reporter=json",
        `--outputFile=${REPORT_TOKEN}`,
        ...filter,
        ...files,
      ],
      format: "jest-json",
      report: FILE_REPORT,
    };
  },
  suite: (view, runner) => vitestShape(view, runner.package_dir),
  probe: (runner) => ({
    argv: [...runner.command.filter((arg) => arg !== "run"), "--version"],
    collects: false,
  }),
  testIdJoiner: " > ",
  listTests: listVitestTests,
};

/** What turns vitest's file isolation off: `isolate: false`, one shared thread or fork. */
const SHARED_FILES =
  /\bisolate\s*:\s*false\b|--no-isolate\b|--isolate[= ]false\b|\bsingle(Thread|Fork)\b/;

/**
 * Whether vitest runs each test file in a module registry of its own (its default): not when its
 * config or its test script turns isolation off, nor when a workspace's projects may.
 */
function vitestIsolates(view: ProjectView, dir: string): boolean {
  if (firstConfigFile(view, dir, WORKSPACE_FILE) !== undefined) return false;
  const config =
    firstConfigFile(view, dir, VITEST_CONFIG) ?? firstConfigFile(view, dir, VITE_CONFIG);
  return !SHARED_FILES.test(`${config?.text ?? ""}\n${packageTestScript(view, dir)}`);
}

/** vitest 5 matches `-t` against " > "-joined names, earlier majors against space-joined ones. */
function vitestJoiner(view: ProjectView, packageDir: string): string {
  for (const dir of [packageDir, ""]) {
    const text = view.readText(joinRel(dir, "node_modules/vitest/package.json"));
    const major = text === undefined ? undefined : /"version"\s*:\s*"(\d+)\./.exec(text)?.[1];
    if (major !== undefined) return Number(major) >= 5 ? " > " : " ";
  }
  return "(?: > | )";
}

/**
 * Whether vitest runs a source file's own tests: its config's `test.includeSource` globs match
 * the file (relative to the package) and the file holds an `if (import.meta.vitest)` block.
 * vitest collects such a file as a test file; an edit of it must run it.
 */
export function vitestRunsInSource(
  view: ProjectView,
  dir: string,
  rel: string,
  text: string,
): boolean {
  if (!text.includes("import.meta.vitest")) return false;
  const config =
    firstConfigFile(view, dir, VITEST_CONFIG) ?? firstConfigFile(view, dir, VITE_CONFIG);
  const testBlock =
    config === undefined ? undefined : /\btest\s*:\s*\{([\s\S]*)/.exec(config.text)?.[1];
  const globs =
    testBlock === undefined ? undefined : jsConfigStrings(jsTopLevel(testBlock), "includeSource");
  if (globs === undefined) return false;
  return picomatch(globs.map((glob) => glob.replace(/^\.\//, "")))(rel);
}

const VITEST_DEFAULT = ["**/*.{test,spec}.?(c|m)[jt]s?(x)"];

function vitestShape(view: ProjectView, dir: string): SuiteMatcher {
  const config =
    firstConfigFile(view, dir, VITEST_CONFIG) ?? firstConfigFile(view, dir, VITE_CONFIG);
  const text = config?.text;
  const testBlock =
    text === undefined ? undefined : (/\btest\s*:\s*\{([\s\S]*)/.exec(text)?.[1] ?? undefined);
  // `test.include` only: `test.coverage.include` lists sources, not tests.
  const include =
    testBlock === undefined ? undefined : jsConfigStrings(jsTopLevel(testBlock), "include");
  // `test.setupFiles` run before each test file: what they import reaches every test.
  const setupFiles =
    testBlock === undefined ? undefined : jsConfigStrings(jsTopLevel(testBlock), "setupFiles");
  const isSetup = setupFilesMatcher(setupFiles ?? []);
  const globs = include ?? VITEST_DEFAULT;
  const match = picomatch(
    globs.map((g) => g.replace(/^\.\//, "")),
    { dot: false },
  );
  const workspace = firstConfigFile(view, dir, WORKSPACE_FILE);
  const fromConfig =
    config === undefined
      ? undefined
      : opaqueJsConfig(config.name, config.text, ["include", "exclude", "dir"]);
  const opaque = workspace === undefined ? fromConfig : `${workspace.name} lists projects`;
  return {
    evidence: include === undefined ? "vitest defaults (*.test.*, *.spec.*)" : "vitest include",
    isSetup,
    isTest: (path) => match(path),
    ...(opaque === undefined ? {} : { opaque }),
  };
}
