import picomatch from "picomatch";
import { joinRel, type ProjectView } from "../project-view.ts";
import { firstConfig, jsConfigStrings } from "./config-text.ts";
import { detectByPackageJson, jsCandidates, jsToolCommand } from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  type RunnerSpec,
  type SuiteMatcher,
} from "./spec.ts";

/** jest: `--json` to a file, files by `--runTestsByPath`, tests by `-t` on space-joined names. */
export const jest: RunnerSpec = {
  id: "jest",
  languages: ["javascript", "typescript"],
  label: "jest",
  packageJson: {
    script: /\bjest\b/,
    dependency: "jest",
    configFile: /^jest\.config\.[cm]?[jt]s(on)?$/,
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "jest", table),
  command: (view, dir) => jsToolCommand(view, dir, "jest"),
  testDirs: ["__tests__", "tests", "test", "src/__tests__", "src/test"],
  fallbackTestDir: undefined,
  testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
  fileCommand: (command, files) => [...command, "--runTestsByPath", ...files],
  argv: ({ runner, files, ids }) => {
    const filter = ids.length > 0 ? ["-t", anchoredAlternation(idNames(ids, " "))] : [];
    const paths = files.length > 0 ? ["--runTestsByPath", ...files] : [];
    return {
      argv: [
        ...runner.command,
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
};

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

function jestShape(view: ProjectView, dir: string): SuiteMatcher {
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
