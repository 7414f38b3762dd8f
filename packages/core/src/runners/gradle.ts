import { stemOf } from "../filter/languages.ts";
import { isTestFile } from "../filter/filter.ts";
import { classNames, firstExisting, has, jvmCandidates } from "./shared.ts";
import { versionProbe, type RunnerSpec } from "./spec.ts";

/** Gradle: `--tests Class.method`; reports are the TEST-*.xml files of the test task. */
export const gradle: RunnerSpec = {
  id: "gradle",
  languages: ["java", "kotlin"],
  label: "gradle",
  detect: (view, dir) => {
    const file = firstExisting(view, dir, ["build.gradle.kts", "build.gradle"]);
    if (file === undefined) return undefined;
    return {
      evidence: file,
      command: has(view, dir, "gradlew") ? ["./gradlew", "test"] : ["gradle", "test"],
    };
  },
  command: () => ["gradle", "test"],
  testDirs: [],
  fallbackTestDir: undefined,
  testCandidates: jvmCandidates,
  fileCommand: (command, files) => [
    ...command,
    ...classNames(files).flatMap((name) => ["--tests", name]),
  ],
  argv: ({ runner, files, ids }) => {
    const selection = ids.length > 0 ? ids.map((id) => id.segments.join(".")) : files.map(stemOf);
    return {
      argv: [...runner.command, ...selection.flatMap((name) => ["--tests", name])],
      format: "junit",
      report: { kind: "dir", path: "build/test-results/test", pattern: "TEST-*.xml" },
    };
  },
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "jvm",
};
