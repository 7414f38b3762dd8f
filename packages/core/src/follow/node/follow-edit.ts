import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { capText, NOTE_CAP } from "../../notes/notes.ts";
import { unqueueFiles, type SessionState } from "../../state/session.ts";
import { wantsEditAnalysis } from "../../analysis/switches.ts";
import type { HandleOptions } from "../../hook/node/handle-event.ts";
import {
  inspectEdit,
  queueEdit,
  runOnlyEdit,
  sessionFile,
  toProjectPath,
  type EditInsight,
  type Project,
} from "../../project/node/project.ts";
import { memoView } from "../../project/project-view.ts";
import { classifyFile } from "../../filter/filter.ts";
import { detectLanguage } from "../../filter/languages.ts";
import { deletedConfigOwner } from "../../runners/runner-config.ts";
import { resolveRunner } from "../../runners/project-runners.ts";
import { headFilesUnder, headText } from "../../selection/node/package-json-change.ts";
import { readState, updateState, type StateFile } from "../../state/node/store.ts";
import { coveringAnalysis } from "../../selection/node/covering.ts";
import { forgetTestNames, keptTestNames } from "../../runners/node/test-names.ts";

/**
 * Follow mode's answer to an edit, on its own: the call an agent makes on every edit, which a
 * hook's launcher answers from a bundle of just this (`hook-post.cjs`, ADR 0010) instead of
 * evaluating everything `handleEvent` can load. `handleEvent` answers the same event through the
 * same functions, so the two cannot differ.
 */
export async function answerFollowEdit(
  project: Project,
  event: HookEvent,
  options: Pick<HandleOptions, "now">,
): Promise<Decision | undefined> {
  // Anything else (another mode, a config that does not say the mode, another event) is for
  // handleEvent, which settles the mode first.
  if (event.kind !== "FilesEdited") return undefined;
  if (project.modeUnsure !== undefined || project.config.mode !== "follow") return undefined;
  // The optional analyses load modules of their own: the whole hook has them. The covering
  // note reads the import graph without them (`covering.ts`).
  if (wantsEditAnalysis(project.config)) return undefined;
  const now = options.now ?? (() => new Date());
  const decision = await queueFiles(
    project,
    event.paths,
    event.deleted ?? [],
    event.agentId,
    now,
    event.created,
    coveringAnalysis(),
  );
  return capDecision(decision, NOTE_CAP - MODE_LINE_ROOM);
}

/** Room kept in every answer for the end of a turn's mode-change line (handle-event.ts). */
export const MODE_LINE_ROOM = 600;

/**
 * Whatever reaches the agent is at most `cap` characters (Claude Code cuts hook output at
 * 10,000; a reason quoting payload paths of 4,096 characters each could pass that).
 */
export function capDecision(decision: Decision, cap: number): Decision {
  switch (decision.kind) {
    case "context":
      return decision.text.length <= cap
        ? decision
        : { ...decision, text: capText(decision.text, cap) };
    case "block":
    case "deny":
      return decision.reason.length <= cap
        ? decision
        : { ...decision, reason: capText(decision.reason, cap) };
    case "none":
      return decision;
  }
}

