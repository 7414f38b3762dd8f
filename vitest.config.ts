import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The copies of the sessions' modes (mode-witness.ts) go to a folder of the run's own, not the
 * person's ~/.local/state; processes the tests start inherit it. Removed when the run ends.
 */
const STATE_HOME = mkdtempSync(join(tmpdir(), "tailtest-state-"));
process.once("exit", () => rmSync(STATE_HOME, { recursive: true, force: true }));

/**
 * Two projects. `fast`: the pure and in-process tests beside the code (`src/**`), no build and
 * no global setup needed: `pnpm test:fast`. `slow`: whole-process tests (each package's `test/`
 * folder, which run the built bins) and the `src/` tests that run real runners or spawn
 * processes, after the global setup installs the JS fixtures' own dependencies and bun/deno.
 * `pnpm test` builds, then runs both.
 */
/**
 * In-process tests beside the code that still run real test runners or spawn node processes
 * (pytest and vitest runs, concurrent writers, the plan reviewer, the code-cache trainer).
 */
const SLOW_SRC_TESTS = [
  "packages/core/src/gating/node/bypass.test.ts",
  "packages/core/src/gating/node/git-blobs.test.ts",
  "packages/core/src/selection/node/package-json-change.test.ts",
  "packages/core/src/follow/node/runner-config-edits.test.ts",
  "packages/core/src/follow/node/deleted-modules.test.ts",
  "packages/core/src/engine/node/build-first.test.ts",
  "packages/core/src/gating/node/test-imports.test.ts",
  "packages/core/src/hook/node/code-cache.test.ts",
  "packages/core/src/hook/node/deadline.test.ts",
  "packages/core/src/hook/node/launcher-stub.test.ts",
  "packages/core/src/tdd/node/plan-review.test.ts",
  "packages/core/src/runners/node/runner-lists.test.ts",
  "packages/core/src/selection/node/reverse-lookup.test.ts",
  "packages/core/src/selection/node/graph-selection-cold.test.ts",
  "packages/core/src/strict/node/strict-hooks.test.ts",
  "packages/core/src/tdd/node/tdd-hooks.test.ts",
  "packages/core/src/tdd/node/tdd-store.test.ts",
  "packages/core/src/engine/node/verify-turn.test.ts",
];

export default defineConfig({
  resolve: {
    // Unit tests read workspace packages from src; bin tests spawn the built dist.
    conditions: ["@tailtest/source"],
  },
  ssr: {
    resolve: { conditions: ["@tailtest/source"], externalConditions: ["@tailtest/source"] },
  },
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    env: { XDG_STATE_HOME: STATE_HOME },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          // One module graph per worker instead of per file: the fast lane's import time drops
          // from ~38 s to ~6 s. These tests keep no state between files (a project per test).
          isolate: false,
          include: ["packages/*/src/**/*.test.ts", "adapters/*/src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SLOW_SRC_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: "slow",
          include: [
            "packages/*/test/**/*.test.ts",
            "adapters/*/test/**/*.test.ts",
            ...SLOW_SRC_TESTS,
          ],
          globalSetup: ["./scripts/vitest-global-setup.ts"],
        },
      },
    ],
  },
});
