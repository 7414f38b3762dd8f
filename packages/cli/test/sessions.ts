import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { handleEvent, openProject } from "@tailtest/core/node";
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
