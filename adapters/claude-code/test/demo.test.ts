import { join } from "node:path";
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
      "hook   SessionEnd",
      "tailtest: history holds 1 file over 1 session; the last session ended with 1 fixed.",
    ];
    let at = 0;
    for (const line of order) {
      const found = result.stdout.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found;
    }
  }, 120_000);
});
