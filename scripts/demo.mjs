// The demo: a scripted Claude Code session on a fixture project, driven through the built
// hook bin exactly as Claude Code drives it (JSON on stdin, JSON on stdout). Every hook's
// input and answer is printed. The tests are run for real by tailtest at each Stop.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const hook = join(repo, "adapters/claude-code/dist/hook.cjs");
const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = (text) => paint(1, text);
const dim = (text) => paint(2, text);

const root = mkdtempSync(join(tmpdir(), "tailtest-demo-"));
const project = join(root, "project");
const keep = process.argv.includes("--keep");
let sessionId = "demo-session-1";

const BUGGY =
  'def charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * 1.02, 2)\n';
const FIXED =
  'def charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * 1.2, 2)\n';
const TEST =
  "from billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 12.0\n\n\ndef test_charge_zero():\n    assert charge(0) == 0\n";

try {
  cpSync(join(repo, "fixtures/runners/pytest-pyproject"), project, { recursive: true });
  const git = (...args) =>
    execFileSync("git", ["-c", "user.email=demo@example.com", "-c", "user.name=demo", ...args], {
      cwd: project,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture", "--no-gpg-sign");

  console.log(bold("tailtest demo: one Claude Code session, every hook call shown"));
  console.log(
    dim(
      "A pytest project (fixtures/runners/pytest-pyproject) in a temporary folder. The agent's moves are scripted;",
    ),
  );
  console.log(
    dim(
      "tailtest's answers are real: the built hook bin runs, and at each Stop it runs pytest itself.",
    ),
  );

  fire("SessionStart", { source: "startup" });
  agentWrites("billing.py", BUGGY);
  fire("Stop", { stop_hook_active: false });
  agentWrites("tests/test_billing.py", TEST);
  fire("Stop", { stop_hook_active: true });
  agentWrites("billing.py", FIXED);
  fire("Stop", { stop_hook_active: true });
  showGreen();
  fire("SessionEnd", { reason: "prompt_input_exit" });
  sessionId = "demo-session-2";
  fire("SessionStart", { source: "startup" });
  console.log();
  console.log(dim(`History is in .tailtest/history.json${keep ? ` (kept at ${project})` : ""}.`));
  const cli = join(repo, "packages/cli/dist/bin.js");
  if (keep)
    for (const command of ["status", "history", "report"])
      console.log(dim(`  node ${cli} ${command} --root ${project}`));
  else
    console.log(dim("Run it with --keep to keep the project and look at it with tailtest status."));
} finally {
  if (!keep) rmSync(root, { recursive: true, force: true });
}

/** A green Stop says nothing to the agent; what tailtest measured is in the session state. */
function showGreen() {
  const session = JSON.parse(readFileSync(join(project, ".tailtest/session.json"), "utf8"));
  for (const [file, result] of Object.entries(session.results ?? {}))
    console.log(
      `  ${paint(32, `${file}: ${result.outcome}`)} ${dim("(tailtest ran pytest itself)")}`,
    );
}

function agentWrites(path, content) {
  const abs = join(project, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  console.log();
  console.log(paint(36, `agent  Write ${path}`));
  fire(
    "PostToolUse",
    { tool_name: "Write", tool_input: { file_path: abs, content }, tool_use_id: "toolu_demo" },
    true,
  );
}

function fire(event, fields, quiet = false) {
  const payload = {
    session_id: sessionId,
    transcript_path: join(root, "transcript.jsonl"),
    cwd: project,
    hook_event_name: event,
    ...fields,
  };
  if (!quiet) console.log();
  const shown = Object.entries(fields)
    .filter(([key]) => key !== "tool_input")
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(", ");
  console.log(`${paint(35, "hook ")}  ${bold(event)}${shown === "" ? "" : dim(`  {${shown}}`)}`);
  const result = spawnSync(process.execPath, [hook], {
    input: JSON.stringify(payload),
    env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    encoding: "utf8",
  });
  if (result.status !== 0 || result.stderr !== "") throw new Error(`hook failed: ${result.stderr}`);
  const out = result.stdout.trim();
  if (out === "") {
    console.log(
      `${paint(32, "tailtest")} ${dim(event === "Stop" ? "(no output: the turn's tests are green, the turn ends)" : "(no output: nothing to say, the agent carries on or the turn ends)")}`,
    );
    return;
  }
  const json = JSON.parse(out);
  const text =
    json.hookSpecificOutput?.additionalContext ?? json.reason ?? json.systemMessage ?? out;
  const label =
    json.decision === "block" ? paint(31, "tailtest blocks the stop:") : paint(32, "tailtest");
  console.log(`${label} ${dim(JSON.stringify(Object.keys(json.hookSpecificOutput ?? json)))}`);
  for (const line of text.split("\n")) console.log(`  ${line}`);
}
