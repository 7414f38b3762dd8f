import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  cliIn,
  fire,
  heldTally,
  isDenial,
  makeAttackProject,
  payloadsOf,
} from "./attack-harness.ts";

/**
 * A Claude Code subagent (the Task tool) has a tdd log of its own (ADR 0012, twelfth round): its
 * tool calls carry `agent_id`, SubagentStart tells it `tailtest red --agent <id>`, SubagentStop
 * closes its log. HELD when a Green one of them declared opens no write for the other, and a
 * closed subagent's Green opens nothing more. Played through Claude Code's built hook in tdd.
 */

const TEST_MUL = "import calc\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n";
const AGENT = { agent_id: "a1", agent_type: "general-purpose" };

const held = heldTally("adversarial subagent");

/** A tdd project with a session, and subagent a1's Red confirmed and its Green for calc.py. */
async function subagentGreen() {
  const played = await makeAttackProject("tdd");
  const payloads = payloadsOf("claude-code", played.root);
  const sub = {
    write: (path: string, content: string, event: "pre" | "post") => ({
      ...payloads.write(join(played.root, path), content, event),
      ...AGENT,
    }),
    shell: (command: string, event: "pre" | "post") => ({
      ...payloads.shell(command, event),
      ...AGENT,
    }),
  };
  await fire("claude-code", played, payloads.start);
  await fire("claude-code", played, {
    ...payloads.start,
    hook_event_name: "SubagentStart",
    ...AGENT,
  });
  const red = await cliIn(
    played,
    "red",
    "--agent",
    "a1",
    "--test",
    "tests/test_calc.py::test_mul",
    "--expects",
    "test_mul fails: no mul",
  );
  expect(red.exitCode, red.stderr).toBe(0);
  expect(
    isDenial(await fire("claude-code", played, sub.write("tests/test_calc.py", TEST_MUL, "pre"))),
  ).toBe(false);
  writeFileSync(join(played.root, "tests/test_calc.py"), TEST_MUL);
  await fire("claude-code", played, sub.write("tests/test_calc.py", TEST_MUL, "post"));
  await fire("claude-code", played, sub.shell("python3 -m pytest -q tests/test_calc.py", "post"));
  const green = await cliIn(
    played,
    "green",
    "--agent",
    "a1",
    "--change",
    "add mul",
    "--file",
    "calc.py",
  );
  expect(green.exitCode, green.stdout + green.stderr).toBe(0);
  const gate = async (agent: boolean) =>
    fire(
      "claude-code",
      played,
      agent
        ? sub.write("calc.py", "x = 1\n", "pre")
        : payloads.write(join(played.root, "calc.py"), "x = 1\n", "pre"),
    );
  return { played, payloads, gate };
}

describe("a subagent's cycle, tdd, claude-code", () => {
  it(
    "the subagent's Green opens no write for the main agent",
    () =>
      held("the main agent writes calc.py under a subagent's Green", async () => {
        const { played, gate } = await subagentGreen();
        try {
          // The honest form: the subagent's own write under its Green.
          expect(isDenial(await gate(true))).toBe(false);
          const main = await gate(false);
          return isDenial(main) ? undefined : main;
        } finally {
          played.cleanup();
        }
      }),
    120_000,
  );

  it(
    "a closed subagent's Green opens nothing more",
    () =>
      held("the subagent's Green used after its SubagentStop", async () => {
        const { played, payloads, gate } = await subagentGreen();
        try {
          await fire("claude-code", played, {
            ...payloads.stop,
            hook_event_name: "SubagentStop",
            ...AGENT,
          });
          const after = await gate(true);
          return isDenial(after) ? undefined : after;
        } finally {
          played.cleanup();
        }
      }),
    120_000,
  );

  it(
    "the main agent's Green opens no write for a subagent",
    () =>
      held("a subagent writes calc.py under the main agent's Green", async () => {
        const played = await makeAttackProject("tdd");
        try {
          const payloads = payloadsOf("claude-code", played.root);
          await fire("claude-code", played, payloads.start);
          const red = await cliIn(
            played,
            "red",
            "--test",
            "tests/test_calc.py::test_mul",
            "--expects",
            "test_mul fails: no mul",
          );
          expect(red.exitCode, red.stderr).toBe(0);
          writeFileSync(join(played.root, "tests/test_calc.py"), TEST_MUL);
          await fire(
            "claude-code",
            played,
            payloads.write(join(played.root, "tests/test_calc.py"), TEST_MUL, "post"),
          );
          await fire(
            "claude-code",
            played,
            payloads.shell("python3 -m pytest -q tests/test_calc.py", "post"),
          );
          const green = await cliIn(played, "green", "--change", "add mul", "--file", "calc.py");
          expect(green.exitCode, green.stdout + green.stderr).toBe(0);
          const write = (agent: boolean) =>
            fire("claude-code", played, {
              ...payloads.write(join(played.root, "calc.py"), "x = 1\n", "pre"),
              ...(agent ? AGENT : {}),
            });
          // The honest form: the main agent's own write under its Green.
          expect(isDenial(await write(false))).toBe(false);
          const sub = await write(true);
          return isDenial(sub) ? undefined : sub;
        } finally {
          played.cleanup();
        }
      }),
    120_000,
  );
});
