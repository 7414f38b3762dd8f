import { capText } from "./notes.ts";

/** The failure classification the agent gives before any fix: the cause decides the fix. */
export const CLASSIFY_FAILURES =
  "For each failure, first say whether it is a real bug (the code is wrong), an environment issue (a missing dependency or service: do not change the code) or a test bug (the test expects the wrong thing: fix the test), with one sentence of reasoning. Never skip a failure silently.";

export interface VerifyNoteInput {
  /** The deterministic excerpt: FAIL / ERROR / MISSING blocks. */
  excerpt: string;
  round: number;
  budget: number;
  /** Where the red tests are, when there are several (`engine/rerun.ts`). */
  summary?: string | undefined;
  /** The project's own commands that run the red test files again. */
  rerun?: readonly string[] | undefined;
}

/**
 * Said when a test asserts a snapshot that was never written: tailtest runs jest as CI does
 * (`CI=1`, `--ci`), where a new snapshot fails instead of being written, and jest's own text
 * points at `-u`, which would also overwrite every snapshot of the file that fails.
 */
export const UNWRITTEN_SNAPSHOT =
  "A new snapshot is not written in tailtest's runs, which run as CI does: write it once with the project's runner outside CI (jest: the test file with `--ci=false`, which writes new snapshots and leaves failing ones failing), check what it wrote, and do not pass `-u`, which also overwrites the snapshots that fail.";

/** jest's words for a snapshot assertion that has no stored snapshot in a CI run. */
const UNWRITTEN = /New snapshot was not written/;

/** What to do next, for what the excerpt holds: missing tests, red tests, or both. */
function nextStep(excerpt: string): string {
  const missing = /^MISSING /m.test(excerpt);
  const red = /^(FAIL|ERROR|TIMEOUT|ENVIRONMENT) /m.test(excerpt) || !missing;
  if (missing && !red) return "Next: write the missing tests, run them, and make them pass.";
  const first = missing
    ? "Next: make the failing tests pass and write the missing tests."
    : "Next: make the failing tests pass.";
  const snapshot = UNWRITTEN.test(excerpt) ? ` ${UNWRITTEN_SNAPSHOT}` : "";
  return `${first}${snapshot} ${CLASSIFY_FAILURES}`;
}

/** The reason a Stop is blocked: what is red or missing, then what to do next. Deterministic. */
export function renderVerifyBlock(input: VerifyNoteInput): string {
  return capText(
    [
      "tailtest: the tests for this turn's edits are not green yet.",
      ...(input.summary ? [input.summary] : []),
      input.excerpt,
      ...(input.rerun ?? []).map((command) => `Re-run them: ${command}`),
      `${nextStep(input.excerpt)} (round ${input.round} of ${input.budget})`,
    ].join("\n"),
  );
}

/** Said when the loop budget is spent: the agent may stop, and what is red is recorded. */
export function renderBudgetSpent(files: readonly string[]): string {
  return capText(
    `tailtest: still red after the last round, recorded as failed: ${files.join(", ")}. Tell the user.`,
  );
}
