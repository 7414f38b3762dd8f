import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { commitAll, gitSync, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { createBudget, steppingClock } from "../budget.ts";
import { continueWalk, readLeadingLines, readSmallFile } from "./project-walk.ts";
import { openProject } from "../../project/node/project.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());

const FILES = {
  ".gitignore": "generated/\n*.secret.py\n",
  "src/app.py": "x = 1\n",
  "src/key.secret.py": "k = 1\n",
  "src/dist/page.ts": "export {};\n",
  "node_modules/pkg/index.js": "module.exports = 1;\n",
  "web/node_modules/dep/a.ts": "export {};\n",
  ".venv/lib/site.py": "z = 1\n",
  "generated/api.ts": "export {};\n",
  "dist/bundle.js": "1;\n",
  ".tailtest/session.json": "{}\n",
  "tests/test_app.py": "def test(): pass\n",
};

function walkAll(root: string, budget = createBudget(60_000, () => performance.now())): string[] {
  const project = openProject(root);
  const files: string[] = [];
  const pending = [""];
  expect(
    continueWalk(project.root, project.ignoreRules, pending, budget, {
      file: (rel) => files.push(rel),
    }),
  ).toBe(true);
  return files;
}

describe("continueWalk", () => {
  it("skips the folders and files the filter skips, and follows no link", () => {
    temp = makeProject(FILES);
    symlinkSync(join(temp.root, "src"), join(temp.root, "linked"));
    expect(walkAll(temp.root).sort()).toEqual([
      ".gitignore",
      "src/app.py",
      "src/dist/page.ts",
      "tests/test_app.py",
    ]);
  });

  it("keeps a source file git tracks though a .gitignore pattern matches it", async () => {
    // graphql/dataloader: `index.js` ignores release files at the root; src/index.js is tracked.
    temp = makeProject({
      ".gitignore": "index.js\n*.secret.py\n",
      "src/index.js": "module.exports = 1;\n",
      "src/__tests__/a.test.js": "require('..');\n",
      "key.secret.py": "k = 1\n",
    });
    await commitAll(temp.root);
    gitSync(temp.root, "add", "-f", "src/index.js", "key.secret.py");
    gitSync(temp.root, "commit", "-qm", "tracked", "--no-gpg-sign");
    temp.write("index.js", "module.exports = require('./src');\n");
    temp.write("other.secret.py", "k = 2\n");
    expect(walkAll(temp.root).sort()).toEqual([
      ".gitignore",
      "key.secret.py",
      "src/__tests__/a.test.js",
      "src/index.js",
    ]);
  });

  it("stops when the box runs out and goes on from the folders it kept", () => {
    temp = makeProject(FILES);
    const project = openProject(temp.root);
    const files: string[] = [];
    const pending = [""];
    let calls = 0;
    const visitor = { file: (rel: string) => files.push(rel) };
    // One folder per call: the box allows one check before it is up.
    while (
      !continueWalk(
        project.root,
        project.ignoreRules,
        pending,
        createBudget(2, steppingClock()),
        visitor,
      )
    ) {
      calls += 1;
      expect(calls).toBeLessThan(20);
    }
    expect(calls).toBeGreaterThan(1);
    expect(files.sort()).toEqual(walkAll(temp.root).sort());
  });
});

describe("readSmallFile", () => {
  it("reads a file whole up to the cap, and nothing past it", () => {
    temp = makeProject({ "a.txt": "héllo\n" });
    expect(readSmallFile(join(temp.root, "a.txt"), 100)).toBe("héllo\n");
    expect(readSmallFile(join(temp.root, "a.txt"), 3)).toBeUndefined();
    expect(readSmallFile(join(temp.root, "missing.txt"), 100)).toBeUndefined();
  });
});

describe("readLeadingLines", () => {
  it("reads a small file whole and a large one's complete lines within the cap", () => {
    temp = makeProject({ "a.py": "import x\nimport é\nrest\n" });
    const path = join(temp.root, "a.py");
    expect(readLeadingLines(path, 100)).toBe("import x\nimport é\nrest\n");
    // The cut falls inside "é": its line is dropped, not decoded in half.
    expect(readLeadingLines(path, 17)).toBe("import x\n");
    expect(readLeadingLines(join(temp.root, "missing.py"), 100)).toBeUndefined();
  });
});
