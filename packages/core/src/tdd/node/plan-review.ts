import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import * as z from "zod";
import type { PlanReviewConfig } from "../../config/config.ts";
import type { Decision } from "../../hook/hook-event.ts";
import { STATE_DIR, type Project } from "../../project/node/project.ts";
import { HOOKS_OFF as HOOKS_OFF_ENV } from "../../hook/node/launcher.ts";
import { updateState, type StateFile } from "../../state/node/store.ts";

/**
 * tdd mode's plan review (Claude Code's ExitPlanMode). The first plan of each session is refused
 * once with a TDD planning checklist and a short review of the plan by a nested, time-boxed
 * command (`claude -p` by default). The session is marked reviewed before that command starts,
 * so whatever the review does (time out, fail, hang the hook), the next ExitPlanMode of the
 * session is accepted.
 */

/** Project-relative path of the sessions whose plan was already reviewed. */
export const PLAN_REVIEW_PATH = `${STATE_DIR}/plan-review.json`;
/** The key used when the platform gives no session id. */
export const DEFAULT_PLAN_REVIEW_KEY = "default";
/** How many reviewed sessions the state file remembers (the most recent ones). */
export const MAX_REVIEWED_SESSIONS = 200;
/** Characters of the reviewer's answer shown to the agent (the start is kept). */
export const REVIEW_OUTPUT_CAP = 4000;

const SESSION_KEY_MAX = 128;
const PLAN_CAP = 50_000;
const DETAIL_CAP = 200;
const KILL_GRACE_MS = 2000;

export const PlanReviewStateSchema = z.object({
  version: z.literal(1),
  /** Oldest first; each session at most once. A list, not a map: any id is a safe key. */
  sessions: z.array(z.object({ id: z.string(), reviewed_at: z.string() })),
});
export type PlanReviewState = z.infer<typeof PlanReviewStateSchema>;

export interface PlanReviewInput {
  sessionId: string | undefined;
  plan: string;
}

export interface PlanReviewOptions {
  now?: () => Date;
  /** The reviewer's environment (default: this process's); HOOKS_OFF_ENV is always added. */
  env?: Readonly<Record<string, string | undefined>>;
}

export function planReviewFile(project: Project): StateFile<PlanReviewState> {
  return {
    path: join(project.root, PLAN_REVIEW_PATH),
    schema: PlanReviewStateSchema,
    create: () => ({ version: 1, sessions: [] }),
  };
}

/** The key a session is remembered by: its id, hashed when very long, or "default". */
export function planReviewKey(sessionId: string | undefined): string {
  const id = sessionId?.trim() ?? "";
  if (id === "") return DEFAULT_PLAN_REVIEW_KEY;
  if (id.length <= SESSION_KEY_MAX) return id;
  return `sha256:${createHash("sha256").update(id).digest("hex")}`;
}

/**
 * Refuses the first plan of a session with the checklist and a review; `none` once the session
 * was reviewed, or when `tdd.plan_review.enabled` is false. A failing reviewer never throws;
 * only a failing state write does.
 */
export async function reviewPlan(
  project: Project,
  input: PlanReviewInput,
  options: PlanReviewOptions = {},
): Promise<Decision> {
  const config = project.config.tdd.plan_review;
  if (!config.enabled) return { kind: "none" };
  const now = options.now ?? (() => new Date());
  const firstTime = await markReviewed(project, planReviewKey(input.sessionId), now());
  if (!firstTime) return { kind: "none" };
  const outcome = await runReviewer(project.root, config, input.plan, options.env ?? process.env);
  return { kind: "deny", reason: renderReason(config, outcome) };
}

/** Marks the session reviewed; false when it already was (checked and written under one lock). */
async function markReviewed(project: Project, key: string, at: Date): Promise<boolean> {
  const { result } = await updateState(planReviewFile(project), (current) => {
    if (current.sessions.some((session) => session.id === key)) {
      return { value: current, result: false };
    }
    const sessions = [...current.sessions, { id: key, reviewed_at: at.toISOString() }];
    return {
      value: { version: 1 as const, sessions: sessions.slice(-MAX_REVIEWED_SESSIONS) },
      result: true,
    };
  });
  return result;
}

/** What the agent is asked to check; Red→Green→Refactor cycles, one behaviour each. */
export const TDD_PLAN_CHECKLIST = [
  "Check that the plan is a list of Red→Green→Refactor cycles, one behaviour per cycle:",
  "1. Red: each behaviour starts as one failing test; name its test file and the failure you expect.",
  "2. No production code is written before its test has been run and seen failing.",
  "3. Green: list the production files the cycle changes (small, at most 5) and do the least that passes.",
  "4. Refactor: name the clean-ups, made only while every test is green, and re-run the tests after.",
  "5. Say how the tests are run: the exact command for one test file and for the whole suite.",
  "6. Keep end-to-end tests apart from unit tests: where they live and when they run.",
  "7. Give edge cases and error paths their own cycles (empty, invalid, limits, failures).",
  "8. Existing tests are not weakened to pass; say why whenever one has to change.",
].join("\n");

