import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { age } from "./strict-suite.ts";
import {
  commitAll,
  findToolchain,
  makeProject,
  type BinResult,
  type TempProject,
} from "./index.ts";

/**
 * tdd mode's Red → Green → Refactor scenarios (ADR 0007), written once and run against every
 * platform's built hook and the built `tailtest` bin, one real process per call, on a temporary
 * pytest project: every edit is written to disk only after the gate allowed it, and every test
 * run is a real pytest run. Each adapter's `test/tdd.test.ts` describes its platform (how a call
 * is made, the exact shape of each answer) and keeps the scenarios only its platform has.
 *
 * To see that these scenarios test each platform's own translation, break it and run them: make
 * an edit tool's pre-tool call map to no event (claude-code: `toolRequest`'s EDIT_TOOLS branch
 * returns undefined; codex: `toolEvent` returns undefined for apply_patch before it runs;
 * cursor: `toolEvent` returns undefined before a Write runs), `pnpm build`, then
 * `pnpm exec vitest run adapters/<agent>/test/tdd.test.ts -t "tdd mode through the built"`. The
 * Red → Green → Refactor, syntax-error and subagent scenarios then fail for that platform alone
 * (its gate lets production code through); restore the line and build again.
 */

/** One tdd-mode project driven through a platform's hook, as the agent would. */
export interface TddSession {
  project: TempProject;
  root: string;
  /** The key of the main agent's log (`.tailtest/tdd/<key>.log`). */
  key: string;
  /** The session's start; returns the note the agent reads. */
  sessionStart(): Promise<string>;
  /** The user's prompt, where the platform has a hook for it (Codex); else nothing. */
  prompt(): Promise<void>;
  /**
   * The agent's file write (by `agent`, a subagent, when given): the pre-tool gate, then (only if
   * it was not denied) the write and the post-tool hook, which has nothing to say. Returns the
   * denial's reason, or undefined when the write went through.
   */
  write(path: string, content: string, agent?: string): Promise<string | undefined>;
  /** The gate on a shell command: the denial's reason, or undefined for no opinion. */
  shell(command: string): Promise<string | undefined>;
  /**
   * The post-tool hook of a shell command the agent ran (`run`: its real exit code and output):
   * the note the agent reads.
   */
  ran(command: string, run: { exitCode: number; output: string }): Promise<string>;
  /** A subagent starts: the note it reads, or undefined where the platform carries none. */
  subagentStart(agent: string): Promise<string | undefined>;
  /** A subagent ends (no answer expected). */
  subagentStop(agent: string): Promise<void>;
  /** The end of the turn; `round` is how many times this turn already sent the agent back. */
  stop(round: number): Promise<{ sentBack: boolean; text: string }>;
  /** The `tailtest` bin, as the agent's shell runs it (finding the main agent's log). */
  tailtest(args: string[]): Promise<BinResult>;
}

/** A platform as the tdd scenarios drive it. */
export interface TddPlatform<S extends TddSession = TddSession> {
  /** The title's name: "the built Codex hook". */
  name: string;
  /** A subagent id as the platform's payloads carry it. */
  subagent: string;
  /** The hook and bin bound to a prepared project; `env` holds what every call must carry. */
  open(project: TempProject, env: Record<string, string>): S;
}

export const pytest = findToolchain("pytest");

const PYTEST_PROJECT = {
  "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
  "calc.py": "def add(a, b):\n    return a + b\n",
  "tests/test_calc.py":
    "from calc import add\n\n\ndef test_adds_two_numbers():\n    assert add(2, 3) == 5\n",
};
export const CALC = PYTEST_PROJECT["calc.py"];
export const MUL_TEST = "tests/test_mul.py";
export const RED_TEST =
  "import calc\n\n\ndef test_multiplies():\n    assert calc.multiply(2, 3) == 6\n";
export const FIX = "def add(a, b):\n    return a + b\n\n\ndef multiply(a, b):\n    return a * b\n";
const REFACTORED =
  "def add(a, b):\n    return a + b\n\n\ndef multiply(a, b):\n    product = a * b\n    return product\n";
