import picomatch from "picomatch";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  packageTestScript,
  scriptCommands,
  scriptToolArgs,
  unquote,
} from "./shared.ts";
import {
  escapeRegex,
  FILE_REPORT,
  REPORT_TOKEN,
  REPORTER_TOKEN,
  versionProbe,
  type Detection,
  type RunnerSpec,
  type SuiteMatcher,
} from "./spec.ts";
import { dirnameRel, joinRel, type ProjectView, walkFiles } from "../project/project-view.ts";
import type { DetectedRunner } from "./project-runners.ts";

/**
 * `node --test`: tailtest's own reporter module writes NDJSON events to a file; the reporter
 * flags go right after `--test`, before whatever the project's command passes it.
 */
export const nodeTest: RunnerSpec = {
  id: "node-test",
  languages: ["javascript", "typescript"],
  label: "node --test",
  // `tsx --test` (helmet): tsx hands its arguments to node with its loader in place;
  // better-node-test's `bnt` (nanoid, nanostores) runs `node --test` on the files it finds.
  packageJson: {
    script: /\b(node|tsx)\s+(.*\s)?--test\b|(?:^|[\s;&|(])bnt(?![\w.-])/,
    dependency: "better-node-test",
  },
  detect: (view, dir, table) => {
    const detection = detectByPackageJson(view, dir, "node-test", table, (script) =>
      nodeTestByFile(view, dir, script),
    );
    if (detection === undefined || detection.command !== undefined) return detection;
    const bnt = bntFiles(view, dir);
    if (bnt !== undefined)
      return {
        evidence: "package.json scripts.test runs bnt (node --test)",
        command: bntCommand(bnt),
      };
    const flags = nodeTestScriptFlags(packageTestScript(view, dir));
    if (flags === undefined) return detection;
    const command =
      flags[0] === "tsx" ? [...jsToolCommand(view, dir, "tsx"), ...flags.slice(1)] : flags;
    return { ...detection, command };
  },
  command: () => ["node", "--test"],
  testDirs: ["test", "tests", "__tests__"],
  fallbackTestDir: undefined,
  tsNeedsLoader: true,
  testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
  fileCommand: (command, files) => [...command, ...files],
  // A process per file, unless the command turns that off (`--test-isolation=none`).
  isolatesFiles: (view, runner) =>
    !/isolation[= ]none\b/.test(
      `${runner.command.join(" ")}\n${packageTestScript(view, runner.package_dir)}`,
    ),
  argv: ({ view, runner, files, ids }) => {
    const command = runner.command;
    const at = command.indexOf("--test");
    const head = at === -1 ? [...command, "--test"] : command.slice(0, at + 1);
    const tail = at === -1 ? [] : command.slice(at + 1);
    const filter = ids.map(
      (id) => `--test-name-pattern=^${escapeRegex(id.segments[id.segments.length - 1] ?? "")}$`,
    );
    const bnt = bntArgs(view, runner.package_dir) !== undefined;
    return {
      argv: [
        ...head,
        `--test-reporter=${REPORTER_TOKEN}`,
        `--test-reporter-destination=${REPORT_TOKEN}`,
        ...filter,
        ...tail,
        ...(files.length > 0 ? files : scriptTests(view, runner.package_dir)),
      ],
      format: "node-test-ndjson",
      report: FILE_REPORT,
      // bnt runs its tests with NODE_ENV=test, and some read it.
      ...(bnt ? { env: { NODE_ENV: "test" } } : {}),
    };
  },
  suite: nodeTestShape,
  probe: versionProbe,
  testIdJoiner: " > ",
};

/** Node 20's own patterns for `node --test` without arguments, and inside a folder argument. */
const NODE_TEST_DEFAULT = [
  "**/*.test.?(c|m)js",
  "**/*-test.?(c|m)js",
  "**/*_test.?(c|m)js",
  "**/test-*.?(c|m)js",
  "**/test.?(c|m)js",
  "**/test/**/*.?(c|m)js",
];

function nodeTestShape(view: ProjectView, runner: DetectedRunner): SuiteMatcher {
  const bnt = bntArgs(view, runner.package_dir);
  if (bnt !== undefined) return bntShape(bnt);
  const args =
    testScriptArgs(view, runner.package_dir) ??
    runner.command
      .slice(runner.command.indexOf("--test") + 1)
      .filter((arg) => !arg.startsWith("-"));
  // With a loader in the command, the files it loads count where Node's own patterns look.
  const patterns = hasLoader(runner.command)
    ? NODE_TEST_DEFAULT.map((glob) => glob.replace(/\?\(c\|m\)js$/, "?(c|m)[jt]s?(x)"))
    : NODE_TEST_DEFAULT;
  // Compiled when first asked: a script that names its files or globs never asks (picomatch's
  // compile of the six patterns was ~4 M instructions of every queued edit there).
  let compiled: ((path: string) => boolean) | undefined;
  const defaults = (path: string): boolean =>
    (compiled ??= picomatch(patterns, { dot: false }))(path);
  if (args.length === 0)
    return { evidence: "node --test defaults", isTest: (path) => defaults(path) };
  const globs = args.map((arg) => (/[*?{[]/.test(arg) ? arg : undefined));
  const named = globs.filter((g): g is string => g !== undefined);
  const explicit = named.length === 0 ? () => false : picomatch(named, { dot: false });
  const folders = args.filter((arg) => !/[*?{[]/.test(arg) && !/\.[cm]?[jt]s$/.test(arg));
  const files = new Set(args.filter((arg) => /\.[cm]?[jt]s$/.test(arg)));
  return {
    evidence: `node --test ${args.join(" ")} (package.json scripts.test)`,
    isTest: (path) =>
      files.has(path) ||
      (globs.some((g) => g !== undefined) && explicit(path)) ||
      folders.some((folder) => path.startsWith(`${folder.replace(/\/$/, "")}/`) && defaults(path)),
  };
}

/** How many files a glob of the test script may name, and how deep its walk goes. */
const GLOB_FILES = 5000;
const GLOB_DEPTH = 12;

/**
 * What a whole-suite run names: the test script's own files, folders and globs
 * (`node --import=tsx/esm --test test/*.ts`), the globs expanded here. Without them Node's
 * default patterns find only `.js` tests, and Node 20 expands no glob itself: p-queue's suite run
 * (strict's `refactor start`) found no test. A script that runs one file with plain `node` names
 * that file (mdx-js/mdx's React package: `test/index.jsx`). Empty when the script names none.
 */
function scriptTests(view: ProjectView, dir: string): string[] {
  const bnt = bntFiles(view, dir);
  if (bnt !== undefined) return bnt;
  const args = testScriptArgs(view, dir);
  if (args === undefined) {
    // A script that runs one file with plain node (`node --loader=… test/index.jsx`): that file,
    // which Node's default patterns would not find (a `.jsx`), nor the tests it alone imports.
    const run = plainNodeTestRun(view, dir, packageTestScript(view, dir));
    return run === undefined ? [] : [run.file];
  }
  const named = new Set<string>();
  for (const arg of args) {
    if (/[*?{[]/.test(arg)) for (const file of expandGlob(view, dir, arg)) named.add(file);
    else if (!arg.startsWith("../") && view.exists(joinRel(dir, arg))) named.add(arg);
  }
  return [...named].sort();
}

/** The package's files a glob matches (relative to the package), walked from its fixed part. */
function expandGlob(view: ProjectView, dir: string, glob: string): string[] {
  const fixed = glob.slice(0, glob.search(/[*?{[]/));
  const base = fixed.includes("/") ? fixed.slice(0, fixed.lastIndexOf("/")) : "";
  if (base.startsWith("..")) return [];
  return walkFiles(view, dir, base, {
    depth: GLOB_DEPTH,
    files: GLOB_FILES,
    skip: new Set(["node_modules"]),
    keep: picomatch(glob, { dot: false }),
  });
}

/**
 * The words after `--test` in the test script's command that has it, the scripts it calls
 * spelled in (helmet's `run-p test:*` reaches `tsx --test test/*.ts` in `test:node`), flags left
 * out; undefined when no command has `--test`.
 */
function testScriptArgs(view: ProjectView, dir: string): string[] | undefined {
  return scriptToolArgs(view, dir, "--test")
    ?.filter((word) => !word.startsWith("-"))
    .map((word) => word.replace(/^\.\//, ""));
}

/** Whether `node` flags load code before the tests (`--loader x`, `--import=tsx`, `-r`). */
function hasLoader(words: readonly string[]): boolean {
  return words.some(
    (word) =>
      /^(--loader|--experimental-loader|--import|--require|-r)(=|$)/.test(word) ||
      /(^|\/)tsx$/.test(word),
  );
}

/**
 * The command of a test script's `node … --test …` with the `node` flags that change what the
 * tests load (`node --import=tsx/esm --test test/*.ts`: without tsx no .ts test loads;
 * `--conditions`, `--experimental-strip-types`, `--env-file`), before and after `--test` as the
 * script has them. tailtest's own reporter, coverage, watch and `--test-*` options are left out;
 * undefined when the script keeps none.
 */
export function nodeTestScriptFlags(script: string): string[] | undefined {
  for (const command of scriptCommands(script)) {
    const words = command.map(unquote);
    const at = words.findIndex((word) => word === "node" || /(^|\/)tsx$/.test(word));
    if (at === -1 || !words.slice(at + 1).includes("--test")) continue;
    const tsx = words[at] !== "node";
    const before: string[] = [];
    const after: string[] = [];
    let seen = false;
    for (let i = at + 1; i < words.length; i += 1) {
      const word = words[i] ?? "";
      if (word === "--test") {
        seen = true;
        continue;
      }
      if (!word.startsWith("-")) continue;
      const name = word.replace(/=.*$/, "");
      const valued = NODE_VALUE_FLAGS.has(word) && i + 1 < words.length;
      const value = valued ? [words[(i += 1)] ?? ""] : [];
      if (/^--(test-|experimental-test-|watch)/.test(name) || name === "--test") continue;
      (seen ? after : before).push(word, ...value);
    }
    if (tsx) return ["tsx", ...before, "--test", ...after];
    if (before.length === 0 && after.length === 0) return undefined;
    return ["node", ...before, "--test", ...after];
  }
  return undefined;
}

/** `node` flags whose value is the next word. */
const NODE_VALUE_FLAGS = new Set([
  "--conditions",
  "-C",
  "--import",
  "--require",
  "-r",
  "--loader",
  "--experimental-loader",
  "--env-file",
]);
const NODE_TEST_IMPORT = /(?:\bfrom\s*|\brequire\(\s*|\bimport\s*\(?\s*)["']node:test["']/;

/**
 * A test script that runs one file with plain `node` (`node --conditions development
 * test/index.js`, the unified ecosystem's way) whose tests use `node:test`: the file imports
 * `node:test`, or it is an index importing test files that do. Its `node` flags are kept in the
 * command, before `--test`.
 */
function nodeTestByFile(view: ProjectView, dir: string, script: string): Detection | undefined {
  const run = plainNodeTestRun(view, dir, script);
  return run === undefined
    ? undefined
    : {
        evidence: `package.json scripts.test runs node ${run.file}, whose tests import node:test`,
        command: ["node", ...run.flags, "--test"],
      };
}

/** The file a test script runs with plain `node` and its flags, when its tests use `node:test`. */
function plainNodeTestRun(
  view: ProjectView,
  dir: string,
  script: string,
): { file: string; flags: string[] } | undefined {
  for (const part of script.split(/&&|\|\||[;()]/)) {
    const words = part.trim().split(/\s+/);
    const at = words.indexOf("node");
    if (at === -1) continue;
    const flags: string[] = [];
    let i = at + 1;
    for (; i < words.length && (words[i] ?? "").startsWith("-"); i += 1) {
      const flag = words[i] ?? "";
      flags.push(flag);
      if (NODE_VALUE_FLAGS.has(flag) && i + 1 < words.length) flags.push(words[(i += 1)] ?? "");
    }
    const file = (words[i] ?? "").replace(/^["']|["']$/g, "").replace(/^\.\//, "");
    // A JSX or TypeScript file runs through the loader the script names (mdx-js/mdx's
    // `--loader=../../script/jsx-loader.js test/index.jsx`).
    const runs = hasLoader(flags) ? /\.[cm]?[jt]sx?$/ : /\.[cm]?js$/;
    if (!runs.test(file) || file.startsWith("../")) continue;
    if (!usesNodeTest(view, joinRel(dir, file))) continue;
    return { file, flags };
  }
  return undefined;
}

function usesNodeTest(view: ProjectView, path: string): boolean {
  const text = view.readText(path);
  if (text === undefined) return false;
  if (NODE_TEST_IMPORT.test(text)) return true;
  const folder = dirnameRel(path);
  const imports = [...text.matchAll(/(?:\bfrom|\bimport|\brequire\()\s*["']\.\/([^"']+)["']/g)];
  return imports
    .slice(0, 50)
    .some(([, spec]) => NODE_TEST_IMPORT.test(view.readText(joinRel(folder, spec ?? "")) ?? ""));
}

/**
 * better-node-test (`bnt`, nanoid's and nanostores' test script): `node --test --test-reporter
 * spec` on the files it is given, or on every `*.test.*`/`*.spec.*` `.js`/`.ts` file below the
 * package outside `node_modules` and `.git`, with `--experimental-strip-types` when one is
 * TypeScript, and `NODE_ENV=test`. Its `-t <pattern>`, `--coverage <n>`, `--coverage-include
 * <glob>` and `--coverage-exclude <glob>` take a value; its other words are files.
 */
const BNT_FILE = /\.(test|spec)\.(js|ts)$/;
const BNT_VALUED = new Set(["-t", "--coverage", "--coverage-include", "--coverage-exclude"]);

/**
 * The files the test script gives `bnt`, `[]` for none, or undefined when it never runs it (or
 * also runs `node --test` itself, whose words then say what runs).
 */
function bntArgs(view: ProjectView, dir: string): string[] | undefined {
  const words = scriptToolArgs(view, dir, "bnt");
  if (words === undefined || testScriptArgs(view, dir) !== undefined) return undefined;
  const files: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    if (BNT_VALUED.has(word)) i += 1;
    else if (!word.startsWith("-")) files.push(word.replace(/^\.\//, ""));
  }
  return files;
}

/** The test files a `bnt` run of the whole suite runs, sorted; undefined when no script runs it. */
function bntFiles(view: ProjectView, dir: string): string[] | undefined {
  const named = bntArgs(view, dir);
  if (named === undefined) return undefined;
  if (named.length > 0) return [...named].sort();
  return walkFiles(view, dir, "", {
    depth: GLOB_DEPTH,
    files: GLOB_FILES,
    skip: new Set(["node_modules", ".git"]),
    keep: (path) => BNT_FILE.test(path),
  }).sort();
}

function bntCommand(files: readonly string[]): string[] {
  return files.some((file) => file.endsWith(".ts"))
    ? ["node", "--test", "--experimental-strip-types"]
    : ["node", "--test"];
}

function bntShape(files: readonly string[]): SuiteMatcher {
  if (files.length > 0) {
    const named = new Set(files);
    return {
      evidence: `bnt ${files.join(" ")} (package.json scripts.test)`,
      isTest: (path) => named.has(path),
    };
  }
  return {
    evidence: "bnt defaults: *.test.js, *.spec.js, *.test.ts, *.spec.ts",
    isTest: (path) => BNT_FILE.test(path) && !/(^|\/)node_modules\//.test(path),
  };
}
