import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { confirmMode } from "./mode-pin.ts";
import { readWitness, setWitness } from "./mode-witness.ts";
import { answerGatedEdit } from "./gated-edit.ts";
import { configuredMode, openProject } from "../../project/node/project.ts";

/**
 * The mode cannot be switched off by breaking or rewriting the file that switches it on:
 * a config that exists but does not say the mode keeps the session's mode, and a mode the config
 * changes during a session is reported at the end of the turn, once.
 */

const SESSION = "sess-mode";
const identity = { sessionId: SESSION, transcriptPath: "/tmp/transcript.jsonl" };
let project: TempProject;

beforeEach(() => {
  project = makeProject({
    ".tailtest/config.json": JSON.stringify({ mode: "tdd" }),
    "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  });
  const old = (Date.now() - 3_600_000) / 1000;
  for (const file of ["calc.py", "tests/test_calc.py", "pytest.ini"])
    utimesSync(join(project.root, file), old, old);
});
afterEach(() => project.cleanup());

const CONFIG = ".tailtest/config.json";

function send(event: HookEvent): Promise<Decision> {
  return handleEvent(openProject(project.root), event, { platform: "claude-code", identity });
}

const start = () => send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
const editCalc = () => send({ kind: "EditRequested", paths: [join(project.root, "calc.py")] });
const stop = (stopHookActive = false) => send({ kind: "TurnEnded", stopHookActive });

function textOf(decision: Decision): string {
  if (decision.kind === "context") return decision.text;
  if (decision.kind === "deny" || decision.kind === "block") return decision.reason;
  return "";
}

/** `content`: the new config text, or "folder" for a folder in its place. */
function replaceConfig(content: string): void {
  const path = join(project.root, CONFIG);
  rmSync(path, { recursive: true, force: true });
  if (content === "folder") mkdirSync(path);
  else writeFileSync(path, content);
}

describe("a config that does not say the mode keeps the session's mode", () => {
  it.each([
    ["not JSON", "{ mode: tdd"],
    ["a bad mode", JSON.stringify({ mode: "follw" })],
    ["not an object", "[]"],
    ["a folder in its place", "folder"],
  ])("%s: the tdd gate still denies a production edit", async (_what, content) => {
    await start();
    expect((await editCalc()).kind).toBe("deny");
    replaceConfig(content);
    const denied = await editCalc();
    expect(denied.kind).toBe("deny");
    // Nothing changed the session's mode, so the end of the turn reports no change.
    expect(textOf(await stop())).not.toContain("changed the mode");
  });

  it("an adapter whose call failed finds the same mode (configuredMode)", async () => {
    await start();
    replaceConfig("{ torn");
    expect(configuredMode(project.root)).toBe("tdd");
    replaceConfig(JSON.stringify({ mode: "strict" }));
    expect(configuredMode(project.root)).toBe("strict");
  });

  it("with no session yet the defaults stand, and the start note names the file", async () => {
    replaceConfig("folder");
    const started = await start();
    expect(textOf(started)).toContain(".tailtest/config.json cannot be read (EISDIR)");
    expect((await editCalc()).kind).toBe("none");
  });
});

describe("a mode changed by the config during a session is reported at the end of the turn", () => {
  it("a gate switched off stays on, said at every end of a turn until the person confirms", async () => {
    await start();
    replaceConfig(JSON.stringify({ mode: "follow" }));
    expect((await editCalc()).kind).toBe("deny");
    for (const active of [false, true, false]) {
      const said = await stop(active);
      expect(said.kind).toBe("context");
      expect(textOf(said)).toContain("config.json says follow");
      expect(textOf(said)).toContain(
        "keeps tdd mode until the person runs `tailtest mode confirm`",
      );
    }
    expect(await confirmMode(project.root)).toEqual({ mode: "follow", was: ["tdd"] });
    expect((await editCalc()).kind).toBe("none");
    // The confirmation is said once (the agent may have run it under another name), then no more.
    const told = await stop();
    expect(told.kind).toBe("block");
    expect(textOf(told)).toContain(
      "`tailtest mode confirm` changed this session's mode from tdd to follow.",
    );
    expect(textOf(told)).not.toContain("keeps tdd mode");
    expect(textOf(await stop())).not.toContain("tailtest mode confirm");
  });

  it("a deleted config keeps the mode, and a resumed session's start note says so", async () => {
    await start();
    rmSync(join(project.root, CONFIG));
    expect((await editCalc()).kind).toBe("deny");
    const resumed = await send({ kind: "SessionStarted", sessionId: SESSION, source: "resume" });
    expect(textOf(resumed)).toContain("config.json is missing, but this session keeps tdd mode");
    const compacted = await send({ kind: "SessionStarted", sessionId: SESSION, source: "compact" });
    expect(textOf(compacted)).toContain("keeps tdd mode");
    expect((await editCalc()).kind).toBe("deny");
    expect(textOf(await stop())).toContain("config.json is missing");
  });

  it("confirming needs a config that says the mode", async () => {
    await start();
    replaceConfig("{ mode: tdd");
    await expect(confirmMode(project.root)).rejects.toThrow("does not say the mode");
  });

  it("a stricter mode is only reported", async () => {
    await start();
    replaceConfig(JSON.stringify({ mode: "strict" }));
    const said = await stop();
    expect(said.kind).not.toBe("none");
    expect(textOf(said)).toContain("changed the mode from tdd to strict");
    expect(said.kind === "block" && textOf(said).includes("Tell the person")).toBe(false);
  });
});

describe("a session file rewritten behind tailtest's back keeps the mode tailtest set", () => {
  const SESSION_FILE = ".tailtest/session.json";
  const sessionPath = () => join(project.root, SESSION_FILE);
  const rewriteMode = (mode: string) => {
    const session = JSON.parse(readFileSync(sessionPath(), "utf8")) as Record<string, unknown>;
    writeFileSync(sessionPath(), JSON.stringify({ ...session, mode }));
  };

  it.each([
    ["says follow", () => rewriteMode("follow")],
    ["is deleted", () => rmSync(sessionPath())],
    ["is not JSON", () => writeFileSync(sessionPath(), "{ torn")],
  ])("a session file that %s, the config gone: the gate stays on", async (_what, tamper) => {
    await start();
    rmSync(join(project.root, CONFIG));
    tamper();
    expect(readWitness(project.root, SESSION_FILE)).toBe("tdd");
    expect((await editCalc()).kind).toBe("deny");
    const told = await stop();
    expect(told.kind).toBe("block");
    expect(textOf(told)).toContain("something other than tailtest changed it");
    expect(textOf(told)).toContain("keeps tdd mode");
    // Said at every end of a turn, the stop held once per turn (a stop the hook already held goes).
    expect((await stop(true)).kind).toBe("context");
    expect((await editCalc()).kind).toBe("deny");
  });

  it("strict's config and session file both rewritten to tdd: strict still gates", async () => {
    replaceConfig(JSON.stringify({ mode: "strict" }));
    await start();
    replaceConfig(JSON.stringify({ mode: "tdd" }));
    rewriteMode("tdd");
    // The gate bundle hands the call to the whole hook, which reads the copy.
    const edit = { kind: "EditRequested" as const, paths: [join(project.root, "calc.py")] };
    const options = { platform: "claude-code" as const, identity };
    expect(await answerGatedEdit(openProject(project.root), edit, options)).toBeUndefined();
    expect(textOf(await editCalc())).toContain("strict");
    expect(textOf(await stop())).toContain(
      ".tailtest/session.json says tdd, but tailtest pinned this session to strict mode",
    );
  });

  it("the person's confirmation clears the copy, and the next stop says the change once", async () => {
    await start();
    rmSync(join(project.root, CONFIG));
    rewriteMode("follow");
    expect(await confirmMode(project.root)).toEqual({ mode: "follow", was: ["tdd"] });
    expect(readWitness(project.root, SESSION_FILE)).toBeUndefined();
    expect((await editCalc()).kind).toBe("none");
    const told = await stop();
    expect(textOf(told)).toContain("changed this session's mode from tdd to follow");
    expect(textOf(await stop())).not.toContain("tdd");
  });

  it("a deleted session file confirmed by the person is recreated to say so at the stop", async () => {
    await start();
    rmSync(join(project.root, CONFIG));
    rmSync(sessionPath());
    expect(await confirmMode(project.root)).toEqual({ mode: "follow", was: ["tdd"] });
    expect(textOf(await stop())).toContain("changed this session's mode from tdd to follow");
  });

  it("a new session in follow mode leaves no copy; one in tdd keeps one", async () => {
    await start();
    expect(readWitness(project.root, SESSION_FILE)).toBe("tdd");
    replaceConfig(JSON.stringify({ mode: "follow" }));
    await confirmMode(project.root);
    await send({ kind: "SessionStarted", sessionId: "sess-next", source: "startup" });
    expect(readWitness(project.root, SESSION_FILE)).toBeUndefined();
    rewriteMode("follow");
    expect((await editCalc()).kind).toBe("none");
  });

  it("a session started before the copy existed gets one at its next call", async () => {
    await start();
    setWitness(project.root, SESSION_FILE, "follow");
    expect(readWitness(project.root, SESSION_FILE)).toBeUndefined();
    await editCalc();
    expect(readWitness(project.root, SESSION_FILE)).toBe("tdd");
  });
});
