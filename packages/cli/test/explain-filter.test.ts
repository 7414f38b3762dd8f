import { join } from "node:path";
import { commitAll, copyFixture, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

interface ExplainedFile {
  path: string;
  verdict: { queue: boolean; kind: string; rule: string; reason: string };
  depth?: { scenarios: number; inputs: Record<string, unknown> };
}

describe("tailtest explain: which rule decided, and the score's inputs", () => {
  it("names the rule for a skip and for a queue, in text and in --json", async () => {
    const project = copyFixture("runners/pytest-pyproject");
    try {
      project.write("examples/demo.py", "def main():\n    return 1\n");
      project.write("pkg/__init__.py", "from .calc import add\n\n__all__ = ['add']\n");
      project.write(
        "billing.py",
        "import httpx\n\ndef charge(x):\n    if x:\n        return httpx.post('u')\n    return None\n",
      );
      const files = ["examples/demo.py", "pkg/__init__.py", "billing.py"];
      const text = await runBin(BIN, ["explain", ...files], { cwd: project.root });
      expect(text.stderr).toBe("");
      expect(text.stdout).toContain(
        "examples/demo.py\n  verdict run (example): inside examples/ (example code); not queued, no test reaches it now, so the end of a turn runs nothing for it\n  rule    example-folder\n",
      );
      expect(text.stdout).toContain("pkg/__init__.py\n  verdict run (re-export): ");
      expect(text.stdout).toContain("  rule    re-export\n");
      expect(text.stdout).toContain("billing.py\n  verdict queue: python source\n");
      expect(text.stdout).toMatch(/billing\.py\n(?: {2}.+\n)+ {2}rule {4}source$/);
      expect(text.stdout).toContain(
        "  inputs  path words: billing; HTTP: yes; DB: no; branches: 1 (4 points at most); public functions: 1 (5 points at most); code read: ",
      );

      const json = await runBin(BIN, ["explain", "--json", ...files], { cwd: project.root });
      const parsed = JSON.parse(json.stdout) as { files: ExplainedFile[] };
      expect(parsed.files.map((file) => [file.path, file.verdict.rule])).toEqual([
        ["examples/demo.py", "example-folder"],
        ["pkg/__init__.py", "re-export"],
        ["billing.py", "source"],
      ]);
      expect(parsed.files[2]?.depth?.inputs).toMatchObject({
        pathTerms: ["billing"],
        http: true,
        branches: 1,
        publicFunctions: 1,
        runtimeCode: true,
      });
    } finally {
      project.cleanup();
    }
  });

  it("says whether a Rust file has unit tests of its own, is covered, or has none", async () => {
    const project = copyFixture("runners/cargo");
    try {
      project.write(
        "src/lib.rs",
        "mod extra;\n\npub fn add(a: i32, b: i32) -> i32 {\n    a + extra::twice(b) - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(2, 3), 5);\n    }\n}\n",
      );
      project.write("src/extra.rs", "pub fn twice(a: i32) -> i32 {\n    a * 2\n}\n");
      project.write("src/orphan.rs", "pub fn thrice(a: i32) -> i32 {\n    a * 3\n}\n");
      await commitAll(project.root);
      const files = ["src/lib.rs", "src/extra.rs", "src/orphan.rs"];
      const { stdout, stderr } = await runBin(BIN, ["explain", ...files], { cwd: project.root });
      expect(stderr).toBe("");
      const tests = [...stdout.matchAll(/^ {2}test {4}(.+)$/gm)].map((match) => match[1]);
      expect(tests).toEqual([
        "src/lib.rs (inline: its own unit tests)",
        "src/extra.rs (no unit tests of its own; the related tests below cover it)",
        "src/orphan.rs (no unit tests yet: a first one goes in a #[cfg(test)] module in it)",
      ]);
    } finally {
      project.cleanup();
    }
  });

  it("says when config file_classes decided, and asks no scenarios of a types-only file", async () => {
    const project = copyFixture("runners/vitest");
    try {
      project.write(
        ".tailtest/config.json",
        JSON.stringify({
          file_classes: { production: ["src/types.ts"], exempt: ["src/legacy.ts"] },
        }),
      );
      project.write("src/types.ts", "export interface User {\n  id: string;\n}\n");
      project.write("src/legacy.ts", "export function old(x: number) {\n  return x;\n}\n");
      const result = await runBin(BIN, ["explain", "src/types.ts", "src/legacy.ts"], {
        cwd: project.root,
      });
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain(
        "src/types.ts\n  verdict queue: typescript source (config file_classes.production src/types.ts)\n",
      );
      expect(result.stdout).toContain("  rule    file_classes.production\n");
      expect(result.stdout).toContain("no runtime code: no scenarios)");
      expect(result.stdout).toContain(
        "Complexity: types has no runtime code (types or re-exports only): no scenarios to generate; a test that imports it is enough.",
      );
      expect(result.stdout).toContain(
        "src/legacy.ts\n  verdict skip (ignored): exempt (config file_classes.exempt src/legacy.ts)\n  rule    file_classes.exempt",
      );
    } finally {
      project.cleanup();
    }
  });
});
