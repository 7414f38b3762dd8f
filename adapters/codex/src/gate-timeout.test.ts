import { GATE_DEADLINE_MS } from "@tailtest/core/quiet";
import { describe, expect, it } from "vitest";
import { CODEX_HOOKS } from "./install.ts";

/**
 * Codex lets a tool call through when its gate times out, so the timeout `init` writes must
 * leave the gate its own deadline (past which it denies) and room to print the denial.
 */
describe("the gate's timeout init writes", () => {
  it("is at least the gate's deadline plus 5 s", () => {
    const gate = CODEX_HOOKS.find((hook) => hook.event === "PreToolUse");
    expect(gate).toBeDefined();
    expect((gate?.timeout ?? 0) * 1000).toBeGreaterThanOrEqual(GATE_DEADLINE_MS + 5_000);
  });
});
