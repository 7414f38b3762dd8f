import { dirnameRel, joinRel } from "../project/project-view.ts";
import { extensionOf, stemOf } from "../filter/languages.ts";
import { globShape } from "./config-text.ts";
import { firstExisting } from "./shared.ts";
import {
  anchoredAlternation,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  versionProbe,
  type RunnerSpec,
} from "./spec.ts";

/** `deno test`: JUnit to a file; a package.json with its own runner wins over deno.json. */
export const deno: RunnerSpec = {
  id: "deno",
  languages: ["typescript", "javascript"],
  label: "deno test",
  detect: (view, dir, table) => {
    const file = firstExisting(view, dir, ["deno.json", "deno.jsonc"]);
    if (file === undefined) return undefined;
    // A package.json with its own runner wins: Deno then only runs scripts.
    const byPackageJson = table.filter((spec) => spec.packageJson !== undefined);
    if (byPackageJson.some((spec) => spec.detect(view, dir, table) !== undefined)) return undefined;
    return { evidence: file };
  },
  command: () => ["deno", "test"],
  testDirs: [],
  fallbackTestDir: undefined,
  testCandidates: (src) => {
    const dir = dirnameRel(src);
    const ext = extensionOf(src);
    return [joinRel(dir, `${stemOf(src)}_test${ext}`), joinRel(dir, `${stemOf(src)}.test${ext}`)];
  },
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ runner, files, ids }) => {
    const filter =
      ids.length > 0 ? ["--filter", `/${anchoredAlternation(idNames(ids, " "))}/`] : [];
    return {
      argv: [
        ...runner.command,
        "--reporter=junit",
        `--junit-path=${REPORT_TOKEN}`,
        ...filter,
        ...files,
      ],
      format: "junit",
      report: FILE_REPORT,
    };
  },
  suite: () => globShape(["**/{*_,*.,}test.{ts,tsx,mts,js,mjs,jsx}"], "deno test defaults"),
  probe: versionProbe,
  testIdJoiner: " > ",
  junit: "deno",
  shellSubcommand: { program: "deno", sub: "test" },
};
