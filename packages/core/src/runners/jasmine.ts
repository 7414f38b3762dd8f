import { joinRel, type ProjectView } from "../project/project-view.ts";
import { globShape } from "./config-text.ts";
import { detectByPackageJson, jsCandidates, jsToolCommand, packageTestScript } from "./shared.ts";
import { OUTPUT_REPORT, REPORTER_TOKEN, type RunnerSpec, type SuiteMatcher } from "./spec.ts";

/**
 * jasmine: files named on the command line replace the config's `spec_files` (its helpers still
 * load), and tailtest's own reporter module (`engine/parsers/jasmine-reporter.ts`) replaces the
 * console one, writing a marked JSON line per spec on standard output. The config the test
 * script names (`jasmine --config=jasmine.json`) is kept, else jasmine finds its default
 * `spec/support/jasmine.json`. A test id runs its whole file.
 */
export const jasmine: RunnerSpec = {
  id: "jasmine",
  languages: ["javascript", "typescript"],
  label: "jasmine",
  packageJson: {
    script: /(^|[\s&|;(])jasmine\b(?![-.])/,
    dependency: "jasmine",
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "jasmine", table),
  command: (view, dir) => jsToolCommand(view, dir, "jasmine"),
  testDirs: ["spec", "test", "tests"],
  fallbackTestDir: "spec",
  testCandidates: (src, testDir, ctx) => {
    const name = src.slice(src.lastIndexOf("/") + 1).replace(/\.[cm]?[jt]sx?$/, "");
    const ext = /\.ts$/.test(src) ? ".ts" : ".js";
    return [
      ...jsCandidates(src, testDir, ctx, ["spec", "test"]),
      // jasmine's habits: `spec/<name>Spec.js`, `spec/<name>.spec.js`, `<name>-spec.js`.
      ...(testDir === undefined
        ? []
        : [
            joinRel(testDir, `${name}Spec${ext}`),
            joinRel(testDir, `${name}.spec${ext}`),
            joinRel(testDir, `${name}-spec${ext}`),
          ]),
    ];
  },
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ view, runner, files, ids }) => {
    const config = jasmineConfigFlag(view, runner.package_dir);
    const chosen = [...new Set([...files, ...ids.map((id) => id.file)])];
    return {
      argv: [
        ...runner.command,
        ...(config === undefined ? [] : [`--config=${config}`]),
        `--reporter=${REPORTER_TOKEN}`,
        ...chosen,
      ],
      format: "jasmine-events",
      report: OUTPUT_REPORT,
    };
  },
  suite: (view, runner) => jasmineShape(view, runner.package_dir),
  probe: (runner) => ({ argv: [...runner.command, "-v"], collects: false }),
  testIdJoiner: " > ",
  shellPrograms: { jasmine: "jasmine" },
  noTestsRan: (_exit, output) => /No specs found/i.test(output),
};

/** The config file the test script gives jasmine (`--config=jasmine.json`), if any. */
function jasmineConfigFlag(view: ProjectView, dir: string): string | undefined {
  const script = packageTestScript(view, dir);
  const at = /(^|[\s&|;(])jasmine\s+([^&|;]*)/.exec(script);
  const flag = /--config[=\s]+(["']?)([^\s"']+)\1/.exec(at?.[2] ?? "");
  return flag?.[2]?.replace(/^\.\//, "");
}

const DEFAULT_CONFIG = "spec/support/jasmine.json";

function jasmineShape(view: ProjectView, dir: string): SuiteMatcher {
  const name = jasmineConfigFlag(view, dir) ?? DEFAULT_CONFIG;
  const text = view.readText(joinRel(dir, name));
  let config: { spec_dir?: unknown; spec_files?: unknown; helpers?: unknown } | undefined;
  try {
    config = text === undefined ? undefined : (JSON.parse(text) as typeof config);
  } catch {
    config = undefined;
  }
  const strings = (value: unknown): string[] | undefined =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
  const specDir =
    typeof config?.spec_dir === "string" ? config.spec_dir.replace(/^\.\/|\/$/g, "") : "spec";
  const files = strings(config?.spec_files) ?? ["**/*[sS]pec.?(m)js"];
  const helpers = strings(config?.helpers) ?? ["helpers/**/*.?(m)js"];
  const under = (globs: string[]) =>
    globs.filter((glob) => !glob.startsWith("!")).map((glob) => joinRel(specDir, glob));
  const shape = globShape(under(files), config === undefined ? "jasmine defaults" : name);
  const helper = globShape(under(helpers), "");
  const excluded = globShape(
    files.filter((glob) => glob.startsWith("!")).map((glob) => joinRel(specDir, glob.slice(1))),
    "",
  );
  return {
    evidence: shape.evidence,
    isSetup: (path) => helper.isTest(path),
    isTest: (path) =>
      shape.isTest(path) &&
      !helper.isTest(path) &&
      !excluded.isTest(path) &&
      !/(^|\/)node_modules\//.test(path),
  };
}
