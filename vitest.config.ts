import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Unit tests read workspace packages from src; bin tests spawn the built dist.
    conditions: ["@tailtest/source"],
  },
  ssr: {
    resolve: { conditions: ["@tailtest/source"], externalConditions: ["@tailtest/source"] },
  },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "adapters/*/src/**/*.test.ts",
      "adapters/*/test/**/*.test.ts",
    ],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    globalSetup: ["./scripts/vitest-global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
