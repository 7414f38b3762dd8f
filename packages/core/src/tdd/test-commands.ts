import type { Language } from "../filter/languages.ts";
import type { DetectedRunner, RunnerId } from "../runners/project-runners.ts";
import { runnerSpecs, specOf } from "../runners/table.ts";
import { ownEntry } from "../util/own-entry.ts";

/**
 * Whether a shell command line runs tests, and which runner. Pure: the caller splits the line
 * into simple commands (`listSimpleCommands` in shell/node/bash-parser.ts, which also follows `cd`) and
 * passes the `package.json` scripts of the folder the command runs in.
 */
export interface TestCommandContext {
  /** `scripts` of the package.json in the command's folder; undefined when unknown. */
  packageScripts?: Readonly<Record<string, string>> | undefined;
  runners: readonly DetectedRunner[];
}

/**
 * `isTest` is true for unit and end-to-end test runs alike; `e2e` tells them apart. Only
 * `isTest && !e2e` should move the TDD state (an e2e run is logged and otherwise ignored, as
 * CodeLeash's `[ignored e2e test]`).
 */
export interface TestCommandVerdict {
  isTest: boolean;
  runner?: RunnerId;
  e2e?: boolean;
  reason: string;
}

interface Hit {
  runner: RunnerId | undefined;
  e2e: boolean;
  reason: string;
}

interface Ctx {
  scripts: Readonly<Record<string, string>> | undefined;
  runners: readonly DetectedRunner[];
  depth: number;
  /** Scripts being resolved, against `"a": "npm run b", "b": "npm run a"`. */
  resolving: readonly string[];
}

type Handler = (args: readonly string[], ctx: Ctx, program: string) => Hit | undefined;

const MAX_DEPTH = 6;

/**
 * Recognises a test run among the simple commands of one command line. The first unit-test
 * command wins; an e2e-only line is a test with `e2e: true`; `cd` commands are skipped.
 */
export function recogniseTestCommand(
  argvs: readonly (readonly string[])[],
  context: TestCommandContext,
): TestCommandVerdict {
  const ctx: Ctx = {
    scripts: context.packageScripts,
    runners: context.runners,
    depth: 0,
    resolving: [],
  };
  let e2e: Hit | undefined;
  for (const argv of argvs) {
    const hit = recogniseArgv(argv, ctx);
    if (hit === undefined) continue;
    if (!hit.e2e) return verdictOf(hit);
    e2e ??= hit;
  }
  if (e2e !== undefined) return verdictOf(e2e);
  const shown = argvs
    .filter((argv) => argv.length > 0 && argv[0] !== "cd")
    .map((argv) => argv.join(" "))
    .join("; ");
  return { isTest: false, reason: `no test command in: ${shown === "" ? "(empty)" : shown}` };
}

function verdictOf(hit: Hit): TestCommandVerdict {
  return hit.runner === undefined
    ? { isTest: true, e2e: hit.e2e, reason: hit.reason }
    : { isTest: true, runner: hit.runner, e2e: hit.e2e, reason: hit.reason };
}

/**
 * Splits a package.json script (or a `sh -c` string) into simple commands: quotes and
 * backslashes are honoured, `&&`, `||`, `;`, `|`, `&`, newlines and parentheses separate
 * commands, redirections and their targets are dropped. Expansions stay as their text.
 */
export function splitScript(text: string): string[][] {
  return new ScriptSplitter(text).run();
}

class ScriptSplitter {
  private readonly commands: string[][] = [];
  private current: string[] = [];
  private word = "";
  private inWord = false;
  private skipNextWord = false;
  private i = 0;

  constructor(private readonly text: string) {}

  run(): string[][] {
    while (this.i < this.text.length) this.step();
    this.endCommand();
    return this.commands.filter((command) => command.length > 0);
  }

  private step(): void {
    const c = this.text[this.i] ?? "";
    if (c === "'" || c === '"') return this.quoted(c);
    if (c === "\\") {
      this.append(this.text[this.i + 1] ?? "");
      this.i += 2;
      return;
    }
    if (c === "$" && this.text[this.i + 1] === "(") return this.substitution();
    if (c === "<" || c === ">") return this.redirect();
    if (/[\s]/.test(c) || /[;&|()]/.test(c)) {
      this.endWord();
      if (c === "\n" || /[;&|()]/.test(c)) this.endCommand();
      this.i += 1;
      return;
    }
    this.append(c);
    this.i += 1;
  }

