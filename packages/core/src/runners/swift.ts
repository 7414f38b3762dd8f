import { stemOf } from "../filter/languages.ts";
import { joinRel } from "../project/project-view.ts";
import { isTestFile } from "../filter/filter.ts";
import { classNames, has } from "./shared.ts";
import { FILE_REPORT, REPORT_TOKEN, versionProbe, type RunnerSpec } from "./spec.ts";

/** `swift test`: xUnit XML to a file; `--filter Class/method` selects. */
export const swift: RunnerSpec = {
  id: "swift",
  languages: ["swift"],
  label: "swift test",
  detect: (view, dir) =>
    has(view, dir, "Package.swift") ? { evidence: "Package.swift" } : undefined,
  command: () => ["swift", "test"],
  testDirs: ["Tests"],
  fallbackTestDir: "Tests",
  testCandidates: (src) => {
    const target = src.startsWith("Sources/") ? (src.split("/")[1] ?? "App") : "App";
    return [joinRel("Tests", `${target}Tests`, `${stemOf(src)}Tests.swift`)];
  },
  fileCommand: (command, files) => [...command, "--filter", classNames(files).join("|")],
  argv: ({ runner, files, ids }) => {
    const selection = ids.length > 0 ? ids.map((id) => id.segments.join("/")) : files.map(stemOf);
    const filter = selection.length > 0 ? ["--filter", selection.join("|")] : [];
    return {
      argv: [...runner.command, "--xunit-output", REPORT_TOKEN, ...filter],
      format: "junit",
      report: FILE_REPORT,
    };
  },
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "swift",
  shellSubcommand: { program: "swift", sub: "test" },
};
