import { stemOf } from "../filter/languages.ts";
import { dirnameRel, joinRel } from "../project/project-view.ts";
import type { TestId } from "../engine/results.ts";
import { globShape } from "./config-text.ts";
import { has } from "./shared.ts";
import { anchoredAlternation, escapeRegex, OUTPUT_REPORT, type RunnerSpec } from "./spec.ts";

/** `go test -json` on stdout; files select their package folders, `-run` one level per subtest. */
export const go: RunnerSpec = {
  id: "go",
  languages: ["go"],
  label: "go test",
  detect: (view, dir) => (has(view, dir, "go.mod") ? { evidence: "go.mod" } : undefined),
  settingsFile: /^go\.mod$/,
  command: () => ["go", "test", "./..."],
  testDirs: [],
  fallbackTestDir: undefined,
  folderIds: "go",
  testCandidates: (src) => [joinRel(dirnameRel(src), `${stemOf(src)}_test.go`)],
  fileCommand: (command, files) => [
    ...command.filter((arg) => arg !== "./..."),
    ...new Set(files.map((file) => `./${dirnameRel(file)}`.replace(/\/$/, ""))),
  ],
  argv: ({ runner, files, ids }) => {
    const base = runner.command.filter((arg) => arg !== "./...");
    const dirs = files.map((file) => (file.endsWith(".go") ? dirnameRel(file) : file));
    const packages =
      dirs.length > 0 ? [...new Set(dirs.map((dir) => `./${dir}`.replace(/\/$/, "")))] : ["./..."];
    return {
      argv: [...base, "-json", ...goRunFilter(ids), ...packages],
      format: "go-json",
      report: OUTPUT_REPORT,
    };
  },
  suite: () => globShape(["**/*_test.go"], "go test (*_test.go)"),
  probe: (runner) => ({ argv: [runner.command[0] ?? "go", "version"], collects: false }),
  testIdJoiner: "::",
};

/** `go test -run` splits its pattern at `/`: one anchored alternation per subtest level. */
function goRunFilter(ids: readonly TestId[]): string[] {
  if (ids.length === 0) return [];
  const depth = Math.max(...ids.map((id) => id.segments.length));
  const levels: string[] = [];
  for (let level = 0; level < depth; level += 1) {
    const names = [
      ...new Set(
        ids.map((id) => id.segments[level]).filter((name): name is string => name !== undefined),
      ),
    ];
    levels.push(anchoredAlternation(names.map((name) => escapeRegex(name.replace(/ /g, "_")))));
  }
  return ["-run", levels.join("/")];
}