  private append(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  private quoted(quote: string): void {
    this.inWord = true;
    this.i += 1;
    while (this.i < this.text.length && this.text[this.i] !== quote) {
      const c = this.text[this.i] ?? "";
      if (quote === '"' && c === "\\" && /["\\$`]/.test(this.text[this.i + 1] ?? "")) {
        this.word += this.text[this.i + 1] ?? "";
        this.i += 2;
        continue;
      }
      this.word += c;
      this.i += 1;
    }
    this.i += 1;
  }

  /** `$( … )` stays one word, nested parentheses included. */
  private substitution(): void {
    let depth = 0;
    const start = this.i;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === "(") depth += 1;
      if (c === ")") depth -= 1;
      this.i += 1;
      if (depth === 0 && c === ")") break;
    }
    this.append(this.text.slice(start, this.i));
  }

  /** `>`, `2>&1`, `&>`, `<`: drop the operator, a file-descriptor prefix and the target. */
  private redirect(): void {
    if (/^\d+$/.test(this.word)) {
      this.word = "";
      this.inWord = false;
    } else this.endWord();
    const match = /^[<>]+[&|]?\d*-?/.exec(this.text.slice(this.i));
    const operator = match?.[0] ?? this.text[this.i] ?? "";
    this.i += Math.max(1, operator.length);
    if (!/&\d+-?$/.test(operator)) this.skipNextWord = true;
  }

  private endWord(): void {
    if (!this.inWord) return;
    if (this.skipNextWord) this.skipNextWord = false;
    else this.current.push(this.word);
    this.word = "";
    this.inWord = false;
  }

  private endCommand(): void {
    this.endWord();
    this.skipNextWord = false;
    if (this.current.length > 0) this.commands.push(this.current);
    this.current = [];
  }
}

