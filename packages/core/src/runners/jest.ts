import picomatch from "picomatch";
import { dirnameRel, joinRel, normalizeRel, type ProjectView } from "../project/project-view.ts";
import {
  firstConfigFile,
  jsConfigStrings,
  jsonArrayIn,
  opaqueJsConfig,
  packageRelative,
  setupFilesMatcher,
} from "./config-text.ts";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  packageScripts,
  packageTestScript,
  scriptCommands,
  unquote,
} from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  type RunnerSpec,
  type SuiteMatcher,
  type TestLister,
} from "./spec.ts";

/** `jest --listTests --json`: the test files jest itself would run. */
const listJestTests: TestLister = {
  argv: (runner) => [...runner.command, "--listTests", "--json"],
  parse: (stdout, packageAbs) => {
    const entries = jsonArrayIn(stdout);
    if (entries === undefined) return undefined;
    return entries.flatMap((file) => {
      const rel = typeof file === "string" ? packageRelative(file, packageAbs) : undefined;
      return rel === undefined ? [] : [rel];
    });
  },
  configFiles: (view, dir) =>
    view.list(dir).filter((name) => /^jest\.config\.[cm]?[jt]s(on)?$|^package\.json$/.test(name)),
};

/**
 * The tools that run jest with a config of their own (Create React App's `react-scripts test`,
 * and craco and react-app-rewired over it), called from the test script: jest alone would run
 * the app's tests without it (no JSX transform, no CSS module stubs). Each passes the words after
 * `test` on to jest.
 */
const JEST_WRAPPER = /\b(react-scripts|craco|react-app-rewired)\s+test\b/;

/** jest: `--json` to a file, files by `--runTestsByPath`, tests by `-t` on space-joined names. */
export const jest: RunnerSpec = {
  id: "jest",
  languages: ["javascript", "typescript"],
  label: "jest",
  packageJson: {
    script: /\bjest\b|\b(?:react-scripts|craco|react-app-rewired)\s+test\b/,
    dependency: "jest",
    configFile: /^jest\.config\.[cm]?[jt]s(on)?$/,
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "jest", table),
  command: (view, dir) => {
    // Create React App keeps jest's config inside its scripts: jest runs through them, once.
    const wrapper = JEST_WRAPPER.exec(packageTestScript(view, dir))?.[1];
    return wrapper === undefined
      ? jsToolCommand(view, dir, "jest")
      : [...jsToolCommand(view, dir, wrapper), "test", "--watchAll=false"];
  },
  testDirs: ["__tests__", "tests", "test", "src/__tests__", "src/test"],
  fallbackTestDir: undefined,
  testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
  // Coverage off: a config's `collectCoverage` with a `coverageThreshold` (vercel/ms) fails any
  // run of some files ("threshold not met", exit 1 with every test green) and slows the Stop.
  fileCommand: (command, files) => [...command, "--coverage=false", "--runTestsByPath", ...files],
  fileOptions: (view, dir, files) => withOtherConfigs(view, dir, files),
  isolatesFiles: () => true,
  argv: ({ view, runner, files, ids }) => {
    const filter = ids.length > 0 ? ["-t", anchoredAlternation(idNames(ids, " "))] : [];
    const paths = files.length > 0 ? ["--runTestsByPath", ...files] : [];
    return {
      argv: [
        ...runner.command,
        ...withOtherConfigs(view, runner.package_dir, files),
        "--coverage=false",
        "--json",
        `--outputFile=${REPORT_TOKEN}`,
        "--testLocationInResults",
        ...filter,
        ...paths,
      ],
      format: "jest-json",
      report: FILE_REPORT,
    };
  },
  suite: (view, runner) => {
    const main = jestShape(jestConfig(view, runner.package_dir), undefined);
    const others = otherJestConfigs(view, runner.package_dir);
    if (others.length === 0) return main;
    const other = (path: string): boolean => others.some((config) => config.shape.isTest(path));
    return {
      ...main,
      evidence: `${main.evidence}; ${others.map((config) => config.path).join(", ")} (named by a script)`,
      isTest: (path) => main.isTest(path) || other(path),
      isSetup: (path) =>
        main.isSetup?.(path) === true || others.some((config) => config.shape.isSetup?.(path)),
      otherConfigs: other,
    };
  },
  probe: (runner) => ({
    argv: [...runner.command.filter((arg) => arg !== "run"), "--version"],
    collects: false,
  }),
  testIdJoiner: " > ",
  shellPrograms: { jest: "jest" },
  listTests: listJestTests,
};

/**
 * The options of the test script's jest command that change what a test sees, kept for every
 * run: its colours (`jest --color=true`: a snapshot of a coloured failure message fails without
 * them, and jest colours nothing when its output is not a terminal) and the config it names
 * (`--config jest.unit.js`, `-c x`), and its `--forceExit`: an app whose pool, server or timer
 * outlives the tests keeps jest waiting after them, so the run would end only at the timeout. Its
 * workers too (`--runInBand`, `-i`, `--maxWorkers`): a suite whose files share a database, a port
 * or a folder is run in band by its script, and in parallel workers its files fail one another.
 * And its `--testTimeout`. The rest (reporters, coverage, watch, `--detectOpenHandles`) is left to
 * tailtest.
 */
