import { describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "./hook-event.ts";
import {
  internalErrorAnswer,
  mayBeGate,
  noOpinion,
  payloadRecord,
  renderAnswer,
  undecidedAnswer,
  type HookPlatform,
} from "./hook-platform.ts";

/**
 * The failure policy's answers (ADR 0002) on a platform made up for the test: it renders a
 * decision as `kind:text`, and answers "" for a block on an event that cannot carry one.
 */
const TOY: HookPlatform = {
  name: "codex",
  launcher: { gateEvent: "Gate", noOpinion: "", projectRoot: () => undefined },
  translate: () => ({ ok: false, error: "unused" }),
  render(eventName: string, decision: Decision) {
    if (decision.kind === "none") return { stdout: "", stderr: "" };
    if (eventName === "Quiet") return { stdout: "", stderr: "" };
    const text = decision.kind === "context" ? decision.text : decision.reason;
    return { stdout: `${eventName}/${decision.kind}:${text}`, stderr: "" };
  },
};

const EDITED: HookEvent = { kind: "FilesEdited", paths: ["a.py"] };
const STOP: HookEvent = { kind: "TurnEnded", stopHookActive: false };
const RESTOP: HookEvent = { kind: "TurnEnded", stopHookActive: true };
const GATE: HookEvent = { kind: "EditRequested", paths: ["a.py"] };
const STARTED: HookEvent = { kind: "SessionStarted", sessionId: "s", source: "startup" };

const SKIPPED = "tailtest: internal error, skipped this hook: boom\n";
const HELD = (mode: string) =>
  `tailtest: internal error in ${mode} mode, not letting it through: boom\n`;

describe("internalErrorAnswer", () => {
  it.each([
    // event, name, mode → what the agent reads ("" none), the person's line
    [GATE, "Gate", "follow", "", SKIPPED],
    [
      GATE,
      "Gate",
      "tdd",
      "Gate/deny:tailtest tdd mode could not decide (internal error: boom)",
      "tailtest: internal error: boom; tdd mode denies this call (it fails closed)\n",
    ],
    [
      GATE,
      "Gate",
      "strict",
      "Gate/deny:tailtest strict mode could not decide (internal error: boom)",
      "tailtest: internal error: boom; strict mode denies this call (it fails closed)\n",
    ],
    [EDITED, "After", "follow", "", SKIPPED],
    [
      EDITED,
      "After",
      "tdd",
      "After/block:tailtest could not check this (internal error: boom)",
      HELD("tdd"),
    ],
    [EDITED, "Quiet", "tdd", "", SKIPPED],
    [
      STOP,
      "Stop",
      "strict",
      "Stop/block:tailtest could not check this (internal error: boom)",
      HELD("strict"),
    ],
    [RESTOP, "Stop", "strict", "", SKIPPED],
    [STARTED, "Start", "tdd", "", SKIPPED],
  ] as const)("%j as %s in %s mode", (event, name, mode, agent, person) => {
    const answer = internalErrorAnswer(TOY, event, name, mode, "boom");
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout === "" ? "" : answer.stdout.slice(0, agent.length)).toBe(agent);
    if (answer.stdout !== "") expect(answer.stdout.endsWith("\n")).toBe(true);
    expect(answer.stderr).toBe(person);
  });
});

describe("undecidedAnswer", () => {
  it.each([
    ["input", undefined, "", "tailtest: ignored a hook call: bad\n"],
    ["internal", undefined, "", "tailtest: internal error, skipped this hook: bad\n"],
    ["input", "follow", "", "tailtest: ignored a hook call: bad\n"],
    [
      "input",
      "tdd",
      "Gate/deny:tailtest tdd mode could not decide (could not read this hook call: bad)",
      "tailtest: could not read this hook call: bad; tdd mode denies this call (it fails closed)\n",
    ],
    [
      "internal",
      "strict",
      "Gate/deny:tailtest strict mode could not decide (internal error: bad)",
      "tailtest: internal error: bad; strict mode denies this call (it fails closed)\n",
    ],
  ] as const)("%s, mode %s", (kind, mode, agent, person) => {
    const answer = undecidedAnswer(TOY, { kind, message: "bad" }, mode);
    expect(answer.stdout.slice(0, agent.length)).toBe(agent);
    expect(answer.stderr).toBe(person);
  });

  it("may be the gate when the event is the gate's or cannot be told", () => {
    expect(mayBeGate(TOY, "Gate")).toBe(true);
    expect(mayBeGate(TOY, undefined)).toBe(true);
    expect(mayBeGate(TOY, "Stop")).toBe(false);
  });
});

describe("rendering and reading", () => {
  it("a decision ends in a newline; no output stays empty; no opinion is the platform's", () => {
    expect(renderAnswer(TOY, "After", { kind: "context", text: "t" })).toEqual({
      stdout: "After/context:t\n",
      stderr: "",
      exitCode: 0,
    });
    expect(renderAnswer(TOY, "After", { kind: "none" }).stdout).toBe("");
    const cursorLike = { ...TOY, launcher: { ...TOY.launcher, noOpinion: "{}\n" } };
    expect(noOpinion(cursorLike, "why\n")).toEqual({
      stdout: "{}\n",
      stderr: "why\n",
      exitCode: 0,
    });
  });

  it.each([
    ['{"a":1}', { a: 1 }],
    ['\uFEFF{"a":1}', { a: 1 }],
    ["[]", undefined],
    ["null", undefined],
    ["{oops", undefined],
    ['"text"', undefined],
  ])("payloadRecord(%j)", (stdin, expected) => {
    expect(payloadRecord(stdin)).toEqual(expected);
  });
});
