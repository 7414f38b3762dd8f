import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  answersNothing as answersNothingOn,
  CLAUDE_CODE,
  CODEX,
  partRoute,
  routeOf,
  CURSOR,
  escapedLine,
  findRoot,
  HOOK_NODE_FLAGS,
  hookNode,
  hookNodeFlags,
  HOOKS_OFF,
  installedHookCommand,
  invokedEvent,
  partFor,
  unreadableCall,
  unreachableGateAnswer as unreachableGateAnswerOn,
  WITNESSED_SESSIONS,
} from "./launcher.ts";
import { setWitness } from "../../gating/node/mode-witness.ts";
import { SESSION_PATHS } from "../../project/node/project.ts";

type Env = Record<string, string | undefined>;
// Claude Code's launcher, as the adapter's own launcher was before it moved here.
const answersNothing = (stdin: string, env: Env) => answersNothingOn(CLAUDE_CODE, stdin, env);
const unreachableGateAnswer = (stdin: string, env: Env, why: string) =>
  unreachableGateAnswerOn(CLAUDE_CODE, stdin, env, why);

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function project(config?: string): string {
  const made = makeProject(config === undefined ? {} : { ".tailtest/config.json": config });
  projects.push(made);
  return made.root;
}

function preToolUse(root: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "s1",
    transcript_path: `${root}/t.jsonl`,
    cwd: root,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: `${root}/calc.py`, content: "x = 1\n" },
    tool_use_id: "toolu_1",
    ...extra,
  });
}

describe("Claude Code: answersNothing (the launcher's shortcut)", () => {
  it("TAILTEST_HOOKS_OFF=1 answers nothing, whatever the call", () => {
    expect(answersNothing("{not json", { [HOOKS_OFF]: "1" })).toBe(true);
    expect(answersNothing("{not json", { [HOOKS_OFF]: "0" })).toBe(false);
  });

  it.each<[string, string | undefined, boolean]>([
    ["no config", undefined, true],
    ["no mode", '{ "depth": "thorough" }', true],
    ["follow", '{ "mode": "follow" }', true],
    ["tdd", '{ "mode": "tdd" }', false],
    ["strict", '{ "mode": "strict" }', false],
    ["an unknown mode (core decides)", '{ "mode": "lax" }', false],
    ["a config that is not JSON (core decides)", "{ mode: tdd", false],
    ["a config that is a list", "[]", false],
  ])("a PreToolUse in a project with %s: %s", (_name, config, quiet) => {
    const root = project(config);
    expect(answersNothing(preToolUse(root), { CLAUDE_PROJECT_DIR: root })).toBe(quiet);
    // Without CLAUDE_PROJECT_DIR the payload's cwd is the project.
    expect(answersNothing(preToolUse(root), {})).toBe(quiet);
  });

  it("a session file that says follow beside a gating copy of its mode goes the whole way", () => {
    const root = project();
    mkdirSync(join(root, ".tailtest"), { recursive: true });
    writeFileSync(join(root, ".tailtest/session.json"), '{ "mode": "follow" }');
    expect(answersNothing(preToolUse(root), {})).toBe(true);
    setWitness(root, ".tailtest/session.json", "strict");
    expect(answersNothing(preToolUse(root), {})).toBe(false);
    setWitness(root, ".tailtest/session.json", "follow");
    expect(answersNothing(preToolUse(root), {})).toBe(true);
  });

  it("CLAUDE_PROJECT_DIR wins over the payload's cwd", () => {
    const tdd = project('{ "mode": "tdd" }');
    const follow = project();
    expect(answersNothing(preToolUse(follow), { CLAUDE_PROJECT_DIR: tdd })).toBe(false);
    expect(answersNothing(preToolUse(tdd), { CLAUDE_PROJECT_DIR: follow })).toBe(true);
  });

  it("everything else goes the whole way: other events, bad payloads, Cursor's payloads", () => {
    const root = project();
    const env = { CLAUDE_PROJECT_DIR: root };
    for (const stdin of [
      "",
      "{not json",
      "[]",
      JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "PostToolUse" }),
      preToolUse(root, { hook_event_name: "Stop", note: "PreToolUse" }),
      preToolUse(root, { session_id: 1 }),
      preToolUse(root, { tool_input: "x" }),
      preToolUse(root, { tool_name: undefined }),
      preToolUse(root, { cursor_version: "1.7.0" }),
      preToolUse(root, { conversation_id: "c1" }),
    ])
      expect(answersNothing(stdin, env), stdin).toBe(false);
  });
});