/** The program name as a table key: `./vendor/bin/phpunit` → phpunit, `python3.12` → python. */
function programKey(word: string): string {
  const base = (word.split(/[\\/]/).pop() ?? word).replace(/\.(cmd|bat|exe|ps1)$/i, "");
  if (/^python(\d+(\.\d+)*)?$/.test(base) || base === "py") return "python";
  return base;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function recogniseArgv(argv: readonly string[], ctx: Ctx): Hit | undefined {
  if (ctx.depth > MAX_DEPTH) return undefined;
  let start = 0;
  while (start < argv.length && ASSIGNMENT.test(argv[start] ?? "")) start += 1;
  const word = argv[start];
  if (word === undefined) return undefined;
  const program = programKey(word);
  const handler = ownEntry(HANDLERS, program) ?? runnerProgram(program);
  if (handler === undefined) return undefined;
  return handler(argv.slice(start + 1), { ...ctx, depth: ctx.depth + 1 }, program);
}

/** Runs the rest of the argv as a command of its own (wrappers such as `bundle exec`). */
function rest(args: readonly string[], ctx: Ctx): Hit | undefined {
  return recogniseArgv(args, ctx);
}

/** The index of the first operand, skipping options; `valued` options take the next word. */
function firstOperand(args: readonly string[], valued: ReadonlySet<string> = EMPTY): number {
  let i = 0;
  while (i < args.length) {
    const arg = args[i] ?? "";
    if (arg === "--") return i + 1;
    if (!arg.startsWith("-") || arg === "-") return i;
    i += valued.has(arg) ? 2 : 1;
  }
  return i;
}

const EMPTY: ReadonlySet<string> = new Set();

/** Words that only ask for help, a version or a listing: nothing runs. */
const NOT_A_RUN = new Set([
  "--version",
  "-V",
  "--help",
  "-h",
  "-help",
  "--collect-only",
  "--co",
  "--fixtures",
  "--markers",
  "--listTests",
  "--list-tests",
  "--list-suites",
  "--showConfig",
  "--init",
  "--clearCache",
  "--no-run",
  "--dry-run",
  "-DskipTests",
  "-DskipTests=true",
  "-Dmaven.test.skip=true",
]);

function onlyAsks(args: readonly string[]): boolean {
  return args.some((arg) => NOT_A_RUN.has(arg) || /^-list=/.test(arg));
}

const E2E_WORD = /(^|[/._:=-])(e2e|playwright|cypress)([/._:=-]|$)/i;

/** Options whose value is what a run leaves out: `--exclude 'e2e/**'` is a unit run. */
const EXCLUDING =
  /^(--exclude|--ignore|--ignore-glob|--testPathIgnorePatterns|--test-path-ignore-patterns|--deselect|--skip)(=|$)/;

function mentionsE2e(args: readonly string[]): boolean {
  return args.some(
    (arg, i) => E2E_WORD.test(arg) && !EXCLUDING.test(arg) && !EXCLUDING.test(args[i - 1] ?? ""),
  );
}

function runnerHit(
  runner: RunnerId | undefined,
  args: readonly string[],
  what: string,
): Hit | undefined {
  if (onlyAsks(args)) return undefined;
  const e2e = mentionsE2e(args);
  return { runner, e2e, reason: `${what}${e2e ? " (end-to-end)" : ""}` };
}

/**
 * A program a runner record names (`shellPrograms`: `jest`, `py.test`, `paratest`; or
 * `shellSubcommand`: `dotnet test`) runs that runner.
 */
function runnerProgram(program: string): Handler | undefined {
  for (const spec of runnerSpecs()) {
    const what =
      spec.shellPrograms === undefined ? undefined : ownEntry(spec.shellPrograms, program);
    if (what !== undefined) return (args) => runnerHit(spec.id, args, what);
    const sub = spec.shellSubcommand;
    if (sub?.program === program) return subcommand(spec.id, sub.sub, `${program} ${sub.sub}`);
  }
  return undefined;
}

/** `go test` runs tests unless it only compiles (`-c`) or lists (`-list`) them. */
function goTest(args: readonly string[]): Hit | undefined {
  const at = firstOperand(args);
  if (args[at] !== "test") return undefined;
  const after = args.slice(at + 1);
  if (after.some((arg) => arg === "-c" || arg === "-list" || arg.startsWith("-list=")))
    return undefined;
  return runnerHit("go", after, "go test");
}

/** `swift test`, `dotnet test`, `deno test`: the runner only with this subcommand. */
function subcommand(runner: RunnerId, sub: string, what: string): Handler {
  return (args) => {
    const at = firstOperand(args);
    return args[at] === sub ? runnerHit(runner, args.slice(at + 1), what) : undefined;
  };
}

/** The detected runner a script or make target most likely runs: the first of its language. */
function fallbackRunner(ctx: Ctx, family: Language | undefined): RunnerId | undefined {
  if (family === undefined) return ctx.runners.length === 1 ? ctx.runners[0]?.id : undefined;
  return ctx.runners.find((runner) => specOf(runner.id).languages.includes(family))?.id;
}

/**
 * Script and target names that mean tests: `test`, `tests`, `test:unit`, `unit-test`,
 * `test_e2e`, and end-to-end ones (`e2e`, `e2e:ci`, `cypress:run`).
 */
function isTestName(name: string): boolean {
  return /^tests?([:_-].*)?$/i.test(name) || /[:_-]tests?$/i.test(name) || E2E_WORD.test(name);
}

const NO_TEST_SPECIFIED = /no test specified/i;

/** `npm run <name>` and friends: the script's body decides; its name when the body says nothing. */
function runScript(name: string, extra: readonly string[], ctx: Ctx, how: string): Hit | undefined {
  const invocation = `${how} ${name}`;
  const body = ctx.scripts?.[name];
  if (ctx.scripts !== undefined && body === undefined) return undefined;
  if (body !== undefined && !ctx.resolving.includes(name)) {
    const inner: Ctx = { ...ctx, resolving: [...ctx.resolving, name] };
    const hits = splitScript(body)
      .map((argv) => recogniseArgv(argv, inner))
      .filter((hit): hit is Hit => hit !== undefined);
    const hit = hits.find((h) => !h.e2e) ?? hits[0];
    if (hit !== undefined) {
      const e2e = hit.e2e || E2E_WORD.test(name) || mentionsE2e(extra);
      return {
        runner: hit.runner,
        e2e,
        reason: `${invocation}: script "${name}" runs ${hit.reason}`,
      };
    }
  }
  if (!isTestName(name) || (body !== undefined && NO_TEST_SPECIFIED.test(body))) return undefined;
  const e2e = E2E_WORD.test(name) || mentionsE2e(extra);
  return {
    runner: e2e ? undefined : fallbackRunner(ctx, "javascript"),
    e2e,
    reason: `${invocation} (a test script by its name)`,
  };
}

const NPM_VALUED = new Set(["-w", "--workspace", "--prefix", "-C", "--loglevel"]);

/** Flags that run another package's scripts, which the caller did not pass. */
const NPM_ELSEWHERE = /^(-w|--workspaces?|-ws|--prefix|-C)(=|$)/;
const PNPM_ELSEWHERE = /^(-r|--recursive|--filter|-F|-C|--dir|-w|--workspace-root)(=|$)/;

function scriptsFor(args: readonly string[], at: number, elsewhere: RegExp, ctx: Ctx): Ctx {
  return args.slice(0, at).some((arg) => elsewhere.test(arg))
    ? { ...ctx, scripts: undefined }
    : ctx;
}

/** `npm run x -- args`: the script name and what follows it. */
function scriptOperand(args: readonly string[]): [string | undefined, string[]] {
  const at = firstOperand(args, NPM_VALUED);
  return [args[at], args.slice(at + 1)];
}

function npm(args: readonly string[], outer: Ctx): Hit | undefined {
  const at = firstOperand(args, NPM_VALUED);
  const ctx = scriptsFor(args, at, NPM_ELSEWHERE, outer);
  const sub = args[at];
  const after = args.slice(at + 1);
  switch (sub) {
    case "test":
    case "t":
    case "tst":
      return runScript("test", after, ctx, "npm");
    case "run":
    case "run-script":
    case "rum":
    case "urn": {
      const [name, extra] = scriptOperand(after);
      return name === undefined ? undefined : runScript(name, extra, ctx, "npm run");
    }
    case "exec":
    case "x":
      return packageRunner(after, ctx);
    default:
      return undefined;
  }
}

/** pnpm and yarn subcommands that are never a script or a binary of the project. */
const PM_BUILTINS = new Set([
  "add",
  "install",
  "i",
  "ci",
  "remove",
  "rm",
  "uninstall",
  "un",
  "update",
  "up",
  "upgrade",
  "link",
  "unlink",
  "why",
  "list",
  "ls",
  "outdated",
  "audit",
  "publish",
  "pack",
  "prune",
  "rebuild",
  "import",
  "init",
  "create",
  "config",
  "env",
  "setup",
  "store",
  "root",
  "bin",
  "patch",
  "deploy",
  "fetch",
  "licenses",
  "dedupe",
  "info",
  "view",
  "cache",
  "global",
  "version",
  "login",
  "logout",
  "plugin",
  "help",
  "set",
  "constraints",
  "explain",
  "npm",
]);

const PNPM_VALUED = new Set(["--filter", "-F", "-C", "--dir", "--workspace", "--reporter"]);

/** pnpm and yarn: `test`, `run <script>`, `exec`/`dlx <bin>`, `<script>` or `<bin>`. */
function pnpmOrYarn(args: readonly string[], outer: Ctx, program: string): Hit | undefined {
  const at = firstOperand(args, PNPM_VALUED);
  const ctx = scriptsFor(args, at, PNPM_ELSEWHERE, outer);
  const sub = args[at];
  const after = args.slice(at + 1);
  if (sub === undefined || PM_BUILTINS.has(sub)) return undefined;
  if (sub === "test" || sub === "t" || sub === "tst") return runScript("test", after, ctx, program);
  if (sub === "run" || sub === "run-script") {
    const [name, extra] = scriptOperand(after);
    return name === undefined ? undefined : runScript(name, extra, ctx, `${program} run`);
  }
  if (sub === "exec" || sub === "dlx") return packageRunner(after, ctx);
  if (program === "yarn" && sub === "workspace") {
    // Another package's scripts: judged by name.
    return pnpmOrYarn(after.slice(1), { ...ctx, scripts: undefined }, program);
  }
  if (ctx.scripts?.[sub] !== undefined || (ctx.scripts === undefined && isTestName(sub))) {
    return runScript(sub, after, ctx, program);
  }
  return recogniseArgv([sub, ...after], ctx);
}

/** `bun test` is bun's own runner; `bun run <script>`, `bun x <bin>`, `bun <script>`. */
function bun(args: readonly string[], ctx: Ctx): Hit | undefined {
  const at = firstOperand(args);
  const sub = args[at];
  const after = args.slice(at + 1);
  if (sub === undefined || PM_BUILTINS.has(sub)) return undefined;
  if (sub === "test") return runnerHit("bun", after, "bun test");
  if (sub === "x") return packageRunner(after, ctx);
  if (sub === "run") {
    const [name, extra] = scriptOperand(after);
    return name === undefined ? undefined : runScript(name, extra, ctx, "bun run");
  }
  const isScript =
    ctx.scripts?.[sub] !== undefined || (ctx.scripts === undefined && isTestName(sub));
  return isScript ? runScript(sub, after, ctx, "bun") : undefined;
}

const NPX_VALUED = new Set(["-p", "--package", "-c", "--call"]);

/** npx / pnpm exec / bunx: the named binary, its version stripped (`vitest@2` → vitest). */
function packageRunner(args: readonly string[], ctx: Ctx): Hit | undefined {
  const call = args.findIndex((arg) => arg === "-c" || arg === "--call");
  if (call !== -1) {
    return firstHit(splitScript(args[call + 1] ?? ""), ctx);
  }
  const at = firstOperand(args, NPX_VALUED);
  const bin = args[at];
  if (bin === undefined) return undefined;
  const name = bin.replace(/(.)@[^/]*$/, "$1");
  return recogniseArgv([name, ...args.slice(at + 1)], ctx);
}

function firstHit(argvs: readonly (readonly string[])[], ctx: Ctx): Hit | undefined {
  const hits = argvs
    .map((argv) => recogniseArgv(argv, ctx))
    .filter((h): h is Hit => h !== undefined);
  return hits.find((hit) => !hit.e2e) ?? hits[0];
}

const NODE_VALUED = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "--env-file",
  "--test-reporter",
  "--test-reporter-destination",
  "--test-name-pattern",
  "--test-skip-pattern",
  "--test-concurrency",
  "--test-timeout",
  "--test-shard",
]);