export function jestScriptOptions(view: ProjectView, dir: string): string[] {
  for (const command of scriptCommands(packageTestScript(view, dir))) {
    const at = command.findIndex((word) => /^(\S*\/)?jest$/.test(word));
    if (at === -1) continue;
    const args = command.slice(at + 1).map(unquote);
    const kept: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const word = args[i] as string;
      if (/^--(no-)?colou?rs?(=(true|false))?$/.test(word) || /^--config=./.test(word))
        kept.push(word);
      else if (/^--force-?exit(=true)?$/i.test(word)) kept.push("--forceExit");
      else if (/^(--run-?in-?band(=true)?|-i)$/i.test(word)) kept.push("--runInBand");
      else if (/^--(max-?workers|test-?timeout)=\S+$/i.test(word)) kept.push(camelOption(word));
      else if (/^(--max-?workers|--test-?timeout|-w)$/i.test(word) && i + 1 < args.length)
        kept.push(
          `${camelOption(word === "-w" ? "--maxWorkers" : word)}=${args[(i += 1)] as string}`,
        );
      else if ((word === "--config" || word === "-c") && i + 1 < args.length)
        kept.push(`--config=${args[(i += 1)] as string}`);
    }
    return kept;
  }
  return [];
}

/** jest's own spelling of an option a script may write in kebab case (`--max-workers=2`). */
function camelOption(option: string): string {
  const [name = "", value] = option.split(/=(.*)/s, 2);
  let camel = name;
  if (/^--max-?workers$/i.test(name)) camel = "--maxWorkers";
  else if (/^--test-?timeout$/i.test(name)) camel = "--testTimeout";
  return value === undefined ? camel : `${camel}=${value}`;
}

/**
 * The config each jest command of a script names (`--config x`, `-c x`, `--config=x`), in the
 * script's order; undefined for a command that names none (it runs with the package's own).
 */
function scriptJestConfigs(script: string): (string | undefined)[] {
  const configs: (string | undefined)[] = [];
  for (const command of scriptCommands(script)) {
    const at = command.findIndex((word) => /^(\S*\/)?jest$/.test(word));
    if (at === -1) continue;
    const args = command.slice(at + 1).map(unquote);
    let config: string | undefined;
    for (let i = 0; i < args.length; i += 1) {
      const word = args[i] as string;
      if (word.startsWith("--config=")) config = word.slice("--config=".length);
      else if ((word === "--config" || word === "-c") && i + 1 < args.length)
        config = args[(i += 1)];
    }
    // A config given inline as JSON is no file of the package.
    configs.push(config?.startsWith("{") === true ? undefined : config);
  }
  return configs;
}

/** A jest config file that a script names, and the tests it takes. */
export interface OtherJestConfig {
  /** Package-relative. */
  path: string;
  /** A later jest command of the test script runs it: its tests are part of the whole suite. */
  inTestScript: boolean;
  shape: SuiteMatcher;
}

/**
 * The jest configs a package's scripts name besides the one the test script's first jest command
 * runs with: a later jest command of the test script (`jest && jest -c jest.e2e.config.js`), and
 * other scripts' (NestJS's `test:e2e`: `jest --config ./test/jest-e2e.json`, whose specs boot
 * the whole app). Their tests are the package's tests too, each run with its own config.
 */
export function otherJestConfigs(view: ProjectView, dir: string): OtherJestConfig[] {
  const inTest = scriptJestConfigs(packageTestScript(view, dir));
  const spelled = (config: string | undefined): string | undefined =>
    config === undefined ? undefined : normalizeRel(config);
  const main = spelled(inTest[0]);
  const named = new Map<string, boolean>();
  for (const config of inTest.slice(1).map(spelled))
    if (config !== undefined) named.set(config, true);
  for (const script of Object.values(packageScripts(view, dir)))
    for (const config of scriptJestConfigs(script).map(spelled))
      if (config !== undefined && !named.has(config)) named.set(config, false);
  const others: OtherJestConfig[] = [];
  for (const [path, inTestScript] of named) {
    if (path === main || path === "" || path === "package.json") continue;
    const text = view.readText(joinRel(dir, path));
    if (text === undefined) continue;
    const name = path.slice(path.lastIndexOf("/") + 1);
    others.push({ path, inTestScript, shape: jestShape({ name, text }, dirnameRel(path)) });
  }
  return others;
}

/**
 * The test script's options for a run of `files` (all of the suite when none): another config's
 * tests run with that config (`--config=test/jest-e2e.json`), or with the package's own as jest
 * projects (`--projects . test/jest-e2e.json`) when both are chosen; each project takes the
 * chosen paths that are its tests.
 */
