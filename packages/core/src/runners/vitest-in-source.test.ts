import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { vitestRunsInSource } from "./vitest.ts";

const BLOCK =
  "export const x = 1;\nif (import.meta.vitest) {\n  import.meta.vitest.it('x', () => {});\n}\n";
const config = (test: string) =>
  `import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { ${test} } });\n`;

describe("vitestRunsInSource", () => {
  it("is true for a file the config's includeSource matches that holds an in-source block", () => {
    const view = createMemoryView({
      "web/vitest.config.ts": config('includeSource: ["src/**/*.{js,ts}"], include: ["test/**"]'),
    });
    expect(vitestRunsInSource(view, "web", "src/math.ts", BLOCK)).toBe(true);
    // Outside the globs, or without the block, vitest does not collect it.
    expect(vitestRunsInSource(view, "web", "lib/math.ts", BLOCK)).toBe(false);
    expect(vitestRunsInSource(view, "web", "src/math.ts", "export const x = 1;\n")).toBe(false);
  });

  it("is false without includeSource, or with it only outside the test block", () => {
    const none = createMemoryView({ "vitest.config.ts": config('include: ["src/**"]') });
    expect(vitestRunsInSource(none, "", "src/math.ts", BLOCK)).toBe(false);
    const vite = createMemoryView({
      "vite.config.ts": 'export default { build: { includeSource: ["src/**"] } };\n',
    });
    expect(vitestRunsInSource(vite, "", "src/math.ts", BLOCK)).toBe(false);
    const viaVite = createMemoryView({ "vite.config.ts": config('includeSource: ["src/**"]') });
    expect(vitestRunsInSource(viaVite, "", "src/math.ts", BLOCK)).toBe(true);
  });
});
