import type { Decision, HookEvent } from "../events.ts";
import { capText } from "../notes.ts";
import { endSession, startSession } from "./lifecycle.ts";
import { inspectEdit, queueEdit, sessionFile, type Project } from "./project.ts";
import { verifyTurn } from "./verify.ts";

export interface HandleOptions {
  platform: "claude-code" | "cursor" | "codex" | "cli";
  now?: () => Date;
}

/** The one entry point adapters call: a platform-neutral event in, a Decision out. */
export async function handleEvent(
  project: Project,
  event: HookEvent,
  options: HandleOptions,
): Promise<Decision> {
  const now = options.now ?? (() => new Date());
  switch (event.kind) {
    case "SessionStarted": {
      const started = await startSession(project, {
        sessionId: event.sessionId,
        source: event.source,
        platform: options.platform,
        now,
      });
      const pending = started.session.pending_files;
      const resumedNote =
        started.resumed && pending.length > 0
          ? `\ntailtest: still queued from before ${event.source === "compact" ? "the compaction" : "this resume"}: ${pending.map((entry) => entry.path).join(", ")}.`
          : "";
      return { kind: "context", text: capText(`${started.note}${resumedNote}`) };
    }
    case "FilesEdited": {
      const notes: string[] = [];
      for (const path of event.paths) {
        const insight = inspectEdit(project, path);
        const queued = await queueEdit(project, insight, sessionFile(project, now), event.agentId);
        if (queued !== undefined) notes.push(queued.note);
      }
      return notes.length === 0
        ? { kind: "none" }
        : { kind: "context", text: capText(notes.join("\n")) };
    }
    case "TurnEnded":
      return (
        await verifyTurn(project, {
          agentId: event.agentId,
          stopHookActive: event.stopHookActive,
          now,
        })
      ).decision;
    case "SessionEnded":
      await endSession(project, now);
      return { kind: "none" };
  }
}
