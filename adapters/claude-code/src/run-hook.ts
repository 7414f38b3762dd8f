import { handleEvent, openProject } from "@tailtest/core/node";
import { renderDecision, translatePayload } from "./translate.ts";

export interface HookIO {
  stdin: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface HookOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * One Claude Code hook call. In follow mode a hook never blocks the agent by failing: bad input
 * or an internal error is one line on stderr, no stdout, exit 0 (ADR 0002).
 */
export async function runHook(io: HookIO): Promise<HookOutput> {
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
