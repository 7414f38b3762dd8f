import { handleEvent, openProject, type HookOutput } from "@tailtest/core/node";
import { cursorCallRoot, isCursorAdapterInstalled, runCursorHook } from "@tailtest/cursor/run-hook";
import { renderDecision, translatePayload } from "./translate.ts";

export interface HookIO {
  stdin: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The hook's working directory (Cursor runs Claude Code hooks in the workspace root). */
  cwd: string;
}

export type { HookOutput };

/**
 * One Claude Code hook call. In follow mode a hook never blocks the agent by failing: bad input
 * or an internal error is one line on stderr, no stdout, exit 0 (ADR 0002).
 *
 * Cursor also runs the hooks in `.claude/settings.json`, with its own payload (hook-protocols
 * §2.6). Such a call is Cursor's: when the Cursor adapter is installed it handles the event and
 * this hook steps aside; otherwise this hook answers exactly as the Cursor adapter would.
 */
export async function runHook(io: HookIO): Promise<HookOutput> {
  const cursor = cursorCall(io);
  if (cursor !== undefined) return cursor;
  const translation = translatePayload(io.stdin);
  if (!translation.ok)
    return {
      stdout: "",
      stderr: `tailtest: ignored a hook call: ${translation.error}\n`,
      exitCode: 0,
    };
  const { event, payload } = translation;
  if (event === undefined) return { stdout: "", stderr: "", exitCode: 0 };
  try {
    const project = openProject(io.env["CLAUDE_PROJECT_DIR"] ?? payload.cwd);
    const decision = await handleEvent(project, event, { platform: "claude-code" });
    const stdout = renderDecision(payload.hook_event_name, decision);
    return { stdout: stdout === "" ? "" : `${stdout}\n`, stderr: "", exitCode: 0 };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return {
      stdout: "",
      stderr: `tailtest: internal error, skipped this hook: ${message}\n`,
      exitCode: 0,
    };
  }
}

/** A Claude Code hook run by Cursor: handled once, by whichever adapter owns the event. */
function cursorCall(io: HookIO): Promise<HookOutput> | undefined {
  const root = cursorCallRoot(io);
  if (root === undefined) return undefined;
  // Cursor answers are never empty: it counts empty stdout as a failed hook.
  if (isCursorAdapterInstalled(root))
    return Promise.resolve({ stdout: "{}\n", stderr: "", exitCode: 0 });
  return runCursorHook(io);
}
