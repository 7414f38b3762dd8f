import { isTestFile } from "../filter/filter.ts";
import { detectPhp, phpArgv, phpFileCommand } from "./phpunit.ts";
import { phpCandidates } from "./shared.ts";
import { versionProbe, type RunnerSpec } from "./spec.ts";

/** Pest: PHPUnit's flags and JUnit; before PHPUnit in the table, since it runs on top of it. */
export const pest: RunnerSpec = {
  id: "pest",
  languages: ["php"],
  label: "pest",
  detect: (view, dir) => detectPhp(view, dir, "pest"),
  command: () => ["vendor/bin/pest"],
  testDirs: ["tests"],
  fallbackTestDir: "tests",
  testCandidates: (src, testDir, ctx) => phpCandidates(src, testDir ?? "tests", ctx),
  fileCommand: phpFileCommand,
  argv: phpArgv,
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "php",
  shellPrograms: { pest: "pest" },
};
