import { resolve } from "node:path";
import type { HookEvent } from "@tailtest/core";
import {
  findProjectRoot,
  handleEvent,
  openProject,
  type HookOutput,
  type Project,
} from "@tailtest/core/node";
import { renderDecision, translatePayload } from "./translate.ts";

export interface HookIO {
  stdin: string;
  /** The hook's environment. Codex sets no project variable, so the root comes from `cwd`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The process's folder, against which a relative payload `cwd` resolves. */
  cwd: string;
}

export type { HookOutput };

const SILENT: HookOutput = { stdout: "", stderr: "", exitCode: 0 };

/**
 * One Codex hook call. Bad input is one line on stderr and no stdout, exit 0 (ADR 0002). An
 * internal error fails open in follow mode; in tdd and strict modes it fails closed where Codex
 * can be told to keep working (after an edit, at the end of a turn), once per turn: Codex has no
 * cap on Stop blocks, so a hook that keeps failing must not hold the agent forever.
 */
export async function runHook(
  io: HookIO,
  // The policy below is only reachable when core fails; tests pass a core that does.
  handle: typeof handleEvent = handleEvent,
): Promise<HookOutput> {
  const translation = translatePayload(io.stdin);
  if (!translation.ok)
    return { ...SILENT, stderr: `tailtest: ignored a hook call: ${translation.error}\n` };
  const { event, payload } = translation;
  if (event === undefined) return SILENT;
  let project: Project | undefined;
  try {
    // Codex runs hooks in the session's folder and names no project: the nearest folder with
    // .tailtest/ (init makes one), else the git root, else that folder.
    project = openProject(findProjectRoot(resolve(io.cwd, payload.cwd)));
    const decision = await handle(project, event, { platform: "codex" });
    return withNewline(renderDecision(payload.hook_event_name, decision));
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    const mode = project?.config.mode ?? "follow";
    if (mode !== "follow" && mayBlock(event)) {
      const reason =
        `tailtest could not check this (internal error: ${message}). In ${mode} mode it does ` +
        `not let unchecked work through; fix the cause, or set "mode": "follow" in .tailtest/config.json.`;
      const stdout = renderDecision(payload.hook_event_name, { kind: "block", reason });
      if (stdout !== "")
        return {
          stdout: `${stdout}\n`,
          stderr: `tailtest: internal error: ${message}\n`,
          exitCode: 0,
        };
    }
    return { ...SILENT, stderr: `tailtest: internal error, skipped this hook: ${message}\n` };
  }
}

/** Edits can be flagged after the fact, and a turn's end held once (not again on a re-stop). */
function mayBlock(event: HookEvent): boolean {
  switch (event.kind) {
    case "FilesEdited":
    case "CommandFinished":
      return true;
    case "TurnEnded":
      return !event.stopHookActive;
    case "SessionStarted":
    case "TurnStarted":
    case "SessionEnded":
      return false;
  }
}

function withNewline(stdout: string): HookOutput {
  return { ...SILENT, stdout: stdout === "" ? "" : `${stdout}\n` };
}