describe("Claude Code: unreachableGateAnswer (hook-main.cjs missing)", () => {
  it("denies a PreToolUse outside follow mode, and nothing else", () => {
    const tdd = project('{ "mode": "tdd" }');
    const answer = unreachableGateAnswer(preToolUse(tdd), {}, "gone");
    expect(JSON.parse(answer ?? "")).toMatchObject({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
    });
    expect(answer).toContain("tailtest could not decide (gone)");
    expect(unreachableGateAnswer(preToolUse(project()), {}, "gone")).toBeUndefined();
    const stop = JSON.stringify({ session_id: "s", cwd: tdd, hook_event_name: "Stop" });
    expect(unreachableGateAnswer(stop, {}, "gone")).toBeUndefined();
  });
});

describe("hookNodeFlags: node's flags in a hook command", () => {
  it("sizes the young generation for the calls around a tool call, on every platform, and no other", () => {
    expect(HOOK_NODE_FLAGS).toEqual(["--min-semi-space-size=2"]);
    for (const platform of [CLAUDE_CODE, CODEX, CURSOR])
      for (const event of [platform.gateEvent, ...platform.postEvents]) {
        expect(hookNodeFlags(event)).toEqual(HOOK_NODE_FLAGS);
        expect(hookNode(event)).toBe("node --min-semi-space-size=2");
      }
    for (const event of ["SessionStart", "sessionStart", "Stop", "stop", "UserPromptSubmit", "x"])
      expect(hookNode(event)).toBe("node");
  });

  it("puts them before the hook file, which keeps its event and flags after it", () => {
    const options = {
      projectDir: "$d",
      gateEvent: "PreToolUse",
      noOpinion: "",
      hookPath: "/h.cjs",
    };
    const gate = installedHookCommand({ ...options, event: "PreToolUse", flags: ["--user"] });
    expect(
      gate.endsWith('; exec node --min-semi-space-size=2 "/h.cjs" --user --event=PreToolUse'),
    ).toBe(true);
    expect(
      installedHookCommand({ ...options, event: "Stop" }).endsWith(
        '; exec node "/h.cjs" --event=Stop',
      ),
    ).toBe(true);
  });
});

describe("routeOf: which code cache a call uses", () => {
  const call = (event: string, tool?: string) =>
    JSON.stringify({ hook_event_name: event, ...(tool === undefined ? {} : { tool_name: tool }) });
  it.each([
    [CLAUDE_CODE, call("PreToolUse", "Write"), "pre"],
    // A shell command's gate: the bash grammar under its own V8 flags (code-cache.ts).
    [CLAUDE_CODE, call("PreToolUse", "Bash"), "pre-shell"],
    [CLAUDE_CODE, call("PostToolUse", "Edit"), "post"],
    [CLAUDE_CODE, call("PostToolUseFailure", "Bash"), "shell"],
    [CLAUDE_CODE, call("Stop"), "stop"],
    [CLAUDE_CODE, call("SubagentStop"), "stop"],
    [CLAUDE_CODE, call("SessionStart"), "other"],
    [CODEX, call("PostToolUse", "Bash"), "shell"],
    [CODEX, call("Stop"), "stop"],
    [CODEX, call("UserPromptSubmit"), "other"],
    [CURSOR, call("preToolUse", "Write"), "pre"],
    [CURSOR, call("preToolUse", "Shell"), "pre-shell"],
    [CURSOR, call("afterFileEdit"), "post"],
    [CURSOR, call("stop"), "stop"],
    [CURSOR, call("subagentStop"), "stop"],
    [CURSOR, "not json", "other"],
  ] as const)("call %#, to the %2$s route", (platform, stdin, route) => {
    expect(routeOf(platform, stdin)).toBe(route);
  });
});

describe("partRoute: which code cache a smaller bundle's call uses", () => {
  it.each([
    ["pre", "tdd", "pre"],
    // strict's gate has a cache of its own: neither gate deserialises the other's functions.
    ["pre", "strict", "pre-strict"],
    // A mode the launcher cannot tell is settled in the bundle, under the shared name.
    ["pre", undefined, "pre"],
    ["post", "strict", "post"],
    ["post", undefined, "post"],
  ] as const)("%s in %s mode: %s", (route, mode, expected) => {
    expect(partRoute(route, mode)).toBe(expected);
  });
});

