import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadPayload, makeProject, REPO_ROOT, type TempProject } from "@tailtest/test-utils";
import { contextOf, isDeny, protocolAnswer } from "@tailtest/test-utils/answers";
import { readSession } from "@tailtest/test-utils/session";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import {
  HistoryFileSchema,
  parseEventLine,
  parseStrictLog,
  type SessionState,
} from "../src/index.ts";

/**
 * Load: about a hundred hook processes of the three agents on one project at the same moment,
 * through the built hook bins, with payloads recorded from the real CLIs (Cursor's are built from
 * its protocol reference). Nothing may be lost, torn or moved aside, and every hook answers per
 * its protocol.
 */

const HOOKS = 100;

type Platform = "claude-code" | "codex" | "cursor";
type Payload = Record<string, unknown>;

const BIN: Record<Platform, string> = {
  "claude-code": join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs"),
  codex: join(REPO_ROOT, "adapters/codex/dist/hook.cjs"),
  cursor: join(REPO_ROOT, "adapters/cursor/dist/hook.cjs"),
};
const CLAUDE = "claude-2.1.330";
const CODEX = "codex-0.169.0";
const CURSOR_STATE = ".tailtest/cursor-session.json";

interface HookCall {
  platform: Platform;
  event: string;
  stdin: Payload;
  env: Record<string, string>;
  /** The project file the call is about, if any. */
  file?: string;
}

interface Fired extends HookCall {
  stdout: string;
  stderr: string;
  exitCode: number;
  ms: number;
}

/** This process's environment without anything that steers an agent hook (a real session's). */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(CLAUDE|CURSOR|CODEX|TAILTEST)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

async function fire(call: HookCall, root: string): Promise<Fired> {
  const started = performance.now();
  const result = await execa(process.execPath, [BIN[call.platform]], {
    input: JSON.stringify(call.stdin),
    env: { ...baseEnv(), ...call.env },
    extendEnv: false,
    cwd: root,
    reject: false,
    // Generous: on a loaded 2-core machine the last of a hundred hooks can wait over a minute.
    timeout: 240_000,
  });
  return {
    ...call,
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode ?? -1,
    ms: performance.now() - started,
  };
}

const BODY = (i: number) => `def f${i}(x):\n    return x + ${i}\n`;

/** The payloads of one project, each a recorded one with its tool fields changed. */
function calls(root: string) {
  const make = (platform: Platform, dir: string, name: string, changes: Payload = {}) => {
    const stored = loadPayload<Payload>(dir, name, root);
    const stdin = { ...stored.stdin, ...changes };
    // Claude Code names the project; Cursor's env carries CURSOR_PROJECT_DIR; Codex has neither.
    let env: Record<string, string> = {};
    if (platform === "claude-code") env = { CLAUDE_PROJECT_DIR: root };
    if (platform === "cursor") env = stored.env;
    return { platform, event: stdin["hook_event_name"] as string, stdin, env };
  };
  const patch = (rel: string, i: number) =>
    `*** Begin Patch\n*** Add File: ${rel}\n${BODY(i).replace(/^(?=.)/gm, "+")}*** End Patch\n`;
  const heredoc = (rel: string, i: number) => `cat > ${rel} <<'EOF'\n${BODY(i)}EOF\n`;
  const claudeWrite = (name: string, rel: string, i: number): HookCall => ({
    ...make("claude-code", CLAUDE, name, {
      tool_input: { file_path: join(root, rel), content: BODY(i) },
      ...(name.includes("PostToolUse")
        ? { tool_response: { type: "create", filePath: join(root, rel), content: BODY(i) } }
        : {}),
    }),
    file: rel,
  });
  const cursorWrite = (name: string, rel: string, i: number): HookCall => ({
    ...make("cursor", "cursor", name, {
      tool_input: { file_path: join(root, rel), content: BODY(i) },
    }),
    file: rel,
  });
  return {
    sessionStarts: (): HookCall[] => [
      make("claude-code", CLAUDE, "context.SessionStart.json"),
      make("codex", CODEX, "context.SessionStart.json"),
      make("cursor", "cursor", "edit.sessionStart.json"),
    ],
    /** A file the agent just wrote, reported five ways across the three agents. */
    edit(i: number, rel: string): HookCall {
      switch (i % 5) {
        case 0:
          return claudeWrite("context.PostToolUse-Write.json", rel, i);
        case 1: {
          const change = { tool_input: { command: patch(rel, i) } };
          const call = make("codex", CODEX, "context.PostToolUse-apply_patch.json", change);
          const response = `Exit code: 0\nOutput:\nSuccess. Updated the following files:\nA ${rel}\n`;
          return { ...call, stdin: { ...call.stdin, tool_response: response }, file: rel };
        }
        case 2: {
          const change = { tool_input: { command: heredoc(rel, i) } };
          return { ...make("codex", CODEX, "shell.PostToolUse-Bash.json", change), file: rel };
        }
        case 3: {
          const change = {
            file_path: join(root, rel),
            edits: [{ old_string: "", new_string: BODY(i) }],
          };
          return { ...make("cursor", "cursor", "edit.afterFileEdit.json", change), file: rel };
        }
        default:
          return cursorWrite("edit.postToolUse-Write.json", rel, i);
      }
    },
    /** A write about to happen, asked of each agent's pre-tool gate. */
    gate(i: number, rel: string): HookCall {
      switch (i % 4) {
        case 0:
          return claudeWrite("context.PreToolUse-Write.json", rel, i);
        case 1: {
          const change = { tool_input: { command: patch(rel, i) } };
          return {
            ...make("codex", CODEX, "context.PreToolUse-apply_patch.json", change),
            file: rel,
          };
        }
        case 2: {
          const change = { tool_input: { command: heredoc(rel, i) } };
          return { ...make("codex", CODEX, "shell.PreToolUse-Bash.json", change), file: rel };
        }
        default:
          return cursorWrite("gate.preToolUse-Write.json", rel, i);
      }
    },
    /** Turn starts, mixed into the burst: Codex records them in the shared session. */
    prompt(i: number): HookCall {
      if (i % 3 === 0) return make("codex", CODEX, "context.UserPromptSubmit.json");
      if (i % 3 === 1) return make("claude-code", CLAUDE, "context.UserPromptSubmit.json");
      return make("cursor", "cursor", "edit.beforeSubmitPrompt.json");
    },
    stops: (): HookCall[] => [
      make("claude-code", CLAUDE, "context.Stop.json"),
      make("cursor", "cursor", "edit.stop.json"),
    ],
    sessionEnds: (): HookCall[] => [
      make("claude-code", CLAUDE, "context.SessionEnd.json"),
      make("cursor", "cursor", "edit.sessionEnd.json"),
    ],
  };
}

