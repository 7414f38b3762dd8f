import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  appendStrictEvents,
  appendTddEntries,
  handleEvent,
  openProject,
} from "@tailtest/core/node";
import { commitAll, copyFixture, type TempProject } from "@tailtest/test-utils";

/**
 * Real state for the status, history and report tests: agent sessions played through core's
 * `handleEvent` (the one entry point every hook calls), on a copy of the node:test fixture, with
 * node --test really run at the end of each turn. Nothing is written by hand.
 */

/** A file name is the user's own text: the report must show this, never run it. */
export const EVIL = "src/<script>alert(1)</script>.js";
export const EVIL_TEST = "test/<script>alert(1)</script>.test.js";
export const CALC = "src/calc.js";

const calc = (result: string) => `export function add(a, b) {\n  return ${result};\n}\n`;
const evil = (value: number) => `export function evil() {\n  return ${value};\n}\n`;

/** Per session: whether calc.js and the evil file pass their tests. */
export const SESSION_PLAN: readonly { id: string; calc: boolean; evil: boolean }[] = [
  { id: "session-1", calc: true, evil: true },
  { id: "session-2", calc: true, evil: false },
  { id: "session-3", calc: true, evil: false },
  { id: "session-4", calc: false, evil: false },
];

/** The fixture with tests that pass or fail only by what the sources return, committed to git. */
export async function makeTestedProject(): Promise<TempProject> {
  const project = copyFixture("runners/node-test");
  project.write(
    "test/calc.test.js",
    'import assert from "node:assert/strict";\nimport { it } from "node:test";\nimport { add } from "../src/calc.js";\n\nit("adds", () => assert.equal(add(2, 3), 5));\n',
  );
  project.write(
    EVIL_TEST,
    'import assert from "node:assert/strict";\nimport { it } from "node:test";\nimport { evil } from "../../src/<script>alert(1)</script>.js";\n\nit("is one", () => assert.equal(evil(), 1));\n',
  );
  project.write(EVIL, evil(1));
  await commitAll(project.root);
  return project;
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/**
 * One agent session: start, edit both files, end the turn (tests run), and end the session
 * unless `open` (then its outcomes are only in the session file, not yet in history).
 */
export async function playSession(
  root: string,
  session: { id: string; calc: boolean; evil: boolean },
  day: number,
  open = false,
): Promise<void> {
  const project = openProject(root);
  let minute = 0;
  const now = () => new Date(Date.UTC(2026, 0, day, 9, minute++));
  const options = { platform: "claude-code" as const, now };
  await handleEvent(
    project,
    { kind: "SessionStarted", sessionId: session.id, source: "startup" },
    options,
  );
  write(root, CALC, calc(session.calc ? "a + b" : "a - b"));
  write(root, EVIL, evil(session.evil ? 1 : 2));
  await handleEvent(
    project,
    { kind: "FilesEdited", paths: [join(root, CALC), join(root, EVIL)] },
    options,
  );
  await handleEvent(project, { kind: "TurnEnded", stopHookActive: false }, options);
  if (!open) await handleEvent(project, { kind: "SessionEnded" }, options);
}

/** The tested project after every session of `SESSION_PLAN`, one a day from 1 January 2026. */
export async function makeHistoryProject(): Promise<TempProject> {
  const project = await makeTestedProject();
  for (const [index, session] of SESSION_PLAN.entries())
    await playSession(project.root, session, index + 1);
  return project;
}

/**
 * A gating-mode session (tdd or strict) played through `handleEvent`: started, `work` logs what
 * the agent did (its TDD entries or strict events, as the `tailtest red|green|claim` commands and
 * the gate log them), then ended unless `open`.
 */
async function playGatingSession(
  root: string,
  mode: "tdd" | "strict",
  id: string,
  day: number,
  work: (at: (minute: number) => string) => Promise<void>,
  open = false,
): Promise<void> {
  write(root, ".tailtest/config.json", `${JSON.stringify({ mode })}\n`);
  const project = openProject(root);
  const at = (minute: number) => new Date(Date.UTC(2026, 1, day, 10, minute)).toISOString();
  let minute = 0;
  const options = {
    platform: "claude-code" as const,
    now: () => new Date(Date.UTC(2026, 1, day, 10, minute++)),
    identity: { sessionId: id },
  };
  await handleEvent(project, { kind: "SessionStarted", sessionId: id, source: "startup" }, options);
  await work(at);
  if (!open) await handleEvent(openProject(root), { kind: "SessionEnded" }, options);
}

/** The three sessions of `makeModesProject`, oldest first. */
export const MODE_SESSIONS = ["follow-1", "tdd-2", "strict-3"] as const;

/**
 * One session of each mode: a follow session (calc.js passes, the evil file fails), a tdd session
 * (one whole Red → Green cycle, then a skip-red Green), and a strict session still open (one
 * claim verified, one reverted and escalated).
 */
export async function makeModesProject(): Promise<TempProject> {
  const project = await makeTestedProject();
  await playSession(project.root, { id: MODE_SESSIONS[0], calc: true, evil: false }, 1);
  await playGatingSession(project.root, "tdd", MODE_SESSIONS[1], 2, async (at) => {
    await appendTddEntries(project.root, MODE_SESSIONS[1], [
      { kind: "red", test: "test/calc.test.js", expects: "adds fails: add subtracts", at: at(1) },
      { kind: "test", command: "node --test", outcome: "failed", at: at(2) },
      { kind: "green", change: "add adds", files: [CALC], at: at(3) },
      { kind: "test", command: "node --test", outcome: "passed", at: at(4) },
      {
        kind: "green",
        change: "rename a local",
        files: [CALC],
        at: at(5),
        skip_red: { reason: "refactoring" },
      },
    ]);
  });
  await playGatingSession(
    project.root,
    "strict",
    MODE_SESSIONS[2],
    3,
    async (at) => {
      const session = MODE_SESSIONS[2];
      const test = "test/calc.test.js::adds";
      await appendStrictEvents(project.root, [
        { type: "edit_claim", ts: at(1), session, claim: "c1", test_id: test, edit_target: CALC },
        { type: "verify_result", ts: at(2), session, scope: "claim", claim: "c1", status: "pass" },
        { type: "edit_claim", ts: at(3), session, claim: "c2", test_id: test, edit_target: EVIL },
        {
          type: "verify_result",
          ts: at(4),
          session,
          scope: "claim",
          claim: "c2",
          status: "fail",
          reason: "it still fails",
        },
        { type: "escalated", ts: at(5), session, claim: "c2", test_id: test, attempts: 1 },
      ]);
    },
    true,
  );
  return project;
}
