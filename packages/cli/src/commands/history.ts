import {
  renderHistoryView,
  summariseHistory,
  withLiveSessions,
  type TextStyle,
} from "@tailtest/core";
import { openProject, readActivity } from "@tailtest/core/node";
import { rootOrRefuse } from "../project-root.ts";

/** `tailtest history`: every file's measured outcomes across sessions; writes nothing. */

export interface HistoryOptions {
  root?: string;
  json: boolean;
  limit: string;
}

export interface HistoryIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  style: TextStyle;
  now?: () => Date;
}

export async function runHistory(options: HistoryOptions, io: HistoryIO): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    io.stderr(`tailtest: --limit must be a whole number of at least 1 (got ${options.limit})\n`);
    return 2;
  }
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  const activity = await readActivity(openProject(root));
  for (const problem of activity.problems) io.stderr(`tailtest: warning: ${problem}\n`);
  // Open sessions count too, as their end will record them (nothing is written here).
  const live = withLiveSessions(
    activity.history,
    activity.sessions.map((entry) => entry.session),
    (io.now ?? (() => new Date()))().toISOString(),
    activity,
  );
  const view = summariseHistory(live.entries, live.live, live.records);
  io.stdout(
    options.json ? `${JSON.stringify(view, null, 2)}\n` : renderHistoryView(view, io.style, limit),
  );
  return 0;
}
