import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import {
  BILLING_TEST,
  BLOCK_REASON,
  CLAUDE_CODE,
  describeRun,
  MISSING_TEST,
  modelRequests,
  requestAfterMove,
  runScenario,
} from "../src/index.ts";
import { expectArrivesAfterMove, expectWholeScript, prepareAgent } from "./support.ts";

/*
 * The Claude Code plugin as a user installs it: this repository is the marketplace
 * (.claude-plugin/marketplace.json), added and installed with the real CLI's own commands under
 * an isolated HOME, offline. Nothing is installed into the project: no package.json change, no
 * node_modules, no .claude/settings.json.
 */

const cli = CLAUDE_CODE;
const agent = await prepareAgent(cli);

describe(`the tailtest plugin in Claude Code ${cli.version}`, () => {
  it("lists the built plugin, with its version, in the repository's marketplace", () => {
    const marketplace = JSON.parse(
      readFileSync(join(REPO_ROOT, ".claude-plugin/marketplace.json"), "utf8"),
    ) as { name: string; plugins: { name: string; source: string; version: string }[] };
    const [plugin] = marketplace.plugins;
    expect(marketplace.name).toBe("tailtest");
    expect(plugin?.name).toBe("tailtest");
    const dir = join(REPO_ROOT, plugin?.source ?? "");
    const manifest = JSON.parse(readFileSync(join(dir, ".claude-plugin/plugin.json"), "utf8")) as {
      version: string;
    };
    const adapter = JSON.parse(
      readFileSync(join(REPO_ROOT, "adapters/claude-code/package.json"), "utf8"),
    ) as { version: string };
    expect([plugin?.version, manifest.version]).toEqual([adapter.version, adapter.version]);
    expect(existsSync(join(dir, "dist/hook.cjs")), "run the build first").toBe(true);
  });

  it("installs from the marketplace, and its hooks queue, block and verify a turn", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await runScenario({
      cli,
      bin: agent.bin,
      tarball: "",
      scenario: MISSING_TEST,
      plugin: true,
    });
    expect(result.problems, describeRun(result)).toEqual([]);
    expect(result.exitCode, describeRun(result)).toBe(0);
    expectWholeScript(result, MISSING_TEST);
    // Queued after the edit, blocked at the first stop, verified green at the second.
    expectArrivesAfterMove(result, 0, ["tailtest: billing.py queued (new, python)"]);
    expectArrivesAfterMove(result, 1, [BLOCK_REASON, "MISSING billing.py"]);
    expect(requestAfterMove(result, 1)?.answer).toMatchObject({ kind: "move", index: 2 });
    expect(modelRequests(result).at(-1)?.answer).toMatchObject({ kind: "move", index: 3 });
    expect(result.files["tests/test_billing.py"]).toBe(BILLING_TEST);
    expect(result.session?.results["billing.py"]).toMatchObject({ outcome: "passed" });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "fixed" }),
    ]);
    const added = Object.keys(result.files).filter(
      (path) =>
        !path.startsWith(".tailtest/") && path !== "billing.py" && !path.startsWith("tests/"),
    );
    expect(added.filter((path) => /package\.json|\.claude\//.test(path))).toEqual([]);
  }, 300_000);
});
