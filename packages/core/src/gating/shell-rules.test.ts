import { describe, expect, it } from "vitest";
import { listSimpleCommands } from "../shell/node/bash-parser.ts";
import {
  installerRefusal,
  runsInstaller,
  shellRefusal,
  tamperKind,
  tamperRefusal,
} from "./shell-rules.ts";

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

describe("tamperKind: what could stop or remove the hooks, or commit past them", () => {
  it.each([
    ["nohup sh -c 'while :; do pkill -9 -f tailtest; sleep 0.01; done' >/dev/null 2>&1 &", "stops"],
    ["pkill -9 -f hook.cjs", "stops"],
    ["killall node", "stops"],
    ["kill -9 $(pgrep -f claude-code)", "stops"],
    ["kill $(ps aux | grep node | awk '{print $2}')", "stops"],
    ["npm prune --omit=dev", "removes"],
    ["npm ci --omit dev", "removes"],
    ["npm install --production", "removes"],
    ["pnpm install --prod", "removes"],
    ["NODE_ENV=production npm ci", "removes"],
    ["npx -y pnpm@10 prune", "removes"],
    ["git clean -fdx", "deletes ignored files"],
    ["git -C . clean -X -f", "deletes ignored files"],
    ["git stash -a", "stashes ignored files"],
    ["git stash push --all", "stashes ignored files"],
    ["git update-ref HEAD $c", "history"],
    [
      'c=$(git commit-tree $(git ls-tree HEAD | git mktree) -p HEAD -m fix) && git update-ref HEAD "$c"',
      "history",
    ],
    ['printf "x" | git hash-object -w --stdin', "writes content"],
    // The twenty-seventh round: a session started from the shell retakes the turn's baseline.
    ['claude -p "say hi"', "starts an agent's session"],
    ["timeout 60 codex exec 'hi'", "starts an agent's session"],
    ["npx -y @anthropic-ai/claude-code -p hi", "starts an agent's session"],
    ["CI=1 cursor-agent -p hi", "starts an agent's session"],
    [
      'echo \'{"hook_event_name":"SessionStart"}\' | node node_modules/@tailtest/claude-code/dist/hook.cjs',
      "feeds tailtest's hook",
    ],
    // The thirty-sixth round: the go command's settings, read by every later build.
    ["go env -w GOFLAGS=-overlay=/tmp/fixed.json", "go command's settings"],
    ["GOTOOLCHAIN=local go env -u GOFLAGS", "go command's settings"],
    ["cd src && /usr/local/go/bin/go env -w CGO_ENABLED=0", "go command's settings"],
    // What an agent does every day is not refused.
    ["go env GOPATH", undefined],
    ["go env", undefined],
    ["go test -run TestX ./...", undefined],
    ["kill 4242", undefined],
    ["pkill -f uvicorn", undefined],
    ["npm install", undefined],
    ["npm ci", undefined],
    ["pnpm install --frozen-lockfile", undefined],
    ["git clean -fd", undefined],
    ["git stash", undefined],
    ["git stash apply", undefined],
    ["git commit -am fix && git push", undefined],
    ["git hash-object calc.py", undefined],
    ["echo prune", undefined],
    ["claude --version", undefined],
    ["codex --help", undefined],
    ["grep -rn claude docs", undefined],
    ["git commit -m 'codex support'", undefined],
    ["node src/hooks.js", undefined],
  ] as const)("%s → %s", async (command, expected) => {
    const commands = await listSimpleCommands(command);
    const kind = tamperKind(command, commands);
    if (expected === undefined) expect(kind).toBeUndefined();
    else expect(kind).toContain(expected);
    const refusal = shellRefusal("strict", command, commands, NO_WRITES);
    if (expected === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toBe(tamperRefusal("strict", kind ?? ""));
  });

  it("refuses npm's other names for uninstall of tailtest's packages", () => {
    expect(runsInstaller(words("npm rm @tailtest/claude-code"))).toBe(true);
    expect(runsInstaller(words("npm r -D @tailtest/codex"))).toBe(true);
    expect(runsInstaller(words("yarn remove @tailtest/cursor"))).toBe(true);
  });
});
