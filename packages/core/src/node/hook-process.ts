import { errorLine } from "../failure-policy.ts";

/** What one hook call prints and how it exits; adapters build it, their launcher emits it. */
export interface HookOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * A hook's answer that can never throw: an unexpected error becomes one line on stderr and the
 * platform's no-opinion output (`noOpinion`: Cursor needs `{}`, the others nothing), exit 0
 * (ADR 0002). Each adapter's `hook-main.ts` is one call to this.
 */
export async function answerSafely(
  answer: () => Promise<HookOutput>,
  noOpinion: string,
): Promise<HookOutput> {
  try {
    return await answer();
  } catch (error) {
    return {
      stdout: noOpinion,
      stderr: `tailtest: skipped this hook: ${errorLine(error)}\n`,
      exitCode: 0,
    };
  }
}
