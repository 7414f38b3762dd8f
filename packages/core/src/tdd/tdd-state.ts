import * as z from "zod/mini";
import type { GreenEntry, RedEntry, TddEntry, TestRunEntry } from "./tdd-log.ts";

/**
 * The four states of the TDD guard. They are never stored: they are derived from the
 * log by folding its entries in order, so the log is the only thing that can be wrong.
 */
export const TddStateSchema = z.enum(["initial", "writing_tests", "red", "making_tests_pass"]);
export type TddState = z.infer<typeof TddStateSchema>;

/** A state a declaration can override: every state but `initial`. */
export const OverrideFromSchema = z.enum(["writing_tests", "red", "making_tests_pass"]);
export type OverrideFrom = z.infer<typeof OverrideFromSchema>;

/** A declaration that replaced a cycle in progress, kept so a Stop summary can list them. */
export interface TddOverride {
  kind: "red" | "green";
  from: OverrideFrom;
  skip_red: boolean;
  at: string;
}

/** Where the log stands after its last entry. */
export interface TddView {
  state: TddState;
  /** The Red or Green that opened the current phase; undefined in `initial`. */
  declaration: RedEntry | GreenEntry | undefined;
  /**
   * The files the active Green declared, normalised by `normaliseAllowlistEntry`, in declaration order.
   * Empty outside `making_tests_pass`: a finished cycle closes it for good.
   */
  allowlist: string[];
  /** The active Green was logged with --skip-red, so test files may be edited too. */
  skipRed: boolean;
  /** The last cycle ended with a passing run and no declaration has come since. */
  cycleComplete: boolean;
  /**
   * A run failed after the last cycle completed. The original reopened the old Green allowlist
   * here; we stay in `initial` and raise this flag instead. A passing run or a declaration clears it.
   */
  regression: boolean;
  lastTest: TestRunEntry | undefined;
  overrides: TddOverride[];
  /** Green declarations the machine refused (not skip-red, and no failing Red before them). */
  rejected: GreenEntry[];
  /** A subagent's log was closed by `## FINISHED`: it grants nothing until a new declaration. */
  finished: boolean;
  /**
   * The support hash of the run that confirmed the Red (`TestRunEntry.support_hash`): a Green
   * is measured against it. Undefined until a Red is confirmed by a run tailtest measured.
   */
  redSupport?: string | undefined;
  /**
   * The tests that failed in the run that confirmed the Red (`TestRunEntry.failed_tests`): a Red
   * that names only its file is Green only when each of them runs and passes.
   */
  redFailed?: readonly string[] | undefined;
}

export function initialTddView(): TddView {
  return {
    state: "initial",
    declaration: undefined,
    allowlist: [],
    skipRed: false,
    cycleComplete: false,
    regression: false,
    lastTest: undefined,
    overrides: [],
    rejected: [],
    finished: false,
  };
}

/** Why a (non skip-red) Green cannot be logged in `state`; undefined when it can. */
export type GreenRefusal = "not-failed-yet" | "no-red";

/**
 * The Green precondition, shared by `declareGreen` and the reducer so a Green written into
 * the log by hand is held to the same rule as one logged through the command.
 */
export function greenRefusal(state: TddState, skipRed: boolean): GreenRefusal | undefined {
  if (skipRed) return undefined;
  switch (state) {
    case "red":
    case "making_tests_pass":
      return undefined;
    case "writing_tests":
      return "not-failed-yet";
    case "initial":
      return "no-red";
  }
}

/** The override a Red logged in `state` records, if any: any state but `initial`. */
export function redOverride(state: TddState): OverrideFrom | undefined {
  return state === "initial" ? undefined : state;
}

/**
 * The override a Green logged in `state` records, if any (the original's labels): a skip-red Green
 * overrides any state but `initial`; a plain Green overrides only an earlier Green.
 */
