import { isTestFile } from "../filter/filter.ts";
import { classNames, firstExisting, has, phpCandidates, read } from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  lastNames,
  REPORT_TOKEN,
  versionProbe,
  type BuiltArgv,
  type Detection,
  type RunnerSpec,
  type ArgvInput,
} from "./spec.ts";
import type { ProjectView } from "../project/project-view.ts";

/** PHPUnit: JUnit to a file; one file by path, several by a `--filter` on their class names. */
export const phpunit: RunnerSpec = {
  id: "phpunit",
  languages: ["php"],
  label: "phpunit",
  detect: (view, dir) => detectPhp(view, dir, "phpunit"),
  command: () => ["vendor/bin/phpunit"],
  testDirs: ["tests"],
  fallbackTestDir: "tests",
  testCandidates: (src, testDir, ctx) => phpCandidates(src, testDir ?? "tests", ctx),
  fileCommand: phpFileCommand,
  argv: phpArgv,
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "php",
  shellPrograms: { phpunit: "phpunit", paratest: "paratest" },
};

export function phpFileCommand(command: readonly string[], files: readonly string[]): string[] {
  return files.length === 1
    ? [...command, ...files]
    : [...command, "--filter", `(${classNames(files).join("|")})`];
}

export function phpArgv({ runner, files, ids }: ArgvInput): BuiltArgv {
  const filter = ids.length > 0 ? ["--filter", anchoredAlternation(lastNames(ids))] : [];
  const paths = files.length === 1 ? files : [];
  return {
    argv: [...runner.command, "--log-junit", REPORT_TOKEN, ...filter, ...paths],
    format: "junit",
    report: FILE_REPORT,
  };
}

/** Pest when composer requires it or tests/Pest.php exists; PHPUnit otherwise. */
export function detectPhp(
  view: ProjectView,
  dir: string,
  id: "phpunit" | "pest",
): Detection | undefined {
  const composer = read(view, dir, "composer.json") ?? "";
  const pest = composer.includes('"pestphp/pest"') || has(view, dir, "tests/Pest.php");
  if (id === "pest") return pest ? { evidence: "composer.json requires pestphp/pest" } : undefined;
  if (pest) return undefined;
  if (composer.includes('"phpunit/phpunit"'))
    return { evidence: "composer.json requires phpunit/phpunit" };
  const xml = firstExisting(view, dir, ["phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"]);
  return xml === undefined ? undefined : { evidence: xml };
}
