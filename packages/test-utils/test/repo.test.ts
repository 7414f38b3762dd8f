import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/index.ts";

const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const commands = (text: string) =>
  [...text.matchAll(/^npx -y pnpm@[\d.]+ install[^\n]*$/gm)].map((m) => m[0]);

/** Every `*.test.ts` under packages/ and adapters/, node_modules and dist aside. */
function testFiles(): string[] {
  return ["packages", "adapters"].flatMap((top) =>
    readdirSync(join(REPO_ROOT, top), { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".test.ts") && !/(^|\/)(node_modules|dist)\//.test(path))
      .map((path) => `${top}/${path}`),
  );
}

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

  it("CI runs the fast lane first, then every test: fast and slow cover each test file once", async () => {
    const { scripts } = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(scripts["check"]).toMatch(/^pnpm run test:fast && .*pnpm run test:slow$/);
    expect(scripts["test"]).toBe("pnpm run test:fast && pnpm run test:slow");
    const listed = async (project: string) => {
      const { stdout } = await execa(
        "node",
        [
          join(REPO_ROOT, "node_modules/vitest/vitest.mjs"),
          "list",
          "--filesOnly",
          "--json",
          "--project",
          project,
        ],
        { cwd: REPO_ROOT },
      );
      return (JSON.parse(stdout) as { file: string }[]).map(({ file }) =>
        relative(REPO_ROOT, file),
      );
    };
    const [fast, slow] = await Promise.all([listed("fast"), listed("slow")]);
    expect(fast.filter((file) => slow.includes(file))).toEqual([]);
    expect(fast.filter((file) => /^(packages|adapters)\/[^/]+\/test\//.test(file))).toEqual([]);
    expect([...fast, ...slow].sort()).toEqual(testFiles().sort());
  }, 60_000);

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

  it("CLAUDE.md points at AGENTS.md, which stays under 5 KB (the file list is architecture.md's)", () => {
    expect(read("CLAUDE.md").trim()).toBe("@AGENTS.md");
    expect(Buffer.byteLength(read("AGENTS.md"))).toBeLessThanOrEqual(5 * 1024);
  });
});