export function greenOverride(state: TddState, skipRed: boolean): OverrideFrom | undefined {
  if (skipRed) return state === "initial" ? undefined : state;
  return state === "making_tests_pass" ? state : undefined;
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * One Green `--file` entry in one spelling: trimmed, forward slashes, no `./` or empty segments,
 * no trailing slash. A folder written with a trailing slash (`src/feature/`) becomes the glob of
 * everything under it (`src/feature/**`), so dropping the slash keeps its meaning. Outside globs,
 * `a/../b` is folded to `b`; a glob keeps its segments as written. Case is left alone: only the
 * edge knows whether the file system ignores it. Empty when nothing is left; paths that leave the
 * project are kept here and refused by `declareGreen` (see `leavesProject`).
 */
export function normaliseAllowlistEntry(raw: string): string {
  const text = raw.trim().replace(/\\/g, "/");
  const glob = GLOB_CHARACTERS.test(text);
  const absolute = text.startsWith("/");
  const segments: string[] = [];
  for (const segment of text.split("/")) {
    if (segment === "" || segment === ".") continue;
    const previous = segments.at(-1);
    if (segment === ".." && !glob && previous !== undefined && previous !== "..") {
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  if (segments.length > 0 && text.endsWith("/")) segments.push("**");
  const joined = segments.join("/");
  return absolute ? `/${joined}` : joined;
}

/** True for a normalised entry that is absolute, on a drive, or climbs above the project root. */
export function leavesProject(entry: string): boolean {
  return entry.startsWith("/") || /^[a-zA-Z]:(\/|$)/.test(entry) || entry.split("/")[0] === "..";
}

/** Normalised, without empties or repeats, in the order declared. */
export function normaliseAllowlist(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const path = normaliseAllowlistEntry(file);
    if (path !== "" && !out.includes(path)) out.push(path);
  }
  return out;
}

function withOverride(
  view: TddView,
  kind: TddOverride["kind"],
  from: OverrideFrom | undefined,
  entry: RedEntry | GreenEntry,
): TddOverride[] {
  if (from === undefined) return view.overrides;
  return [
    ...view.overrides,
    { kind, from, skip_red: entry.kind === "green" && !!entry.skip_red, at: entry.at },
  ];
}

function applyRed(view: TddView, entry: RedEntry): TddView {
  return {
    ...view,
    redSupport: undefined,
    redFailed: undefined,
    state: "writing_tests",
    declaration: entry,
    allowlist: [],
    skipRed: false,
    cycleComplete: false,
    regression: false,
    finished: false,
    overrides: withOverride(view, "red", redOverride(view.state), entry),
  };
}

function applyGreen(view: TddView, entry: GreenEntry): TddView {
  const skipRed = entry.skip_red !== undefined;
  if (greenRefusal(view.state, skipRed) !== undefined) {
    return { ...view, rejected: [...view.rejected, entry] };
  }
  return {
    ...view,
    state: "making_tests_pass",
    declaration: entry,
    allowlist: normaliseAllowlist(entry.files),
    skipRed,
    cycleComplete: false,
    regression: false,
    finished: false,
    overrides: withOverride(view, "green", greenOverride(view.state, skipRed), entry),
  };
}

/**
 * Whether a failing run confirms the Red: the failure must be an assertion failure (not a load,
 * syntax or collection error), and of the declared test when the run says which tests failed.
 */
export function confirmsRed(run: TestRunEntry): boolean {
  return (
    run.outcome === "failed" && run.real_failure !== false && run.declared_test_failed !== false
  );
}

function applyTestRun(view: TddView, run: TestRunEntry): TddView {
  const seen = { ...view, lastTest: run };
  const passed = run.outcome === "passed";
  switch (view.state) {
    case "initial":
      // No declaration is active, so no run can unlock anything: a failure after a finished
      // cycle is only flagged, and a failure with no cycle at all is only recorded.
      return { ...seen, regression: passed ? false : view.regression || view.cycleComplete };
    case "writing_tests":
      // What the test ran with when it failed: the first confirmation, not a later one.
      return confirmsRed(run)
        ? { ...seen, state: "red", redSupport: run.support_hash, redFailed: run.failed_tests }
        : seen;
    case "red":
      // The declared test passes again without any Green: the Red is no longer confirmed.
      return passed ? { ...seen, state: "writing_tests" } : seen;
    case "making_tests_pass":
      if (!passed) return seen;
      return {
        ...seen,
        state: "initial",
        declaration: undefined,
        allowlist: [],
        skipRed: false,
        cycleComplete: true,
        regression: false,
      };
  }
}

/** One step of the machine. Edit decisions are recorded in the log but never move it. */
export function applyTddEntry(view: TddView, entry: TddEntry): TddView {
  switch (entry.kind) {
    case "red":
      return applyRed(view, entry);
    case "green":
      return applyGreen(view, entry);
    case "test":
      return applyTestRun(view, entry);
    case "edit":
      return view;
    case "finished":
      return {
        ...view,
        state: "initial",
        declaration: undefined,
        allowlist: [],
        skipRed: false,
        finished: true,
      };
  }
}

/** Folds the log's entries, oldest first, into where it stands now. */
export function deriveTddState(entries: readonly TddEntry[]): TddView {
  return entries.reduce(applyTddEntry, initialTddView());
}
