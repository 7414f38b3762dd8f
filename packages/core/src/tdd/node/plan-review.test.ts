import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Decision } from "../../hook/hook-event.ts";
import { HOOKS_OFF as HOOKS_OFF_ENV } from "../../hook/node/launcher.ts";
import {
  MAX_REVIEWED_SESSIONS,
  PLAN_REVIEW_PATH,
  PlanReviewStateSchema,
  REVIEW_OUTPUT_CAP,
  reviewPlan,
  TDD_PLAN_CHECKLIST,
} from "./plan-review.ts";
import { openProject, type Project } from "../../project/node/project.ts";

/** A reviewer made of node itself: `node -e <script> <prompt + plan>`. */
const node = (script: string): string[] => [process.execPath, "-e", script];
/** Prints its last argument (the prompt and the plan) and the hooks-off variable. */
const ECHO = node(
  'const a = process.argv; console.log("HOOKS_OFF=" + process.env.TAILTEST_HOOKS_OFF); console.log(a[a.length - 1]);',
);

const PLAN = "1. Add parseDuration with a failing test in src/duration.test.ts";
const FIXED_NOW = () => new Date("2025-01-02T03:04:05.000Z");

let temp: TempProject;

beforeEach(() => {
  temp = makeProject();
});
afterEach(() => temp.cleanup());

function projectWith(planReview: Record<string, unknown>): Project {
  temp.write(
    ".tailtest/config.json",
    JSON.stringify({ mode: "tdd", tdd: { plan_review: planReview } }),
  );
  const project = openProject(temp.root);
  expect(project.configProblems).toEqual([]);
  return project;
}

const review = (project: Project, sessionId: string | undefined, plan = PLAN) =>
  reviewPlan(project, { sessionId, plan }, { now: FIXED_NOW });

function reasonOf(decision: Decision): string {
  expect(decision.kind).toBe("deny");
  return decision.kind === "deny" ? decision.reason : "";
}

const stateText = () => readFileSync(join(temp.root, PLAN_REVIEW_PATH), "utf8");

