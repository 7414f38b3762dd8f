import { spawnSync } from "node:child_process";
import { readdirSync, type Dirent } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  buildIgnoreRules,
  diagnoseProject,
  findHookInstalls,
  DOCTOR_CONFIG_PATH,
  DOCTOR_FILE_CAP,
  DOCTOR_HOOK_FILES,
  doctorExitCode,
  isDoctorIgnoredFile,
  isDoctorSkippedDir,
  renderDoctorReport,
  checkRunnerStarts,
  DEFAULT_CONFIG,
  detectProjectRunners,
  parseConfigText,
  runnerLabel,
  runnerProbe,
  type DoctorReport,
  type IgnoreRules,
  type ProjectView,
  type RunnerProbeResult,
} from "@tailtest/core";
import { createFsView } from "@tailtest/core/node";
import { parseHookTomls, readCodexTrust } from "../codex-config.ts";
import { rootOrRefuse } from "../project-root.ts";

/**
 * `tailtest doctor`: lists the project's files and reads its config and hook files; core's
 * `diagnoseProject` decides. Exit 0 when no check fails, 1 when one does, 2 for a bad --root.
 */

export interface DoctorOptions {
  /** The project root (default: found from the current folder). */
  root?: string;
  json: boolean;
  /** Start each runner (and let pytest collect); false with `--no-start`. */
  start?: boolean;
}

/** How long one runner may take to start (and pytest to collect) before doctor gives up on it. */
const PROBE_TIMEOUT_MS = 60_000;

export interface DoctorIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** For `CODEX_HOME`, where Codex records trust. */
  env?: Readonly<Record<string, string | undefined>>;
}

export async function runDoctor(options: DoctorOptions, io: DoctorIO): Promise<number> {
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  const rules = buildIgnoreRules({ gitignore: await readText(join(root, ".gitignore")) });
  const listing = listProjectFiles(root, rules);
  const hookTexts: Record<string, string | undefined> = {};
  for (const path of DOCTOR_HOOK_FILES) hookTexts[path] = await readText(join(root, path));
  // Codex's config through the TOML library status uses, and its trust where Codex records it.
  const hookTomls = parseHookTomls(hookTexts);
  const view = createFsView(root);
  const codexInstalled = findHookInstalls(view, hookTexts, hookTomls).some(
    (hook) => hook.platform === "codex" && hook.installed,
  );
  const configText = await readText(join(root, DOCTOR_CONFIG_PATH));
  const diagnosed = diagnoseProject({
    view,
    configText,
    files: listing.files,
    filesTruncated: listing.truncated,
    hookTexts,
    hookTomls,
    codexTrust: codexInstalled ? await readCodexTrust(root, hookTexts, io.env ?? {}) : undefined,
  });
  const report =
    options.start === false ? diagnosed : withStartCheck(diagnosed, root, view, configText);
  io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report));
  return doctorExitCode(report);
}

/** The report with the runner-start check: each runner started for real, in its package folder. */
function withStartCheck(
  report: DoctorReport,
  root: string,
  view: ProjectView,
  configText: string | undefined,
): DoctorReport {
  const config = configText === undefined ? DEFAULT_CONFIG : parseConfigText(configText).config;
  const runners = detectProjectRunners(view, 2, config.runners);
  const results: RunnerProbeResult[] = runners.map((runner) => {
    const { argv, okExits, collects } = runnerProbe(runner);
    const started = spawnSync(argv[0] ?? "", argv.slice(1), {
      cwd: join(root, runner.package_dir),
      encoding: "utf8",
      timeout: PROBE_TIMEOUT_MS,
      env: { ...process.env, CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 8 * 1024 * 1024,
    });
    // spawnSync types its error as a plain Error; node sets the errno code on it.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const code = (started.error as NodeJS.ErrnoException | undefined)?.code;
    return {
      label: runnerLabel(runner.id),
      cwd: runner.package_dir,
      argv,
      exitCode: started.status,
      okExits,
      collects,
      ...(code !== undefined && code !== "ETIMEDOUT" ? { spawnError: code } : {}),
      output: `${started.stdout ?? ""}\n${started.stderr ?? ""}`,
      timedOut: code === "ETIMEDOUT",
    };
  });
  const checks = [...report.checks, checkRunnerStarts(results)];
  const rank = { ok: 0, warn: 1, fail: 2 } as const;
  const status = checks.reduce<DoctorReport["status"]>(
    (worst, check) => (rank[check.status] > rank[worst] ? check.status : worst),
    "ok",
  );
  return { status, checks };
}

/** A file's text, or undefined when it is missing or cannot be read as a file. */
async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

interface Listing {
  /** Project-relative paths with `/` separators, in a fixed (sorted, depth-first) order. */
  files: string[];
  truncated: boolean;
}

function byName(a: Dirent, b: Dirent): number {
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

/**
 * Every file of the project, never entering a skipped or ignored folder (core's
 * `isDoctorSkippedDir`) and leaving out ignored files. Symbolic links are not followed. Stops at
 * `DOCTOR_FILE_CAP` files.
 */
function listProjectFiles(root: string, rules: IgnoreRules): Listing {
  const files: string[] = [];
  const pending: string[] = [""];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir === "" ? root : join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    const subdirs: string[] = [];
    for (const entry of entries.sort(byName)) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isDoctorSkippedDir(rel, rules)) subdirs.push(rel);
      } else if (entry.isFile() && !isDoctorIgnoredFile(rel, rules)) {
        if (files.length >= DOCTOR_FILE_CAP) return { files, truncated: true };
        files.push(rel);
      }
    }
    pending.push(...subdirs.reverse());
  }
  return { files, truncated: false };
}
