import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners } from "./project-runners.ts";

describe("jest's testPathIgnorePatterns", () => {
  it.each([
    [
      "a helpers folder under __tests__ (jest-dom)",
      "module.exports = {\n  testPathIgnorePatterns: ['/node_modules/', '/__tests__/helpers/'],\n}\n",
      ["src/__tests__/to-be-checked.js"],
      ["src/__tests__/helpers/document.js", "node_modules/x/__tests__/a.js"],
    ],
    [
      "<rootDir> anchors a pattern at the package",
      "module.exports = {\n  testPathIgnorePatterns: ['<rootDir>/e2e/'],\n}\n",
      ["test/a.test.js", "src/e2e/a.test.js"],
      ["e2e/a.test.js"],
    ],
  ])("%s", (_name, config, tests, ignored) => {
    const view = createMemoryView({
      "package.json": JSON.stringify({ scripts: { test: "jest" }, devDependencies: { jest: "1" } }),
      "jest.config.js": config,
    });
    const shape = suiteShape(
      view,
      detectPackageRunners(view, "").find((r) => r.id === "jest")!,
    );
    for (const path of tests) expect(shape.isTest(path), path).toBe(true);
    for (const path of ignored) expect(shape.isTest(path), path).toBe(false);
  });
});
