import { stemOf } from "../filter/languages.ts";
import { isTestFile } from "../filter/filter.ts";
import { classNames, has, jvmCandidates } from "./shared.ts";
import { versionProbe, type RunnerSpec } from "./spec.ts";

/** Maven surefire: `-Dtest=Class#method+method`; reports are the TEST-*.xml files it writes. */
export const maven: RunnerSpec = {
  id: "maven",
  languages: ["java", "kotlin"],
  label: "maven",
  detect: (view, dir) =>
    has(view, dir, "pom.xml")
      ? {
          evidence: "pom.xml",
          command: has(view, dir, "mvnw") ? ["./mvnw", "test"] : ["mvn", "test"],
        }
      : undefined,
  command: () => ["mvn", "test"],
  testDirs: [],
  fallbackTestDir: undefined,
  testCandidates: jvmCandidates,
  fileCommand: (command, files) => [
    ...command,
    `-Dtest=${classNames(files).join(",")}`,
    "-Dsurefire.failIfNoSpecifiedTests=false",
  ],
  argv: ({ runner, files, ids }) => {
    const selection =
      ids.length > 0
        ? ids.map((id) => `${id.segments[0]}#${id.segments.slice(1).join("+")}`)
        : files.map(stemOf);
    const tests =
      selection.length > 0
        ? [`-Dtest=${selection.join(",")}`, "-Dsurefire.failIfNoSpecifiedTests=false"]
        : [];
    return {
      argv: [...runner.command, ...tests],
      format: "junit",
      report: { kind: "dir", path: "target/surefire-reports", pattern: "TEST-*.xml" },
    };
  },
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "jvm",
};
