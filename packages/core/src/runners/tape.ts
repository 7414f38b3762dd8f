import type { ProjectView } from "../project/project-view.ts";
import { globShape, JS_EXT } from "./config-text.ts";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  notAnOption,
  scriptToolArgs,
  suffixlessCandidates,
} from "./shared.ts";
import { OUTPUT_REPORT, REPORTER_TOKEN, versionProbe, type RunnerSpec } from "./spec.ts";

/**
 * tape: the files or globs on its command line, TAP on standard output, no reporter option and
 * no default files. Its TAP names a test by a `# <name>` line and never its file, so tailtest
 * preloads a module of its own (`-r`, `engine/parsers/tape-preload.ts`) that writes each test's
 * file and subtest path into its name, and `engine/parsers/tape-tap.ts` reads them back. The
 * test script's own preloads (`-r esm`, `-r @babel/register`) come first. A test id runs its
 * whole file: tape has no option to run one test of a file.
 */
export const tape: RunnerSpec = {
  id: "tape",
  languages: ["javascript", "typescript"],
  label: "tape",
  packageJson: { script: /(^|[\s&|;(/])tape\b(?![-.])/, dependency: "tape" },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "tape", table),
  command: (view, dir) => jsToolCommand(view, dir, "tape"),
  testDirs: ["test", "tests"],
  fallbackTestDir: "test",
  testCandidates: (src, testDir, ctx) => [
    ...jsCandidates(src, testDir, ctx, ["test", "spec"]),
    // tape's habit: `test/<name>.js` for `lib/<name>.js`.
    ...suffixlessCandidates(src, testDir),
  ],
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ view, runner, files, ids }) => {
    const script = tapeScript(view, runner.package_dir);
    // A test id runs its whole file: tape picks tests by file only.
    const chosen = [...new Set([...files, ...ids.map((id) => notAnOption(id.file))])];
    return {
      argv: [
        ...runner.command,
        ...script.requires.flatMap((module) => ["-r", module]),
        "-r",
        REPORTER_TOKEN,
        ...(chosen.length > 0 ? chosen : script.patterns),
      ],
      format: "tape-tap",
      report: OUTPUT_REPORT,
    };
  },
  suite: (view, runner) => {
    const script = tapeScript(view, runner.package_dir);
    return globShape(
      script.patterns.map((pattern) => pattern.replace(/^\.\//, "")),
      script.given ? "the test script's tape files" : "tape's usual test folders",
      JS_EXT,
    );
  },
  probe: versionProbe,
  testIdJoiner: " > ",
  shellPrograms: { tape: "tape" },
  noTestsRan: (exit, output) => exit === 0 && /^# tests 0\b/m.test(output),
};

interface TapeScript {
  /** The files and globs the script gives tape, unquoted; else the usual test folders. */
  patterns: string[];
  /** Whether the patterns are the script's own. */
  given: boolean;
  /** Its `-r` modules. */
  requires: string[];
}

/** The tape command of the package's test script, read as tape's CLI reads it. */
export function tapeScript(view: ProjectView, dir: string): TapeScript {
  const script = readScript(view, dir);
  return script.patterns.length > 0
    ? { ...script, given: true }
    : { ...script, patterns: [...USUAL_FILES], given: false };
}

/** tape has no default files: without a script that names some, the usual test folders. */
const USUAL_FILES = ["test/**/*.{js,cjs,mjs}", "tests/**/*.{js,cjs,mjs}"] as const;

function readScript(view: ProjectView, dir: string): Omit<TapeScript, "given"> {
  const script = { patterns: [] as string[], requires: [] as string[] };
  const words = scriptToolArgs(view, dir, "tape") ?? [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    const [flag, inline] = word.startsWith("--") ? word.split("=", 2) : [word, undefined];
    const value = () => inline ?? words[(i += 1)] ?? "";
    if (flag === "-r" || flag === "--require") script.requires.push(value());
    else if (flag === "-i" || flag === "--ignore" || flag === "--ignore-pattern") value();
    else if (!word.startsWith("-")) script.patterns.push(word);
  }
  return script;
}
