import { join } from "node:path";
import {
  appendRunRecord,
  emptyRunLog,
  RunLogSchema,
  type RunLog,
  type RunRecord,
} from "../run-log.ts";
import { STATE_DIR, type Project } from "../../project/node/project.ts";
import { updateState, type StateFile } from "./store.ts";

/** Project-relative path of the CLI's run log. */
export const RUN_LOG_PATH = `${STATE_DIR}/runs.json`;

export function runLogFile(project: Pick<Project, "root">): StateFile<RunLog> {
  return { path: join(project.root, RUN_LOG_PATH), schema: RunLogSchema, create: emptyRunLog };
}

/** Appends one run to `.tailtest/runs.json` (locked, atomic, capped). */
export async function recordRun(project: Pick<Project, "root">, record: RunRecord): Promise<void> {
  await updateState(runLogFile(project), (log) => ({
    value: appendRunRecord(log, record),
    result: undefined,
  }));
}