/** `node --test [files]` (also tsx); `node --run <script>` runs a package.json script. */
function node(args: readonly string[], ctx: Ctx, program: string): Hit | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("-")) return undefined;
    if (arg === "--test") return runnerHit("node-test", args.slice(i + 1), `${program} --test`);
    if (arg === "--run") {
      const name = args[i + 1];
      return name === undefined ? undefined : runScript(name, args.slice(i + 2), ctx, "node --run");
    }
    if (arg === "-e" || arg === "--eval" || arg === "-p" || arg === "--print") return undefined;
    if (NODE_VALUED.has(arg)) i += 1;
  }
  return undefined;
}

function vitest(args: readonly string[]): Hit | undefined {
  const sub = args[firstOperand(args, new Set(["--project", "--config", "-c", "--root", "-r"]))];
  if (sub === "bench" || sub === "list" || sub === "init") return undefined;
  return runnerHit("vitest", args, "vitest");
}

function playwright(args: readonly string[]): Hit | undefined {
  if (args[firstOperand(args)] !== "test" || onlyAsks(args)) return undefined;
  return { runner: undefined, e2e: true, reason: "playwright test (end-to-end)" };
}

function cypress(args: readonly string[]): Hit | undefined {
  if (args[firstOperand(args)] !== "run" || onlyAsks(args)) return undefined;
  return { runner: undefined, e2e: true, reason: "cypress run (end-to-end)" };
}

