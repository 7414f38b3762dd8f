import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { renderCliReference } from "./cli-reference.ts";

describe("command reference", () => {
  it("docs/cli.md matches the commands' --help (run `pnpm gen-docs` when this fails)", () => {
    expect(readFileSync(join(REPO_ROOT, "docs/cli.md"), "utf8")).toBe(renderCliReference());
  });

  it("has every command, with its exit codes, and no path of this machine", () => {
    const doc = renderCliReference();
    for (const command of [
      "status",
      "history",
      "report",
      "watch",
      "run",
      "doctor",
      "tdd status",
      "strict status",
    ])
      expect(doc).toContain(`## tailtest ${command}\n`);
    expect(doc).toContain(
      "Exit codes: 0 stopped by a signal, 1 the folder could not be watched, 2 bad usage.",
    );
    expect(doc).not.toContain(REPO_ROOT);
  });

  it("states every command's exit codes in its --help and in README.md's table", () => {
    const sections = renderCliReference().split("\n## tailtest ").slice(1);
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("Exit codes:"), readme.indexOf("## Configuration"));
    const names = sections.map((section) => section.slice(0, section.indexOf("\n")));
    expect(names).toEqual(
      expect.arrayContaining(["explain", "tdd status", "strict status", "refactor", "export"]),
    );
    for (const [index, section] of sections.entries()) {
      const name = names[index] ?? "";
      expect(section, `tailtest ${name} --help`).toMatch(/\nExit codes: 0 /);
      expect(table, `README.md's exit code table`).toContain(`\`${name}\``);
    }
  });
});
