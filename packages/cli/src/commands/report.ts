import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, dirname, relative, resolve } from "node:path";
import { buildReport, renderReportHtml, withLiveSessions } from "@tailtest/core";
import { openProject, readActivity, writeAtomic } from "@tailtest/core/node";
import { DEFAULT_REPORT_PATH } from "../program.ts";
import { rootOrRefuse } from "../project-root.ts";

/**
 * `tailtest report`: one self-contained HTML file (sessions, a chart of outcomes per session,
 * recurring failures, TDD cycles, strict mode's red→green pairs, the slowest tests). Reads the
 * project's state; writes only the report.
 */

export interface ReportOptions {
  root?: string;
  out?: string;
  json: boolean;
}

export interface ReportIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  version: string;
  now?: () => Date;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function runReport(options: ReportOptions, io: ReportIO): Promise<number> {
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  const activity = await readActivity(openProject(root));
  for (const problem of activity.problems) io.stderr(`tailtest: warning: ${problem}\n`);
  const now = (io.now ?? (() => new Date()))().toISOString();
  const data = buildReport({
    project: basename(root),
    generatedAt: now,
    version: io.version,
    history: withLiveSessions(
      activity.history,
      activity.sessions.map((entry) => entry.session),
      now,
      activity,
    ),
    runLog: activity.runLog,
    tdd: activity.tdd,
    strictEvents: activity.strictEvents,
  });
  if (options.json) {
    io.stdout(`${JSON.stringify(data, null, 2)}\n`);
    return 0;
  }
  const out =
    options.out === undefined ? resolve(root, DEFAULT_REPORT_PATH) : resolve(io.cwd, options.out);
  if (options.out !== undefined) {
    // --out creates at most its own file's folder, and says so; a deeper missing path is refused.
    const parent = dirname(out);
    if (!existsSync(parent)) {
      if (!isFolder(dirname(parent))) {
        io.stderr(`tailtest: --out ${options.out}: the folder ${dirname(parent)} does not exist\n`);
        return 2;
      }
      mkdirSync(parent);
      io.stderr(
        `tailtest: created the folder ${relative(io.cwd, parent) || parent} for the report\n`,
      );
    }
  }
  try {
    await writeAtomic(out, renderReportHtml(data));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(`tailtest: cannot write ${out} (${code ?? String(error)})\n`);
    return 1;
  }
  const shown = relative(io.cwd, out);
  io.stdout(`wrote ${shown.startsWith("..") || shown === "" ? out : shown}\n`);
  return 0;
}
