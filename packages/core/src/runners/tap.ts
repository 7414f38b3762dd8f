import { joinRel, type ProjectView } from "../project/project-view.ts";
import { firstConfig, globShape, yamlList } from "./config-text.ts";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  suffixlessCandidates,
} from "./shared.ts";
import { OUTPUT_REPORT, versionProbe, type RunnerSpec, type SuiteMatcher } from "./spec.ts";

/**
 * node-tap: TAP on standard output (`--reporter=tap`), whole files (its `--grep` works per
 * subtest level, so a claimed test runs with its file and is read from it). Coverage is off: a
 * selected subset never covers the whole project, and tap 18+ fails a run below its threshold.
 * tap 18+ spells that `--disable-coverage`, earlier versions `--no-coverage`.
 */
export const tap: RunnerSpec = {
  id: "tap",
  languages: ["javascript", "typescript"],
  label: "tap",
  packageJson: { script: /(^|[\s&|;(])tap\b(?![-.])/, dependency: "tap", configFile: /^\.taprc$/ },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "tap", table),
  command: (view, dir) => jsToolCommand(view, dir, "tap"),
  testDirs: ["test", "tests", "__tests__"],
  fallbackTestDir: "test",
  testCandidates: (src, testDir, ctx) => [
    ...jsCandidates(src, testDir, ctx, ["test", "spec"]),
    ...suffixlessCandidates(src, testDir),
  ],
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ view, runner, files }) => ({
    argv: [...runner.command, "--reporter=tap", coverageOff(view, runner.package_dir), ...files],
    format: "tap",
    report: OUTPUT_REPORT,
  }),
  suite: (view, runner) => tapShape(view, runner.package_dir),
  probe: versionProbe,
  testIdJoiner: " > ",
  shellPrograms: { tap: "tap" },
};

/** The installed tap's major version decides the coverage flag's name. */
function coverageOff(view: ProjectView, dir: string): string {
  for (let base = dir; ; base = base.includes("/") ? base.slice(0, base.lastIndexOf("/")) : "") {
    const text = view.readText(joinRel(base, "node_modules/tap/package.json"));
    const major = text === undefined ? undefined : /"version"\s*:\s*"(\d+)\./.exec(text)?.[1];
    if (major !== undefined) return Number(major) >= 18 ? "--disable-coverage" : "--no-coverage";
    if (base === "") return "--disable-coverage";
  }
}

const TAP_DEFAULT = [
  "test/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "tests/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "**/__tests__/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "**/*.{test,spec}.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "**/{test,spec}.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
];

function tapShape(view: ProjectView, dir: string): SuiteMatcher {
  const rc = firstConfig(view, dir, /^\.taprc$/);
  const include = rc === undefined ? undefined : yamlList(rc, "include");
  const shape = globShape(
    include ?? TAP_DEFAULT,
    include === undefined ? "tap defaults" : ".taprc include",
  );
  return {
    evidence: shape.evidence,
    isTest: (path) =>
      shape.isTest(path) && !/(^|\/)(fixtures|node_modules|tap-snapshots)\//.test(path),
  };
}
