import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { emptiedTests } from "./emptied-tests.ts";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const TABLE = "export const CASES = [{ test: 'a', expected: 1 }];\n";
const SPEC = "import { it, expect } from 'vitest';\n\nit('adds', () => expect(1 + 1).toBe(2));\n";

describe("a test file that declares no test", () => {
  it("passes when it never declared one, and fails when the turn took its tests out", async () => {
    project = makeProject({ "src/cases.spec.ts": TABLE, "src/add.spec.ts": SPEC });
    await commitAll(project.root);
    writeFileSync(join(project.root, "src/add.spec.ts"), "import { it } from 'vitest';\n");
    const parsed = emptiedTests(project.root, {
      tests: [],
      errors: [],
      empty: ["src/cases.spec.ts", "src/add.spec.ts"],
    });
    expect(parsed.empty).toEqual(["src/cases.spec.ts"]);
    expect(parsed.errors).toEqual([
      expect.objectContaining({ file: "src/add.spec.ts", kind: "collection" }),
    ]);
  });

  it("outside git, or new to it, stays a pass", async () => {
    project = makeProject({ "src/new.spec.ts": "export {};\n" });
    const run = { tests: [], errors: [], empty: ["src/new.spec.ts"] };
    expect(emptiedTests(project.root, run)).toEqual(run);
  });
});
