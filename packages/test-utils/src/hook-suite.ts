import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeProject, runBin, type BinResult, type TempProject } from "./index.ts";
import { stateLogFiles } from "./state-lines.ts";

/**
 * The hook failure policy and switches (ADR 0002), run against every platform's built hook: what
 * bad stdin, a broken install, `TAILTEST_HOOKS_OFF` and follow mode's gate answer. Each adapter's
 * `test/policy.test.ts` describes its platform; the scenarios are written once, here.
 */

type Payload = Record<string, unknown>;

/** A platform as the policy scenarios drive it. */
export interface HookPolicyPlatform {
  /** The title's name: "the built Codex hook". */
  name: string;
  /** The built launcher, `dist/hook.cjs`, with its bundles beside it. */
  hookBin: string;
  /** The npm package a broken install is reinstalled from. */
  packageName: string;
  /** stdout (trimmed) that is the platform's "no opinion": "" or Cursor's `{}`. */
  noOpinion: string;
  /** The working directory and environment the agent runs the hook with, for a project. */
  where(root: string): { cwd: string; env: Record<string, string> };
  /** Payloads for a project: its session start, an edit tool's gate and its report, the end of a turn. */
  payloads(root: string): {
    sessionStart: Payload;
    gateWrite(file: string, content: string): Payload;
    /** The edit tool's report after it wrote `file` (the file is on disk). */
    wrote(file: string, content: string): Payload;
    /** A gate call whose tool input does not fit its tool. */
    brokenGate: Payload;
    /** The end of a turn; `round`: how many times this turn already sent the agent back. */
    stop(round: number): Payload;
    /** An end of turn with a field of the wrong type. */
    brokenStop: Payload;
  };
  /** The reason of the platform's exact deny answer (fails the test on any other shape). */
  denial(stdout: string): string;
  /** The reason of the platform's exact answer sending the agent back at the end of a turn. */
  sentBack(stdout: string): string;
}

const STACK = /\n\s+at /;
const FILES = {
  "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
  "calc.py": "def add(a, b):\n    return a + b\n",
  "tests/test_calc.py":
    "from calc import add\n\n\ndef test_adds_two_numbers():\n    assert add(2, 3) == 5\n",
};

