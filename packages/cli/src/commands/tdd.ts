import { isAbsolute, relative, resolve, sep } from "node:path";
import {
  classifyTddFile,
  declareGreen,
  declareRed,
  deriveTddState,
  firstErrorLine,
  redCommandFor,
  tddPatternsFromConfig,
  type TddEntry,
  type TddView,
} from "@tailtest/core";
import {
  activeTddKey,
  agentKey,
  declareTddEntry,
  EVENTS_PATH,
  openProject,
  readSessionId,
  readTddEntries,
  tddLogPath,
  type ActiveTddKey,
  type TddRead,
} from "@tailtest/core/node";
import { realDir, rootOrRefuse } from "../project-root.ts";

/**
 * `tailtest red`, `tailtest green` and `tailtest tdd status`: the agent's side of tdd mode. The
 * log is found, never named: `--agent` picks a subagent's log, else `activeTddKey` decides.
 */

export interface TddIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

interface Target {
  root: string;
  /** `agent` when `--agent` chose the log. */
  key: { key: string; source: ActiveTddKey["source"] | "agent" };
}

export interface TddCommonOptions {
  root?: string;
  agent?: string;
}

export interface RedOptions extends TddCommonOptions {
  test: string;
  expects: string;
}

export interface GreenOptions extends TddCommonOptions {
  change: string;
  file: string[];
  skipRed: boolean;
  reason?: string;
}

export interface StatusOptions extends TddCommonOptions {
  json: boolean;
}

/** Where the command writes; undefined after saying the `--root` is bad (the command exits 2). */
async function resolveTarget(options: TddCommonOptions, io: TddIO): Promise<Target | undefined> {
  const chosen = rootOrRefuse(options.root, io);
  if (chosen === undefined) return undefined;
  const root = realDir(chosen);
  if (options.agent !== undefined) {
    if (options.agent.trim() === "") throw new Error("--agent is empty: give the subagent's id");
    // The subagent's key hangs off its main agent's: from the environment when the platform
    // put it there, else the latest main session.
    const main = await activeTddKey(root, io.env);
    const sessionId =
      main.source === "env" || main.source === "claude-session"
        ? main.key
        : await readSessionId(root);
    return { root, key: { key: agentKey({ sessionId, agentId: options.agent }), source: "agent" } };
  }
  return { root, key: await activeTddKey(root, io.env) };
}

/** One warning line for events.jsonl lines that could not be read, if any. */
function warnProblems(read: TddRead, io: TddIO): void {
  const count = read.problems.length;
  if (count > 0) {
    io.stderr(
      `tailtest: warning: skipped ${count} unreadable line(s) in ${EVENTS_PATH} (first: line ${read.problems[0]?.line}: ${read.problems[0]?.message})\n`,
    );
  }
}

function recorded(kind: string, target: Target, entries: readonly TddEntry[]): string {
  const state = deriveTddState(entries).state;
  return `tailtest: ${kind} recorded in ${tddLogPath(target.key.key)}; state: ${state}\n`;
}

/**
 * Why a Red naming a production file as its test is refused: until the test has failed only test
 * files may change, so a test inside that file could never be written (a Rust crate's inline
 * `#[cfg(test)]` module is its source file's, and the agent was left with a Red it could not
 * act on). Undefined when `--test` names no existing production file of the project.
 */