const PYTHON_VALUED = new Set(["-X", "-W", "-Q"]);

/** `python -m pytest|unittest`, `python manage.py test` (Django's unittest runner). */
function python(args: readonly string[]): Hit | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? "";
    if (arg === "-m") return pythonModule(args[i + 1], args.slice(i + 2));
    if (/^-m\w/.test(arg)) return pythonModule(arg.slice(2), args.slice(i + 1));
    if (arg === "-c") return undefined;
    if (!arg.startsWith("-")) {
      const script = programKey(arg);
      return script === "manage.py" && args[i + 1] === "test"
        ? runnerHit("unittest", args.slice(i + 2), "python manage.py test")
        : undefined;
    }
    if (PYTHON_VALUED.has(arg)) i += 1;
  }
  return undefined;
}

function pythonModule(module: string | undefined, args: readonly string[]): Hit | undefined {
  if (module === "django")
    return args[0] === "test"
      ? runnerHit("unittest", args.slice(1), "python -m django test")
      : undefined;
  const spec = runnerSpecs().find((entry) => entry.shellPythonModule === module);
  return spec === undefined || module === undefined
    ? undefined
    : runnerHit(spec.id, args, `python -m ${module}`);
}

const UV_VALUED = new Set([
  "--with",
  "--with-editable",
  "--with-requirements",
  "--python",
  "-p",
  "--extra",
  "--group",
  "--only-group",
  "--no-group",
  "--package",
  "--env-file",
  "--directory",
  "--project",
  "--index",
  "--default-index",
  "--index-url",
  "--extra-index-url",
  "--from",
]);

