import { joinRel, type ProjectView } from "../project/project-view.ts";
import { firstConfig, globShape, yamlList } from "./config-text.ts";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  scriptToolArgs,
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
    argv: [
      ...runner.command,
      "--reporter=tap",
      coverageOff(view, runner.package_dir),
      ...(files.length > 0 ? files : scriptFiles(view, runner.package_dir)),
    ],
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

const JS_EXTS = "{js,cjs,mjs,ts,cts,mts,jsx,tsx}";

const TAP_DEFAULT = [
  "test/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "tests/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "**/__tests__/**/*.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "**/*.{test,spec}.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
  "**/{test,spec}.{js,cjs,mjs,ts,cts,mts,jsx,tsx}",
];

/** tap options whose value is the next word when not joined by `=`. */
const TAP_VALUE_FLAGS = new Set([
  ..."-R -t -g -j -o -d -i -c -T -O -s -x -X".split(" "),
  ..."--reporter --timeout --grep --jobs --output-file --output-dir --include --exclude".split(" "),
  ..."--node-arg --before --after --plugin --save --reporter-arg --test-env --test-arg".split(" "),
]);

/**
 * The files and globs the test script gives tap (`tap run tests/**\/*.js --timeout=60000`),
 * which replace its include list: dotenv's `tests/types/test.ts`, a tsc-only file in a tap
 * default folder, is no test of its suite.
 */
function scriptFiles(view: ProjectView, dir: string): string[] {
  const words = scriptToolArgs(view, dir, "tap") ?? [];
  const files: string[] = [];
  for (let i = words[0] === "run" ? 1 : 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    if (TAP_VALUE_FLAGS.has(word)) i += 1;
    else if (!word.startsWith("-")) files.push(word.replace(/^\.\//, "").replace(/\/$/, ""));
  }
  return files;
}

function tapShape(view: ProjectView, dir: string): SuiteMatcher {
  const given = scriptFiles(view, dir);
  const rc = firstConfig(view, dir, /^\.taprc$/);
  const include = rc === undefined ? undefined : yamlList(rc, "include");
  const shape =
    given.length > 0
      ? globShape(
          // A folder (`tap ./test`) is every script in it.
          given.map((file) => (/[*?{[]|\.\w+$/.test(file) ? file : `${file}/**/*.${JS_EXTS}`)),
          "the test script's tap files",
        )
      : globShape(
          include ?? TAP_DEFAULT,
          include === undefined ? "tap defaults" : ".taprc include",
        );
  return {
    evidence: shape.evidence,
    isTest: (path) =>
      shape.isTest(path) && !/(^|\/)(fixtures|node_modules|tap-snapshots)\//.test(path),
  };
}
