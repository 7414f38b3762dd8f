import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

describe("the README's demo", () => {
  it("runs a whole scripted session through the built hook bin", async () => {
    const result = await runBin(join(REPO_ROOT, "scripts/demo.mjs"), []);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const order = [
      "hook   SessionStart",
      "tailtest: billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.",
      "MISSING billing.py: no test at tests/test_billing.py",
      "FAIL tests/test_billing.py::test_charge_adds_vat",
      "assert 10.2 == 12.0",
      // The last Stop is green, and the demo shows what tailtest measured.
      "billing.py: passed (tailtest ran pytest itself)",
      "hook   SessionEnd",
      "tailtest: history holds 1 file over 1 session; the last session ended with 1 fixed.",
    ];
    expect(result.stdout).toContain("Run it with --keep");
    let at = 0;
    for (const line of order) {
      const found = result.stdout.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found;
    }
  }, 120_000);
});

describe("the demo with --keep", () => {
  it("keeps its project and says how to look at it", async () => {
    const result = await runBin(join(REPO_ROOT, "scripts/demo.mjs"), ["--keep"]);
    expect(result.exitCode).toBe(0);
    const kept = /kept at (\S+)\)/.exec(result.stdout)?.[1];
    expect(kept, result.stdout).toBeDefined();
    try {
      expect(existsSync(join(kept ?? "", ".tailtest/history.json"))).toBe(true);
      const status = await runBin(join(REPO_ROOT, "packages/cli/dist/bin.js"), [
        "status",
        "--root",
        kept ?? "",
      ]);
      expect(status.exitCode, status.stderr).toBe(0);
      expect(result.stdout).toContain(`status --root ${kept ?? ""}`);
    } finally {
      rmSync(dirname(kept ?? "/nonexistent/x"), { recursive: true, force: true });
    }
  }, 120_000);
});
