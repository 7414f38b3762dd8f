import { describe, expect, it } from "vitest";
import { installerRefusal, runsInstaller, shellRefusal } from "./shell-rules.ts";

/** A command line's simple commands, each split on spaces (the parser's words, unquoted). */
const words = (...commands: string[]) => commands.map((command) => ({ argv: command.split(" ") }));
const NO_WRITES = { written: [], deleted: [] };

describe("runsInstaller: the agent runs an installer or confirms a mode", () => {
  it.each([
    [["npx tailtest-claude-code init"], true],
    [["npx @tailtest/cursor uninstall"], true],
    [["node_modules/.bin/tailtest-codex init --mode follow"], true],
    [["tailtest mode confirm"], true],
    [["npx @tailtest/cli mode confirm"], true],
    [["npx @tailtest/cli@latest mode confirm"], true],
    [["node node_modules/@tailtest/cli/dist/tailtest.cjs mode confirm"], true],
    [["node /opt/lib/tailtest.cjs mode confirm"], true],
    [["ls", "npx tailtest-codex uninstall"], true],
    // A user-level install stands aside in a project that opted out, or that installed the
    // package itself (its own hooks answer, when it has any): either switches tailtest off.
    [["npx tailtest-claude-code opt-out"], true],
    [["npx @tailtest/cursor opt-out"], true],
    [["node_modules/.bin/tailtest-codex opt-out"], true],
    [["npm i -D @tailtest/codex"], true],
    [["pnpm add -D @tailtest/claude-code@latest"], true],
    [["yarn add @tailtest/cursor"], true],
    [["npm install --save-dev @tailtest/codex"], true],
    // Installing the project's dependencies, or other packages, is not.
    [["npm install"], false],
    [["npm i -D vitest"], false],
    // Reading about the installer or asking the mode is not running it.
    [["npx tailtest-claude-code --help"], false],
    [["tailtest mode"], false],
    [["tailtest status"], false],
    [["node my-tailtest.cjs mode confirm"], false],
    [["echo init"], false],
    [["my-tailtest-claude-code init"], false],
  ])("%j → %s", (commands, expected) => {
    expect(runsInstaller(words(...commands))).toBe(expected);
  });
});

describe("shellRefusal: what a gating mode refuses beyond the files a command writes", () => {
  it.each([
    // Plain reads of tailtest's state and the hook folders are allowed.
    ["cat .tailtest/config.json", ["cat .tailtest/config.json"], NO_WRITES, undefined],
    ["ls -la .claude", ["ls -la .claude"], NO_WRITES, undefined],
    [
      "grep mode .tailtest/config.json | wc -l",
      ["grep mode .tailtest/config.json", "wc -l"],
      NO_WRITES,
      undefined,
    ],
    ["/usr/bin/jq . .codex/hooks.json", ["/usr/bin/jq . .codex/hooks.json"], NO_WRITES, undefined],
    // A command that does not name them is not this rule's to judge.
    ["rm -rf build", ["rm -rf build"], { written: [], deleted: ["build"] }, undefined],
    // Anything else that names them is refused, even when no write target could be read.
    ["cd .tailtest && python x.py", ["cd .tailtest", "python x.py"], NO_WRITES, "state"],
    [
      "git checkout .tailtest/config.json",
      ["git checkout .tailtest/config.json"],
      NO_WRITES,
      "state",
    ],
    [
      "cat a > .cursor/hooks.json",
      ["cat a"],
      { written: [".cursor/hooks.json"], deleted: [] },
      "state",
    ],
    ["ls .tailtest; rm x", ["ls .tailtest", "rm x"], { written: [], deleted: ["x"] }, "state"],
    // An installer is refused whatever it names.
    ["npx tailtest-claude-code init", ["npx tailtest-claude-code init"], NO_WRITES, "installer"],
  ] as const)("%s → %s", (command, commands, writes, expected) => {
    for (const mode of ["tdd", "strict"] as const) {
      const refusal = shellRefusal(mode, command, words(...commands), writes);
      if (expected === undefined) expect(refusal).toBeUndefined();
      else if (expected === "installer") expect(refusal).toBe(installerRefusal(mode));
      else {
        expect(refusal).toMatch(
          new RegExp(`^tailtest ${mode}: this command names tailtest's state`),
        );
        expect(refusal).not.toBe(installerRefusal(mode));
      }
    }
  });
});
