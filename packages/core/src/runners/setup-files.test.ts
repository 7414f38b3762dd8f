import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners } from "./project-runners.ts";

/** A package run by `runner` with `files` beside its package.json. */
const shapeOf = (runner: "jest" | "vitest", files: Record<string, string>, pkg = {}) => {
  const view = createMemoryView({
    "package.json": JSON.stringify({
      scripts: { test: runner },
      devDependencies: { [runner]: "29.7.0" },
      ...pkg,
    }),
    ...files,
  });
  const detected = detectPackageRunners(view, "").find((r) => r.id === runner);
  return suiteShape(view, detected!);
};

describe("the files a jest or vitest config loads before every test", () => {
  it.each([
    [
      "jest.config.js setupFilesAfterEnv under <rootDir> (jest-dom)",
      "jest" as const,
      {
        "jest.config.js":
          "module.exports = {\n  testEnvironment: 'jsdom',\n  setupFilesAfterEnv: ['<rootDir>/tests/setup-env.js'],\n}\n",
      },
      {},
      ["tests/setup-env.js"],
      ["tests/other.js", "src/index.js"],
    ],
    [
      "package.json jest setupFiles, extensionless, beside a package name",
      "jest" as const,
      {},
      { jest: { setupFiles: ["./test/polyfills", "jest-canvas-mock"] } },
      ["test/polyfills.js", "test/polyfills/index.ts"],
      ["node_modules/jest-canvas-mock/lib/index.js", "test/polyfill.js"],
    ],
    [
      "jest.config.ts with both keys",
      "jest" as const,
      {
        "jest.config.ts":
          "export default {\n  setupFiles: ['./jest.env.ts'],\n  setupFilesAfterEnv: ['./jest.matchers.ts'],\n}\n",
      },
      {},
      ["jest.env.ts", "jest.matchers.ts"],
      ["jest.config.ts"],
    ],
    [
      "vitest test.setupFiles as one string",
      "vitest" as const,
      {
        "vitest.config.ts":
          "import { defineConfig } from 'vitest/config'\nexport default defineConfig({\n  test: { setupFiles: './test/setup.ts', environment: 'jsdom' },\n})\n",
      },
      {},
      ["test/setup.ts"],
      ["test/setup.test.ts", "src/setup.ts"],
    ],
    [
      "vitest test.setupFiles as a list, not a nested block's",
      "vitest" as const,
      {
        "vite.config.mts":
          "export default {\n  test: {\n    setupFiles: ['src/test/setup.ts'],\n    browser: { setupFiles: ['nested.ts'] },\n  },\n}\n",
      },
      {},
      ["src/test/setup.ts"],
      ["nested.ts"],
    ],
    [
      "no setup files",
      "jest" as const,
      { "jest.config.js": "module.exports = { testEnvironment: 'node' }\n" },
      {},
      [],
      ["jest.config.js", "test/setup.js"],
    ],
  ])("%s", (_name, runner, files, pkg, setup, others) => {
    const shape = shapeOf(runner, files, pkg);
    for (const path of setup) expect(shape.isSetup(path), path).toBe(true);
    for (const path of others) expect(shape.isSetup(path), path).toBe(false);
  });
});
