import type { Depth } from "../config/depth.ts";
import type { Language } from "../filter/languages.ts";
import type { PendingStatus } from "../state/session.ts";
import {
  describeTestTarget,
  runnerLabel,
  type DetectedRunner,
  type TestTarget,
} from "../runners/project-runners.ts";

/** Every text meant for an agent stays well under Claude Code's 10,000-character hook limit. */
export const NOTE_CAP = 8000;

/**
 * `text` in at most `cap` characters. A note over the cap first has its words of more than 300
 * characters (paths of up to 4,096) shortened to their start and end; then, if still too long,
 * its middle is cut: a note's first lines say what happened and its last ones what to do next (a
 * deny's way out), and both must reach the agent however long the list between them.
 */
export function capText(text: string, cap: number = NOTE_CAP): string {
  if (text.length <= cap) return text;
  const shortened = text.replace(LONG_WORD, (word) => `${word.slice(0, 120)}…${word.slice(-160)}`);
  return shortened.length <= cap ? shortened : cutMiddle(shortened, cap);
}

/** A word (a path, usually) too long to be read: shortened, once a note is over its cap. */
const LONG_WORD = /[^\s'"`()]{301,}/g;

function cutMiddle(text: string, cap: number): string {
  const marker = ` … (cut: ${text.length - cap} characters more than fit in one note) … `;
  const room = Math.max(0, cap - marker.length);
  const tail = Math.floor(room * 0.4);
  return `${text.slice(0, room - tail)}${marker}${tail === 0 ? "" : text.slice(-tail)}`;
}

export interface QueuedNoteInput {
  path: string;
  status: PendingStatus;
  language: Language;
  target: TestTarget | undefined;
  runner: DetectedRunner | undefined;
  runnerReason: string;
  pendingCount: number;
  depthNote?: string | undefined;
  extraNotes?: readonly string[] | undefined;
  /** What the project's existing tests say about the file, when the import graph is known. */
  covering?: Covering | undefined;
  /** The import graph could say but is not whole yet: an existing test may import the file. */
  coveringUnknown?: boolean | undefined;
}

/** The existing tests related to an edited file (best first), or where a first test goes. */
export interface Covering {
  tests: readonly { path: string; evidence: string }[];
  suggested?: string | undefined;
}

const EVIDENCE_WORDS: Readonly<Record<string, string>> = {
  name: "named after it",
  family: "its test family",
  imports: "they import it",
  "imports-via": "they import it through other modules",
  support: "they run with it",
  mentions: "they load it by name",
  self: "its own tests",
  config: "they run under it",
};

/** Go's words where they differ: a folder is a package, and a module is the whole go.mod. */
const GO_EVIDENCE_WORDS: Readonly<Record<string, string>> = {
  ...EVIDENCE_WORDS,
  family: "the package's tests",
  "imports-via": "through packages that import it",
};

/**
 * "covered by existing tests a (named after it), b, c (they import it): update them" — or where
 * to write one. Tests in a row with the same evidence share its words, said once after them.
 */
function renderCovering(covering: Covering, fallback: string, language?: string): string {
  const words = language === "go" ? GO_EVIDENCE_WORDS : EVIDENCE_WORDS;
  if (covering.tests.length === 0) return `write test to ${covering.suggested ?? fallback}`;
  const [only] = covering.tests;
  if (covering.tests.length === 1 && only?.evidence === "name" && only.path === fallback)
    return `update existing test at ${only.path}`;
  const listed = covering.tests.slice(0, 5);
  const shown = listed.map((test, i) =>
    listed[i + 1]?.evidence === test.evidence
      ? test.path
      : `${test.path} (${words[test.evidence] ?? test.evidence})`,
  );
  const more = covering.tests.length > 5 ? ` and ${covering.tests.length - 5} more` : "";
  return `covered by existing tests ${shown.join(", ")}${more}: update them for this change (tailtest runs them at the end of the turn)`;
}

/**
 * The note the agent reads after an edit, in these words:
 * "tailtest: billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest."
 * Deterministic: no times, no durations, no absolute paths.
 */
export function renderQueuedNote(input: QueuedNoteInput): string {
  const parts = [`tailtest: ${input.path} queued (${input.status}, ${input.language})`];
  if (input.target === undefined) {
    parts.push(
      `no test runner found (${input.runnerReason}); add one so tailtest can run the test`,
    );
  } else if (
    input.covering !== undefined &&
    // A Rust file with no test module of its own may still be covered by the crate's tests.
    (input.target.kind === "file" || input.covering.tests.length > 0) &&
    // The graph has not seen a test made behind the hooks' back; the disk has.
    !(input.covering.tests.length === 0 && input.target.kind === "file" && input.target.exists)
  ) {
    parts.push(renderCovering(input.covering, input.target.path, input.language));
  } else if (input.target.kind === "inline") {
    parts.push(describeTestTarget(input.target));
  } else if (input.target.exists) {
    parts.push(`update existing test at ${input.target.path}`);
  } else if (input.coveringUnknown === true && input.status === "existing") {
    // An existing file may be imported by tests of other names; a new one hardly ever is.
    parts.push(
      `write test to ${input.target.path}, unless an existing test already covers it: tailtest has not mapped the project's imports yet (then update that test)`,
    );
  } else {
    parts.push(`write test to ${input.target.path}`);
  }
  if (input.pendingCount > 1)
    parts.push(
      `${input.pendingCount} files pending -- each needs a test that covers it (update or write one)`,
    );
  if (input.runner !== undefined) parts.push(`runner: ${runnerLabel(input.runner.id)}`);
  if (input.depthNote !== undefined) parts.push(input.depthNote.replace(/\.$/, ""));
  for (const extra of input.extraNotes ?? []) parts.push(extra.replace(/\.$/, ""));
  return capText(`${parts.join(". ")}.`);
}

export interface StartupNoteInput {
  runners: readonly DetectedRunner[];
  depth: Depth;
  mode: string;
  historyLines?: readonly string[] | undefined;
  lastFailures?: string | undefined;
  notices?: readonly string[] | undefined;
}

/** Where a runner's tests are, said only of a folder the project has. */
function testsWhere(runner: DetectedRunner): string {
  if (runner.test_dir === undefined)
    return runner.tests_at === undefined
      ? "tests beside the source"
      : `tests at ${runner.tests_at}`;
  if (runner.test_dir_missing === true)
    return runner.tests_at === undefined
      ? `no ${runner.test_dir}/ folder`
      : `tests at ${runner.tests_at}`;
  return `tests in ${runner.test_dir}/`;
}

export function renderRunnerList(runners: readonly DetectedRunner[]): string {
  if (runners.length === 0) return "none detected";
  const shown = runners.slice(0, 8).map((runner) => {
    const where = runner.package_dir === "" ? "" : ` in ${runner.package_dir}/`;
    return `${runner.languages.join("/")}: ${runnerLabel(runner.id)}${where} (${testsWhere(runner)})`;
  });
  const more = runners.length > shown.length ? `, (+${runners.length - shown.length} more)` : "";
  return `${shown.join(", ")}${more}`;
}

export function renderStartupNote(input: StartupNoteInput): string {
  const lines = [
    `tailtest: session started. Runners: ${renderRunnerList(input.runners)}. Depth: ${input.depth}. Mode: ${input.mode}.`,
    ...(input.historyLines ?? []),
    ...(input.lastFailures === undefined ? [] : [input.lastFailures]),
    ...(input.notices ?? []),
  ];
  return capText(lines.join("\n"));
}
