import { dirnameRel, joinRel, normalizeRel } from "../project/project-view.ts";
import { globShape } from "./config-text.ts";
import { cargoLibraryRoot, hasDocTests } from "./rust-crates.ts";
import {
  cargoTestTarget,
  has,
  isCargoFuzzCrate,
  rustCandidates,
  rustFileCommand,
} from "./shared.ts";
import { OUTPUT_REPORT, versionProbe, type ArgvInput, type RunnerSpec } from "./spec.ts";

/** `cargo test`: libtest's text on stdout; unit tests live inline in the source. */
export const cargo: RunnerSpec = {
  id: "cargo",
  languages: ["rust"],
  label: "cargo test",
  detect: (view, dir) =>
    has(view, dir, "Cargo.toml") && !isCargoFuzzCrate(view, dir)
      ? { evidence: "Cargo.toml" }
      : undefined,
  settingsFile: /^Cargo\.toml$/,
  command: () => ["cargo", "test"],
  testDirs: [],
  fallbackTestDir: undefined,
  inline: true,
  folderIds: "rust",
  testCandidates: rustCandidates,
  fileCommand: rustFileCommand,
  argv: (input) => {
    const { runner, ids } = input;
    const exact =
      ids.length > 0 ? ["--", "--exact", ...ids.map((id) => id.segments.join("::"))] : [];
    // Doc tests run only when no target is named (`--doc` cannot be mixed with `--lib`/`--test`).
    const targets = ids.length === 0 && reachesDocTests(input) ? [] : cargoTargets(input);
    return {
      argv: [...runner.command, "--no-fail-fast", ...targets, ...exact],
      format: "libtest-text",
      report: OUTPUT_REPORT,
    };
  },
  suite: () => globShape(["tests/**/*.rs"], "cargo integration tests (tests/*.rs)"),
  probe: versionProbe,
  testIdJoiner: "::",
};

/**
 * The test targets the files name: each `tests/x.rs` by `--test x`, and with those a source
 * file with its own #[cfg(test)] module brings the crate's unit tests (`--test` alone would
 * leave them out).
 */
export function cargoTargets({ view, runner, files }: ArgvInput): string[] {
  const integration = [...new Set(files.flatMap((file) => cargoTestTarget(file) ?? []))];
  const unit =
    integration.length > 0 && files.some((file) => !file.startsWith("tests/"))
      ? [cargoLibraryRoot(view, runner.package_dir) !== undefined ? "--lib" : "--bins"]
      : [];
  return [...unit, ...integration.flatMap((name) => ["--test", name])];
}

/**
 * Whether a selected source file holds doc tests: then the whole crate runs, its doc tests with
 * it, since naming targets leaves them out (a bug only a `///` example catches ended green).
 * Not the crate root's, unless the turn edited the root itself: it is selected for its unit tests
 * whenever any module changes, and its overview examples would make every edit a run of the whole
 * crate (httparse's Stops took 60-90 s at load 11 instead of a few seconds); but an edit of
 * `src/lib.rs` that breaks its own `//!` example (itoa's crate docs) ended green. The root is
 * also Cargo.toml's `[lib] path` when it names another file.
 */
function reachesDocTests({ view, runner, files, edited = [] }: ArgvInput): boolean {
  const library = cargoLibraryRoot(view, runner.package_dir);
  return files.some((file) => {
    const rel = file.replace(/^\.\//, "");
    if (rel.startsWith("tests/") || !rel.endsWith(".rs")) return false;
    const root = rel === "src/lib.rs" || rel === "src/main.rs" || rel === library;
    if (root && !edited.includes(rel)) return false;
    const path = joinRel(runner.package_dir, rel);
    const include = (target: string): string | undefined => {
      const included = normalizeRel(joinRel(dirnameRel(path), target));
      return included === undefined ? undefined : view.readText(included);
    };
    return hasDocTests(view.readText(path) ?? "", include);
  });
}
