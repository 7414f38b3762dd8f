import picomatch from "picomatch";
import { joinRel, type ProjectView } from "../project/project-view.ts";
import { firstConfig, firstConfigFile, JS_EXT, jsConfigStrings, yamlList } from "./config-text.ts";
import {
  detectByPackageJson,
  jsCandidates,
  jsToolCommand,
  scriptToolArgs,
  suffixlessCandidates,
} from "./shared.ts";
import {
  anchoredAlternation,
  CONFIG_WITHOUT_SPEC_TOKEN,
  FILE_REPORT,
  idNames,
  REPORT_TOKEN,
  type RunnerSpec,
  type SuiteMatcher,
} from "./spec.ts";

/** mocha: its JSON reporter to a file; `--grep` selects tests by space-joined full name. */
export const mocha: RunnerSpec = {
  id: "mocha",
  languages: ["javascript", "typescript"],
  label: "mocha",
  packageJson: {
    script: /\bmocha\b/,
    dependency: "mocha",
    configFile: /^\.mocharc\.(json|jsonc|ya?ml|[cm]?js)$/,
  },
  detect: (view, dir, table) => detectByPackageJson(view, dir, "mocha", table),
  command: (view, dir) => jsToolCommand(view, dir, "mocha"),
  testDirs: ["test", "tests", "__tests__"],
  fallbackTestDir: "test",
  testsAt: (view, dir) => mochaSpec(view, dir)?.join(" "),
  testCandidates: (src, testDir, ctx) => [
    ...jsCandidates(src, testDir, ctx, ["test", "spec"]),
    ...suffixlessCandidates(src, testDir),
  ],
  fileCommand: (command, files) => [...command, ...files],
  fileOptions: (view, dir) => scriptLoadOptions(view, dir),
  argv: ({ view, runner, files, ids }) => {
    const filter = ids.length > 0 ? ["--grep", anchoredAlternation(idNames(ids, " "))] : [];
    return {
      argv: [
        ...runner.command,
        ...(files.length > 0 ? withoutConfigSpec(view, runner.package_dir) : []),
        ...scriptLoadOptions(view, runner.package_dir),
        "--reporter",
        "json",
        "--reporter-option",
        `output=${REPORT_TOKEN}`,
        ...filter,
        ...(files.length > 0 ? files : scriptSpec(view, runner.package_dir)),
      ],
      format: "mocha-json",
      report: FILE_REPORT,
    };
  },
  suite: (view, runner) => mochaShape(view, runner.package_dir),
  probe: (runner) => ({
    argv: [...runner.command.filter((arg) => arg !== "run"), "--version"],
    collects: false,
  }),
  testIdJoiner: " > ",
  shellPrograms: { mocha: "mocha" },
};

/**
 * What a whole-suite run names when no rc file declares `spec`: the test script's own files
 * (`mocha --forbid-only "test/**\/*.test.ts"`), which mocha's default (`./test/*.{js,cjs,mjs}`)
 * would miss (oclif/test: every strict Stop's suite run found no test).
 */
function scriptSpec(view: ProjectView, dir: string): string[] {
  const rc = firstConfig(view, dir, MOCHARC_TEXT);
  if (rc !== undefined && rcSpec(rc) !== undefined) return [];
  return scriptMochaSpec(view, dir) ?? [];
}

/** mocha's options whose value is the next word (`-r ts-node/register`, `--timeout 5000`). */
const VALUED_OPTION =
  /^(-r|--require|-R|--reporter|-O|--reporter-options?|-u|--ui|-t|--timeout|-s|--slow|-g|--grep|-f|--fgrep|--config|--package|--extension|--ignore|--exclude|--file|-n|--node-option|-j|--jobs|--retries)$/;

/**
 * The files the test script gives mocha, in the script as it runs: the scripts it calls by name
 * spelled in (graphql-js: `test` runs `npm run testonly`, which is `mocha --full-trace
 * src/**\/__tests__/**\/*-test.ts`). Options and their values are not files. Undefined when
 * the script never runs mocha.
 */
