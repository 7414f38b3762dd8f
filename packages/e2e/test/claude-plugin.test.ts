import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, userShellEnv } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
 * The Claude Code plugin as a user installs it. The release job's script
 * (scripts/release-plugin.mjs) writes the plugin with its built hook to a release branch, here of
 * a scratch repository; a checkout of that branch is a marketplace, added and installed with the
 * real CLI's own commands under an isolated HOME, offline. Nothing is installed into the project:
 * no package.json change, no node_modules, no .claude/settings.json.
 */

const cli = CLAUDE_CODE;
const agent = await prepareAgent(cli);
const BRANCH = "claude-plugin";

interface Manifest {
  name: string;
  version: string;
}
interface Marketplace {
  name: string;
  plugins: { name: string; source: unknown; version: string; repository?: string }[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;
const VERSION = readJson<Manifest>(join(REPO_ROOT, "adapters/claude-code/package.json")).version;

let scratch = "";
let repo = "";
let checkout = "";

const git = (args: string[], cwd: string) =>
  execa("git", args, { cwd, env: userShellEnv(), extendEnv: false });

async function release(): Promise<string> {
  const result = await execa(
    "node",
    [join(REPO_ROOT, "scripts/release-plugin.mjs"), "--no-build", "--repo", repo],
    { env: userShellEnv(), extendEnv: false, reject: false },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tailtest-release-"));
  repo = join(scratch, "repo");
  checkout = join(scratch, "checkout");
  await execa("git", ["init", "-q", repo]);
  expect(await release()).toMatch(new RegExp(`^${BRANCH}: [0-9a-f]{12}, the tailtest plugin `));
  await git(["clone", "-q", "--branch", BRANCH, repo, checkout], scratch);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the release branch the plugin is installed from", () => {
  it("holds the plugin and its built hook at its root, and no source or test", async () => {
    const { stdout } = await git(["ls-tree", "-r", "--name-only", BRANCH], repo);
    expect(stdout.split("\n")).toEqual([
      ".claude-plugin/marketplace.json",
      ".claude-plugin/plugin.json",
      "LICENSE",
      "README.md",
      "dist/hook-gate.cjs",
      "dist/hook-main.cjs",
      "dist/hook-post.cjs",
      "dist/hook.cjs",
      "dist/tree-sitter-bash.wasm",
      "dist/tree-sitter.wasm",
      "hooks/hooks.json",
    ]);
    const hooks = readFileSync(join(checkout, "hooks/hooks.json"), "utf8");
    expect(hooks).toBe(
      readFileSync(join(REPO_ROOT, "adapters/claude-code/plugin/hooks/hooks.json"), "utf8"),
    );
    expect(readFileSync(join(checkout, "dist/hook.cjs"), "utf8")).not.toContain(REPO_ROOT);
  });

  it("gives the plugin and its marketplace entry the package's version; the entry is the branch itself", () => {
    const plugin = readJson<Manifest>(join(checkout, ".claude-plugin/plugin.json"));
    const marketplace = readJson<Marketplace>(join(checkout, ".claude-plugin/marketplace.json"));
    expect(marketplace.name).toBe("tailtest");
    expect(marketplace.plugins).toHaveLength(1);
    expect(marketplace.plugins[0]).toMatchObject({ name: plugin.name, source: "./" });
    expect([plugin.version, marketplace.plugins[0]?.version]).toEqual([VERSION, VERSION]);
    // The repository's own marketplace sends users to this branch.
    const main = readJson<Marketplace>(join(REPO_ROOT, ".claude-plugin/marketplace.json"));
    expect(main.plugins[0]).toMatchObject({
      version: VERSION,
      source: { source: "github", repo: "tailtest/tailtest", ref: BRANCH },
    });
  });

  it("is reproducible: the same build adds no commit", async () => {
    const before = (await git(["rev-parse", BRANCH], repo)).stdout;
    expect(await release()).toContain("no commit");
    expect((await git(["rev-parse", BRANCH], repo)).stdout).toBe(before);
  });

  it("installs from the checkout, and its hooks queue, block and verify a turn", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await runScenario({
      cli,
      bin: agent.bin,
      tarball: "",
      scenario: MISSING_TEST,
      plugin: checkout,
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
