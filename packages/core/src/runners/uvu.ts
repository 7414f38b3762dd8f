import { dirnameRel, joinRel, type ProjectView } from "../project/project-view.ts";
import { JS_EXT } from "./config-text.ts";
import { detectByPackageJson, jsCandidates, jsToolCommand, scriptToolArgs } from "./shared.ts";
import {
  escapeRegex,
  OUTPUT_REPORT,
  versionProbe,
  type RunnerSpec,
  type SuiteMatcher,
} from "./spec.ts";

/**
 * uvu: a folder and a pattern (`uvu [dir] [pattern] -i ignore -r module`), not a list of files,
 * and a console report only (`engine/parsers/uvu-text.ts`). Chosen files run as one anchored
 * pattern under their common folder, with the modules the test script preloads (`-r esm`,
 * `-r tsm`): without them an ESM or TypeScript suite does not load. uvu names only failing tests,
 * so a run's tests are chosen by file, never by title: a test id runs its file.
 */
export const uvu: RunnerSpec = {
  id: "uvu",
  languages: ["javascript", "typescript"],
  label: "uvu",
  packageJson: { script: /(^|[\s&|;(])uvu\b/, dependency: "uvu" },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "uvu", table),
  command: (view, dir) => jsToolCommand(view, dir, "uvu"),
  testDirs: ["test", "tests", "__tests__"],
  fallbackTestDir: "test",
  testCandidates: (src, testDir, ctx) => [
    ...jsCandidates(src, testDir, ctx, ["test", "spec"]),
    // uvu's own habit: `test/<name>.js` for `src/<name>.js`.
    ...(testDir === undefined ? [] : [joinRel(testDir, src.slice(src.lastIndexOf("/") + 1))]),
  ],
  fileCommand: (command, files) => [...command, ...filesArgs(files)],
  argv: ({ view, runner, files, ids }) => {
    const script = uvuScript(view, runner.package_dir);
    const preload = script.requires.flatMap((module) => ["-r", module]);
    // A test id runs its whole file: uvu picks tests by file only.
    const all = [...new Set([...files, ...ids.map((id) => id.file)])].map((file) =>
      file.replace(/^\.\//, ""),
    );
    const chosen =
      all.length > 0
        ? filesArgs(all)
        : [
            ...(script.dir === undefined ? [] : [script.dir]),
            ...(script.pattern === undefined ? [] : [script.pattern]),
            ...script.ignores.flatMap((ignore) => ["-i", ignore]),
          ];
    // uvu prints each file relative to the folder it was given (its first word here, if any).
    const folder = ((all.length > 0 ? chosen[0] : script.dir) ?? "")
      .replace(/^\.(\/|$)/, "")
      .replace(/\/$/, "");
    return {
      argv: [...runner.command, "-c", "false", ...preload, ...chosen],
      format: "uvu-text",
      report: OUTPUT_REPORT,
      ...(folder === "" ? {} : { namesFrom: folder }),
    };
  },
  suite: (view, runner) => uvuShape(view, runner.package_dir),
  probe: versionProbe,
  testIdJoiner: " > ",
  shellPrograms: { uvu: "uvu" },
  noTestsRan: (exit, output) => exit === 0 && /Total:\s+0\b/.test(output),
};

/** The common folder of the files and a pattern matching exactly their paths below it. */
function filesArgs(files: readonly string[]): string[] {
  let dir = dirnameRel(files[0] ?? "");
  while (dir !== "" && !files.every((file) => file.startsWith(`${dir}/`))) dir = dirnameRel(dir);
  const rel = files.map((file) => escapeRegex(dir === "" ? file : file.slice(dir.length + 1)));
  return [dir === "" ? "." : dir, `^(${rel.join("|")})$`];
}

interface UvuScript {
  dir: string | undefined;
  pattern: string | undefined;
  ignores: string[];
  requires: string[];
}

/** The uvu command of the package's test script, read as uvu's CLI reads it. */
export function uvuScript(view: ProjectView, dir: string): UvuScript {
  const script: UvuScript = { dir: undefined, pattern: undefined, ignores: [], requires: [] };
  const words = scriptToolArgs(view, dir, "uvu");
  if (words === undefined) return script;
  const positional: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const [flag, inline] = word.startsWith("--") ? word.split("=", 2) : [word, undefined];
    const value = () => inline ?? words[(i += 1)] ?? "";
    if (flag === "-r" || flag === "--require") script.requires.push(value());
    else if (flag === "-i" || flag === "--ignore") script.ignores.push(value());
    else if (flag === "-C" || flag === "--cwd") value();
    else if (word.startsWith("-")) continue;
    else positional.push(word.replace(/^\.\//, ""));
  }
  script.dir = positional[0];
  script.pattern = positional[1];
  return script;
}

/** uvu's default pattern without a folder: test folders and `.test`/`.spec` files. */
const UVU_DEFAULT =
  /((\/|^)(tests?|__tests?__)\/.*|\.(tests?|spec)|^\/?tests?)\.([mc]js|[jt]sx?)$/i;

function uvuShape(view: ProjectView, dir: string): SuiteMatcher {
  const script = uvuScript(view, dir);
  const regex = (source: string): RegExp | undefined => {
    try {
      return new RegExp(source, "i");
    } catch {
      return undefined;
    }
  };
  const ignores = ["node_modules", ...script.ignores].map(regex);
  const folder =
    script.dir === undefined || script.dir === "." ? "" : script.dir.replace(/\/$/, "");
  const pattern = script.pattern === undefined ? undefined : regex(script.pattern);
  if (script.dir === undefined) {
    return {
      evidence: "uvu defaults",
      isTest: (path) => UVU_DEFAULT.test(path) && !/(^|\/)node_modules\//.test(path),
    };
  }
  return {
    evidence: "the test script's uvu folder and options",
    isTest: (path) => {
      if (folder !== "" && !path.startsWith(`${folder}/`)) return false;
      const rel = folder === "" ? path : path.slice(folder.length + 1);
      if (!JS_EXT.test(rel)) return false;
      if (pattern !== undefined && !pattern.test(rel)) return false;
      return !ignores.some((ignore) => ignore !== undefined && ignore.test(rel));
    },
  };
}