function productionTestRefusal(test: string, cwd: string, root: string): string | undefined {
  const path = test.split("::")[0]?.trim() ?? "";
  if (path === "") return undefined;
  const rel = projectRelativeFile(path, cwd, root);
  if (rel === "." || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  const project = openProject(root);
  if (!project.view.exists(rel) || project.view.isDirectory(rel)) return undefined;
  if (classifyTddFile(rel, tddPatternsFromConfig(project.config)) !== "prod") return undefined;
  const stem = /([^/]+)\.rs$/.exec(rel)?.[1];
  const file = stem === "lib" || stem === "main" ? "tests/<name>.rs" : `tests/${stem ?? ""}.rs`;
  const where =
    stem === undefined
      ? `Name the test file the failing test goes in (tailtest explain ${rel} shows where its tests are), then: ${redCommandFor()}`
      : `Its inline #[cfg(test)] module is part of that source file: write the failing test as an integration test (${file}; cargo runs each file in tests/ against the crate's public API), then: ${redCommandFor({ test: file })}`;
  return `tailtest tdd: ${rel} is production code, not a test file: until the new test has failed only test files may change, so a test in ${rel} could not be written. ${where}`;
}

/** `tailtest red`: logs a Red; 0 when recorded, 1 when refused. */
export async function logRed(options: RedOptions, io: TddIO): Promise<number> {
  const target = await resolveTarget(options, io);
  if (target === undefined) return 2;
  const refusal = productionTestRefusal(options.test, realDir(io.cwd), target.root);
  if (refusal !== undefined) {
    io.stderr(`${refusal}\n`);
    return 1;
  }
  const at = new Date().toISOString();
  const { declared, read } = await declareTddEntry(target.root, target.key.key, (entries) =>
    declareRed(entries, { test: options.test, expects: options.expects }, at),
  );
  warnProblems(read, io);
  if (!declared.ok) {
    io.stderr(`${declared.message}\n`);
    return 1;
  }
  const label =
    declared.entry.override_from === undefined
      ? ""
      : ` (override from ${declared.entry.override_from})`;
  io.stdout(recorded(`Red${label}`, target, [...read.entries, declared.entry]));
  return 0;
}

/**
 * A `--file` as the agent typed it, made project-relative: relative to the cwd, then to the root.
 * A path outside the project comes back starting with `..` (or absolute on another drive), which
 * `declareGreen` refuses with its own message. A trailing slash (a folder) is kept.
 */
export function projectRelativeFile(file: string, cwd: string, root: string): string {
  const trimmed = file.trim();
  if (trimmed === "") return trimmed;
  const folder = /[\\/]$/.test(trimmed);
  const rel = relative(root, resolve(cwd, trimmed));
  const forward = isAbsolute(rel) ? rel : rel.split(sep).join("/");
  if (forward === "") return folder ? "./" : ".";
  return folder ? `${forward}/` : forward;
}

/** `tailtest green`: logs a Green; 0 when recorded, 1 when refused. */
export async function logGreen(options: GreenOptions, io: TddIO): Promise<number> {
  const target = await resolveTarget(options, io);
  if (target === undefined) return 2;
  const cwd = realDir(io.cwd);
  const files = options.file.map((file) => projectRelativeFile(file, cwd, target.root));
  const at = new Date().toISOString();
  const { declared, read } = await declareTddEntry(target.root, target.key.key, (entries) =>
    declareGreen(
      entries,
      {
        change: options.change,
        files,
        skipRed: options.skipRed,
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      },
      at,
    ),
  );
  warnProblems(read, io);
  if (!declared.ok) {
    io.stderr(`${declared.message}\n`);
    return 1;
  }
  const { entry } = declared;
  const notes = [
    ...(entry.skip_red === undefined ? [] : [`skip-red: ${entry.skip_red.reason}`]),
    ...(entry.override_from === undefined ? [] : [`override from ${entry.override_from}`]),
  ];
  const label = notes.length === 0 ? "" : ` (${notes.join(", ")})`;
  io.stdout(
    recorded(`Green${label} for ${entry.files.join(", ")}`, target, [...read.entries, entry]),
  );
  return 0;
}

function describeDeclaration(view: TddView): string {
  const declaration = view.declaration;
  if (declaration === undefined) return "none";
  if (declaration.kind === "red") {
    return `Red: ${declaration.test} (expects: ${declaration.expects})`;
  }
  const skip =
    declaration.skip_red === undefined ? "" : `, skip-red: ${declaration.skip_red.reason}`;
  return `Green: ${declaration.change}${skip}`;
}

function describeLastTest(view: TddView): string {
  const run = view.lastTest;
  if (run === undefined) return "none";
  const error = run.outcome === "failed" ? firstErrorLine(run.error) : "";
  return `${run.command.replace(/\r?\n/g, " ")} - ${run.outcome}${error === "" ? "" : ` (${error})`}`;
}

function renderStatus(target: Target, view: TddView, read: TddRead): string {
  const overrides = view.overrides.map(
    (o) => `${o.kind}${o.skip_red ? " --skip-red" : ""} over ${o.from}`,
  );
  const flags = [
    ...(view.cycleComplete ? ["cycle complete"] : []),
    ...(view.regression ? ["regression: a test failed after the last cycle"] : []),
    ...(view.finished ? ["finished"] : []),
  ];
  const rows: [string, string][] = [
    ["log", `${tddLogPath(target.key.key)} (from ${target.key.source})`],
    ["state", flags.length === 0 ? view.state : `${view.state} (${flags.join("; ")})`],
    ["active", describeDeclaration(view)],
    ["allowlist", view.allowlist.length === 0 ? "none" : view.allowlist.join(", ")],
    ["last test", describeLastTest(view)],
    ["overrides", overrides.length === 0 ? "none" : overrides.join("; ")],
  ];
  if (view.rejected.length > 0) rows.push(["rejected", `${view.rejected.length} Green(s)`]);
  if (read.problems.length > 0 || read.torn) {
    const torn = read.torn ? " and a torn last line" : "";
    rows.push(["problems", `${read.problems.length} unreadable line(s)${torn} in ${EVENTS_PATH}`]);
  }
  return rows.map(([key, value]) => `${key.padEnd(10)}${value}\n`).join("");
}

/** `tailtest tdd status`: where the agent's log stands; writes nothing. */
export async function tddStatus(options: StatusOptions, io: TddIO): Promise<number> {
  const target = await resolveTarget(options, io);
  if (target === undefined) return 2;
  const read = await readTddEntries(target.root, target.key.key);
  const view = deriveTddState(read.entries);
  if (options.json) {
    io.stdout(
      `${JSON.stringify(
        {
          key: target.key.key,
          key_source: target.key.source,
          log: tddLogPath(target.key.key),
          state: view.state,
          declaration: view.declaration ?? null,
          allowlist: view.allowlist,
          skip_red: view.skipRed,
          cycle_complete: view.cycleComplete,
          regression: view.regression,
          finished: view.finished,
          last_test: view.lastTest ?? null,
          overrides: view.overrides,
          rejected: view.rejected,
          problems: read.problems,
          torn: read.torn,
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  io.stdout(renderStatus(target, view, read));
  return 0;
}
