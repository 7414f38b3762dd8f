import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fire, heldTally, isDenial, makeAttackProject, payloadsOf } from "./attack-harness.ts";

/**
 * An MCP tool that writes a file (`write_file` {path}), through Codex (`mcp__<server>__<tool>`)
 * and Cursor (`MCP:<tool>`). Claude Code's gate judges MCP tools whose name reads like a write and
 * that carry a path; before the twenty-second round Codex's and Cursor's adapters answered no
 * opinion to every MCP tool, and the Stop reported the write after the fact. HELD when the
 * built hook denies it in tdd and strict; an MCP tool that reads stays ungated.
 */

const held = heldTally("adversarial mcp write");

const NAMES = {
  codex: { read: "mcp__fs__read_file", write: "mcp__fs__write_file", edit: "mcp__fs__edit_file" },
  cursor: { read: "MCP:read_file", write: "MCP:write_file", edit: "MCP:edit_file" },
} as const;

describe("an MCP write tool at the gate", () => {
  for (const platform of ["codex", "cursor"] as const)
    for (const mode of ["tdd", "strict"] as const)
      it(
        `${platform} ${mode}: write_file on calc.py`,
        () =>
          held(`${platform} ${mode}: write_file`, async () => {
            const played = await makeAttackProject(mode);
            try {
              const payloads = payloadsOf(platform, played.root);
              await fire(platform, played, payloads.start);
              const call = (tool: string, path: string) =>
                fire(platform, played, {
                  ...payloads.shell("true", "pre"),
                  tool_name: tool,
                  tool_input: { path, content: "def add(a, b):\n    return 0\n" },
                });
              const names = NAMES[platform];
              // The honest neighbour: reading is not gated.
              expect(isDenial(await call(names.read, "calc.py"))).toBe(false);
              const relative = await call(names.write, "calc.py");
              const absolute = await call(names.edit, join(played.root, "calc.py"));
              return isDenial(relative) && isDenial(absolute) ? undefined : relative + absolute;
            } finally {
              played.cleanup();
            }
          }),
        120_000,
      );
});