export function describeHookPolicySuite(platform: HookPolicyPlatform): void {
  const projects: TempProject[] = [];
  afterEach(() => {
    for (const project of projects.splice(0)) project.cleanup();
  });

  /** A project in `mode` (undefined: no config at all). */
  function open(mode?: "follow" | "tdd" | "strict") {
    const project = makeProject(
      mode === undefined ? FILES : { ...FILES, ".tailtest/config.json": `{"mode":"${mode}"}\n` },
    );
    projects.push(project);
    const { root } = project;
    const { cwd, env } = platform.where(root);
    const base = { ...env, TAILTEST_HOOKS_OFF: "", TAILTEST_TDD_KEY: "" };
    const fire = (
      stdin: Payload | string,
      extra: Record<string, string> = {},
      bin = platform.hookBin,
    ): Promise<BinResult> =>
      runBin(bin, [], {
        input: typeof stdin === "string" ? stdin : JSON.stringify(stdin),
        cwd,
        env: { ...base, ...extra },
      });
    return { root, fire, payloads: platform.payloads(root) };
  }

  /** exit 0, no opinion, and one line on stderr without a stack trace or the project's path. */
  function expectOneLineNoOpinion(result: BinResult, root: string): void {
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(platform.noOpinion);
    expect(result.stderr).not.toMatch(STACK);
    expect(result.stderr.split("\n")).toHaveLength(1);
    expect(result.stderr).not.toContain(root);
  }

  describe(`the hook failure policy in ${platform.name} (ADR 0002)`, () => {
    it.each([
      ["garbage", "{not json"],
      ["empty", ""],
      ["wrong types", JSON.stringify({ session_id: 1, cwd: [], hook_event_name: 7 })],
      ["an array", "[]"],
    ])("no config, bad stdin (%s): no opinion and one line on stderr", async (_name, stdin) => {
      const t = open();
      const result = await t.fire(stdin);
      expectOneLineNoOpinion(result, t.root);
      expect(result.stderr).toMatch(/^tailtest: ignored a hook call: /);
    });

    it("follow mode, stdin that is not JSON: exactly one line saying so", async () => {
      const t = open("follow");
      expect(await t.fire("{not json")).toEqual({
        stdout: platform.noOpinion,
        stderr: "tailtest: ignored a hook call: stdin is not JSON",
        exitCode: 0,
      });
    });

    it.each(["tdd", "strict"] as const)(
      "%s mode, a gate that cannot be read is denied (fails closed), with one line on stderr",
      async (mode) => {
        const t = open(mode);
        for (const stdin of ["{not json", "", t.payloads.brokenGate]) {
          const result = await t.fire(stdin);
          expect(result.exitCode).toBe(0);
          expect(platform.denial(result.stdout)).toMatch(
            new RegExp(
              `^tailtest ${mode} mode could not decide \\(could not read this hook call: .+\\), so this call is blocked`,
            ),
          );
          expect(result.stderr).toMatch(
            new RegExp(
              `^tailtest: could not read this hook call: .+; ${mode} mode denies this call \\(it fails closed\\)$`,
            ),
          );
          expect(result.stderr.split("\n")).toHaveLength(1);
          expect(result.stdout + result.stderr).not.toContain(t.root);
        }
      },
    );

    it("tdd mode, an end of turn that cannot be read fails open: no opinion, one line", async () => {
      const t = open("tdd");
      const result = await t.fire(t.payloads.brokenStop);
      expectOneLineNoOpinion(result, t.root);
      expect(result.stderr).toMatch(/^tailtest: ignored a hook call: /);
    });

    it("TAILTEST_HOOKS_OFF=1 (tailtest's own nested agents): no opinion for every call, nothing recorded", async () => {
      const t = open("tdd");
      const off = { TAILTEST_HOOKS_OFF: "1" };
      for (const stdin of [
        t.payloads.sessionStart,
        t.payloads.gateWrite("calc.py", "x = 1\n"),
        "{not json",
        t.payloads.stop(0),
      ]) {
        expect(await t.fire(stdin, off)).toEqual({
          stdout: platform.noOpinion,
          stderr: "",
          exitCode: 0,
        });
      }
      for (const state of [
        ".tailtest/session.json",
        ".tailtest/cursor-session.json",
        ".tailtest/events.jsonl",
        ".tailtest/tdd",
      ])
        expect(existsSync(join(t.root, state)), state).toBe(false);
    });

    // hook.cjs answers such a call before it loads any bundle (core's hook/node/launcher.ts). Its cost is
    // bench/hook-path.mjs's ("follow (launcher only)"), not a test's.
    it("follow mode: a gate has no opinion, answered by the launcher without any bundle", async () => {
      const t = open("follow");
      const alone = mkdtempSync(join(tmpdir(), "tailtest-launcher-"));
      try {
        const launcher = join(alone, "hook.cjs");
        copyFileSync(platform.hookBin, launcher);
        const result = await t.fire(t.payloads.gateWrite("calc.py", "x = 1\n"), {}, launcher);
        expect(result).toEqual({ stdout: platform.noOpinion, stderr: "", exitCode: 0 });
      } finally {
        rmSync(alone, { recursive: true, force: true });
      }
      expect(existsSync(join(t.root, ".tailtest/tdd")), "follow mode keeps no tdd log").toBe(false);
    });

    it.each([
      ["tdd", "is denied"],
      ["strict", "is denied"],
      ["follow", "passes"],
    ] as const)(
      "%s mode, a launcher that cannot load its bundle: the gate %s, any other call is no opinion",
      async (mode, gateAnswer) => {
        const denied = gateAnswer === "is denied";
        const t = open(mode);
        const alone = makeProject();
        projects.push(alone);
        const launcher = join(alone.root, "hook.cjs");
        copyFileSync(platform.hookBin, launcher);
        const missing = /^tailtest: \.\/hook-main\.cjs did not load \(\w+\)$/;
        const gate = await t.fire(t.payloads.gateWrite("calc.py", "x = 1\n"), {}, launcher);
        expect(gate.exitCode).toBe(0);
        if (denied) {
          const reason = platform.denial(gate.stdout);
          expect(reason).toContain("tailtest could not decide (./hook-main.cjs did not load (");
          expect(reason).toContain(`reinstall ${platform.packageName}.`);
          expect(gate.stderr).toMatch(missing);
        } else expect(gate).toEqual({ stdout: platform.noOpinion, stderr: "", exitCode: 0 });
        // Any other call needs the bundle: no opinion and one line.
        const started = await t.fire(t.payloads.sessionStart, {}, launcher);
        expect(started).toMatchObject({ exitCode: 0, stdout: platform.noOpinion });
        expect(started.stderr).toMatch(missing);
        expect(gate.stdout + gate.stderr + started.stderr).not.toContain(alone.root);
      },
    );

    const NOT_CHECKED = (mode: string) =>
      new RegExp(
        `^tailtest could not check this \\(internal error: [^\\n]+\\)\\. In ${mode} mode it does not let unchecked work through; fix the cause, or ask the person to set "mode": "follow" in \\.tailtest/config\\.json\\.$`,
      );
    const HELD = (mode: string) =>
      new RegExp(`^tailtest: internal error in ${mode} mode, not letting it through: [^\\n]+$`);
    const SKIPPED = /^tailtest: internal error, skipped this hook: [^\n]+$/;

    it("strict mode, an end of turn whose event log cannot be read: held once, then no opinion", async () => {
      const t = open("strict");
      expect((await t.fire(t.payloads.sessionStart)).exitCode).toBe(0);
      // strict's end of turn reads the event log for the claims to verify (tailtest's copy of it
      // while the session's mode copy is in force): make both folders.
      for (const file of stateLogFiles(t.root)) {
        rmSync(file, { force: true });
        mkdirSync(file);
      }
      const first = await t.fire(t.payloads.stop(0));
      expect(first.exitCode).toBe(0);
      expect(platform.sentBack(first.stdout)).toMatch(NOT_CHECKED("strict"));
      expect(first.stderr).toMatch(HELD("strict"));
      expect(first.stdout + first.stderr).not.toContain(t.root);
      // Sent back once already: a hook that keeps failing must not hold the agent forever.
      const again = await t.fire(t.payloads.stop(1));
      expectOneLineNoOpinion(again, t.root);
      expect(again.stderr).toMatch(SKIPPED);
    });

    it("follow mode, an end of turn whose queued tests cannot run: no opinion, one line", async () => {
      const t = open("follow");
      expect((await t.fire(t.payloads.sessionStart)).exitCode).toBe(0);
      const content = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";
      writeFileSync(join(t.root, "calc.py"), content);
      const queued = await t.fire(t.payloads.wrote("calc.py", content));
      expect(queued.stdout).toContain("calc.py queued");
      // The test engine makes its scratch folder under the temporary folder: make that fail.
      const tmp = { TMPDIR: join(t.root, "no-such-folder") };
      for (const round of [0, 1]) {
        const result = await t.fire(t.payloads.stop(round), tmp);
        expectOneLineNoOpinion(result, t.root);
        expect(result.stderr).toMatch(SKIPPED);
      }
    }, 60_000);
  });
}
