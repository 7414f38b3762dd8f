import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import {
  HistoryFileSchema,
  SessionStateSchema,
  type HistoryFile,
  type SessionState,
} from "@tailtest/core";
import {
  commitAll,
  copyFixture,
  FIXTURES_DIR,
  installOutsideProject,
  packPackage,
  tarballsBeside,
  REPO_ROOT,
  userShellEnv,
} from "@tailtest/test-utils";
import { execa } from "execa";
import type { AgentCli } from "./agents.ts";
import { startAnthropicServer } from "./anthropic-server.ts";
import type { FakeServer } from "./http.ts";
import { startOpenAiServer } from "./openai-server.ts";
import type { LoggedRequest, Scenario } from "./scenario.ts";

/** The fixture the scenarios run in: a pytest project (pyproject.toml, tests/ beside the code). */
export const DEFAULT_FIXTURE = "runners/pytest-pyproject";
/** The JS fixture: vitest, with the dependencies the vitest global setup installs. */
export const VITEST_FIXTURE = "runners/vitest";
/** Where the vitest global setup installs each JS fixture's dependencies (scripts/). */
const FIXTURE_DEPS = join(REPO_ROOT, "node_modules", ".cache", "tailtest", "fixtures");
/** The catalog slug Codex needs to offer its freeform apply_patch tool. */
export const CODEX_MODEL = "gpt-5.5";
export const CLAUDE_MODEL = "claude-sonnet-4-5";
/** Set to keep every run's folders (their paths are printed). */
const KEEP = process.env["TAILTEST_E2E_KEEP"] === "1";

/** `pnpm pack` of an adapter (it rewrites workspace: ranges, as publishing would) into `dest`. */
export function packAdapter(cli: AgentCli, dest: string): Promise<string> {
  return packPackage(join(REPO_ROOT, cli.adapterDir), dest);
}

/** What one CLI run left behind: its output, the model requests, tailtest's state, the files. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Wall time of the CLI process alone. */
  runMs: number;
  /** Wall time of making the project, installing the tarball and `init`. */
  setupMs: number;
  /** Every request the fake model server received. */
  requests: LoggedRequest[];
  /** Requests the script could not answer. */
  problems: string[];
  /** Claude Code: the `--output-format json` object. Codex: the `--json` events. */
  output: unknown;
  /** `.tailtest/session.json` after the run, when there is one. */
  session: SessionState | undefined;
  /** `.tailtest/history.json` after the run, when there is one. */
  history: HistoryFile | undefined;
  /** Every project file outside node_modules/ and .git/, by project-relative path. */
  files: Record<string, string>;
  /**
   * What hooks told the person (`systemMessage`), in order, from Claude Code's transcript; its
   * `--output-format json` result leaves them out. Always empty for Codex: `codex exec` records
   * a hook's systemMessage nowhere (not in `--json`, not in the rollout).
   */
  hookMessages: HookMessage[];
  /** The project folder (gone after the run unless TAILTEST_E2E_KEEP=1). */
  project: string;
}

/** A hook's `systemMessage`, as Claude Code's transcript records it. */
export interface HookMessage {
  /** The hook event that answered it: `Stop`, `PostToolUse`, … */
  event: string;
  text: string;
}

interface RunDirs {
  root: string;
  project: string;
  home: string;
  tmp: string;
}

/**
 * One whole run: a fresh copy of the fixture committed to git, the fake model server, the packed
 * adapter installed with npm and set up with its own `init` (all under an isolated HOME), then
 * the real CLI with the scenario's prompt. Everything is read back, then the folders go.
 */