/** `uv run [opts] cmd`, `uv run -m pytest`, `uv tool run cmd`. */
function uv(args: readonly string[], ctx: Ctx): Hit | undefined {
  const at = firstOperand(args, UV_VALUED);
  const sub = args[at];
  if (sub === "tool") return args[at + 1] === "run" ? uvx(args.slice(at + 2), ctx) : undefined;
  if (sub !== "run") return undefined;
  const after = args.slice(at + 1);
  const module = after.findIndex((arg) => arg === "-m" || arg === "--module");
  const operand = firstOperand(after, UV_VALUED);
  if (module !== -1 && module < operand)
    return pythonModule(after[module + 1], after.slice(module + 2));
  return rest(after.slice(operand), ctx);
}

function uvx(args: readonly string[], ctx: Ctx): Hit | undefined {
  const at = firstOperand(args, UV_VALUED);
  return rest(args.slice(at), ctx);
}

/** `poetry run`, `pipenv run`, `pdm run`, `hatch run` (a hatch script by its name), `hatch test`. */
function pythonEnv(args: readonly string[], ctx: Ctx, program: string): Hit | undefined {
  const at = firstOperand(args, new Set(["-C", "--directory", "-P", "--project", "-e", "--env"]));
  const sub = args[at];
  if (program === "hatch" && sub === "test")
    return runnerHit("pytest", args.slice(at + 1), "hatch test");
  if (sub !== "run") return undefined;
  const after = args.slice(at + 1);
  const inner = rest(after, ctx);
  if (inner !== undefined) return inner;
  // pdm and hatch scripts (`hatch run test`, `pdm run test:unit`), judged by their name.
  const script = after[0];
  if (script === undefined || !isTestName(script.split(":").pop() ?? script)) return undefined;
  const e2e = E2E_WORD.test(script);
  return {
    runner: e2e ? undefined : fallbackRunner(ctx, "python"),
    e2e,
    reason: `${program} run ${script} (a test script by its name)`,
  };
}

const CARGO_VALUED = new Set(["--color", "--config", "-Z", "-C"]);

/** `cargo test`, `cargo t`, `cargo +nightly test`, `cargo nextest run`. */
function cargo(args: readonly string[]): Hit | undefined {
  const rest = args[0]?.startsWith("+") === true ? args.slice(1) : args;
  const at = firstOperand(rest, CARGO_VALUED);
  const sub = rest[at];
  const after = rest.slice(at + 1);
  if (sub === "test" || sub === "t") return runnerHit("cargo", after, "cargo test");
  if (sub === "nextest") {
    const action = after[firstOperand(after)];
    return action === "run" || action === "r"
      ? runnerHit("nextest", after, "cargo nextest run")
      : undefined;
  }
  return undefined;
}

function cargoNextest(args: readonly string[]): Hit | undefined {
  return args[0] === "nextest" ? cargo(args) : cargo(["nextest", ...args]);
}

function bundle(args: readonly string[], ctx: Ctx): Hit | undefined {
  const at = firstOperand(args);
  return args[at] === "exec" ? rest(args.slice(at + 1), ctx) : undefined;
}

/** `rails test[:models]`, `rails test:system` (end-to-end), `rails spec` (rspec-rails). */
function railsTask(
  task: string | undefined,
  args: readonly string[],
  via: string,
): Hit | undefined {
  if (task === undefined || onlyAsks(args)) return undefined;
  if (/^spec(:|$)/.test(task)) return runnerHit("rspec", args, `${via} ${task}`);
  if (!/^test(:|$)/.test(task)) return undefined;
  const e2e = task === "test:system";
  return {
    runner: "minitest",
    e2e,
    reason: `${via} ${task}${e2e ? " (system tests, end-to-end)" : ""}`,
  };
}

