import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FIXTURES_DIR, REPO_ROOT, runBin, type BinResult } from "@tailtest/test-utils";

export const PACKAGE_DIR = join(REPO_ROOT, "adapters/codex");
export const HOOK_BIN = join(PACKAGE_DIR, "dist/hook.cjs");
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

/** Keys any Codex 0.169.0 hook output may carry (its hook protocol). */
const COMMON = ["continue", "stopReason", "suppressOutput", "systemMessage"];

/**
 * Keys Codex 0.169.0 accepts per event (its hook protocol's table), written out here apart from
 * src/ so a slip in the adapter's own table cannot hide: an unknown key makes Codex throw the
 * whole reply away, and the hook then fails open.
 */
const ACCEPTED: Record<string, { top: string[]; specific: string[] }> = {
  PreToolUse: {
    top: [...COMMON, "decision", "reason", "hookSpecificOutput"],
    specific: [
      "hookEventName",
      "permissionDecision",
      "permissionDecisionReason",
      "updatedInput",
      "additionalContext",
    ],
  },
  PostToolUse: {
    top: [...COMMON, "decision", "reason", "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext", "updatedMCPToolOutput"],
  },
  UserPromptSubmit: {
    top: [...COMMON, "decision", "reason", "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext"],
  },
  Stop: { top: [...COMMON, "decision", "reason"], specific: [] },
  SubagentStop: { top: [...COMMON, "decision", "reason"], specific: [] },
  SessionStart: {
    top: [...COMMON, "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext"],
  },
  SubagentStart: {
    top: [...COMMON, "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext"],
  },
  PermissionRequest: { top: [...COMMON, "hookSpecificOutput"], specific: ["hookEventName"] },
  Interrupt: { top: ["systemMessage"], specific: [] },
};

function nonEmpty(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}

/** The values the protocol lists as rejected by 0.169.0 even under an allowed key. */
function rejectedValue(event: string, json: Record<string, unknown>): string | undefined {
  const specific = (json["hookSpecificOutput"] ?? {}) as Record<string, unknown>;
  if (json["decision"] !== undefined && (json["decision"] !== "block" || !nonEmpty(json["reason"])))
    return 'a decision must be "block" with a reason';
  if (event === "PreToolUse") {
    for (const key of ["continue", "stopReason", "suppressOutput"])
      if (key in json) return `PreToolUse rejects ${key}`;
    const permission = specific["permissionDecision"];
    if (permission === "ask") return 'PreToolUse rejects permissionDecision "ask"';
    if (permission === "allow" && !("updatedInput" in specific))
      return 'PreToolUse rejects "allow" without updatedInput';
    if ("updatedInput" in specific && permission !== "allow")
      return "PreToolUse rejects updatedInput without allow";
    if (permission === "deny" && !nonEmpty(specific["permissionDecisionReason"]))
      return "PreToolUse rejects a deny with an empty reason";
  }
  if (event === "PostToolUse") {
    if ("suppressOutput" in json) return "PostToolUse rejects suppressOutput";
    if ("updatedMCPToolOutput" in specific) return "PostToolUse rejects updatedMCPToolOutput";
  }
  return undefined;
}

/**
 * stdout is empty, or JSON Codex 0.169.0 accepts for this event: only the keys of the protocol's table,
 * hookEventName naming the event, and none of the values it rejects. Throws otherwise.
 */
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
  const rejected = rejectedValue(event, json);
  if (rejected !== undefined) throw new Error(`${event}: ${rejected}: ${stdout}`);
  return json;
}