function scriptMochaSpec(view: ProjectView, dir: string): string[] | undefined {
  const words = scriptToolArgs(view, dir, "mocha");
  if (words === undefined) return undefined;
  const spec: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    let file: string | undefined = word.startsWith("-") ? undefined : word;
    if (word === "--spec") file = words[i + 1];
    if (file !== undefined && file !== "") spec.push(file.replace(/^\.\//, ""));
    if (word === "--spec" || VALUED_OPTION.test(word)) i += 1;
  }
  return spec;
}

/** The test script's options that say how a test file loads and runs, with a value. */
const LOAD_VALUED =
  /^(-r|--require|--file|-u|--ui|--extension|-n|--node-option|-t|--timeout|--loader|--import)$/;
/** …and without one. */
const LOAD_FLAG =
  /^--(exit|full-trace|delay|check-leaks|async-only|allow-uncaught|no-timeouts|enable-source-maps|experimental-[\w-]+)$/;

/**
 * The options of the test script's mocha that every run of its tests needs, as `--name=value`:
 * how a file loads (`--require ts-node/register`, `--import`, `--extension ts`, `--file`, `--ui`)
 * and how long it may take. hexo's `mocha test/scripts/**\/*.ts --require ts-node/register`:
 * without its `--require` every TypeScript test file failed to load. The files, the reporter, a
 * grep, parallel jobs and retries are the run's own.
 */
function scriptLoadOptions(view: ProjectView, dir: string): string[] {
  const words = scriptToolArgs(view, dir, "mocha") ?? [];
  const options: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    const [flag = "", inline] = word.startsWith("--") ? word.split(/=(.*)/s, 2) : [word];
    if (LOAD_FLAG.test(flag) && inline === undefined) options.push(flag);
    else if (LOAD_VALUED.test(flag)) {
      const value = inline ?? words[(i += 1)];
      if (value !== undefined && value !== "") options.push(`${longName(flag)}=${value}`);
    } else if (VALUED_OPTION.test(word)) i += 1;
  }
  return options;
}

function longName(flag: string): string {
  const short: Record<string, string> = {
    "-r": "--require",
    "-u": "--ui",
    "-n": "--node-option",
    "-t": "--timeout",
  };
  return short[flag] ?? flag;
}

/** The rc files whose text the suite's shape reads. */
const MOCHARC_TEXT = /^\.mocharc\.(json|jsonc|ya?ml|[cm]?js)$/;

/** The `spec` an rc file's text declares (JSON, YAML or a JavaScript object), if any. */
function rcSpec(rc: string): string[] | undefined {
  return jsConfigStrings(rc.replace(/"(\w+)"\s*:/g, "$1:"), "spec") ?? yamlList(rc, "spec");
}

/** The files mocha runs as the project says: its rc file's `spec`, else the test script's. */
function mochaSpec(view: ProjectView, dir: string): string[] | undefined {
  const rc = firstConfig(view, dir, MOCHARC_TEXT);
  const spec = rc === undefined ? undefined : rcSpec(rc);
  if (spec !== undefined) return spec;
  const args = scriptMochaSpec(view, dir);
  return args !== undefined && args.length > 0 ? args : undefined;
}

