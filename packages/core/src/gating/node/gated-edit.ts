import { join } from "node:path";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { NOTE_CAP } from "../../notes/notes.ts";
import { capDecision, MODE_LINE_ROOM } from "../../follow/node/follow-edit.ts";
import { guarded } from "./gate-answer.ts";
import { witnessNames } from "./mode-witness-path.ts";
import type { HandleOptions } from "../../hook/node/handle-event.ts";
import { sessionModeOf, type Project } from "../../project/node/project.ts";
import { boundLockWaits } from "../../state/node/store.ts";
import {
  gateStrictWrites,
  recordStrictEdits,
  strictCallOf,
} from "../../strict/node/strict-gate-call.ts";
import { gateWrites, recordTddEdits, tddCallOf } from "../../tdd/node/tdd-gate-call.ts";

function pinnedStrict(project: Project): boolean {
  return (
    sessionModeOf(join(project.root, project.sessionPath)) === "strict" ||
    // The copy of the session's mode (mode-witness.ts): a session file rewritten to tdd too.
    witnessNames(project.root, project.sessionPath, ["strict"])
  );
}

/**
 * tdd and strict mode's answers around an edit tool, on their own: the gate before the write and
 * the record after it, the calls an agent makes on every edit in those modes, which a hook's
 * launcher answers from a bundle of just this (`hook-gate.cjs`, ADR 0010) instead of evaluating
 * everything `handleEvent` can load. `handleEvent` answers the same events through the same
 * functions and the same `guarded`, so the two cannot differ. Undefined: not this bundle's call
 * (another mode or event, a shell command, a config that does not say the mode).
 */
export async function answerGatedEdit(
  project: Project,
  event: HookEvent,
  options: HandleOptions,
): Promise<Decision | undefined> {
  // A config that does not say the mode leaves the session's: handleEvent settles that.
  if (project.modeUnsure !== undefined) return undefined;
  const mode = project.config.mode;
  if (mode === "follow") return undefined;
  // A session pinned to a stricter mode than the config says: handleEvent settles that too.
  if (mode === "tdd" && pinnedStrict(project)) return undefined;
  if (event.kind !== "EditRequested" && event.kind !== "FilesEdited") return undefined;
  const now = options.now ?? (() => new Date());
  // A gate answers in time: a lock it cannot get soon is a deny, not a timed-out hook.
  const unbound = event.kind === "EditRequested" ? boundLockWaits() : undefined;
  try {
    return await gateOrRecord(project, event, options, mode, now);
  } finally {
    unbound?.();
  }
}

async function gateOrRecord(
  project: Project,
  event: Extract<HookEvent, { kind: "EditRequested" | "FilesEdited" }>,
  options: HandleOptions,
  mode: "tdd" | "strict",
  now: () => Date,
): Promise<Decision> {
  const paths = [...event.paths, ...(event.deleted ?? [])];
  let decision: Decision;
  if (mode === "tdd") {
    const call = tddCallOf(project, event, options.identity, now);
    // The gate before the edit; after it, what the allowed edit left (tdd mode keeps no queue).
    decision = await guarded("tdd", project, event, () =>
      event.kind === "EditRequested" ? gateWrites(call, paths) : recordTddEdits(call, paths),
    );
  } else {
    const call = strictCallOf(project, event, options.identity, options.platform, now);
    decision = await guarded("strict", project, event, () =>
      event.kind === "EditRequested"
        ? gateStrictWrites(call, paths)
        : recordStrictEdits(call, paths),
    );
  }
  return capDecision(decision, NOTE_CAP - MODE_LINE_ROOM);
}
