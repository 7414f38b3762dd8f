import { capText } from "./notes.ts";

/** The failure classification the agent is asked for before any fix. */
export const CLASSIFY_FAILURES =
  "For each failure, first say whether it is a real bug (the code is wrong), an environment issue (a missing dependency or service: do not change the code) or a test bug (the test expects the wrong thing: fix the test), with one sentence of reasoning. Never skip a failure silently.";

export interface VerifyNoteInput {
  /** The deterministic excerpt: FAIL / ERROR / MISSING blocks. */
  excerpt: string;
  round: number;
  budget: number;
}

/** The reason a Stop is blocked: what is red or missing, then what to do next. Deterministic. */
export function renderVerifyBlock(input: VerifyNoteInput): string {
  return capText(
    [
      "tailtest: the tests for this turn's edits are not green yet.",
      input.excerpt,
      `Next: write the missing tests, run them, and make them pass. ${CLASSIFY_FAILURES} (round ${input.round} of ${input.budget})`,
    ].join("\n"),
  );
}

/** Said when the loop budget is spent: the agent may stop, and what is red is recorded. */
export function renderBudgetSpent(files: readonly string[]): string {
  return capText(
    `tailtest: still red after the last round, recorded as failed: ${files.join(", ")}. Tell the user.`,
  );
}
