import { describe, expect, it } from "vitest";
import {
  isExemptImporter,
  listedIn,
  surfaceOf,
  writeSurfaces,
} from "../../../scripts/feature-surfaces.mjs";

/**
 * Each of core's feature folders lists what other folders use of it in its index.ts (and its
 * node/ edge in node/index.ts); eslint's tailtest/feature-surface refuses a use not listed.
 */
describe("core's feature surfaces", () => {
  it("every index lists exactly what other folders import today", () => {
    expect(writeSurfaces({ check: true })).toEqual([]);
  });

  it.each<[string, string, string | undefined]>([
    ["views/status-view.ts", "tdd/tdd-state.ts", "tdd/index.ts"],
    ["hook/node/handle-event.ts", "tdd/node/tdd-hooks.ts", "tdd/node/index.ts"],
    ["engine/node/execute.ts", "engine/parsers/junit.ts", undefined],
    ["tdd/node/tdd-hooks.ts", "tdd/tdd-state.ts", undefined],
    ["strict/strict-gate.ts", "engine/parsers/junit.ts", "engine/index.ts"],
  ])("%s importing %s is checked against %s", (importer, target, surface) => {
    expect(surfaceOf(importer, target)).toBe(surface);
  });

  it("tests and the package's own surfaces are not checked", () => {
    expect(isExemptImporter("index.ts")).toBe(true);
    expect(isExemptImporter("entries/node/core-node.ts")).toBe(true);
    expect(isExemptImporter("views/status-view.test.ts")).toBe(true);
    expect(isExemptImporter("views/status-view.ts")).toBe(false);
  });

  it("reads an index's lists: named exports, aliases, types, and whole files", () => {
    const listed = listedIn(
      "gating/index.ts",
      [
        'export { loosens, type Strength } from "./gate-strength.ts";',
        "export {",
        "  shellRefusal as refusal,",
        '} from "./shell-rules.ts";',
        'export * from "./turn-baseline.ts";',
      ].join("\n"),
    );
    expect(listed.get("gating/gate-strength.ts")).toEqual(new Set(["loosens", "Strength"]));
    expect(listed.get("gating/shell-rules.ts")).toEqual(new Set(["refusal"]));
    expect(listed.get("gating/turn-baseline.ts")).toBe("*");
  });
});
