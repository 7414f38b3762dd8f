import { joinRel, type ProjectView } from "../project/project-view.ts";
import { firstConfig, globShape, jsConfigStrings } from "./config-text.ts";
import { detectByPackageJson, jsCandidates, jsToolCommand } from "./shared.ts";
import { OUTPUT_REPORT, versionProbe, type RunnerSpec, type SuiteMatcher } from "./spec.ts";

/**
 * ava: `--tap` on standard output (it has no JSON reporter), tests by `--match` on their titles.
 * A title is matched as a wildcard pattern, so `*` in a title widens the match: the parser still
 * keys every result by its full title, and a run's extra tests are reported, never hidden.
 */
export const ava: RunnerSpec = {
  id: "ava",
  languages: ["javascript", "typescript"],
  label: "ava",
  packageJson: {
    script: /(^|[\s&|;(])ava\b/,
    dependency: "ava",
    configFile: /^ava\.config\.[cm]?js$/,
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "ava", table),
  command: (view, dir) => jsToolCommand(view, dir, "ava"),
  testDirs: ["test", "tests", "__tests__"],
  fallbackTestDir: undefined,
  testCandidates: (src, testDir, ctx) => [
    ...jsCandidates(src, testDir, ctx, ["test", "spec"]),
    // ava runs every file under test/: `test/<name>.js` is its most common habit.
    ...(testDir === undefined ? [] : [joinRel(testDir, src.slice(src.lastIndexOf("/") + 1))]),
    // The single-module package's habit: index.js beside test.js.
    ...(/^index\.[cm]?[jt]s$/.test(src) ? ["test.js"] : []),
  ],
  fileCommand: (command, files) => [...command, ...files],
  // A worker per file, a thread or (without worker threads) a process.
  isolatesFiles: () => true,
  argv: ({ runner, files, ids }) => ({
    argv: [
      ...runner.command,
      "--tap",
      ...ids.flatMap((id) => ["--match", id.segments[id.segments.length - 1] ?? ""]),
      ...files,
    ],
    format: "tap",
    report: OUTPUT_REPORT,
  }),
  suite: (view, runner) => avaShape(view, runner.package_dir),
  probe: versionProbe,
  testIdJoiner: " > ",
  shellPrograms: { ava: "ava" },
  noTestsRan: (_exit, output) =>
    /Couldn['\u2019]t find any (matching tests|files to test)/.test(output),
};

/** ava's default files, less its helpers and fixtures (underscored, or in helpers/ fixtures/). */
const AVA_DEFAULT = [
  "test.{js,cjs,mjs}",
  "src/test.{js,cjs,mjs}",
  "source/test.{js,cjs,mjs}",
  "**/test-*.{js,cjs,mjs}",
  "**/*.spec.{js,cjs,mjs}",
  "**/*.test.{js,cjs,mjs}",
  "**/test/**/*.{js,cjs,mjs}",
  "**/tests/**/*.{js,cjs,mjs}",
  "**/__tests__/**/*.{js,cjs,mjs}",
];

function avaShape(view: ProjectView, dir: string): SuiteMatcher {
  const config = firstConfig(view, dir, /^ava\.config\.[cm]?js$/);
  let files = config === undefined ? undefined : jsConfigStrings(config, "files");
  if (files === undefined) {
    const pkg = view.readText(joinRel(dir, "package.json"));
    try {
      const ava =
        pkg === undefined ? undefined : (JSON.parse(pkg) as { ava?: { files?: unknown } }).ava;
      if (Array.isArray(ava?.files))
        files = ava.files.filter((f): f is string => typeof f === "string");
    } catch {
      files = undefined;
    }
  }
  const include = (files ?? AVA_DEFAULT).filter((glob) => !glob.startsWith("!"));
  const exclude = (files ?? []).filter((glob) => glob.startsWith("!")).map((glob) => glob.slice(1));
  const shape = globShape(include, files === undefined ? "ava defaults" : "ava files");
  const excluded = exclude.length === 0 ? undefined : globShape(exclude, "");
  return {
    evidence: shape.evidence,
    isTest: (path) =>
      shape.isTest(path) &&
      excluded?.isTest(path) !== true &&
      !/(^|\/)_/.test(path) &&
      !/(^|\/)(helpers|fixtures|node_modules)\//.test(path),
  };
}
