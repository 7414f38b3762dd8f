import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runBin } from "@tailtest/test-utils";
import {
  describeStrictSuite,
  type StrictPlatform,
  type StrictSession,
} from "@tailtest/test-utils/strict-suite";
import { expect } from "vitest";
import { HOOK_BIN, parseAnswer, recorded, type Payload } from "./payloads.ts";

/**
 * The strict scenarios (`describeStrictSuite`) through the built Codex hook (payloads recorded
 * from Codex 0.169.0) and the `tailtest` command the package ships: every edit is an apply_patch
 * written to disk only after the gate let it through, and every reply is checked against the
 * keys and values Codex accepts.
 */

const TAILTEST_BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

/** The recorded "block" session; Bash calls borrow the "shell" recording's payloads. */
const SESSION = recorded("block.SessionStart.json", "/x")["session_id"] as string;
const TURN = recorded("block.Stop.json", "/x")["turn_id"] as string;

function patch(...sections: string[]): string {
  return ["*** Begin Patch", ...sections, "*** End Patch", ""].join("\n");
}

const lines = (text: string, sign: string) =>
  text
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `${sign}${l}`);

/** A new file, or a patch replacing a whole file's lines (what Codex writes for a rewrite). */
function writePatch(path: string, before: string | undefined, content: string): string {
  if (before === undefined)
    return patch([`*** Add File: ${path}`, ...lines(content, "+")].join("\n"));
  return patch(
    [`*** Update File: ${path}`, "@@", ...lines(before, "-"), ...lines(content, "+")].join("\n"),
  );
}

/** The reason of a PreToolUse deny, after checking the reply is exactly that deny. */
function denied(answer: Record<string, unknown> | undefined): string {
  expect(answer).toEqual({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: expect.any(String) as unknown,
    },
  });
  const specific = answer?.["hookSpecificOutput"] as { permissionDecisionReason: string };
  return specific.permissionDecisionReason;
}

const CODEX: StrictPlatform<StrictSession> = {
  name: "the built Codex hook",
  host: "codex",
  session: () => SESSION,
  shellWrite: "cat >> calc.py <<'EOF'\n\ndef sub(a, b):\n    return a - b\nEOF\n",
  shellRead: "python3 -m pytest -q && git status",
  open(project, env) {
    const { root } = project;
    /** A recorded payload in this test's one session. */
    const codex = (name: string, changes: Payload = {}): Payload =>
      recorded(name, root, { session_id: SESSION, turn_id: TURN, ...changes });

    /** Fires one hook as Codex does; the call went well and its reply is one Codex accepts. */
    async function hook(payload: Payload): Promise<Record<string, unknown> | undefined> {
      const input = JSON.stringify(payload);
      const result = await runBin(HOOK_BIN, [], { input, cwd: root, env });
      const event = payload["hook_event_name"] as string;
      expect(result.stderr, event).toBe("");
      expect(result.exitCode, event).toBe(0);
      expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
      return parseAnswer(result.stdout.trim(), event);
    }

    return {
      project,
      root,
      async sessionStart() {
        const answer = await hook(codex("block.SessionStart.json"));
        const specific = answer?.["hookSpecificOutput"] as { additionalContext?: unknown };
        expect(typeof specific.additionalContext, JSON.stringify(answer)).toBe("string");
        return specific.additionalContext as string;
      },
      async prompt() {
        expect(await hook(codex("block.UserPromptSubmit.json"))).toBeUndefined();
      },
      /**
       * What Codex does with an apply_patch: PreToolUse, then (only if it was not denied) the
       * file written and PostToolUse.
       */
      async write(path, content) {
        const file = join(root, path);
        const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
        const command = writePatch(path, before, content);
        const gate = await hook(
          codex("block.PreToolUse-apply_patch.json", { tool_input: { command } }),
        );
        if (gate !== undefined) return denied(gate);
        project.write(path, content);
        const post = codex("stopblock.PostToolUse-apply_patch.json", { tool_input: { command } });
        expect(await hook(post)).toBeUndefined();
        return undefined;
      },
      async shell(command) {
        const gate = await hook(codex("shell.PreToolUse-Bash.json", { tool_input: { command } }));
        return gate === undefined ? undefined : denied(gate);
      },
      async stop(round) {
        const answer = await hook(codex("block.Stop.json", { stop_hook_active: round > 0 }));
        if (answer === undefined) return { sentBack: false, text: "" };
        if (answer["decision"] !== undefined) {
          // The Stop that sends Codex back to work, with the reason it reads.
          expect(Object.keys(answer)).toEqual(["decision", "reason"]);
          expect(answer["decision"]).toBe("block");
          return { sentBack: true, text: String(answer["reason"]) };
        }
        // The Stop that lets the turn end: only a message for the person, never a block.
        expect(Object.keys(answer)).toEqual(["systemMessage"]);
        return { sentBack: false, text: String(answer["systemMessage"]) };
      },
      /**
       * The real `tailtest` command. Codex cannot hand the agent's shell TAILTEST_TDD_KEY: the
       * CLI finds the session the hooks started.
       */
      tailtest: (args) => runBin(TAILTEST_BIN, args, { cwd: root, env }),
    };
  },
};

describeStrictSuite(CODEX);
