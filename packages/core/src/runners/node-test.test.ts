import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { nodeTest } from "./node-test.ts";
import type { DetectedRunner } from "./project-runners.ts";

const runner: DetectedRunner = {
  id: "node-test",
  languages: ["javascript", "typescript"],
  package_dir: "",
  command: ["node", "--import=tsx/esm", "--test"],
  test_dir: "test",
  evidence: "package.json scripts.test",
};

const argvOf = (files: Record<string, string>, chosen: string[]) =>
  nodeTest.argv({ view: createMemoryView(files), runner, files: chosen, ids: [] }).argv;

const pqueue = {
  "package.json": JSON.stringify({
    scripts: { test: "xo && node --import=tsx/esm --test test/*.ts && tsc" },
  }),
  "test/basic.ts": "",
  "test/strict.ts": "",
  "test/fixtures/helper.ts": "",
  "test/notes.md": "",
  "source/index.ts": "",
};

describe("a whole-suite node --test run", () => {
  it("names the test script's files, its globs expanded (Node 20 expands none)", () => {
    const argv = argvOf(pqueue, []);
    expect(argv.slice(-2)).toEqual(["test/basic.ts", "test/strict.ts"]);
    expect(argv).not.toContain("test/fixtures/helper.ts");
  });

  it("keeps the script's folders and files, and drops what does not exist", () => {
    const files = {
      "package.json": JSON.stringify({
        scripts: { test: "node --test tests/ extra.test.js gone/" },
      }),
      "tests/a.test.js": "",
      "extra.test.js": "",
    };
    expect(argvOf(files, []).slice(-2)).toEqual(["extra.test.js", "tests/"]);
  });

  it("leaves chosen files alone, and Node's defaults when the script names nothing", () => {
    expect(argvOf(pqueue, ["test/strict.ts"]).slice(-1)).toEqual(["test/strict.ts"]);
    expect(argvOf(pqueue, ["test/strict.ts"])).not.toContain("test/basic.ts");
    const bare = { "package.json": JSON.stringify({ scripts: { test: "node --test" } }) };
    expect(argvOf(bare, []).at(-1)).toMatch(/^--test-reporter-destination=/);
  });
});
