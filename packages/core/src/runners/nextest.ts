import { joinRel } from "../project/project-view.ts";
import { cargo, cargoTargets } from "./cargo.ts";
import { has, isCargoFuzzCrate, rustCandidates, rustFileCommand } from "./shared.ts";
import { OUTPUT_REPORT, versionProbe, type RunnerSpec } from "./spec.ts";

/**
 * `cargo nextest run`: its JUnit report when the default profile configures one, else its text
 * on stdout. Before plain cargo in the table: a nextest config means the project uses it.
 */
export const nextest: RunnerSpec = {
  id: "nextest",
  languages: ["rust"],
  label: "cargo nextest",
  detect: (view, dir) =>
    has(view, dir, "Cargo.toml") &&
    !isCargoFuzzCrate(view, dir) &&
    (has(view, dir, ".config/nextest.toml") || view.exists(".config/nextest.toml"))
      ? { evidence: "Cargo.toml and .config/nextest.toml" }
      : undefined,
  settingsFile: /^Cargo\.toml$/,
  command: () => ["cargo", "nextest", "run"],
  testDirs: [],
  fallbackTestDir: undefined,
  inline: true,
  folderIds: "rust",
  testCandidates: rustCandidates,
  fileCommand: rustFileCommand,
  argv: (input) => {
    const { view, runner, ids } = input;
    const filter =
      ids.length > 0 ? ["-E", ids.map((id) => `test(=${id.segments.join("::")})`).join(" | ")] : [];
    const argv = [...runner.command, "--no-fail-fast", ...cargoTargets(input), ...filter];
    // With JUnit configured for the default profile, nextest writes structured results; use them.
    const config = view.readText(joinRel(runner.package_dir, ".config/nextest.toml")) ?? "";
    if (/^\[profile\.default\.junit\]/m.test(config)) {
      const report = { kind: "dir", path: "target/nextest/default", pattern: "junit.xml" } as const;
      return { argv, format: "junit", report };
    }
    return { argv, format: "nextest-text", report: OUTPUT_REPORT };
  },
  suite: (view, runner) => cargo.suite(view, runner),
  probe: versionProbe,
  testIdJoiner: "::",
  junit: "nextest",
};
