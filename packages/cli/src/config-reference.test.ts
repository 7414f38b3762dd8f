import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { renderConfigReference } from "./config-reference.ts";

describe("configuration reference", () => {
  it("docs/configuration.md matches the schema (run `pnpm gen-docs` when this fails)", () => {
    expect(readFileSync(join(REPO_ROOT, "docs/configuration.md"), "utf8")).toBe(
      renderConfigReference(),
    );
  });

  it("documents every field with its accepted values and default", () => {
    const doc = renderConfigReference();
    expect(doc).toContain(
      '| `depth` | `simple`, `standard`, `thorough`, `adversarial` | `"standard"` |',
    );
    expect(doc).toContain("| `ramp_up_limit` | a whole number from 0 to 15 | `0` |");
    expect(doc).toContain("| `runners.<language>.command` | a list of strings | (none) |");
    expect(doc).toContain("| `file_classes.test` | a list of strings | `[]` |");
  });
});
