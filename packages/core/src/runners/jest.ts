import picomatch from "picomatch";
import { joinRel, type ProjectView } from "../project/project-view.ts";
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
  isolatesFiles: () => true,
  argv: ({ view, runner, files, ids }) => {
    const filter = ids.length > 0 ? ["-t", anchoredAlternation(idNames(ids, " "))] : [];
    const paths = files.length > 0 ? ["--runTestsByPath", ...files] : [];
    return {
      argv: [
        ...runner.command,
        ...jestScriptOptions(view, runner.package_dir),
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
  suite: (view, runner) => jestShape(view, runner.package_dir),
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
 * (`--config jest.unit.js`, `-c x`). The rest (reporters, coverage, watch) is left to tailtest.
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
      else if ((word === "--config" || word === "-c") && i + 1 < args.length)
        kept.push(`--config=${args[(i += 1)] as string}`);
    }
    return kept;
  }
  return [];
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

function jestShape(view: ProjectView, dir: string): SuiteMatcher {
  const config = jestConfig(view, dir);
  const text = config?.text;
  const opaque = opaqueJest(config);
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
  // What jest loads before each test file: what those files import reaches every test.
  const isSetup = setupFilesMatcher(
    text === undefined
      ? []
      : ["setupFiles", "setupFilesAfterEnv"].flatMap(
          (key) => jsConfigStrings(text.replace(/"(\w+)"\s*:/g, "$1:"), key) ?? [],
        ),
  );
  // testPathIgnorePatterns: regexes over a test's path (jest-dom's '/__tests__/helpers/').
  const ignored = (
    text === undefined
      ? []
      : (jsConfigStrings(text.replace(/"(\w+)"\s*:/g, "$1:"), "testPathIgnorePatterns") ?? [])
  ).flatMap((source) => {
    try {
      return [new RegExp(source.replace(/\\\\/g, "\\").replace(/^<rootDir>\/?/, "^/"))];
    } catch {
      return [];
    }
  });
  const inRoots = (path: string): boolean =>
    !ignored.some((regex) => regex.test(`/${path}`)) &&
    (roots === undefined ||
      roots.length === 0 ||
      roots.some((root) => path.startsWith(`${root}/`)));
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
  const globs = (testMatch ?? JEST_DEFAULT).map((g) => g.replace(/^<rootDir>\/?/, ""));
  const match = picomatch(globs, { dot: false });
  return {
    evidence:
      testMatch === undefined ? "jest defaults (__tests__/, *.test.*, *.spec.*)" : "jest testMatch",
    isSetup,
    isTest: (path) => inRoots(path) && match(path),
    ...(opaque === undefined ? {} : { opaque }),
  };
}
