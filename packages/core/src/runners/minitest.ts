import { stemOf } from "../filter/languages.ts";
import { dirnameRel, joinRel } from "../project/project-view.ts";
import { isTestFile } from "../filter/filter.ts";
import { detectRuby } from "./rspec.ts";
import { mirrored } from "./shared.ts";
import {
  anchoredAlternation,
  lastNames,
  OUTPUT_REPORT,
  versionProbe,
  type RunnerSpec,
} from "./spec.ts";

/**
 * minitest: verbose text on stdout. The suite through `rake test`; chosen files by requiring
 * them in one ruby process (rake's TEST= takes one file).
 */
export const minitest: RunnerSpec = {
  id: "minitest",
  languages: ["ruby"],
  label: "minitest",
  detect: (view, dir) => detectRuby(view, dir, "minitest"),
  command: () => ["bundle", "exec", "rake", "test"],
  testDirs: ["test"],
  fallbackTestDir: "test",
  testCandidates: (src, testDir) => [
    joinRel(testDir ?? "test", dirnameRel(mirrored(src, ["lib", "app"])), `${stemOf(src)}_test.rb`),
  ],
  fileCommand: (_command, files) => [
    "bundle",
    "exec",
    "ruby",
    "-Itest",
    "-Ilib",
    "-e",
    "ARGV.each { |f| require File.expand_path(f) }",
    ...files,
  ],
  argv: ({ runner, files, ids }) => {
    const filter = ids.length > 0 ? ["-n", `/${anchoredAlternation(lastNames(ids))}/`] : [];
    if (files.length === 0)
      return {
        argv: [...runner.command, `TESTOPTS=-v ${filter.join(" ")}`.trim()],
        format: "minitest-text",
        report: OUTPUT_REPORT,
      };
    return {
      argv: [
        "bundle",
        "exec",
        "ruby",
        "-Itest",
        "-Ilib",
        "-e",
        'files = ARGV.take_while { |a| a != "--" }; ARGV.replace(ARGV.drop(files.size + 1)); files.each { |f| require File.expand_path(f) }',
        ...files,
        "--",
        "-v",
        ...filter,
      ],
      format: "minitest-text",
      report: OUTPUT_REPORT,
    };
  },
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
};