/** The hook exited 0, said nothing on stderr, and printed what its agent reads ({} for none). */
function answerOf(fired: Fired): Payload {
  const what = `${fired.platform} ${fired.event} ${fired.file ?? ""}`;
  expect(fired.exitCode, `${what}: ${fired.stderr}`).toBe(0);
  // Cursor's stop writes the person's end-of-turn line to stderr, its hooks output channel.
  const personLine = fired.platform === "cursor" && /stop/i.test(fired.event);
  if (personLine) expect(fired.stderr, what).toMatch(/^(tailtest: \d+ edited files?, [^\n]*\n?)?$/);
  else expect(fired.stderr, what).toBe("");
  return protocolAnswer(fired.platform, fired.event, fired.stdout, what);
}

/**
 * A gate's answer, and whether it was its deadline's (GATE_DEADLINE_MS): on a machine this busy a
 * gate that has not decided in time denies with one stderr line, and has logged nothing.
 */
function gateAnswerOf(fired: Fired): { answer: Payload; late: boolean } {
  const late = fired.stderr.startsWith("tailtest: the gate could not decide within");
  if (!late) return { answer: answerOf(fired), late };
  const what = `${fired.platform} ${fired.event} ${fired.file ?? ""}`;
  expect(fired.exitCode, what).toBe(0);
  expect(fired.stderr.trimEnd().split("\n"), what).toHaveLength(1);
  return { answer: protocolAnswer(fired.platform, fired.event, fired.stdout, what), late };
}

/**
 * Every gate call denied; those that answered in time split from those the launcher's deadline
 * answered. A late gate may still have logged its line: the deadline fires while the gate is
 * between its append and its answer, so its line is neither required nor forbidden.
 */
function deniedInTime(fired: Fired[]): { logged: Fired[]; late: Fired[] } {
  const logged: Fired[] = [];
  const late: Fired[] = [];
  for (const one of fired) {
    const answer = gateAnswerOf(one);
    expect(isDeny(answer.answer), `${one.platform} ${one.file}`).toBe(true);
    (answer.late ? late : logged).push(one);
  }
  expect(logged.length, "gates that decided in time").toBeGreaterThan(0);
  return { logged, late };
}

