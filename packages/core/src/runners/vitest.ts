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
  detect: (view, dir, table) => detectByPackageJson(view, dir, "vitest", table),
  command: (view, dir) => [...jsToolCommand(view, dir, "vitest"), "run"],
  testDirs: ["__tests__", "tests", "test", "src/__tests__", "src/test"],
  fallbackTestDir: undefined,
  testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ view, runner, files, ids }) => {
    const filter =
      ids.length > 0
        ? ["-t", anchoredAlternation(idNames(ids, vitestJoiner(view, runner.package_dir)))]
        : [];
    return {
      argv: [
        ...runner.command,
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
};

/** vitest 5 matches `-t` against " > "-joined names, earlier majors against space-joined ones. */
function vitestJoiner(view: ProjectView, packageDir: string): string {
  for (const dir of [packageDir, ""]) {
    const text = view.readText(joinRel(dir, "node_modules/vitest/package.json"));
    const major = text === undefined ? undefined : /"version"\s*:\s*"(\d+)\./.exec(text)?.[1];
    if (major !== undefined) return Number(major) >= 5 ? " > " : " ";
  }
  return "(?: > | )";
}

const VITEST_DEFAULT = ["**/*.{test,spec}.?(c|m)[jt]s?(x)"];

function vitestShape(view: ProjectView, dir: string): SuiteMatcher {
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