/** Follow mode after an edit: queue each source file, and say which test to write. */
export async function queueFiles(
  project: Project,
  paths: readonly string[],
  deleted: readonly string[],
  agentId: string | undefined,
  now: () => Date,
  created: readonly string[] = [],
  /** The optional analyses' lines for the insight (handle-event.ts passes them; ADR 0009). */
  analyse: (project: Project, insight: EditInsight) => Promise<EditInsight> = (_, insight) =>
    Promise.resolve(insight),
): Promise<Decision> {
  // One view for the call, each folder listed and manifest read once: runner detection and the
  // note ask the same ones several times over (strace: `package.json` seven times), and the
  // project's files do not change while the agent waits for this answer.
  project = { ...project, view: memoView(project.view) };
  const file = sessionFile(project, now);
  const gone = deleted
    .map((path) => toProjectPath(project, path))
    .filter((path): path is string => path !== undefined);
  // A new file's note looks for a test with its name in the test folders: what that search
  // listed is kept for the next note (test-names.ts), unless this edit may change what it saw
  // before the note is written (several files, a deletion); a test or any other file that is
  // not a source to queue drops it below.
  const named: Project = { ...project, testNames: keptTestNames(project.root) };
  if (paths.length > 1 || gone.length > 0) forgetTestNames(project.root);
  await queueDeletions(project, gone, file, agentId);
  // A file already queued keeps the status it was queued with, and a file the tool says it
  // created is new, so no git process is started to tell new from existing (the common case: an
  // agent writing a file, then editing it again and again).
  // Only the queue is read here, and nothing of this read is written (store.ts `hotSchema`).
  const { value: session } = await readState(file, { hot: true });
  const known = new Map(session.pending_files.map((entry) => [entry.path, entry.status]));
  const made = new Set(created);
  const notes: string[] = [];
  for (const path of paths) {
    const rel = known.size === 0 ? undefined : toProjectPath(project, path);
    const status = (rel === undefined ? undefined : known.get(rel)) ?? newIf(made.has(path));
    const insight = await analyse(
      named,
      inspectEdit(named, path, status === undefined ? {} : { status }),
    );
    if (!insight.verdict.queue && insight.verdict.language !== undefined)
      forgetTestNames(project.root);
    const queued = await queueEdit(project, insight, file, agentId);
    if (queued !== undefined) notes.push(queued.note);
    else if (insight.notes !== undefined) notes.push(...insight.notes);
  }
  return notes.length === 0
    ? { kind: "none" }
    : { kind: "context", text: capText(notes.join("\n")) };
}

/**
 * Deleted files (project-relative) leave the queue. A deleted runner config still changes how its
 * suite runs, and a deleted module breaks what imports it: those are queued to run their tests at
 * the turn's end.
 */
export async function queueDeletions(
  project: Project,
  gone: readonly string[],
  file: StateFile<SessionState>,
  agentId: string | undefined,
): Promise<void> {
  if (gone.length === 0) return;
  // A deleted folder (`rm -r src/utils`) is the files HEAD held in it.
  const files = gone.flatMap((rel) =>
    isFolderLike(project, rel) ? [rel, ...headFilesUnder(project.root, rel)] : [rel],
  );
  await updateState(file, (session) => ({
    value: unqueueFiles(session, files),
    result: undefined,
  }));
  for (const rel of files) {
    const insight = inspectDeletion(project, rel);
    if (insight !== undefined) await queueEdit(project, insight, file, agentId);
  }
}

/** A deleted path with no extension that is no runner's config: a folder, likely. */
function isFolderLike(project: Project, rel: string): boolean {
  return !/\.[^/]+$/.test(rel) && !project.view.exists(rel) && detectLanguage(rel) === undefined;
}

function newIf(created: boolean): "new" | undefined {
  return created ? "new" : undefined;
}

/**
 * A deleted file the end of the turn still runs tests for: a runner's config (its committed text
 * says whose, `deletedConfigOwner`), whose suite now runs by the runner's defaults or another
 * file's settings; and a source file, whose importers' tests now fail to load it unless the turn
 * changed them too (the import graph still knows who imported it). Any other deleted file (a
 * test, a document) has nothing left to test.
 */
function inspectDeletion(project: Project, rel: string): EditInsight | undefined {
  const verdict = classifyFile(rel, { extraTestPatterns: project.config.file_classes.test });
  if (verdict.queue) {
    // Run only: a file that is gone needs no test of its own.
    const runner = resolveRunner(project.view, rel, verdict.language, project.config.runners);
    return runner.runner === undefined ? undefined : runOnlyEdit(rel, verdict, runner.runner);
  }
  const owner = deletedConfigOwner(
    project.view,
    rel,
    () => headText(project.root, rel),
    project.config.runners,
  );
  return owner === undefined ? undefined : runOnlyEdit(rel, verdict, owner);
}
