import { stemOf } from "../filter/languages.ts";
import { dirnameRel, joinRel, type ProjectView } from "../project/project-view.ts";
import { isTestFile } from "../filter/filter.ts";
import { has, mirrored, read } from "./shared.ts";
import {
  FILE_REPORT,
  REPORT_TOKEN,
  versionProbe,
  type Detection,
  type RunnerSpec,
} from "./spec.ts";

/** rspec: JSON to a file and progress on the terminal; `-e` selects examples by full description. */
export const rspec: RunnerSpec = {
  id: "rspec",
  languages: ["ruby"],
  label: "rspec",
  detect: (view, dir) => detectRuby(view, dir, "rspec"),
  command: () => ["bundle", "exec", "rspec"],
  testDirs: ["spec"],
  fallbackTestDir: "spec",
  testCandidates: (src, testDir) => [
    joinRel(testDir ?? "spec", dirnameRel(mirrored(src, ["lib", "app"])), `${stemOf(src)}_spec.rb`),
  ],
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ runner, files, ids }) => {
    const filter = ids.flatMap((id) => ["-e", id.segments.join(" ")]);
    return {
      argv: [
        ...runner.command,
        "--format",
        "json",
        "--out",
        REPORT_TOKEN,
        "--format",
        "progress",
        ...filter,
        ...files,
      ],
      format: "rspec-json",
      report: FILE_REPORT,
    };
  },
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  shellPrograms: { rspec: "rspec" },
};

/** rspec when the Gemfile or a `.rspec` says so; minitest otherwise, for a Gemfile with tests. */
export function detectRuby(
  view: ProjectView,
  dir: string,
  id: "rspec" | "minitest",
): Detection | undefined {
  const gemfile = read(view, dir, "Gemfile");
  const rspec =
    (gemfile !== undefined && /gem\s+["']rspec(-rails)?["']/.test(gemfile)) ||
    has(view, dir, ".rspec");
  if (id === "rspec")
    return rspec
      ? { evidence: gemfile === undefined ? ".rspec" : "Gemfile lists rspec" }
      : undefined;
  if (rspec) return undefined;
  if (gemfile !== undefined && /gem\s+["']minitest["']/.test(gemfile))
    return { evidence: "Gemfile lists minitest" };
  if (gemfile !== undefined && has(view, dir, "test"))
    return { evidence: "Gemfile with a test/ folder (minitest)" };
  return undefined;
}
