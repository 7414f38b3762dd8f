import picomatch from "picomatch";
import { joinRel, type ProjectView } from "../project/project-view.ts";
import { firstConfig, JS_EXT, jsConfigStrings, scriptArgs, yamlList } from "./config-text.ts";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  suffixlessCandidates,
} from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  type RunnerSpec,
  type SuiteMatcher,
} from "./spec.ts";

/** mocha: its JSON reporter to a file; `--grep` selects tests by space-joined full name. */
export const mocha: RunnerSpec = {
  id: "mocha",
  languages: ["javascript", "typescript"],
  label: "mocha",
  packageJson: {
    script: /\bmocha\b/,
    dependency: "mocha",
    configFile: /^\.mocharc\.(json|jsonc|ya?ml|[cm]?js)$/,
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "mocha", table),
  command: (view, dir) => jsToolCommand(view, dir, "mocha"),
  testDirs: ["test", "tests", "__tests__"],
  fallbackTestDir: "test",
  testCandidates: (src, testDir, ctx) => [
    ...jsCandidates(src, testDir, ctx, ["test", "spec"]),
    ...suffixlessCandidates(src, testDir),
  ],
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ runner, files, ids }) => {
    const filter = ids.length > 0 ? ["--grep", anchoredAlternation(idNames(ids, " "))] : [];
    return {
      argv: [
        ...runner.command,
        "--reporter",
        "json",
        "--reporter-option",
        `output=${REPORT_TOKEN}`,
        ...filter,
        ...files,
      ],
      format: "mocha-json",
      report: FILE_REPORT,
    };
  },
  suite: (view, runner) => mochaShape(view, runner.package_dir),
  probe: (runner) => ({
    argv: [...runner.command.filter((arg) => arg !== "run"), "--version"],
    collects: false,
  }),
  testIdJoiner: " > ",
  shellPrograms: { mocha: "mocha" },
};

function mochaShape(view: ProjectView, dir: string): SuiteMatcher {
  const rc = firstConfig(view, dir, /^\.mocharc\.(json|jsonc|ya?ml|[cm]?js)$/);
  let spec: string[] | undefined;
  let recursive = false;
  if (rc !== undefined) {
    spec = jsConfigStrings(rc.replace(/"(\w+)"\s*:/g, "$1:"), "spec") ?? yamlList(rc, "spec");
    recursive = /\brecursive\b\s*[:=]\s*true/.test(rc);
  }
  const args = scriptArgs(view, dir, /^mocha$/);
  if (spec === undefined && args !== undefined && args.length > 0) spec = args;
  const script = view.readText(joinRel(dir, "package.json")) ?? "";
  recursive ||= /mocha[^"]*--recursive/.test(script);
  const globs = (spec ?? [recursive ? "test/**/*.{js,cjs,mjs}" : "test/*.{js,cjs,mjs}"]).map((g) =>
    g.replace(/^\.\//, "").replace(/\/$/, ""),
  );
  const expanded = globs.flatMap((g) =>
    /[*?{[]/.test(g) || JS_EXT.test(g) ? [g] : [`${g}/${recursive ? "**/" : ""}*.{js,cjs,mjs,ts}`],
  );
  const match = picomatch(expanded, { dot: false });
  return {
    evidence: spec === undefined ? "mocha defaults (test/*.js)" : "mocha spec",
    isTest: (path) => match(path),
  };
}