function rails(args: readonly string[]): Hit | undefined {
  const at = firstOperand(args);
  return railsTask(args[at], args.slice(at + 1), "rails");
}

function rake(args: readonly string[]): Hit | undefined {
  const at = firstOperand(args, new Set(["-f", "--rakefile", "-C", "--directory"]));
  const task = args[at]?.replace(/\[.*$/, "");
  return railsTask(task, args.slice(at + 1), "rake");
}

/** `php vendor/bin/phpunit`, `php artisan test` (Laravel: pest when detected, else phpunit). */
function php(args: readonly string[], ctx: Ctx): Hit | undefined {
  const at = firstOperand(args, new Set(["-d", "-c"]));
  const script = args[at];
  if (script === undefined) return undefined;
  if (programKey(script) === "artisan") {
    if (args[at + 1] !== "test") return undefined;
    const runner = ctx.runners.some((r) => r.id === "pest") ? "pest" : "phpunit";
    return runnerHit(runner, args.slice(at + 2), "php artisan test");
  }
  const tool = programKey(script);
  return tool === "phpunit" || tool === "pest" || tool === "paratest"
    ? rest(args.slice(at), ctx)
    : undefined;
}

/** `composer test` / `composer run[-script] test`: a composer script, judged by its name. */
function composer(args: readonly string[], ctx: Ctx): Hit | undefined {
  const at = firstOperand(args, new Set(["-d", "--working-dir"]));
  let name = args[at];
  if (name === "run" || name === "run-script")
    name = args[at + 1 + firstOperand(args.slice(at + 1))];
  if (name === undefined || !isTestName(name)) return undefined;
  const e2e = E2E_WORD.test(name);
  return {
    runner: e2e ? undefined : fallbackRunner(ctx, "php"),
    e2e,
    reason: `composer ${name} (a test script by its name)`,
  };
}

const MAVEN_VALUED = new Set([
  "-pl",
  "--projects",
  "-f",
  "--file",
  "-P",
  "--activate-profiles",
  "-rf",
  "--resume-from",
  "-T",
  "--threads",
  "-s",
  "--settings",
  "-gs",
  "--global-settings",
  "-t",
  "--toolchains",
  "-l",
  "--log-file",
  "-b",
  "--builder",
  "-D",
]);

/** Maven runs tests in the `test` and `verify` phases, unless they are skipped. */
function maven(args: readonly string[]): Hit | undefined {
  const goals = operands(args, MAVEN_VALUED);
  const phase = goals.find(
    (goal) => goal === "test" || goal === "verify" || goal === "surefire:test",
  );
  if (phase === undefined || onlyAsks(args) || skipsMavenTests(args)) return undefined;
  return runnerHit("maven", args, `mvn ${phase}`);
}

function skipsMavenTests(args: readonly string[]): boolean {
  return args.some(
    (arg, i) => args[i - 1] === "-D" && /^(skipTests|maven\.test\.skip)(=true)?$/.test(arg),
  );
}

const GRADLE_VALUED = new Set([
  "-x",
  "--exclude-task",
  "-p",
  "--project-dir",
  "-b",
  "--build-file",
  "-c",
  "--settings-file",
  "-g",
  "--gradle-user-home",
  "-I",
  "--init-script",
  "-D",
  "-P",
  "--tests",
]);

/** `gradle test`, `./gradlew :app:test`, `check`, Android `testDebugUnitTest`; `-x test` skips. */
function gradle(args: readonly string[]): Hit | undefined {
  const excluded = new Set(
    args.filter((_, i) => args[i - 1] === "-x" || args[i - 1] === "--exclude-task"),
  );
  const tasks = operands(args, GRADLE_VALUED).filter((task) => !excluded.has(task));
  const task = tasks.find((t) => /^(.*:)?(test|check|test\w*UnitTest)$/.test(t));
  if (task !== undefined) return runnerHit("gradle", args, `gradle ${task}`);
  const device = tasks.find((t) => /^(.*:)?connected\w*(AndroidTest|Check)$/.test(t));
  return device === undefined || onlyAsks(args)
    ? undefined
    : { runner: "gradle", e2e: true, reason: `gradle ${device} (device tests, end-to-end)` };
}

function operands(args: readonly string[], valued: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? "";
    if (valued.has(arg)) i += 1;
    else if (!arg.startsWith("-")) found.push(arg);
  }
  return found;
}

