// The optional analyses (impact tracing, API validation, ramp-up, style sampling) as whole hook
// processes, against `node -e 0` in the same run: on a fixture project and on a generated
// project of 50,000 source and test files (bench/analysis-project.mjs). Run after a build:
//   node bench/analysis.mjs [runs]
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateAnalysisProject } from "./analysis-project.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 11);
const hook = join(repo, "adapters/claude-code/dist/hook.js");

function configure(root, config) {
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(join(root, ".tailtest/config.json"), JSON.stringify(config));
}

function call(root, payload) {
  const started = process.hrtime.bigint();
  const out = execFileSync(process.execPath, [hook], {
    input: JSON.stringify({
      session_id: "bench",
      transcript_path: join(root, "t.jsonl"),
      cwd: root,
      ...payload,
    }),
    cwd: root,
    env: { ...process.env, CLAUDE_PROJECT_DIR: root },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, out: out.toString() };
}

const start = { hook_event_name: "SessionStart", source: "startup" };
const write = (root, rel) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(root, rel) },
  tool_response: {},
});
const ALL_ON = {
  impact_tracing: true,
  api_validation: true,
  style_sampling: true,
  ramp_up_limit: 7,
};

// A fixture project: analyses off, then impact + API on (its graph built by a session start).
const small = mkdtempSync(join(tmpdir(), "tailtest-analysis-off-"));
cpSync(join(repo, "fixtures/analysis/python-app"), small, { recursive: true });
const smallOn = mkdtempSync(join(tmpdir(), "tailtest-analysis-on-"));
cpSync(join(repo, "fixtures/analysis/python-app"), smallOn, { recursive: true });
configure(smallOn, { impact_tracing: true, api_validation: true });
call(smallOn, start);

// 50,000 files: one copy with everything off, one with everything on.
const big = mkdtempSync(join(tmpdir(), "tailtest-analysis-50k-"));
generateAnalysisProject(big, 50_000);
const bigOn = mkdtempSync(join(tmpdir(), "tailtest-analysis-50k-on-"));
cpSync(big, bigOn, { recursive: true });

// One-off figures: the whole work with a box large enough for it to finish.
configure(bigOn, { ...ALL_ON, analysis_budget_ms: 10_000 });
const whole = call(bigOn, start);
if (/time box/.test(whole.out)) throw new Error("the 10 s box did not hold the whole work");
console.log(`whole session start, every analysis, 50k files, 10 s box: ${whole.ms.toFixed(0)} ms`);
// The edits below find a complete graph; the session starts below rebuild theirs in the box.
configure(bigOn, ALL_ON);
rmSync(join(bigOn, ".tailtest/ramp-up.json"), { force: true });

const cases = [
  ["node -e 0 (baseline)", () => execFileSync(process.execPath, ["-e", "0"])],
  [
    "PostToolUse Write, analyses off (fixture)",
    () => call(small, write(small, "src/shop/billing.py")),
  ],
  [
    "PostToolUse Write, impact + API on (fixture)",
    () => call(smallOn, write(smallOn, "src/shop/billing.py")),
  ],
  ["PostToolUse Write, analyses off (50k)", () => call(big, write(big, "src/big/p3/m7.py"))],
  [
    "PostToolUse Write, impact + API on (50k, graph built)",
    () => call(bigOn, write(bigOn, "src/big/p3/m7.py")),
  ],
  ["SessionStart, analyses off (50k)", () => call(big, start)],
  [
    "SessionStart, all on, 500 ms box (50k)",
    () => {
      // Ramp-up never finishes in this box, so it stays due; the graph is rebuilt each start.
      const result = call(bigOn, start);
      if (!/time box \(500 ms\)/.test(result.out)) throw new Error("expected a cut note");
      // The next case's edit needs the complete graph back.
      return result;
    },
  ],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const samples = cases.map(() => []);
for (let i = 0; i < runs; i += 1) {
  cases.forEach(([, run], index) => {
    const started = process.hrtime.bigint();
    run();
    samples[index].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
  // Put the complete graph back for the next round's 50k edit.
  configure(bigOn, { ...ALL_ON, analysis_budget_ms: 10_000 });
  call(bigOn, start);
  configure(bigOn, ALL_ON);
  rmSync(join(bigOn, ".tailtest/ramp-up.json"), { force: true });
}
for (const dir of [small, smallOn, big, bigOn]) rmSync(dir, { recursive: true, force: true });

const base = median(samples[0]);
console.log(`node ${process.version}, ${runs} runs each, medians`);
for (const [index, [name]] of cases.entries()) {
  const value = median(samples[index]);
  console.log(
    `${name.padEnd(54)} ${value.toFixed(1).padStart(8)} ms  ${(value / base).toFixed(2)}x`,
  );
}
