import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bash, fire, makeAttackProject, payloadsOf, type Platform } from "./attack-harness.ts";

/**
 * A second agent session started in the middle of a turn by a program the shell reading cannot
 * see (a script that runs `codex exec` or `cursor-agent -p`), through Codex's and Cursor's own
 * hooks in strict (ADR 0012, the twenty-eighth round; Claude Code's plays are in
 * `end-of-turn-attacks.test.ts`): each session keeps its own turn baseline, so the first
 * session's Stop still names the script's write to calc.py and puts it back.
 */

const CALC = "def add(a, b):\n    return a + b\n";

/** The other session's start, as the platform sends it. */
function otherStart(platform: Platform, root: string): Record<string, unknown> {
  const start = payloadsOf(platform, root).start;
  return platform === "cursor"
    ? { ...start, conversation_id: "0b7e3c2a-5f61-4d2e-9a8b-2c4d6e8f0a1b" }
    : { ...start, session_id: "0b7e3c2a-5f61-4d2e-9a8b-2c4d6e8f0a1b" };
}

describe("a second session started in the middle of a turn, strict", () => {
  for (const platform of ["codex", "cursor"] as const)
    it(`${platform}: the first session's Stop names and puts back the script's write`, async () => {
      const played = await makeAttackProject("strict");
      try {
        await fire(platform, played, payloadsOf(platform, played.root).start);
        await bash("printf 'def add(a, b):\\n    return a - b\\n' > calc.py", played);
        await fire(platform, played, otherStart(platform, played.root));
        const stop = await fire(platform, played, payloadsOf(platform, played.root).stop);
        expect(stop).toContain("calc.py");
        expect(readFileSync(join(played.root, "calc.py"), "utf8")).toBe(CALC);
      } finally {
        played.cleanup();
      }
    }, 120_000);
});
