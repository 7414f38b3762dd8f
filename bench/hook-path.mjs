// Whole-process timings of tailtest's per-edit path, as ratios against `node -e 0` measured in
// the same run (a hook is a fresh process on every edit). Run after a build:
//   node bench/hook-path.mjs [runs]
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 21);
const edge = pathToFileURL(join(repo, "packages/core/dist/node/index.js")).href;
const project = mkdtempSync(join(tmpdir(), "tailtest-bench-"));
cpSync(join(repo, "fixtures/runners/pytest-pyproject"), project, { recursive: true });
// The same project in tdd mode, for the gate before an edit (denied: no cycle is open).
const tddProject = mkdtempSync(join(tmpdir(), "tailtest-bench-tdd-"));
cpSync(join(repo, "fixtures/runners/pytest-pyproject"), tddProject, { recursive: true });
mkdirSync(join(tddProject, ".tailtest"), { recursive: true });
writeFileSync(join(tddProject, ".tailtest/config.json"), '{"mode":"tdd"}\n');
// The same project in strict mode with a long history: 1,000 verified claims (5,000 events),
// none open, so the gate reads the whole log and denies.
const strictProject = mkdtempSync(join(tmpdir(), "tailtest-bench-strict-"));
cpSync(join(repo, "fixtures/runners/pytest-pyproject"), strictProject, { recursive: true });
mkdirSync(join(strictProject, ".tailtest"), { recursive: true });
writeFileSync(join(strictProject, ".tailtest/config.json"), '{"mode":"strict"}\n');
writeFileSync(join(strictProject, ".tailtest/events.jsonl"), strictHistory(1000));

function strictHistory(claims) {
  const ts = "2026-11-23T10:00:00.000Z";
  const hash = "a".repeat(64);
  const lines = [];
  for (let i = 0; i < claims; i += 1) {
    const id = `tests/test_calc.py::test_case_${i}`;
    const test = {
      id,
      file: "tests/test_calc.py",
      segments: [`test_case_${i}`],
      runner: "pytest",
      source: "native",
    };
    const run = {
      v: 1,
      type: "test_run",
      ts,
      test_id: id,
      test,
      command: "python -m pytest",
      duration_ms: 900,
      test_file_hash: hash,
    };
    lines.push(
      { ...run, status: "fail", fail_reason: "assertion", purpose: "claim" },
      {
        v: 1,
        type: "edit_claim",
        ts,
        claim: `c${i + 1}`,
        test_id: id,
        edit_target: "src/calc/core.py",
      },
      { v: 1, type: "snapshot", ts, claim: `c${i + 1}`, path: "src/calc/core.py", object: hash },
      { ...run, status: "pass", purpose: "verify" },
      { v: 1, type: "verify_result", ts, scope: "claim", claim: `c${i + 1}`, status: "pass" },
    );
  }
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

const hook = (adapter) => join(repo, "adapters", adapter, "dist/hook.js");
const common = { session_id: "bench", cwd: project };
const payloads = {
  claude: {
    ...common,
    transcript_path: join(project, "t.jsonl"),
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(project, "calc.py") },
  },
  cursor: {
    conversation_id: "bench",
    cursor_version: "2.1.50",
    workspace_roots: [project],
    hook_event_name: "afterFileEdit",
    file_path: join(project, "calc.py"),
    edits: [],
  },
  codexPatch: {
    ...common,
    turn_id: "t",
    model: "gpt-5.5",
    hook_event_name: "PostToolUse",
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Update File: calc.py\n@@\n+\n*** End Patch\n" },
    tool_response: "",
  },
  codexBash: {
    ...common,
    turn_id: "t",
    model: "gpt-5.5",
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "cat > calc.py <<'EOF'\ndef add(a, b):\n    return a + b\nEOF\n" },
    tool_response: "",
  },
};
const preWrite = (root) => ({
  ...common,
  cwd: root,
  transcript_path: join(root, "t.jsonl"),
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(root, "calc.py"), content: "x = 1\n" },
});
const prePatch = (root) => ({
  ...common,
  cwd: root,
  turn_id: "t",
  model: "gpt-5.5",
  hook_event_name: "PreToolUse",
  tool_name: "apply_patch",
  tool_input: { command: "*** Begin Patch\n*** Update File: calc.py\n@@\n+\n*** End Patch\n" },
});
const preCursorWrite = (root) => ({
  conversation_id: "bench",
  cursor_version: "2.1.50",
  workspace_roots: [root],
  hook_event_name: "preToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(root, "calc.py"), content: "x = 1\n" },
  tool_use_id: "t",
  cwd: root,
});
const gates = {
  claudeFollow: preWrite(project),
  claudeTdd: preWrite(tddProject),
  codexFollow: prePatch(project),
  codexTdd: prePatch(tddProject),
  cursorFollow: preCursorWrite(project),
  cursorTdd: preCursorWrite(tddProject),
  claudeStrict: preWrite(strictProject),
  codexStrict: prePatch(strictProject),
  cursorStrict: preCursorWrite(strictProject),
};