/** Each gate that decided in time logged its file once; a late one at most once; no other line. */
function expectLoggedOnce(paths: string[], logged: Fired[], late: Fired[]): void {
  const counts = new Map<string, number>();
  for (const path of paths) counts.set(path, (counts.get(path) ?? 0) + 1);
  for (const one of logged) expect(counts.get(one.file ?? ""), `${one.file} logged`).toBe(1);
  const lateFiles = new Set(late.map((one) => one.file));
  for (const [path, count] of counts) {
    if (logged.some((one) => one.file === path)) continue;
    expect(lateFiles.has(path), `${path}: logged by no gate call`).toBe(true);
    expect(count, `${path} logged once`).toBe(1);
  }
}

/** Locks, temporary files or files moved aside left in the state folders. */
function leftovers(root: string): string[] {
  return [".tailtest", ".cursor/hooks/state"].flatMap((dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir)).filter((name) => /\.lock$|\.tmp$|\.corrupt-/.test(name))
      : [],
  );
}

/**
 * CPU seconds used by this process's finished children (Linux: /proc/self/stat cutime + cstime,
 * at the usual 100 ticks a second): what a burst of hooks costs, whatever else the machine runs.
 */
function childCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

interface Burst {
  fired: Fired[];
  wallMs: number;
  cpuS: number | undefined;
}

function report(label: string, { fired, wallMs, cpuS }: Burst): void {
  const times = fired.map((f) => f.ms).sort((a, b) => a - b);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const cpu = cpuS === undefined ? "" : `; ${(cpuS / fired.length).toFixed(2)} s CPU per hook`;
  console.log(
    `load: ${label}: ${fired.length} hook processes at once, ${s(wallMs)} wall; ` +
      `median ${s(times[Math.floor(times.length / 2)] ?? 0)}, slowest ${s(times.at(-1) ?? 0)}${cpu}`,
  );
}

/** Fires every call at the same moment; the wall time and CPU of the whole burst. */
async function burst(list: readonly HookCall[], root: string): Promise<Burst> {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const fired = await Promise.all(list.map((call) => fire(call, root)));
  const wallMs = performance.now() - started;
  const cpuAfter = childCpuSeconds();
  const cpuS = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { fired, wallMs, cpuS };
}

const rel = (i: number) => `src/mod_${i}.py`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