function withOtherConfigs(view: ProjectView, dir: string, files: readonly string[]): string[] {
  const kept = jestScriptOptions(view, dir);
  const others = otherJestConfigs(view, dir);
  if (others.length === 0) return kept;
  const main = jestShape(jestConfig(view, dir), undefined);
  const byOther = (file: string): boolean =>
    !main.isTest(file) && others.some((config) => config.shape.isTest(file));
  const used =
    files.length === 0
      ? others.filter((config) => config.inTestScript)
      : others.filter((config) => files.some((file) => byOther(file) && config.shape.isTest(file)));
  if (used.length === 0) return kept;
  const options = kept.filter((option) => !option.startsWith("--config="));
  const mainToo = files.length === 0 || files.some((file) => !byOther(file));
  if (!mainToo && used.length === 1) return [...options, `--config=${used[0]?.path ?? ""}`];
  const mainConfig = kept.find((option) => option.startsWith("--config="))?.slice(9) ?? ".";
  return [...options, "--projects", mainConfig, ...used.map((config) => config.path)];
}

const JEST_DEFAULT = ["**/__tests__/**/*.[jt]s?(x)", "**/?(*.)+(spec|test).[jt]s?(x)"];

function jestConfig(view: ProjectView, dir: string): { name: string; text: string } | undefined {
  const file = firstConfigFile(view, dir, /^jest\.config\.[cm]?[jt]s(on)?$/);
  if (file !== undefined) return file;
  const pkg = view.readText(joinRel(dir, "package.json"));
  if (pkg === undefined) return undefined;
  try {
    const json = JSON.parse(pkg) as { jest?: unknown };
    return json.jest === undefined
      ? undefined
      : { name: "package.json", text: JSON.stringify(json.jest) };
  } catch {
    return undefined;
  }
}

/** Why the jest config cannot be read as text (a function, projects, a spread, computed keys). */
function opaqueJest(config: { name: string; text: string } | undefined): string | undefined {
  if (config === undefined) return undefined;
  if (config.name === "package.json" || config.name.endsWith(".json"))
    return /"projects"\s*:/.test(config.text) ? `${config.name} jest has projects` : undefined;
  return opaqueJsConfig(config.name, config.text, ["testMatch", "testRegex", "roots"]);
}

/**
 * The tests a jest config takes. `base` is undefined for the package's own config (its
 * `<rootDir>` read as the package folder, as before); for a config a script names, the folder
 * its `rootDir` makes (the config's own folder by default), which bounds its tests when it names
 * no `roots`.
 */
function jestShape(
  config: { name: string; text: string } | undefined,
  base: string | undefined,
): SuiteMatcher {
  const text = config?.text.replace(/"(\w+)"\s*:/g, "$1:");
  const opaque = opaqueJest(config);
  const strings = (key: string): string[] | undefined =>
    text === undefined ? undefined : jsConfigStrings(text, key);
  const root =
    base === undefined ? "" : (normalizeRel(joinRel(base, strings("rootDir")?.[0] ?? "")) ?? base);
  // `<rootDir>/x` as a package-relative path (`x` for the package's own config).
  const fromRoot = (path: string): string =>
    /^<rootDir>/.test(path) ? joinRel(root, path.replace(/^<rootDir>\/?/, "")) : path;
  const testMatch = strings("testMatch");
  const testRegex = strings("testRegex");
  const roots = (
    strings("roots") ?? (base === undefined || root === "" ? undefined : ["<rootDir>"])
  )
    ?.map((path) => fromRoot(path).replace(/^\.\//, "").replace(/\/$/, ""))
    .filter((path) => path !== "");
  // What jest loads before each test file: what those files import reaches every test.
  const isSetup = setupFilesMatcher(
    ["setupFiles", "setupFilesAfterEnv"].flatMap((key) => (strings(key) ?? []).map(fromRoot)),
  );
  // testPathIgnorePatterns: regexes over a test's path (jest-dom's '/__tests__/helpers/').
  const ignored = (strings("testPathIgnorePatterns") ?? []).flatMap((source) => {
    try {
      const anchor = root === "" ? "^/" : `^/${root}/`;
      return [new RegExp(source.replace(/\\\\/g, "\\").replace(/^<rootDir>\/?/, anchor))];
    } catch {
      return [];
    }
  });
  const inRoots = (path: string): boolean =>
    !ignored.some((regex) => regex.test(`/${path}`)) &&
    (roots === undefined ||
      roots.length === 0 ||
      roots.some((folder) => path.startsWith(`${folder}/`)));
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
      isSetup,
      isTest: (path) => inRoots(path) && regexes.some((regex) => regex.test(`/${path}`)),
      ...(opaque === undefined ? {} : { opaque }),
    };
  }
  const globs = (testMatch ?? JEST_DEFAULT).map((glob) => fromRoot(glob));
  const match = picomatch(globs, { dot: false });
  return {
    evidence:
      testMatch === undefined ? "jest defaults (__tests__/, *.test.*, *.spec.*)" : "jest testMatch",
    isSetup,
    isTest: (path) => inRoots(path) && match(path),
    ...(opaque === undefined ? {} : { opaque }),
  };
}