const RUN_MUL = `python3 -m pytest ${MUL_TEST}`;
export const RED_CMD =
  'tailtest red --test "<test file>" --expects "<test name> fails because <reason>"';
const EXPECTS = "test_multiplies fails because calc has no multiply";

const projects: TempProject[] = [];

/**
 * A git-committed pytest project in `config`'s mode, its files an hour old, with the platform's
 * hook bound to it. Removed after the test (the suite's afterEach; a file using it without the
 * suite calls `cleanupTddProjects`).
 */
export async function openTddProject<S extends TddSession>(
  platform: TddPlatform<S>,
  config: Record<string, unknown> = { mode: "tdd" },
): Promise<S> {
  const project = makeProject({
    ...PYTEST_PROJECT,
    ".tailtest/config.json": `${JSON.stringify(config, null, 2)}\n`,
  });
  projects.push(project);
  await commitAll(project.root);
  age(project.root);
  return platform.open(project, {
    // Nothing from the environment the tests run in may switch the hooks off or name a log.
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
    ...(pytest.path === undefined ? {} : { PATH: pytest.path }),
  });
}

/** Removes the projects openTddProject made. */
export function cleanupTddProjects(): void {
  for (const project of projects.splice(0)) project.cleanup();
}

/** Runs a command in the project for real, the way the agent's shell tool would. */
export async function runInProject(
  root: string,
  command: string,
): Promise<{ exitCode: number; output: string }> {
  const result = await execa("bash", ["-c", command], {
    cwd: root,
    env: pytest.path === undefined ? {} : { PATH: pytest.path },
    reject: false,
    all: true,
  });
  return { exitCode: result.exitCode ?? -1, output: result.all };
}