function mochaShape(view: ProjectView, dir: string): SuiteMatcher {
  const rc = firstConfig(view, dir, MOCHARC_TEXT);
  const spec = mochaSpec(view, dir);
  // `recursive: true` (YAML, JavaScript) or `"recursive": true` (JSON).
  let recursive = rc !== undefined && /\brecursive\b["']?\s*[:=]\s*true/.test(rc);
  const script = view.readText(joinRel(dir, "package.json")) ?? "";
  recursive ||= /mocha[^"]*--recursive/.test(script);
  const globs = (spec ?? [recursive ? "test/**/*.{js,cjs,mjs}" : "test/*.{js,cjs,mjs}"]).map((g) =>
    g.replace(/^\.\//, "").replace(/\/$/, ""),
  );
  const expanded = globs.flatMap((g) =>
    /[*?{[]/.test(g) || JS_EXT.test(g) ? [g] : [`${g}/${recursive ? "**/" : ""}*.{js,cjs,mjs,ts}`],
  );
  const match = picomatch(expanded, { dot: false });
  return {
    evidence: spec === undefined ? "mocha defaults (test/*.js)" : "mocha spec",
    isTest: (path) => match(path),
  };
}

/** The rc file names mocha looks for, in its own order. */
const MOCHARC = /^\.mocharc\.(js|cjs|mjs|yaml|yml|jsonc|json)$/;

/** Options an rc file may hold that a run of chosen files must not take on. */
const NOT_CARRIED =
  /^(spec|reporter|reporter-options?|R|O|watch|w|watch-files|watch-ignore|config|package|\$.*)$/;

/**
 * mocha adds the `spec` of its rc file or package.json's `mocha` key to the files named on the
 * command line, so `mocha test/a.test.js` runs the whole suite when a config declares `spec`.
 * For those configs the run of chosen files turns that config off (`--no-config`,
 * `--no-package`) and gives its other options as flags. A config mocha runs (`.mocharc.js`,
 * `.cjs`) is given as a config of the run's own that loads it and deletes `spec`
 * (`CONFIG_WITHOUT_SPEC_TOKEN`); an ES module one (`.mjs`, which mocha cannot load), or a YAML or
 * JSON one this cannot read whole, is left alone (the whole suite runs).
 */
export function withoutConfigSpec(view: ProjectView, dir: string): string[] {
  const out: string[] = [];
  const rc = firstConfigFile(view, dir, MOCHARC);
  if (rc !== undefined) {
    let options: Record<string, unknown> | undefined;
    if (/\.ya?ml$/.test(rc.name)) options = flatYaml(rc.text);
    else if (/\.jsonc?$/.test(rc.name)) options = jsonObject(rc.text);
    const flags = options === undefined ? undefined : optionFlags(options);
    if (flags !== undefined) out.push("--no-config", ...flags);
    // A config mocha runs (CommonJS: mocha requires it) that may set `spec`: the run's own copy
    // of it requires the project's and deletes `spec`, every other option as mocha reads it.
    else if (/\.c?js$/.test(rc.name) && /\bspec\b/.test(rc.text))
      out.push("--config", `${CONFIG_WITHOUT_SPEC_TOKEN}${rc.name}`);
  }
  const pkg = jsonObject(view.readText(joinRel(dir, "package.json")) ?? "");
  const inPackage = pkg?.["mocha"];
  if (inPackage !== null && typeof inPackage === "object" && !Array.isArray(inPackage)) {
    const flags = optionFlags(inPackage as Record<string, unknown>);
    if (flags !== undefined) out.push("--no-package", ...flags);
  }
  return out;
}

/** An rc's options as command-line flags when it declares `spec` and every value is plain. */
function optionFlags(options: Record<string, unknown>): string[] | undefined {
  if (!("spec" in options)) return undefined;
  const flags: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (NOT_CARRIED.test(key)) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const one of values) {
      if (one === true) flags.push(`--${key}`);
      else if (one === false) flags.push(`--no-${key}`);
      else if (typeof one === "string" || typeof one === "number") flags.push(`--${key}=${one}`);
      else return undefined;
    }
  }
  return flags;
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A YAML rc of top-level `key: value`, `key: [a, b]` and `key:` then `- item` lines (what mocha's
 * own examples use); undefined for anything else (nested maps, block strings, anchors).
 */
export function flatYaml(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let list: unknown[] | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").replace(/^#.*$/, "");
    if (line.trim() === "" || line.trim() === "---") continue;
    const item = /^\s+-\s+(.+)$/.exec(line) ?? /^-\s+(.+)$/.exec(line);
    if (item !== null) {
      if (list === undefined) return undefined;
      list.push(scalar(item[1] ?? ""));
      continue;
    }
    const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (pair === null) return undefined;
    const key = pair[1] ?? "";
    const value = (pair[2] ?? "").trim();
    list = undefined;
    if (value === "") out[key] = list = [];
    else if (value.startsWith("[") && value.endsWith("]"))
      out[key] = value
        .slice(1, -1)
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "")
        .map(scalar);
    else if (/^[[{|>&*!]/.test(value)) return undefined;
    else out[key] = scalar(value);
  }
  return out;
}

function scalar(text: string): unknown {
  const value = text.trim();
  const quoted = /^(["'])(.*)\1$/.exec(value);
  if (quoted !== null) return quoted[2] ?? "";
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}
