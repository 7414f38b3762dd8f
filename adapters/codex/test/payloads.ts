import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FIXTURES_DIR, REPO_ROOT, runBin, type BinResult } from "@tailtest/test-utils";

export const PACKAGE_DIR = join(REPO_ROOT, "adapters/codex");
export const HOOK_BIN = join(PACKAGE_DIR, "dist/hook.js");
export const RECORDED_DIR = join(FIXTURES_DIR, "payloads", "codex-0.169.0");

export type Payload = Record<string, unknown>;

/**
 * A payload recorded from Codex 0.169.0 with its placeholders filled for a temporary project at
 * `root` (the recording's `<run>/project`), plus any fields to change.
 */
export function recorded(name: string, root: string, changes: Payload = {}): Payload {
  const raw = readFileSync(join(RECORDED_DIR, name), "utf8")
    .replaceAll("<run>/project", root)
    .replaceAll("<run>", dirname(root));
  return { ...(JSON.parse(raw) as { stdin: Payload }).stdin, ...changes };
}

/** Runs the built hook the way Codex does: JSON on stdin, in the session's folder. */
export function fire(payload: Payload, cwd: string): Promise<BinResult> {
  return runBin(HOOK_BIN, [], { input: JSON.stringify(payload), cwd });
}

/** Keys Codex 0.169.0 accepts per event (hook-protocols §3.5), checked independently of src/. */
const ACCEPTED: Record<string, { top: string[]; specific: string[] }> = {
  SessionStart: {
    top: ["hookSpecificOutput", "systemMessage"],
    specific: ["hookEventName", "additionalContext"],
  },
  UserPromptSubmit: {
    top: ["decision", "reason", "hookSpecificOutput", "systemMessage"],
    specific: ["hookEventName", "additionalContext"],
  },
  PostToolUse: {
    top: ["decision", "reason", "hookSpecificOutput", "systemMessage"],
    specific: ["hookEventName", "additionalContext"],
  },
  Stop: { top: ["decision", "reason", "systemMessage"], specific: [] },
  SubagentStop: { top: ["decision", "reason", "systemMessage"], specific: [] },
};

/** stdout is empty, or JSON Codex accepts for this event (it throws away a reply with any other key). */
export function parseAnswer(stdout: string, event: string): Record<string, unknown> | undefined {
  if (stdout === "") return undefined;
  const json = JSON.parse(stdout) as Record<string, unknown>;
  const accepted = ACCEPTED[event];
  if (accepted === undefined) throw new Error(`${event} must not answer, got ${stdout}`);
  for (const key of Object.keys(json)) {
    if (!accepted.top.includes(key)) throw new Error(`${event}: Codex rejects key ${key}`);
  }
  const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
  if (specific !== undefined) {
    if (specific["hookEventName"] !== event) throw new Error(`${event}: wrong hookEventName`);
    for (const key of Object.keys(specific)) {
      if (!accepted.specific.includes(key)) throw new Error(`${event}: Codex rejects ${key}`);
    }
  }
  if (json["decision"] !== undefined && (json["decision"] !== "block" || json["reason"] === "")) {
    throw new Error(`${event}: a block needs decision "block" and a reason`);
  }
  return json;
}