describe("reviewPlan", () => {
  it("refuses the first plan with the checklist and the review, which saw the plan", async () => {
    const reason = reasonOf(await review(projectWith({ command: ECHO }), "s1"));
    const lines = reason.split("\n");
    expect(lines[0]).toMatch(/^tailtest \(tdd mode\) reviews a plan once per session/);
    expect(reason).toContain(TDD_PLAN_CHECKLIST);
    expect(reason).toMatch(/Review \(by node(\.exe)?\):\nHOOKS_OFF=1\nYou review a coding plan/);
    expect(reason).toContain(`The plan:\n\n${PLAN}`);
    expect(lines.at(-1)).toBe(
      "Revise the plan if it needs it, then call ExitPlanMode again: it will be accepted.",
    );
    expect(reason).not.toContain(temp.root);
    expect(reason.length).toBeLessThan(6000);
  });

  it("accepts the next plan of the same session, and refuses the first of another", async () => {
    const project = projectWith({ command: ECHO });
    expect((await review(project, "s1")).kind).toBe("deny");
    expect(await review(project, "s1", "a revised plan")).toEqual({ kind: "none" });
    expect(await review(project, "s1")).toEqual({ kind: "none" });
    expect((await review(project, "s2")).kind).toBe("deny");
    expect(await review(project, "s2")).toEqual({ kind: "none" });
  });

  it("keys a missing session id as default", async () => {
    const project = projectWith({ command: ECHO });
    expect((await review(project, undefined)).kind).toBe("deny");
    expect(await review(project, "")).toEqual({ kind: "none" });
    expect(PlanReviewStateSchema.parse(JSON.parse(stateText()))).toEqual({
      version: 1,
      sessions: [{ id: "default", reviewed_at: "2025-01-02T03:04:05.000Z" }],
    });
  });

  it("remembers a session whose id is an object key of JavaScript", async () => {
    const project = projectWith({ command: ECHO });
    expect((await review(project, "__proto__")).kind).toBe("deny");
    expect(await review(project, "__proto__")).toEqual({ kind: "none" });
    expect((await review(project, "constructor")).kind).toBe("deny");
    expect(await review(project, "constructor")).toEqual({ kind: "none" });
  });

  it("does nothing when disabled, and writes no state", async () => {
    const project = projectWith({ enabled: false, command: ECHO });
    expect(await review(project, "s1")).toEqual({ kind: "none" });
    expect(existsSync(join(temp.root, PLAN_REVIEW_PATH))).toBe(false);
  });

  it("uses claude -p by default", async () => {
    expect(openProject(temp.root).config.tdd.plan_review.command).toEqual(["claude", "-p"]);
  });

  it("marks the session reviewed before the reviewer runs", async () => {
    const check = node(
      [
        'const s = JSON.parse(require("fs").readFileSync(".tailtest/plan-review.json", "utf8"));',
        'console.log(s.sessions.some((e) => e.id === "s1") ? "MARKED-BEFORE" : "NOT-MARKED");',
      ].join("\n"),
    );
    const reason = reasonOf(await review(projectWith({ command: check }), "s1"));
    expect(reason).toMatch(/\nMARKED-BEFORE\n/);
  });

  it.each([
    [
      "a non-zero exit",
      node(
        'console.log("partial"); console.error("\\n  model overloaded  \\nmore"); process.exit(3)',
      ),
      /\(node(\.exe)? exited with code 3: model overloaded\)/,
    ],
    [
      "a missing binary",
      ["tailtest-no-such-reviewer-bin", "-p"],
      /\(command not found: tailtest-no-such-reviewer-bin\)/,
    ],
    ["an empty answer", node("process.exit(0)"), /\(node(\.exe)? printed nothing\)/],
  ])(
    "a review that fails with %s refuses once, says why, then accepts",
    async (_, command, why) => {
      const project = projectWith({ command });
      const reason = reasonOf(await review(project, "s1"));
      expect(reason).toContain(TDD_PLAN_CHECKLIST);
      expect(reason).toMatch(why);
      expect(reason).toMatch(
        /\nThe review could not run \(.+\); go through the checklist yourself\.\n/,
      );
      expect(reason).not.toContain("Review (by");
      expect(await review(project, "s1")).toEqual({ kind: "none" });
    },
  );

  it("kills a reviewer that runs past the timeout, with what it started, then accepts", async () => {
    const pidFile = join(temp.root, "child.pid");
    // The reviewer starts a grandchild in its group, then both sleep far past the limit.
    const slow = node(
      [
        'const { spawn } = require("child_process");',
        'const c = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], { stdio: "ignore" });',
        `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));`,
        'console.log("started"); setTimeout(() => {}, 120000);',
      ].join("\n"),
    );
    const project = projectWith({ command: slow, timeout_seconds: 5 });
    const started = Date.now();
    const reason = reasonOf(await review(project, "s1"));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(reason).toContain(
      "The review could not run (timed out after 5 s); go through the checklist yourself.",
    );
    if (process.platform !== "win32") {
      const pid = Number(readFileSync(pidFile, "utf8"));
      await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    }
    expect(await review(project, "s1")).toEqual({ kind: "none" });
  }, 30_000);

  it("passes the given environment plus the hooks-off variable, and runs in the project", async () => {
    const show = node(
      'console.log([process.env.PLAN_REVIEW_PROBE, process.env.TAILTEST_HOOKS_OFF, require("fs").existsSync(".tailtest/config.json")].join("|"))',
    );
    const env = { PATH: process.env.PATH, PLAN_REVIEW_PROBE: "probe", [HOOKS_OFF_ENV]: "0" };
    const decision = await reviewPlan(
      projectWith({ command: show }),
      { sessionId: "s1", plan: PLAN },
      { env },
    );
    expect(reasonOf(decision)).toMatch(/:\nprobe\|1\|true\n/);
  });

  it("keeps the start of a long review and says it was cut", async () => {
    const long = node('console.log("A".repeat(3000) + "B".repeat(3000))');
    const reason = reasonOf(await review(projectWith({ command: long }), "s1"));
    expect(reason).toContain(`${"A".repeat(3000)}${"B".repeat(REVIEW_OUTPUT_CAP - 3000)}\n`);
    expect(reason).toContain("… (review cut: 2000 more characters)");
    expect(reason).not.toContain("B".repeat(REVIEW_OUTPUT_CAP - 3000 + 1));
    expect(reason.length).toBeLessThan(6000);
  });

  it("moves a corrupt state file aside and still reviews once", async () => {
    const project = projectWith({ command: ECHO });
    temp.write(PLAN_REVIEW_PATH, '{"version":1,"sessions":');
    expect((await review(project, "s1")).kind).toBe("deny");
    expect(await review(project, "s1")).toEqual({ kind: "none" });
    const aside = readdirSync(join(temp.root, ".tailtest")).filter((n) => n.includes(".corrupt-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(temp.root, ".tailtest", aside[0] ?? ""), "utf8")).toBe(
      '{"version":1,"sessions":',
    );
  });

  it(`remembers only the ${MAX_REVIEWED_SESSIONS} most recent sessions`, async () => {
    const project = projectWith({ command: ECHO });
    const sessions = Array.from({ length: MAX_REVIEWED_SESSIONS }, (_, i) => ({
      id: `old-${i}`,
      reviewed_at: "2024-12-31T00:00:00.000Z",
    }));
    writeFileSync(join(temp.root, PLAN_REVIEW_PATH), JSON.stringify({ version: 1, sessions }));
    expect(await review(project, "old-0")).toEqual({ kind: "none" });
    expect((await review(project, "new")).kind).toBe("deny");
    const state = PlanReviewStateSchema.parse(JSON.parse(stateText()));
    expect(state.sessions).toHaveLength(MAX_REVIEWED_SESSIONS);
    expect(state.sessions[0]?.id).toBe("old-1");
    expect(state.sessions.at(-1)).toEqual({ id: "new", reviewed_at: "2025-01-02T03:04:05.000Z" });
  });

  it("refuses only once when two plans of one session arrive together", async () => {
    const project = projectWith({ command: ECHO });
    const decisions = await Promise.all([review(project, "s1"), review(project, "s1")]);
    expect(decisions.map((d) => d.kind).sort()).toEqual(["deny", "none"]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