/** The types, paths and decisions of an agent's tdd lines in `.tailtest/events.jsonl`. */
function tddLines(root: string, key: string): string[] {
  return readFileSync(join(root, ".tailtest/events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, string | undefined>)
    .filter((line) => line["agent_key"] === key)
    .map((line) =>
      [line["type"], line["path"] ?? line["outcome"] ?? "", line["decision"] ?? ""]
        .join(" ")
        .trim(),
    );
}

export function describeTddSuite<S extends TddSession>(platform: TddPlatform<S>): void {
  const open = (config?: Record<string, unknown>) => openTddProject(platform, config);
  /** The agent runs a command for real; the platform's post-tool hook reports it. */
  const run = async (t: S, command: string) => t.ran(command, await runInProject(t.root, command));
  const declareRed = async (t: S, ...agent: string[]) => {
    const red = await t.tailtest([
      "red",
      ...agent,
      "--test",
      `${MUL_TEST}::test_multiplies`,
      "--expects",
      EXPECTS,
    ]);
    expect(red.exitCode, red.stderr).toBe(0);
    return red.stdout;
  };

  describe.skipIf(!pytest.available)(`tdd mode through ${platform.name}`, () => {
    afterEach(cleanupTddProjects);

    it("Red → Green → Refactor: each gate, each declaration through the CLI, each run measured", async () => {
      const t = await open();
      const note = await t.sessionStart();
      expect(note).toContain("tailtest tdd: Red → Green → Refactor is enforced for this session");
      expect(note).toContain(RED_CMD);
      expect(note).toContain("tailtest green --skip-red --reason refactoring");
      await t.prompt();

      // No cycle: production code is refused before it is written, with the exact next commands.
      const first = await t.write("calc.py", FIX);
      expect(first).toMatch(/^tailtest tdd: calc\.py is blocked: no TDD cycle is open/);
      expect(first).toContain(
        `Next, declare a Red (the behaviour and the failure you expect):\n  ${RED_CMD}`,
      );
      expect(first).toContain(
        'tailtest green --skip-red --reason refactoring --change "<what you will change>" --file calc.py',
      );
      expect(readFileSync(join(t.root, "calc.py"), "utf8")).toBe(CALC);

      // Red declared: the test may be written, production code still may not.
      expect(await declareRed(t)).toBe(
        `tailtest: Red recorded in .tailtest/tdd/${t.key}.log; state: writing_tests`,
      );
      expect(await t.write(MUL_TEST, RED_TEST)).toBeUndefined();
      expect(await t.write("calc.py", FIX)).toContain("only test files may change");

      // The agent runs the test; it fails, and tailtest confirms the Red by running it itself.
      expect(await run(t, RUN_MUL)).toContain("Red confirmed: the declared test fails as expected");

      // Red: production code waits for a Green naming it.
      const waiting = await t.write("calc.py", FIX);
      expect(waiting).toContain('tailtest green --change "<what you will change>" --file calc.py');
      const green = await t.tailtest(["green", "--change", "add multiply", "--file", "calc.py"]);
      expect(green.exitCode, green.stderr).toBe(0);
      expect(green.stdout).toMatch(
        /^tailtest: Green for calc\.py recorded in .*; state: making_tests_pass$/,
      );
      expect(await t.write("calc.py", FIX)).toBeUndefined();

      // The test passes now: the cycle is complete.
      expect(await run(t, RUN_MUL)).toContain("Green: the cycle is complete.");

      // Refactor: the cycle is closed, so the same file needs a skip-red Green first.
      expect(await t.write("calc.py", REFACTORED)).toContain("no TDD cycle is open");
      const refactor = await t.tailtest([
        "green",
        "--skip-red",
        "--reason",
        "refactoring",
        "--change",
        "name the product",
        "--file",
        "calc.py",
      ]);
      expect(refactor.exitCode, refactor.stderr).toBe(0);
      expect(refactor.stdout).toMatch(
        /^tailtest: Green \(skip-red: refactoring\) for calc\.py recorded/,
      );
      expect(await t.write("calc.py", REFACTORED)).toBeUndefined();
      expect(await t.write(MUL_TEST, RED_TEST)).toBeUndefined();
      const status = await t.tailtest(["tdd", "status", "--json"]);
      expect(status.exitCode, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        key: t.key,
        state: "making_tests_pass",
        skip_red: true,
      });

      // Everything went through the gate: the end of the turn sends nothing back, and tells the
      // person about the --skip-red use with its reason.
      const stop = await t.stop(0);
      expect(stop.sentBack).toBe(false);
      expect(stop.text).toContain(
        "with no failing test first (tailtest green --skip-red, reason: refactoring): calc.py",
      );

      // The whole suite passes after the refactor: a plain recorded run closes the cycle.
      const suite = await runInProject(t.root, "python3 -m pytest");
      expect(suite.exitCode, suite.output).toBe(0);
      expect(await t.ran("python3 -m pytest", suite)).toContain("recorded a test run (passed)");
      const after = await t.tailtest(["tdd", "status", "--json"]);
      expect(JSON.parse(after.stdout)).toMatchObject({ state: "initial" });

      expect(tddLines(t.root, t.key)).toEqual([
        "tdd.edit calc.py blocked",
        "tdd.red",
        `tdd.edit ${MUL_TEST} allowed`,
        "tdd.edit calc.py blocked",
        "tdd.test failed",
        "tdd.edit calc.py blocked",
        "tdd.green",
        "tdd.edit calc.py allowed",
        "tdd.test passed",
        "tdd.edit calc.py blocked",
        "tdd.green",
        "tdd.edit calc.py allowed",
        `tdd.edit ${MUL_TEST} allowed`,
        "tdd.test passed",
      ]);
    }, 180_000);

    it("a declared test that fails on a syntax error is not a Red", async () => {
      const t = await open();
      await t.sessionStart();
      await declareRed(t);
      const broken =
        "import calc\n\n\ndef test_multiplies(:\n    assert calc.multiply(2, 3) == 6\n";
      expect(await t.write(MUL_TEST, broken)).toBeUndefined();
      const ran = await runInProject(t.root, RUN_MUL);
      expect(ran.exitCode).not.toBe(0);
      expect(await t.ran(RUN_MUL, ran)).toContain("This is not a Red yet");
      // Still writing tests: production code stays closed.
      expect(await t.write("calc.py", FIX)).toContain("only test files may change");
    }, 60_000);

    it("a shell command that writes production code is refused before it runs; a read-only one passes", async () => {
      const t = await open();
      await t.sessionStart();
      const reason = await t.shell("echo 'x = 1' > calc.py");
      expect(reason).toMatch(/^tailtest tdd: calc\.py is blocked: no TDD cycle is open/);
      expect(reason).toContain(RED_CMD);
      expect(await t.shell("ls -la")).toBeUndefined();
      expect(readFileSync(join(t.root, "calc.py"), "utf8")).toBe(CALC);
    }, 60_000);

    it("the end of a turn reports production code changed behind the gate: sent back once, then the person is told", async () => {
      const t = await open();
      await t.sessionStart();
      await t.prompt();
      // Written straight to disk: no tool call the gate saw. The sweep looks 2 s back from its
      // last look (coarse file times), so the wait keeps this file out of the second sweep.
      writeFileSync(join(t.root, "calc.py"), FIX);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const first = await t.stop(0);
      expect(first.sentBack).toBe(true);
      expect(first.text).toMatch(
        /^tailtest tdd: 1 file changed or deleted this turn without passing the tdd gate/,
      );
      expect(first.text).toContain("\n- calc.py");
      expect(first.text).not.toContain("test_calc.py");
      // The same file is not reported twice; a new one, while the agent was already sent back,
      // goes to the person instead of sending the agent back again.
      writeFileSync(join(t.root, "util.py"), "def noop():\n    return None\n");
      const second = await t.stop(1);
      expect(second.sentBack).toBe(false);
      expect(second.text).toContain("- util.py");
      expect(second.text).not.toContain("- calc.py");
      // Nothing new: the next end of a turn has nothing to say.
      expect(await t.stop(0)).toEqual({ sentBack: false, text: "" });
    }, 60_000);

    it("a subagent has its own log: its Red opens its writes only, SubagentStop closes it", async () => {
      const t = await open();
      await t.sessionStart();
      const agent = platform.subagent;
      const note = await t.subagentStart(agent);
      if (note !== undefined) {
        expect(note).toContain(`subagent ${agent} (its own log, separate from the main agent's)`);
        expect(note).toContain(`tailtest red --agent ${agent} --test "<test file>"`);
      }
      // No cycle in its log: its test write is refused with its own --agent command.
      expect(await t.write(MUL_TEST, RED_TEST, agent)).toContain(
        `tailtest red --agent ${agent} --test`,
      );

      const agentLog = `.tailtest/tdd/${t.key}.${agent}.log`;
      expect(await declareRed(t, "--agent", agent)).toContain(agentLog);
      // The subagent's Red opens its test files, not the main agent's.
      expect(await t.write(MUL_TEST, RED_TEST, agent)).toBeUndefined();
      expect(await t.write(MUL_TEST, RED_TEST)).toContain("no TDD cycle is open");
      expect(await t.write("calc.py", FIX, agent)).toContain(`tailtest green --agent ${agent} `);

      await t.subagentStop(agent);
      expect(readFileSync(join(t.root, agentLog), "utf8").trimEnd()).toMatch(/## FINISHED - .+$/);
      expect(tddLines(t.root, `${t.key}.${agent}`).at(-1)).toBe("tdd.finished");
      expect(existsSync(join(t.root, `.tailtest/tdd/${t.key}.log`))).toBe(true);
      expect(readFileSync(join(t.root, `.tailtest/tdd/${t.key}.log`), "utf8")).not.toMatch(
        /FINISHED/,
      );
      // Closed: its log grants nothing more.
      expect(await t.write(MUL_TEST, RED_TEST, agent)).toContain("no TDD cycle is open");
    }, 60_000);
  });
}
