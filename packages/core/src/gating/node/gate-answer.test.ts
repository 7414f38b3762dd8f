import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliPrefix } from "./gate-answer.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), "tailtest-cli-prefix-"));
  made.push(root);
  for (const file of files) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "#!/bin/sh\n");
    chmodSync(join(root, file), 0o755);
  }
  return root;
}

describe("cliPrefix: the tailtest command as the agent's shell can run it", () => {
  const pinned = [
    "data/node_modules/@tailtest/claude-code/dist/hook.cjs",
    "data/node_modules/@tailtest/cli/dist/bin.js",
  ];

  it("a project install's local bin goes through npx", () => {
    const root = tree(["project/node_modules/.bin/tailtest", ...pinned]);
    const hookScript = join(root, pinned[0] ?? "");
    expect(cliPrefix(join(root, "project"), { hookScript, path: "" })).toBe("npx tailtest");
  });

  it("a tailtest on PATH is used as itself", () => {
    const root = tree(["global/bin/tailtest", ...pinned, "project/x"]);
    const path = ["", "relative/bin", join(root, "global/bin")].join(delimiter);
    const hookScript = join(root, pinned[0] ?? "");
    expect(cliPrefix(join(root, "project"), { hookScript, path })).toBe("tailtest");
  });

  it("a user-level install's pinned CLI beside the hook, by its path, through a link", () => {
    const root = tree([...pinned, "project/x"]);
    symlinkSync(join(root, "data/node_modules"), join(root, "linked"));
    const hookScript = join(root, "linked/@tailtest/claude-code/dist/hook.cjs");
    expect(cliPrefix(join(root, "project"), { hookScript, path: "/nowhere" })).toBe(
      `node ${join(root, "data/node_modules/@tailtest/cli/dist/bin.js")}`,
    );
  });

  it("quotes a path with spaces for the shell", () => {
    const spaced = pinned.map((file) => file.replace("data/", "my data/"));
    const root = tree([...spaced, "project/x"]);
    const hookScript = join(root, spaced[0] ?? "");
    expect(cliPrefix(join(root, "project"), { hookScript, path: "" })).toBe(
      `node '${join(root, "my data/node_modules/@tailtest/cli/dist/bin.js")}'`,
    );
  });

  it("never a bare npx without a local bin: plain tailtest when nothing else is known", () => {
    const root = tree(["project/x", "elsewhere/hook.cjs"]);
    expect(
      cliPrefix(join(root, "project"), { hookScript: join(root, "elsewhere/hook.cjs"), path: "" }),
    ).toBe("tailtest");
    expect(cliPrefix(join(root, "project"), { hookScript: undefined, path: "" })).toBe("tailtest");
  });
});