describe("the module", () => {
  it.each([
    ["created-state.ts", "the launchers and the store both load it"],
    ["deadline.ts", "the launcher arms it, and a test runs its source alone"],
  ])("%s imports nothing (%s)", (file) => {
    const source = readFileSync(new URL(`./${file}`, import.meta.url), "utf8");
    expect(source).not.toMatch(/^import /m);
    expect(source).not.toContain("require(");
  });

  it.each(["launcher.ts", "code-cache.ts", "../../gating/node/mode-witness-path.ts"])(
    "%s imports only node's own modules (the launchers load it before anything else)",
    (file) => {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      const specifiers = [...source.matchAll(/^import [^;]* from "([^"]+)";$/gm)].map((m) => m[1]);
      expect(specifiers.length).toBeGreaterThan(0);
      // The launcher's own code-cache loader is the one module of core it takes, and the loader
      // the mark a state-creating call leaves (created-state.ts, which imports nothing), and the
      // working folder's reader (working-dir.ts, node's path alone), the gate's deadline
      // (deadline.ts, which imports nothing), and where the copy of a session's mode lives
      // (mode-witness-path.ts, node's path alone).
      for (const specifier of specifiers)
        expect(specifier).toMatch(
          /^(node:|\.\/code-cache\.ts$|\.\/created-state\.ts$|\.\/deadline\.ts$|\.\/working-dir\.ts$|\.\.\/\.\.\/gating\/node\/mode-witness-path\.ts$)/,
        );
      // The adapter's bundle is evaluated through vm.Script, never imported or required.
      expect(source).not.toMatch(/\bimport\(/);
      expect(source).not.toContain("require(");
    },
  );

  it("asks the mode copy of every session file core keeps (its own list, since it imports no core)", () => {
    expect([...WITNESSED_SESSIONS].sort()).toEqual([...SESSION_PATHS].sort());
  });
});

const MODES: [string, string | undefined, boolean][] = [
  ["no config", undefined, true],
  ["follow", '{ "mode": "follow" }', true],
  ["tdd", '{ "mode": "tdd" }', false],
  ["strict", '{ "mode": "strict" }', false],
  ["a config that is not JSON", "{ mode: tdd", false],
];

function codexPreToolUse(cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "s1",
    turn_id: "t1",
    transcript_path: null,
    cwd,
    model: "gpt-5.5",
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Add File: calc.py\n+x = 1\n*** End Patch\n" },
    tool_use_id: "call_1",
    ...extra,
  });
}

describe("Codex", () => {
  it.each(MODES)("a PreToolUse in a project with %s: quiet %s", (_name, config, quiet) => {
    const root = project(config);
    expect(answersNothingOn(CODEX, codexPreToolUse(root), {})).toBe(quiet);
    // CLAUDE_PROJECT_DIR means nothing to Codex.
    const follow = project();
    expect(answersNothingOn(CODEX, codexPreToolUse(root), { CLAUDE_PROJECT_DIR: follow })).toBe(
      quiet,
    );
  });

  it("the project is the nearest folder with .tailtest/ above the payload's cwd, a relative one from the process's", () => {
    const root = project('{ "mode": "tdd" }');
    const deep = join(root, "src", "pkg");
    mkdirSync(deep, { recursive: true });
    expect(findRoot(deep)).toBe(root);
    expect(answersNothingOn(CODEX, codexPreToolUse(deep), {})).toBe(false);
    expect(answersNothingOn(CODEX, codexPreToolUse("src/pkg"), {}, root)).toBe(false);
    expect(answersNothingOn(CODEX, codexPreToolUse("."), {}, project())).toBe(true);
    // No .tailtest/ anywhere: the git root, else the folder itself.
    const git = project();
    mkdirSync(join(git, ".git"));
    mkdirSync(join(git, "a", "b"), { recursive: true });
    expect(findRoot(join(git, "a", "b"))).toBe(git);
    const bare = project();
    expect(findRoot(bare)).toBe(bare);
  });

  it("everything else goes the whole way", () => {
    const root = project();
    for (const stdin of [
      "",
      "{not json",
      codexPreToolUse(root, { hook_event_name: "PostToolUse" }),
      codexPreToolUse(root, { session_id: undefined }),
      codexPreToolUse(root, { cwd: 1 }),
      codexPreToolUse(root, { tool_name: undefined }),
      codexPreToolUse(root, { tool_input: ["x"] }),
      codexPreToolUse(root, { hook_event_name: "preToolUse" }),
    ])
      expect(answersNothingOn(CODEX, stdin, {}), stdin).toBe(false);
    expect(answersNothingOn(CODEX, "{not json", { [HOOKS_OFF]: "1" })).toBe(true);
  });

  it("a missing bundle denies a tdd PreToolUse in Codex's shape", () => {
    const tdd = project('{ "mode": "tdd" }');
    const answer = unreachableGateAnswerOn(CODEX, codexPreToolUse(tdd), {}, "gone");
    expect(JSON.parse(answer ?? "")).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining(
          "tailtest could not decide (gone)",
        ) as string,
      },
    });
    expect(answer).toContain("reinstall @tailtest/codex.");
    expect(unreachableGateAnswerOn(CODEX, codexPreToolUse(project()), {}, "gone")).toBeUndefined();
    const post = codexPreToolUse(tdd, { hook_event_name: "PostToolUse" });
    expect(unreachableGateAnswerOn(CODEX, post, {}, "gone")).toBeUndefined();
  });
});

