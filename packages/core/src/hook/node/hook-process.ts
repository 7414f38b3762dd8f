import { basename } from "node:path";
import { errorLine } from "../failure-policy.ts";
import { takeRecoveries, type Recovery } from "../../state/node/store.ts";

/** What one hook call prints and how it exits; adapters build it, their launcher emits it. */
export interface HookOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * A hook's answer that can never throw: an unexpected error becomes one line on stderr and the
 * platform's no-opinion output (`noOpinion`: Cursor needs `{}`, the others nothing), exit 0
 * (ADR 0002). Each adapter's `hook-main.cjs` is one call to this. A state file the call moved
 * aside (ADR 0003) is named on that line too, whichever event met it, so the person sees it.
 */
export async function answerSafely(
  answer: () => Promise<HookOutput>,
  noOpinion: string,
): Promise<HookOutput> {
  let output: HookOutput;
  try {
    output = await answer();
  } catch (error) {
    output = {
      stdout: noOpinion,
      stderr: `tailtest: skipped this hook: ${errorLine(error)}\n`,
      exitCode: 0,
    };
  }
  const moved = takeRecoveries();
  if (moved.length === 0) return output;
  const said = output.stderr.trimEnd();
  const line = [said, recoveryLine(moved)].filter((part) => part !== "").join(" ");
  return { ...output, stderr: `${line}\n` };
}

/**
 * `answerSafely` for a part of a hook (`hook-post.cjs`, `hook-gate.cjs`, ADR 0010): `answer`
 * gives undefined when the call is not the part's, and so does this, so the launcher hands the
 * call to `hook-main.cjs`; an answer of the part's own is `answer`'s, or `none` when it had no
 * output to give.
 */
export async function answerPartSafely(
  answer: () => Promise<HookOutput | undefined>,
  none: HookOutput,
  noOpinion: string,
): Promise<HookOutput | undefined> {
  let deferred = false;
  const output = await answerSafely(async () => {
    const given = await answer();
    deferred = given === undefined;
    return given ?? none;
  }, noOpinion);
  return deferred ? undefined : output;
}

/** One line for the state files moved aside: which, why, and where they are kept. */
export function recoveryLine(moved: readonly Recovery[]): string {
  const each = moved.map((one) => {
    const kept = basename(one.movedTo);
    const file = kept.replace(/\.corrupt-.*$/, "");
    return `${file} could not be used (${one.reason}), kept as ${kept} and started afresh`;
  });
  return `tailtest: ${each.join("; ")}.`;
}
