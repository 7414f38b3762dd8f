import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
const VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as {
    version: string;
  }
).version;

describe("tailtest bin", () => {
  it("is built", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    expect(readFileSync(BIN, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  });

  it("--version prints the package version", async () => {
    const result = await runBin(BIN, ["--version"]);
    expect(result).toEqual({ stdout: VERSION, stderr: "", exitCode: 0 });
  });

  it("--help lists the commands", async () => {
    const result = await runBin(BIN, ["--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("Usage: tailtest [options] [command]");
    expect(result.stdout).toContain("explain [options] <files...>");
  });

  it("an unknown command is a usage error on stderr with exit code 2", async () => {
    const result = await runBin(BIN, ["frobnicate"]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it("explain shows the core's decision for each file", async () => {
    const project = copyFixture("runners/monorepo");
    try {
      project.write(".tailtest/config.json", '{"depth": "simple"}');
      project.write(
        "services/billing/invoice.py",
        "import httpx\n\ndef total(lines):\n    return sum(lines)\n",
      );
      const result = await runBin(
        BIN,
        ["explain", "services/billing/invoice.py", "packages/web/src/calc.test.ts", "README.md"],
        {
          cwd: project.root,
        },
      );
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(
        "services/billing/invoice.py\n  verdict queue: python source\n  status  new (not tracked by git)",
      );
      expect(result.stdout).toContain(
        "  runner  pytest (pyproject.toml [tool.pytest] in services/billing/): python3 -m pytest",
      );
      expect(result.stdout).toContain(
        "  test    services/billing/tests/test_invoice.py (to write)",
      );
      expect(result.stdout).toContain(
        "  note    tailtest: services/billing/invoice.py queued (new, python). write test to services/billing/tests/test_invoice.py. runner: pytest. Complexity: standard (invoice: +4 billing +3 HTTP +1 functions = 8 scenarios). Generate ~8 scenarios.",
      );
      expect(result.stdout).toContain(
        "packages/web/src/calc.test.ts\n  verdict skip (test): a typescript test file (by name)",
      );
      expect(result.stdout).toContain("README.md\n  verdict skip (docs): documentation");
      expect(result.stdout).toContain(
        "  depth   standard, raised by complexity (score 8: +4 billing +3 HTTP +1 functions; ~8 scenarios)",
      );
      // explain only looks: it queues nothing.
      expect(existsSync(join(project.root, ".tailtest/session.json"))).toBe(false);
    } finally {
      project.cleanup();
    }
  });

  it("explain --json is machine-readable", async () => {
    const project = copyFixture("runners/go");
    try {
      const result = await runBin(BIN, ["explain", "--json", "calc.go"], { cwd: project.root });
      const parsed = JSON.parse(result.stdout) as {
        files: { path: string; runner: { id: string }; target: { path: string } }[];
      };
      expect(parsed.files[0]).toMatchObject({
        path: "calc.go",
        runner: { id: "go" },
        target: { path: "calc_test.go" },
      });
    } finally {
      project.cleanup();
    }
  });
});