function cursorPreToolUse(
  roots: string[] | undefined,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    conversation_id: "c1",
    generation_id: "g1",
    cursor_version: "2.1.50",
    ...(roots === undefined ? {} : { workspace_roots: roots }),
    hook_event_name: "preToolUse",
    tool_name: "Write",
    tool_input: { file_path: "calc.py", content: "x = 1\n" },
    tool_use_id: "t1",
    ...extra,
  });
}

describe("Cursor", () => {
  it("prints {} for no opinion", () => {
    expect(CURSOR.noOpinion).toBe("{}\n");
    expect(CODEX.noOpinion).toBe("");
  });

  it.each(MODES)("a preToolUse in a project with %s: quiet %s", (_name, config, quiet) => {
    const root = project(config);
    expect(answersNothingOn(CURSOR, cursorPreToolUse([root]), {})).toBe(quiet);
    expect(answersNothingOn(CURSOR, cursorPreToolUse([], {}), { CURSOR_PROJECT_DIR: root })).toBe(
      quiet,
    );
    expect(answersNothingOn(CURSOR, cursorPreToolUse(undefined), {}, root)).toBe(quiet);
  });

  it("CURSOR_PROJECT_DIR wins over workspace_roots[0], which wins over the process's folder", () => {
    const tdd = project('{ "mode": "tdd" }');
    const follow = project();
    const env = (dir: string) => ({ CURSOR_PROJECT_DIR: dir });
    expect(answersNothingOn(CURSOR, cursorPreToolUse([follow]), env(tdd))).toBe(false);
    expect(answersNothingOn(CURSOR, cursorPreToolUse([tdd]), env(follow))).toBe(true);
    expect(answersNothingOn(CURSOR, cursorPreToolUse([tdd, follow]), {}, follow)).toBe(false);
    expect(answersNothingOn(CURSOR, cursorPreToolUse([follow]), {}, tdd)).toBe(true);
    // No roots: the project around the process's folder.
    const deep = join(tdd, "src");
    mkdirSync(deep);
    expect(answersNothingOn(CURSOR, cursorPreToolUse(undefined), {}, deep)).toBe(false);
  });

  it("needs conversation_id or cursor_version, tool_name and a tool_input object", () => {
    const root = project();
    expect(
      answersNothingOn(CURSOR, cursorPreToolUse([root], { conversation_id: undefined }), {}),
    ).toBe(true);
    expect(
      answersNothingOn(CURSOR, cursorPreToolUse([root], { cursor_version: undefined }), {}),
    ).toBe(true);
    for (const stdin of [
      "",
      "[]",
      cursorPreToolUse([root], { conversation_id: undefined, cursor_version: undefined }),
      cursorPreToolUse([root], { tool_name: 1 }),
      cursorPreToolUse([root], { tool_input: null }),
      cursorPreToolUse([root], { hook_event_name: "PreToolUse" }),
      cursorPreToolUse([root], { hook_event_name: "postToolUse" }),
      // Claude Code's payload is not Cursor's.
      preToolUse(root),
    ])
      expect(answersNothingOn(CURSOR, stdin, {}), stdin).toBe(false);
  });

  it("a missing bundle denies a tdd preToolUse in Cursor's shape", () => {
    const tdd = project('{ "mode": "strict" }');
    const answer = unreachableGateAnswerOn(CURSOR, cursorPreToolUse([tdd]), {}, "gone");
    const parsed = JSON.parse(answer ?? "") as Record<string, string>;
    expect(Object.keys(parsed)).toEqual(["permission", "user_message", "agent_message"]);
    expect(parsed["permission"]).toBe("deny");
    expect(parsed["agent_message"]).toContain("tailtest could not decide (gone)");
    expect(parsed["agent_message"]).toContain("reinstall @tailtest/cursor.");
    expect(answer?.endsWith("}\n")).toBe(true);
    expect(unreachableGateAnswerOn(CURSOR, cursorPreToolUse([project()]), {}, "x")).toBeUndefined();
  });
});