export async function runScenario(options: {
  cli: AgentCli;
  bin: string;
  tarball: string;
  scenario: Scenario;
  fixture?: string;
  /**
   * Copy the fixture's npm dependencies (vitest, say) into the project before the adapter is
   * installed: a copy, not copyFixtureWithDeps's link, because `npm i -D <tarball>` writes into
   * node_modules and must not touch the shared cache.
   */
  deps?: boolean;
  /** Runs after `init`, before the CLI: project files a scenario needs (a tailtest config, say). */
  beforeRun?: (project: string) => void;
  /**
   * Claude Code only: install the plugin from the marketplace in this folder (a checkout of
   * the release branch: `claude plugin marketplace add <dir>`, `claude plugin install`) instead
   * of the tarball and `init`.
   */
  plugin?: string;
  /**
   * A user-level install: the tarballs go into a folder outside the project and
   * `<adapter bin> init --user` registers the hooks in the isolated HOME; the project gets
   * nothing but what the hooks write (`.tailtest/`).
   */
  user?: boolean;
}): Promise<RunResult> {
  const { cli, scenario } = options;
  const setupStart = Date.now();
  const dirs = await makeDirs(options.fixture ?? DEFAULT_FIXTURE, options.deps === true);
  const server =
    cli.id === "claude-code"
      ? await startAnthropicServer(scenario, dirs.project)
      : await startOpenAiServer(scenario, dirs.project);
  try {
    const env = isolatedEnv(dirs);
    if (cli.id === "codex") writeCodexConfig(dirs, server);
    if (options.plugin !== undefined)
      await setUpPlugin(options.bin, options.plugin, dirs.project, env);
    else if (options.user === true) await setUpUser(cli, dirs.root, env);
    else await setUp(cli, options.tarball, dirs.project, env);
    options.beforeRun?.(dirs.project);
    const setupMs = Date.now() - setupStart;
    const runStart = Date.now();
    const command = cliCommand(cli, scenario.prompt, server);
    const run = await execa(options.bin, command.args, {
      cwd: dirs.project,
      env: { ...env, ...command.env },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
      timeout: 120_000,
    });
    const runMs = Date.now() - runStart;
    return {
      exitCode: run.exitCode ?? -1,
      stdout: String(run.stdout),
      stderr: String(run.stderr),
      runMs,
      setupMs,
      requests: server.requests,
      problems: server.problems,
      output: cli.id === "claude-code" ? parseJson(String(run.stdout)) : parseJsonLines(run.stdout),
      session: readState(dirs.project, ".tailtest/session.json", SessionStateSchema),
      history: readState(dirs.project, ".tailtest/history.json", HistoryFileSchema),
      files: readProjectFiles(dirs.project),
      hookMessages: cli.id === "claude-code" ? readClaudeHookMessages(dirs.home) : [],
      project: dirs.project,
    };
  } finally {
    await server.close();
    if (KEEP) process.stderr.write(`tailtest e2e: kept ${dirs.root} and ${dirs.project}\n`);
    else {
      rmSync(dirs.root, { recursive: true, force: true });
      rmSync(dirs.project, { recursive: true, force: true });
    }
  }
}

async function makeDirs(fixture: string, deps: boolean): Promise<RunDirs> {
  const project = realpathSync(copyFixture(fixture).root);
  await commitAll(project);
  // After the commit: node_modules stays out of git, as in a real checkout. Symlinks (.bin)
  // are kept relative, so the copy never runs the cache's files.
  if (deps)
    cpSync(fixtureDeps(fixture), join(project, "node_modules"), {
      recursive: true,
      verbatimSymlinks: true,
    });
  const root = realpathSync(mkdtempSync(join(tmpdir(), "tailtest-e2e-")));
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(home, ".codex"), { recursive: true });
  mkdirSync(tmp);
  // Codex runs tools and hooks in a login shell, whose /etc/profile resets PATH under a fresh
  // HOME: the user's PATH (node, python3) comes back through the home's own profile.
  writeFileSync(
    join(home, ".profile"),
    `export PATH=${shellQuote(userShellEnv()["PATH"] ?? "")}\n`,
  );
  return { root, project, home, tmp };
}

/** `npm i -D <tarball>` and `npx <adapter bin> init`, as a user would type them. */
async function setUp(
  cli: AgentCli,
  tarball: string,
  project: string,
  env: Record<string, string>,
): Promise<void> {
  const inProject = (command: string, args: string[]) =>
    execa(command, args, { cwd: project, env, extendEnv: false, reject: false, timeout: 120_000 });
  const install = await inProject("npm", [
    "i",
    "-D",
    ...tarballsBeside(tarball),
    "--offline",
    "--no-audit",
    "--no-fund",
  ]);
  if (install.exitCode !== 0) throw new Error(`npm i -D ${tarball} failed: ${install.stderr}`);
  const init = await inProject("npx", [cli.initBin, "init"]);
  if (init.exitCode !== 0)
    throw new Error(
      `npx ${cli.initBin} init failed (exit ${String(init.exitCode)}): ${init.stderr}`,
    );
}