describe(`load: ${HOOKS} hook processes of three agents on one project`, () => {
  it("is built", () => {
    for (const bin of Object.values(BIN)) expect(existsSync(bin), `build first: ${bin}`).toBe(true);
  });

  it(`follow mode: ${HOOKS} edits at once (with turn starts mixed in) lose no queue entry`, async () => {
    const files: Record<string, string> = { "pytest.ini": "[pytest]\npythonpath = .\n" };
    for (const i of range(HOOKS)) {
      files[rel(i)] = BODY(i);
      files[`tests/test_mod_${i}.py`] =
        `from src.mod_${i} import f${i}\n\n\ndef test_f${i}():\n    assert f${i}(1) == ${i + 1}\n`;
    }
    project = makeProject(files);
    const { root } = project;
    const payloads = calls(root);
    for (const call of payloads.sessionStarts()) {
      const answer = answerOf(await fire(call, root));
      expect(contextOf(answer)).toMatch(/^tailtest: session started\. Runners: python: pytest/);
    }

    const edits = range(HOOKS).map((i) => payloads.edit(i, rel(i)));
    const prompts = range(12).map((i) => payloads.prompt(i));
    const result = await burst([...edits, ...prompts], root);
    report("follow mode, edits and turn starts", result);
    const { fired } = result;

    for (const one of fired) {
      const answer = answerOf(one);
      if (one.file === undefined || one.event === "afterFileEdit") continue;
      expect(contextOf(answer), `${one.platform} ${one.file}`).toContain(`${one.file} queued`);
    }
    const byCursor = edits.filter((c) => c.platform === "cursor").map((c) => c.file);
    const byOthers = edits.filter((c) => c.platform !== "cursor").map((c) => c.file);
    const shared = readSession(root, ".tailtest/session.json");
    const cursor = readSession(root, CURSOR_STATE);
    expect(shared.pending_files.map((p) => p.path).sort()).toEqual(byOthers.sort());
    expect(shared.touched_files.sort()).toEqual(byOthers.sort());
    expect(cursor.pending_files.map((p) => p.path).sort()).toEqual(byCursor.sort());
    expect(shared.turn_started_at, "Codex's UserPromptSubmit was recorded").toBeDefined();
    expect(leftovers(root)).toEqual([]);

    // The end of each agent's turn runs every queued file's test (one pytest per session), then
    // the sessions end: history.json holds both sessions' files.
    // Green: nothing for the agent; the person may be told the count (notify).
    for (const call of payloads.stops()) {
      const answer = answerOf(await fire(call, root));
      expect(answer["decision"], JSON.stringify(answer)).toBeUndefined();
      expect(Object.keys(answer).filter((key) => key !== "systemMessage")).toEqual([]);
    }
    for (const call of payloads.sessionEnds()) expect(answerOf(await fire(call, root))).toEqual({});
    const history = HistoryFileSchema.parse(
      JSON.parse(readFileSync(join(root, ".tailtest/history.json"), "utf8")),
    );
    const filesOf = (session: SessionState) =>
      history.entries
        .filter((entry) => entry.session_id === session.session_id && entry.status === "passed")
        .map((entry) => entry.file)
        .sort();
    expect(filesOf(shared)).toEqual(byOthers.sort());
    expect(filesOf(cursor)).toEqual(byCursor.sort());
    expect(history.entries).toHaveLength(HOOKS);
    expect(leftovers(root)).toEqual([]);
  }, 300_000);

  it(`tdd mode: ${HOOKS} gate calls at once are all denied, each logged as one whole line`, async () => {
    project = makeProject({
      "pytest.ini": "[pytest]\npythonpath = .\n",
      ".tailtest/config.json": `${JSON.stringify({ mode: "tdd" })}\n`,
    });
    const { root } = project;
    const payloads = calls(root);
    for (const call of payloads.sessionStarts()) answerOf(await fire(call, root));

    const result = await burst(
      range(HOOKS).map((i) => payloads.gate(i, rel(i))),
      root,
    );
    report("tdd mode, gate calls", result);
    const { fired } = result;
    const { logged, late } = deniedInTime(fired);

    const text = readFileSync(join(root, ".tailtest/events.jsonl"), "utf8");
    expect(text.endsWith("\n"), "the last line is whole").toBe(true);
    // A writer that read the last byte while another's write was still landing (its first page
    // in, size past it) closes what it took for a torn line: a blank line, which every reader
    // skips (appendDurably). Every other line must be whole.
    const lines = text
      .slice(0, -1)
      .split("\n")
      .filter((line) => line !== "");
    const entries = lines.map((line) => {
      const parsed = parseEventLine(line);
      if (!parsed.ok) throw new Error(`${parsed.message}: ${line}`);
      return parsed.entry;
    });
    expect(entries.every((entry) => entry.kind === "edit" && entry.decision === "blocked")).toBe(
      true,
    );
    const paths = entries.map((entry) => (entry.kind === "edit" ? entry.path : ""));
    expectLoggedOnce(paths, logged, late);
    // Each agent's human log (one per session) holds its own blocked edits, one line each.
    const logs = readdirSync(join(root, ".tailtest/tdd")).filter((name) => name.endsWith(".log"));
    const human = logs.flatMap((name) =>
      readFileSync(join(root, ".tailtest/tdd", name), "utf8")
        .split("\n")
        .filter((line) => line.startsWith("[edit] ") && line.endsWith(" - BLOCKED")),
    );
    expect(human.length).toBeGreaterThanOrEqual(logged.length);
    expect(human.length).toBeLessThanOrEqual(logged.length + late.length);
    expect(leftovers(root)).toEqual([]);
  }, 300_000);

  it(`strict mode: ${HOOKS} gate calls at once are all denied and logged, nothing torn`, async () => {
    project = makeProject({
      "pytest.ini": "[pytest]\npythonpath = .\n",
      ".tailtest/config.json": `${JSON.stringify({ mode: "strict" })}\n`,
    });
    const { root } = project;
    const payloads = calls(root);
    for (const call of payloads.sessionStarts()) answerOf(await fire(call, root));

    const result = await burst(
      range(HOOKS).map((i) => payloads.gate(i, rel(i))),
      root,
    );
    report("strict mode, gate calls", result);
    const { fired } = result;
    const { logged, late } = deniedInTime(fired);

    const text = readFileSync(join(root, ".tailtest/events.jsonl"), "utf8");
    expect(text.endsWith("\n"), "the last line is whole").toBe(true);
    const log = parseStrictLog(text);
    expect(log.problems).toEqual([]);
    expect(log.newer).toBe(false);
    // The first strict session (of the three that started) logged that strict mode is on.
    expect(log.events.filter((event) => event.type === "mode_changed")).toHaveLength(1);
    const denied = log.events.flatMap((event) => (event.type === "edit_denied" ? [event] : []));
    expect(log.events).toHaveLength(denied.length + 1);
    expectLoggedOnce(
      denied.map((event) => event.path),
      logged,
      late,
    );
    for (const event of denied)
      expect(fired.find((one) => one.file === event.path)?.platform, event.path).toBe(event.host);
    expect(leftovers(root)).toEqual([]);
  }, 300_000);
});