describe("partFor: which smaller bundle an agent's call tries first", () => {
  const BUNDLES = { main: "main", post: "post", gate: "gate" };
  const call = (root: string, event: string, tool: string) =>
    JSON.stringify({
      session_id: "s1",
      cwd: root,
      hook_event_name: event,
      tool_name: tool,
      tool_input: {},
    });
  const partOf = (stdin: string) => partFor(CODEX, BUNDLES, routeOf(CODEX, stdin), stdin);

  it("an edit by the config's mode; a shell command's gate, and a config unread, to hook-main", () => {
    const follow = project();
    const tdd = project('{"mode":"tdd"}');
    const strict = project('{"mode":"strict"}');
    const unsure = project('{"mode":');
    expect(partOf(call(follow, "PostToolUse", "apply_patch"))).toBe("post");
    expect(partOf(call(tdd, "PostToolUse", "apply_patch"))).toBe("gate");
    expect(partOf(call(strict, "PostToolUse", "apply_patch"))).toBe("gate");
    expect(partOf(call(unsure, "PostToolUse", "apply_patch"))).toBeUndefined();
    expect(partOf(call(tdd, "PreToolUse", "apply_patch"))).toBe("gate");
    // The gate bundle has no bash parser: it would only hand the call on.
    expect(partOf(call(tdd, "PreToolUse", "Bash"))).toBeUndefined();
    expect(partOf(call(tdd, "PostToolUse", "Bash"))).toBeUndefined();
    expect(partOf(call(tdd, "Stop", "apply_patch"))).toBeUndefined();
  });
});

describe("unreadableCall: stdin that is not a payload, for an event the launcher can tell", () => {
  it.each<[string, string, string[], string | undefined]>([
    ["empty, the command names Stop", "", ["--event=Stop"], "stdin is empty"],
    ["garbage, the command names PostToolUse", "garbage", ["--event=PostToolUse"], "not"],
    ["a list", "[1]", ["--event=Stop"], "not"],
    ["a payload cut off after its event", '{"hook_event_name":"Stop","cwd":"/x', [], "not"],
    ["a whole payload", '{"hook_event_name":"Stop"}', ["--event=Stop"], undefined],
    ["the gate's own event (the bundle denies it)", "garbage", ["--event=PreToolUse"], undefined],
    ["a cut-off gate call", '{"hook_event_name":"PreToolUse","x', [], undefined],
    ["no event to tell", "garbage", [], undefined],
    ["a flag that is not an event name", "garbage", ["--event=a b"], undefined],
  ])("%s", (_name, stdin, argv, said) => {
    const line = unreadableCall(CLAUDE_CODE, stdin, argv);
    if (said === undefined) expect(line).toBeUndefined();
    else expect(line).toMatch(new RegExp(`^tailtest: ignored a \\w+ hook call: .*${said}`));
  });

  it("the command's --event= wins over the payload's own name", () => {
    expect(invokedEvent('{"hook_event_name":"Stop"}', ["--event=SessionStart"])).toBe(
      "SessionStart",
    );
    expect(invokedEvent('{"hook_event_name":"Stop"}', [])).toBe("Stop");
  });
});

describe("escapedLine: an error that escaped, in one line", () => {
  it("keeps the name and message, drops a message that holds a path", () => {
    expect(escapedLine(new RangeError("Maximum call stack size exceeded"))).toBe(
      "RangeError: Maximum call stack size exceeded",
    );
    expect(escapedLine(new Error("ENOENT: no such file, open '/home/me/x'"))).toBe("Error");
    expect(escapedLine("thrown text")).toBe("error");
  });
});
