import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/index.ts";

const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const commands = (text: string) =>
  [...text.matchAll(/^npx -y pnpm@[\d.]+ install[^\n]*$/gm)].map((m) => m[0]);

describe("repository contract", () => {
  it("the README gives two fresh-machine commands: the demo and every test", () => {
    expect(commands(read("README.md"))).toEqual([
      "npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 demo",
      "npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 check",
    ]);
  });

  it(".ci/run calls the README's test command with a frozen lockfile", () => {
    const [, test] = commands(read("README.md"));
    expect(commands(read(".ci/run"))).toEqual([
      test!.replace("install", "install --frozen-lockfile"),
    ]);
  });

  it("the pnpm in those commands is the one package.json pins", () => {
    const pkg = JSON.parse(read("package.json")) as {
      packageManager: string;
      devDependencies: Record<string, string>;
    };
    expect(pkg.packageManager).toBe("pnpm@10.34.9");
    expect(pkg.devDependencies["pnpm"]).toBe("10.34.9");
  });

  it("every package says which Node it needs", () => {
    for (const path of [
      "package.json",
      "packages/core/package.json",
      "packages/cli/package.json",
    ]) {
      expect((JSON.parse(read(path)) as { engines?: { node?: string } }).engines?.node, path).toBe(
        ">=20.19.0",
      );
    }
  });

  it("CLAUDE.md points at AGENTS.md", () => {
    expect(read("CLAUDE.md").trim()).toBe("@AGENTS.md");
  });
});
