import { stemOf } from "../filter/languages.ts";
import { dirnameRel, type ProjectView } from "../project/project-view.ts";
import { isTestFile } from "../filter/filter.ts";
import { classNames, dotnetCandidates } from "./shared.ts";
import {
  FILE_REPORT,
  REPORT_TOKEN,
  versionProbe,
  type Detection,
  type RunnerSpec,
} from "./spec.ts";

/** `dotnet test`: a TRX log to a file; `--filter FullyQualifiedName~…` selects. */
export const dotnet: RunnerSpec = {
  id: "dotnet",
  languages: ["csharp"],
  label: "dotnet test",
  detect: detectDotnet,
  command: () => ["dotnet", "test"],
  testDirs: [],
  fallbackTestDir: undefined,
  testCandidates: dotnetCandidates,
  fileCommand: (command, files) => [
    ...command,
    "--filter",
    classNames(files)
      .map((name) => `FullyQualifiedName~${name}`)
      .join("|"),
  ],
  argv: ({ runner, files, ids }) => {
    const selection = ids.length > 0 ? ids.map((id) => id.segments.join(".")) : files.map(stemOf);
    const filter =
      selection.length > 0
        ? ["--filter", selection.map((name) => `FullyQualifiedName~${name}`).join("|")]
        : [];
    return {
      argv: [...runner.command, "--logger", `trx;LogFileName=${REPORT_TOKEN}`, ...filter],
      format: "trx",
      report: FILE_REPORT,
    };
  },
  suite: () => ({ evidence: "test file names", isTest: (path) => isTestFile(path) }),
  probe: versionProbe,
  testIdJoiner: " > ",
  shellSubcommand: { program: "dotnet", sub: "test" },
};

function detectDotnet(view: ProjectView, dir: string): Detection | undefined {
  const names = view.list(dir);
  // A project inside a solution is tested from the solution's folder, where `dotnet test` sees every test project.
  if (!names.some(isSolution) && hasSolutionAbove(view, dir)) return undefined;
  const manifest =
    names.find((name) => name.endsWith(".sln") || name.endsWith(".slnx")) ??
    names.find((name) => name.endsWith(".csproj")) ??
    (names.includes("global.json") ? "global.json" : undefined);
  return manifest === undefined ? undefined : { evidence: manifest };
}

/** `/\.slnx?$/` without a regex: every runner detection asks it of every folder listed. */
function isSolution(name: string): boolean {
  return name.endsWith(".sln") || name.endsWith(".slnx");
}

function hasSolutionAbove(view: ProjectView, dir: string): boolean {
  let current = dir;
  while (current !== "") {
    current = dirnameRel(current);
    if (view.list(current).some(isSolution)) return true;
  }
  return false;
}