/**
 * The adapter installed outside the project (what `npx <package>` does in its cache) and
 * `<adapter bin> init --user` run from there, as a person without a package.json would.
 */
async function setUpUser(cli: AgentCli, root: string, env: Record<string, string>) {
  const bin = await installOutsideProject(join(REPO_ROOT, cli.adapterDir), root, cli.initBin, env);
  const init = await execa(bin, ["init", "--user"], {
    cwd: root,
    env,
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  if (init.exitCode !== 0)
    throw new Error(
      `${cli.initBin} init --user failed (exit ${String(init.exitCode)}): ${init.stderr}`,
    );
  // The copy is pinned: the install it came from can go.
  rmSync(join(root, "tools"), { recursive: true, force: true });
}

/** The plugin from a marketplace folder, as a user adds it (`/plugin` does the same). */
async function setUpPlugin(
  bin: string,
  marketplace: string,
  project: string,
  env: Record<string, string>,
) {
  for (const args of [
    ["plugin", "marketplace", "add", marketplace],
    ["plugin", "install", "tailtest@tailtest"],
  ]) {
    const result = await execa(bin, args, {
      cwd: project,
      env,
      extendEnv: false,
      reject: false,
      stdin: "ignore",
      timeout: 120_000,
    });
    if (result.exitCode !== 0)
      throw new Error(`claude ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  }
}

/** The CLI's arguments and the variables that point it at the fake server. */
function cliCommand(
  cli: AgentCli,
  prompt: string,
  server: FakeServer,
): { args: string[]; env: Record<string, string> } {
  if (cli.id === "claude-code")
    return {
      // acceptEdits lets Write through without IS_SANDBOX, which root would need for bypass;
      // Bash is allowed by name, as a user who lets the agent run commands does.
      args: ["-p", prompt, "--permission-mode", "acceptEdits", "--output-format", "json"].concat([
        "--allowedTools",
        "Bash",
        "--model",
        CLAUDE_MODEL,
      ]),
      env: {
        ANTHROPIC_BASE_URL: server.origin,
        ANTHROPIC_API_KEY: "sk-ant-e2e-fake",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    };
  return {
    args: [
      "exec",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      // Project hooks run only when trusted: this is the flag for automation.
      "--dangerously-bypass-hook-trust",
      "--json",
      prompt,
    ],
    env: { FAKE_OPENAI_KEY: "sk-e2e-fake" },
  };
}

function isolatedEnv(dirs: RunDirs): Record<string, string> {
  return {
    ...userShellEnv(),
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    CLAUDE_CONFIG_DIR: join(dirs.home, ".claude"),
    CODEX_HOME: join(dirs.home, ".codex"),
    ...(existsSync("/bin/bash") ? { SHELL: "/bin/bash" } : {}),
    // The fixture declares no pytest plugins; the machine's own (hypothesis, say) cost a second
    // per run and are not what these tests are about.
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1",
  };
}

/** Codex's config: the fake provider, no approvals or sandbox, and the project trusted. */
function writeCodexConfig(dirs: RunDirs, server: FakeServer): void {
  const toml = [
    `model = ${JSON.stringify(CODEX_MODEL)}`,
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = ${JSON.stringify(`${server.origin}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_OPENAI_KEY"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "stream_idle_timeout_ms = 20000",
    "",
    "[analytics]",
    "enabled = false",
    "",
    `[projects.${JSON.stringify(dirs.project)}]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
  writeFileSync(join(dirs.home, ".codex", "config.toml"), toml);
}

function readState<T>(
  project: string,
  path: string,
  schema: { parse(value: unknown): T },
): T | undefined {
  const file = join(project, path);
  if (!existsSync(file)) return undefined;
  return schema.parse(JSON.parse(readFileSync(file, "utf8")));
}

function readProjectFiles(project: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!["node_modules", ".git", "__pycache__", ".pytest_cache"].includes(entry.name))
          walk(abs);
      } else if (entry.isFile()) {
        files[relative(project, abs)] = readFileSync(abs, "utf8");
      }
    }
  };
  walk(project);
  return files;
}

/** The `hook_system_message` attachments of every Claude Code transcript in the run's home. */
function readClaudeHookMessages(home: string): HookMessage[] {
  const projects = join(home, ".claude", "projects");
  if (!existsSync(projects)) return [];
  const messages: HookMessage[] = [];
  for (const folder of readdirSync(projects, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = join(projects, folder.name);
    for (const name of readdirSync(dir).filter((file) => file.endsWith(".jsonl")))
      for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
        const entry = parseJson(line) as {
          attachment?: { type?: string; hookEvent?: string; content?: string };
        } | null;
        const attachment = entry?.attachment;
        if (attachment?.type === "hook_system_message")
          messages.push({ event: attachment.hookEvent ?? "", text: attachment.content ?? "" });
      }
  }
  return messages;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function parseJsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim().startsWith("{"))
    .map((line) => parseJson(line))
    .filter((value) => value !== undefined);
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The model request the script answered with move `index`. */
export function requestForMove(result: RunResult, index: number): LoggedRequest | undefined {
  return result.requests.find(
    (request) => request.answer?.kind === "move" && request.answer.index === index,
  );
}

/** The model request that came right after the one answered with move `index`. */
export function requestAfterMove(result: RunResult, index: number): LoggedRequest | undefined {
  const models = modelRequests(result);
  const at = models.findIndex(
    (request) => request.answer?.kind === "move" && request.answer.index === index,
  );
  return at < 0 ? undefined : models[at + 1];
}

function fixtureDeps(fixture: string): string {
  return join(FIXTURE_DEPS, fixture.replace(/^runners\//, ""), "node_modules");
}

/** Why a JS fixture cannot run here (its dependencies were not installed), or undefined. */
export function fixtureDepsMissing(fixture: string): string | undefined {
  const dir = join(fixtureDeps(fixture), "..");
  if (existsSync(join(dir, ".installed"))) return undefined;
  const failed = join(dir, ".failed");
  const why = existsSync(failed) ? readFileSync(failed, "utf8").trim() : "not installed";
  return `the dependencies of ${fixture} are missing from the test cache (${why})`;
}

/** Why the scenarios cannot run here (python3 -m pytest missing), or undefined. */
export async function pytestMissing(
  fixture: string = DEFAULT_FIXTURE,
): Promise<string | undefined> {
  const result = await execa("python3", ["-m", "pytest", "--version"], {
    cwd: join(FIXTURES_DIR, fixture),
    env: userShellEnv(),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  if (result.exitCode === 0) return undefined;
  const why = `${result.stderr}\n${result.stdout}`.trim().split("\n")[0] ?? "";
  return `python3 -m pytest does not run here (exit ${String(result.exitCode)}): ${why}`;
}

/** Requests to the model's streaming endpoint (not HEAD, GET or count_tokens). */
export function modelRequests(result: RunResult): LoggedRequest[] {
  return result.requests.filter((request) => request.answer !== undefined);
}

/** A short account of a run, for an assertion message that explains a failure. */
export function describeRun(result: RunResult): string {
  const answers = modelRequests(result).map((request, at) => {
    const answer = request.answer;
    let what = "?";
    if (answer?.kind === "move") what = `move ${answer.index}`;
    else if (answer !== undefined) what = answer.kind;
    return `#${at + 1} ${what}`;
  });
  return [
    `exit ${result.exitCode} in ${result.runMs} ms; requests: ${answers.join(", ")}`,
    result.problems.length > 0 ? `script problems: ${result.problems.join("; ")}` : "",
    // What tailtest measured: why a stop went on blocking, when it did.
    `tailtest session: ${JSON.stringify({ results: result.session?.results, pending: result.session?.pending_files.map((entry) => entry.path), stop_blocks: result.session?.stop_blocks })}`,
    `stderr: ${result.stderr.slice(0, 2000)}`,
    `stdout: ${result.stdout.slice(0, 2000)}`,
  ]
    .filter((line) => line !== "")
    .join("\n");
}
