import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints one plain closing line, "tests: N passed, N failed, N skipped", after vitest's own
 * summary, so CI logs end with a line any reader understands.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
      if (mod.state() === "failed" && mod.children.size === 0) failed += 1;
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