/** `make test`, `just test`: the target's recipe is not read, so the runner is a guess. */
function makeTarget(args: readonly string[], ctx: Ctx, program: string): Hit | undefined {
  const target = operands(
    args,
    new Set(["-C", "-f", "--file", "-j", "--justfile", "-d", "--working-directory"]),
  ).find((word) => !word.includes("=") && isTestName(word));
  if (target === undefined) return undefined;
  const e2e = E2E_WORD.test(target);
  return {
    runner: e2e ? undefined : fallbackRunner(ctx, undefined),
    e2e,
    reason: `${program} ${target} (a test target by its name)`,
  };
}

const WRAPPER_VALUED: Readonly<Record<string, ReadonlySet<string>>> = {
  env: new Set(["-u", "--unset", "-C", "--chdir", "-S"]),
  timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
  nice: new Set(["-n", "--adjustment"]),
  dotenv: new Set(["-e", "-c", "-v"]),
  "xvfb-run": new Set([
    "-s",
    "--server-args",
    "-n",
    "--server-num",
    "-f",
    "--auth-file",
    "-e",
    "--error-file",
    "-p",
    "--xauth-protocol",
    "-w",
    "--wait",
  ]),
};

/** `env [-i] [VAR=x] cmd`, `time cmd`, `timeout 60 cmd`, `cross-env VAR=x cmd`, `dotenv -- cmd`. */
function wrapper(args: readonly string[], ctx: Ctx, program: string): Hit | undefined {
  const at = firstOperand(args, ownEntry(WRAPPER_VALUED, program));
  // timeout's first operand is the duration.
  return rest(args.slice(program === "timeout" ? at + 1 : at), ctx);
}

/** `sh -c "npm test"`, `bash -lc '…'`: the string is split and recognised. */
function shell(args: readonly string[], ctx: Ctx): Hit | undefined {
  const flag = args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg));
  const script = flag === -1 ? undefined : args[flag + 1];
  return script === undefined ? undefined : firstHit(splitScript(script), ctx);
}

function turbo(args: readonly string[], ctx: Ctx, program: string): Hit | undefined {
  // turbo run test, nx test, nx run-many -t test, lerna run test: each package's test script.
  const words = operands(args, new Set(["--filter", "-F", "-p", "--projects", "--scope"]));
  const tasks = [
    ...words,
    ...args.filter(
      (_, i) => args[i - 1] === "-t" || args[i - 1] === "--target" || args[i - 1] === "--targets",
    ),
  ];
  const task = tasks
    .flatMap((word) => word.split(","))
    .find((word) => isTestName(word.split(":").pop() ?? word));
  if (task === undefined) return undefined;
  const e2e = E2E_WORD.test(task);
  return {
    runner: e2e ? undefined : fallbackRunner(ctx, "javascript"),
    e2e,
    reason: `${program} ${task} (each package's test script)`,
  };
}

const HANDLERS: Readonly<Record<string, Handler>> = {
  npm,
  pnpm: pnpmOrYarn,
  yarn: pnpmOrYarn,
  bun,
  npx: packageRunner,
  pnpx: packageRunner,
  bunx: packageRunner,
  node,
  tsx: node,
  vitest,
  playwright,
  cypress,
  python,
  uv,
  uvx,
  poetry: pythonEnv,
  pipenv: pythonEnv,
  pdm: pythonEnv,
  hatch: pythonEnv,
  go: goTest,
  gotestsum: (args) => (args[0] === "tool" ? undefined : runnerHit("go", args, "gotestsum")),
  cargo,
  "cargo-nextest": cargoNextest,
  bundle,
  rails,
  rake,
  php,
  composer,
  mvn: maven,
  mvnw: maven,
  gradle,
  gradlew: gradle,
  make: makeTarget,
  just: makeTarget,
  env: wrapper,
  time: wrapper,
  timeout: wrapper,
  nice: wrapper,
  nohup: wrapper,
  "cross-env": wrapper,
  dotenv: wrapper,
  "xvfb-run": wrapper,
  sh: shell,
  bash: shell,
  zsh: shell,
  dash: shell,
  turbo,
  nx: turbo,
  lerna: turbo,
};