const REVIEW_PROMPT = [
  "You review a coding plan before anyone carries it out, for a team that works strictly test-first.",
  "Be critical and concrete; answer in under 200 words, as a short list of problems, each with its fix.",
  "Check that every behaviour is its own Red→Green→Refactor cycle: a failing test named first (file and",
  "expected failure), then the few production files (at most 5) that make it pass, then refactoring with",
  "the tests green. Flag production code planned before its test, missing test commands, end-to-end tests",
  "mixed with unit tests, and missing edge cases or error paths. Do not edit files or run commands.",
  "The plan:",
].join("\n");

type ReviewOutcome = { ok: true; text: string } | { ok: false; why: string };

interface ProcessResult {
  exitCode?: number | undefined;
  signal?: string | undefined;
  code?: string | undefined;
  shortMessage?: string | undefined;
  stdout?: unknown;
  stderr?: unknown;
}

async function runReviewer(
  root: string,
  config: PlanReviewConfig,
  plan: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ReviewOutcome> {
  const [file = "", ...args] = config.command;
  const name = basename(file);
  const timeoutMs = config.timeout_seconds * 1000;
  try {
    // Loaded here, not at the top: hooks that never review a plan never pay for execa.
    const { execa } = await import("execa");
    const ownGroup = process.platform !== "win32";
    const subprocess = execa(file, [...args, `${REVIEW_PROMPT}\n\n${capPlan(plan)}`], {
      cwd: root,
      env: { ...env, [HOOKS_OFF_ENV]: "1" },
      extendEnv: false,
      stdin: "ignore",
      reject: false,
      // Its own process group, so a timeout ends whatever the reviewer started too.
      detached: ownGroup,
      windowsHide: true,
      forceKillAfterDelay: KILL_GRACE_MS,
      ...(ownGroup ? {} : { timeout: timeoutMs }),
    });
    const killGroup = (signal: NodeJS.Signals) => {
      if (!ownGroup || subprocess.pid === undefined) return;
      try {
        process.kill(-subprocess.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref();
    }, timeoutMs);
    const result = (await subprocess) as ProcessResult & { timedOut?: boolean };
    clearTimeout(timer);
    killGroup("SIGKILL");
    if (timedOut || result.timedOut === true) {
      return { ok: false, why: `timed out after ${config.timeout_seconds} s` };
    }
    return outcomeOf(name, result);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, why: `${name} could not start (${firstLine(message)})` };
  }
}

function outcomeOf(name: string, result: ProcessResult): ReviewOutcome {
  const stdout = textOf(result.stdout).trim();
  const stderr = textOf(result.stderr);
  if (result.exitCode === undefined && result.signal === undefined) {
    if (result.code === "ENOENT") return { ok: false, why: `command not found: ${name}` };
    const detail = result.code ?? firstLine(result.shortMessage ?? "") ?? "unknown error";
    return { ok: false, why: `${name} could not start (${detail})` };
  }
  if (result.signal !== undefined) {
    return { ok: false, why: `${name} was stopped by ${result.signal}` };
  }
  if (result.exitCode !== 0) {
    const detail = firstLine(stderr) ?? firstLine(stdout);
    const suffix = detail === undefined ? "" : `: ${detail}`;
    return { ok: false, why: `${name} exited with code ${String(result.exitCode)}${suffix}` };
  }
  if (stdout === "") return { ok: false, why: `${name} printed nothing` };
  return { ok: true, text: capOutput(stdout) };
}

function renderReason(config: PlanReviewConfig, outcome: ReviewOutcome): string {
  const name = basename(config.command[0] ?? "");
  const review = outcome.ok
    ? `Review (by ${name}):\n${outcome.text}`
    : `The review could not run (${outcome.why}); go through the checklist yourself.`;
  return [
    "tailtest (tdd mode) reviews a plan once per session before it is accepted, so this ExitPlanMode is refused.",
    "",
    TDD_PLAN_CHECKLIST,
    "",
    review,
    "",
    "Revise the plan if it needs it, then call ExitPlanMode again: it will be accepted.",
  ].join("\n");
}

function capOutput(text: string): string {
  if (text.length <= REVIEW_OUTPUT_CAP) return text;
  const cut = text.length - REVIEW_OUTPUT_CAP;
  return `${text.slice(0, REVIEW_OUTPUT_CAP)}\n… (review cut: ${cut} more characters)`;
}

function capPlan(plan: string): string {
  if (plan.length <= PLAN_CAP) return plan;
  return `${plan.slice(0, PLAN_CAP)}\n… (plan cut: ${plan.length - PLAN_CAP} more characters)`;
}

function firstLine(text: string): string | undefined {
  const line = text
    .split("\n")
    .map((part) => part.trim())
    .find((part) => part !== "");
  if (line === undefined) return undefined;
  return line.length <= DETAIL_CAP ? line : `${line.slice(0, DETAIL_CAP)}…`;
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(String).join("\n");
  return "";
}
