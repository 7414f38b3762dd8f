import { capText } from "../notes/notes.ts";
import type { TddFileClass } from "../tdd/file-classes.ts";
import { isProtectedPath } from "../tdd/tdd-gate.ts";
import type { DenyCode } from "./strict-events.ts";
import { isValidRed } from "./red.ts";
import { openClaims, type ClaimState, type StrictState } from "./strict-state.ts";
import { supportDescription } from "./test-support.ts";
import { shellWord } from "../util/shell-word.ts";

/**
 * strict mode's gate, a pure function of the event log's state and the current hashes of test
 * files: an edit to a production file is allowed only if an open claim names the file for a test
 * whose latest result is a valid red (an assertion failure, or a collection failure whose missing
 * module or symbol is the claimed file) and whose test file has not changed since that red. Test
 * files stay editable, but changing one voids its red. See ADR 0008.
 */

export interface StrictEditInput {
  relPath: string;
  fileClass: TddFileClass;
  /** Set when the edge found the file protected by identity (where it leads, its inode). */
  protectedAs?: string | undefined;
  /** sha256 of each claimed test's file as it is now (null: missing). */
  testHashes: ReadonlyMap<string, string | null>;
  /** Each claimed test file's support hash as it is now (`strict/test-support.ts`). */
  supportHashes?: ReadonlyMap<string, string>;
}

export type StrictEditDecision =
  | {
      decision: "allow";
      /** The claims the edit goes under (empty when no claim is needed). */
      claims: string[];
      /** For the agent, when there is something to know (a claimed test being edited). */
      warning?: string;
    }
  | { decision: "deny"; code: DenyCode; message: string };

/** The command that claims a test for files, as the agent types it. */
export function claimCommand(testId: string, files: readonly string[]): string {
  return `tailtest claim ${shellWord(testId)} ${files.map(shellWord).join(" ")}`;
}

const PLACEHOLDER_ID = "<test_id>";

interface ClaimVerdict {
  claim: ClaimState;
  ok: boolean;
  code?: DenyCode;
  why?: string;
}

function judgeClaim(state: StrictState, claim: ClaimState, input: StrictEditInput): ClaimVerdict {
  const red = claim.red;
  const again = claimCommand(claim.test_id, [input.relPath]);
  if (red === undefined)
    return {
      claim,
      ok: false,
      code: "no_red",
      why: `${claim.test_id} has no recorded run: run ${again}`,
    };
  if (state.runs.get(claim.test_id)?.event.status === "pass")
    return {
      claim,
      ok: false,
      code: "passing",
      why: `${claim.test_id} passes now, so there is nothing to advance: write a new failing test and claim it`,
    };
  const verdict = isValidRed(red, input.relPath);
  if (!verdict.valid)
    return {
      claim,
      ok: false,
      code: red.status === "not_run" ? "no_red" : "invalid_red",
      why: `the run it was claimed on is not a red (${verdict.why}); make the test fail on an assertion (or on ${input.relPath} missing), then run ${again}`,
    };
  if (input.testHashes.get(red.test.file) !== red.test_file_hash)
    return {
      claim,
      ok: false,
      code: "test_changed",
      why: `${red.test.file} changed since the red of ${claim.test_id}, which voids it: run ${again}`,
    };
  if (
    red.support_hash !== undefined &&
    input.supportHashes !== undefined &&
    input.supportHashes.get(red.test.file) !== red.support_hash
  )
    return {
      claim,
      ok: false,
      code: "test_changed",
      why: `what ${red.test.file} runs with changed since the red of ${claim.test_id}, which voids it (${supportDescription(red.test.file)}): run ${again}`,
    };
  return { claim, ok: true };
}

/** The test files whose edit voids an open claim's red. */
function claimsOnTestFile(state: StrictState, relPath: string): ClaimState[] {
  return openClaims(state).filter((claim) => claim.red?.test.file === relPath);
}

export function decideStrictEdit(state: StrictState, input: StrictEditInput): StrictEditDecision {
  const path = input.relPath;
  if (input.protectedAs !== undefined || isProtectedPath(path))
    return {
      decision: "deny",
      code: "protected",
      message: `tailtest strict: ${path} is tailtest's own state or configuration, or an agent's hook configuration; agents may not change it. Ask the person.`,
    };
  if (input.fileClass === "test") {
    const voided = claimsOnTestFile(state, path);
    if (voided.length === 0) return { decision: "allow", claims: [] };
    const ids = voided.map((claim) => claim.test_id).join(", ");
    return {
      decision: "allow",
      claims: [],
      warning: `tailtest strict: editing ${path} voids the red of ${ids}; production edits under ${voided.length === 1 ? "that claim" : "those claims"} are refused until you claim again (tailtest claim <test_id> <file…>), and an edit already made is reverted at the end of the turn unless the claim is renewed.`,
    };
  }
  if (input.fileClass !== "prod" || state.mode === "refactor")
    return { decision: "allow", claims: [] };
  const naming = openClaims(state).filter((claim) => claim.targets.includes(path));
  const verdicts = naming.map((claim) => judgeClaim(state, claim, input));
  const allowed = verdicts.filter((verdict) => verdict.ok).map((verdict) => verdict.claim.claim);
  if (allowed.length > 0) return { decision: "allow", claims: allowed };
  const first = verdicts[0];
  if (first !== undefined)
    return {
      decision: "deny",
      code: first.code ?? "no_red",
      message: capText(
        `tailtest strict: ${path} is production code; its claim cannot be used: ${first.why ?? ""}.`,
      ),
    };
  return { decision: "deny", code: "no_claim", message: noClaimMessage(state, path) };
}

function noClaimMessage(state: StrictState, path: string): string {
  const open = openClaims(state);
  const others =
    open.length === 0
      ? ""
      : ` Open claims: ${open.map((claim) => `${claim.test_id} → ${claim.targets.join(", ")}`).join("; ")}.`;
  return capText(
    `tailtest strict: ${path} is production code and no open claim names it. Every production edit must advance a failing test: write the test (test files are editable), then run ${claimCommand(PLACEHOLDER_ID, [path])} — it runs the test and records the claim only if the test fails on an assertion, or because ${path} (or a name in it) does not exist yet. Restructuring with no failing test: tailtest refactor start.${others}`,
  );
}
