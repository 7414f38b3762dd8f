import { globShape, JS_EXT } from "./config-text.ts";
import { detectByPackageJson, jsCandidates } from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  versionProbe,
  type RunnerSpec,
} from "./spec.ts";

/** `bun test`: JUnit to a file; test files as `./` paths (a bare name is a filter to bun). */
export const bun: RunnerSpec = {
  id: "bun",
  languages: ["javascript", "typescript"],
  label: "bun test",
  packageJson: { script: /\bbun\s+test\b/, configFile: /^bunfig\.toml$/ },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "bun", table),
  command: () => ["bun", "test"],
  testDirs: ["__tests__", "tests", "test", "src/__tests__", "src/test"],
  fallbackTestDir: undefined,
  testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
  fileCommand: (command, files) => [...command, ...files.map(dotted)],
  argv: ({ runner, files, ids }) => {
    const filter = ids.length > 0 ? ["-t", anchoredAlternation(idNames(ids, " "))] : [];
    return {
      argv: [
        ...runner.command,
        "--reporter=junit",
        `--reporter-outfile=${REPORT_TOKEN}`,
        ...filter,
        ...files.map(dotted),
      ],
      format: "junit",
      report: FILE_REPORT,
    };
  },
  suite: () => globShape(["**/*.{test,spec}.*", "**/*_{test,spec}.*"], "bun test defaults", JS_EXT),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "bun",
};

function dotted(file: string): string {
  return file.startsWith(".") ? file : `./${file}`;
}
