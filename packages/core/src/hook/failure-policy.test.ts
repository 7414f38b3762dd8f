import { describe, expect, it } from "vitest";
import type { HookEvent } from "./hook-event.ts";
import {
  couldNotDecideReason,
  ERROR_LINE_CAP,
  errorLine,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
} from "./failure-policy.ts";

describe("the failure policy (ADR 0002)", () => {
  it("gates fail closed outside follow mode", () => {
    expect(gateFailsClosed("follow")).toBe(false);
    expect(gateFailsClosed("tdd")).toBe(true);
    expect(gateFailsClosed("strict")).toBe(true);
  });

  it("holds a tool that ran and a first stop, never a re-stop or the session's ends", () => {
    const cases: [HookEvent, boolean][] = [
      [{ kind: "FilesEdited", paths: ["a.py"] }, true],
      [{ kind: "CommandFinished", command: "pytest" }, true],
      [{ kind: "TurnEnded", stopHookActive: false }, true],
      [{ kind: "TurnEnded", stopHookActive: true }, false],
      [{ kind: "EditRequested", paths: ["a.py"] }, false],
      [{ kind: "SessionStarted", source: "startup" }, false],
      [{ kind: "SessionEnded" }, false],
    ];
    for (const [event, held] of cases) expect(holdsAfterError(event), event.kind).toBe(held);
  });

  it("an error is one line without the project's path", () => {
    const error = new Error("EISDIR: /p/proj/.tailtest/events.jsonl\n    at x (y.js:1)");
    expect(errorLine(error, "/p/proj")).toBe("EISDIR: .tailtest/events.jsonl");
    expect(errorLine("plain", undefined)).toBe("plain");
  });

  it("reasons name the mode and the way out", () => {
    expect(couldNotDecideReason("tdd", "internal error: x")).toContain(
      "tailtest tdd mode could not decide (internal error: x), so this call is blocked",
    );
    expect(notCheckedReason("strict", "x")).toContain("In strict mode it does not");
    expect(notCheckedReason("strict", "x")).toContain('"mode": "follow"');
  });
});

describe("errorLine on a very long message", () => {
  it("is cut to ERROR_LINE_CAP characters", () => {
    const line = errorLine(new Error(`ENOENT: no such file, open '${"x/".repeat(3000)}a.py'`));
    expect(line.length).toBe(ERROR_LINE_CAP);
    expect(line.endsWith("…")).toBe(true);
  });
});