const cases = [
  ["node -e 0 (baseline)", ["-e", "0"]],
  [
    "import @tailtest/core/node",
    ["--input-type=module", "-e", `await import(${JSON.stringify(edge)})`],
  ],
  [
    "inspect + queue one edited file",
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(edge)}); const p = m.openProject(process.argv[1]); await m.queueEdit(p, m.inspectEdit(p, "calc.py", { status: "new" }));`,
      project,
    ],
  ],
  ["claude-code hook: PostToolUse Write", [hook("claude-code")], payloads.claude],
  ["cursor hook: afterFileEdit", [hook("cursor")], payloads.cursor],
  ["codex hook: PostToolUse apply_patch", [hook("codex")], payloads.codexPatch],
  ["codex hook: PostToolUse Bash (parser)", [hook("codex")], payloads.codexBash],
  ["claude-code PreToolUse Write, follow", [hook("claude-code")], gates.claudeFollow, project],
  ["claude-code PreToolUse Write, tdd gate", [hook("claude-code")], gates.claudeTdd, tddProject],
  ["codex PreToolUse apply_patch, follow", [hook("codex")], gates.codexFollow, project],
  ["codex PreToolUse apply_patch, tdd gate", [hook("codex")], gates.codexTdd, tddProject],
  ["cursor preToolUse Write, follow", [hook("cursor")], gates.cursorFollow, project],
  ["cursor preToolUse Write, tdd gate", [hook("cursor")], gates.cursorTdd, tddProject],
  [
    "claude-code PreToolUse Write, strict gate (5,000-event log)",
    [hook("claude-code")],
    gates.claudeStrict,
    strictProject,
  ],
  [
    "codex PreToolUse apply_patch, strict gate (5,000-event log)",
    [hook("codex")],
    gates.codexStrict,
    strictProject,
  ],
  [
    "cursor preToolUse Write, strict gate (5,000-event log)",
    [hook("cursor")],
    gates.cursorStrict,
    strictProject,
  ],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Interleave the cases so a busy machine slows them all alike.
const samples = cases.map(() => []);
for (let i = 0; i < runs; i += 1) {
  cases.forEach(([, args, payload, root], index) => {
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, args, {
      input: payload === undefined ? "" : JSON.stringify(payload),
      stdio: ["pipe", "ignore", "ignore"],
      cwd: root ?? project,
      env: { ...process.env, CLAUDE_PROJECT_DIR: root ?? project },
    });
    samples[index].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
}
rmSync(project, { recursive: true, force: true });
rmSync(tddProject, { recursive: true, force: true });
rmSync(strictProject, { recursive: true, force: true });

const base = median(samples[0]);
console.log(`node ${process.version}, ${runs} runs each, medians`);
for (const [index, [name]] of cases.entries()) {
  const value = median(samples[index]);
  console.log(
    `${name.padEnd(40)} ${value.toFixed(1).padStart(7)} ms  ${(value / base).toFixed(2)}x`,
  );
}
