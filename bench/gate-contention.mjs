// A hundred gate calls at the same moment on one tdd project, through the built hook bins of the
// three agents, beside a hundred `node -e 0` started the same way in the same run: the gates'
// p50 / p95 / max wall time per process, and the baseline's. A gate that has not answered by the
// agent's timeout lets the tool call through on Codex and Cursor, so the target is on the slowest
// one: max ≤ 5 s. It is judged two ways:
// - wall: the slowest gate's wall time, only while the baseline's max shows a machine able to
//   start a hundred processes at once (≤ BASELINE_MAX_MS); on a busier one it is printed only;
// - CPU: the CPU the hundred gates used (user + sys, summed, from GNU time) over the machine's
//   cores, which is what the slowest one waits for on an otherwise idle machine. Other work does
//   not add to a process's own CPU time, so this one is judged on a busy machine too.
// `--instructions` also counts, under valgrind, one call of each of the four kinds and one
// `node -e 0` (instructions do not depend on the machine's load).
//   node bench/gate-contention.mjs [--calls N] [--mode tdd|strict] [--instructions] [--json out.json]
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { REPO, benchArgs, benchEnv, countInstructions, hookBin, machine, scratch } from "./lib.mjs";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv[at + 1];
};
const args = benchArgs(argv.filter((arg, i) => !["--calls", "--mode"].includes(argv[i - 1] ?? "")));
const CALLS = Number(option("--calls", "100"));
const MODE = option("--mode", "tdd");
/** The slowest gate may take this long… */
const MAX_MS = 5_000;
/** …on a machine whose slowest of the same number of `node -e 0` took at most this. */
const BASELINE_MAX_MS = 2_500;

const box = scratch("tailtest-bench-gates-");
const root = join(box, "project");
cpSync(join(REPO, "fixtures/runners/pytest-pyproject"), root, { recursive: true });
mkdirSync(join(root, ".tailtest"), { recursive: true });
writeFileSync(join(root, ".tailtest/config.json"), `{"mode":"${MODE}"}\n`);
for (let i = 0; i < 64; i += 1)
  writeFileSync(join(root, `mod${i}.py`), `def f${i}(x):\n    return x + ${i}\n`);
const git = (...a) => execFileSync("git", a, { cwd: root, stdio: "ignore" });
git("init", "-q");
git("add", "-A");
git("-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "bench");

const env = benchEnv(args, { CLAUDE_PROJECT_DIR: root, CURSOR_PROJECT_DIR: root });
const body = (i) => `def f${i}(x):\n    return x - ${i}\n`;

/** The i-th gate call: a production write no Red allows, asked of one of four gates. */
function gate(i) {
  const file = `mod${i % 64}.py`;
  const abs = join(root, file);
  switch (i % 4) {
    case 0:
      return {
        adapter: "claude-code",
        payload: {
          session_id: `bench-${i % 3}`,
          transcript_path: join(root, "t.jsonl"),
          cwd: root,
          permission_mode: "default",
          hook_event_name: "PreToolUse",
          tool_name: "Write",
          tool_input: { file_path: abs, content: body(i) },
          tool_use_id: `toolu_${i}`,
        },
      };
    case 1:
    case 2: {
      const command =
        i % 4 === 1
          ? `*** Begin Patch\n*** Update File: ${file}\n@@\n-    return x + ${i % 64}\n+    return x - ${i}\n*** End Patch\n`
          : `cat > ${file} <<'EOF'\n${body(i)}EOF\n`;
      return {
        adapter: "codex",
        payload: {
          session_id: `bench-${i % 3}`,
          turn_id: "t",
          transcript_path: null,
          cwd: root,
          model: "gpt-5.5",
          hook_event_name: "PreToolUse",
          tool_name: i % 4 === 1 ? "apply_patch" : "Bash",
          tool_input: { command },
          tool_use_id: `call_${i}`,
        },
      };
    }
    default:
      return {
        adapter: "cursor",
        payload: {
          conversation_id: `bench-${i % 3}`,
          generation_id: "g",
          cursor_version: "2.1.50",
          workspace_roots: [root],
          hook_event_name: "preToolUse",
          tool_name: "Write",
          tool_input: { file_path: abs, content: body(i) },
          tool_use_id: `t${i}`,
          cwd: root,
        },
      };
  }
}

const TIME = "/usr/bin/time";
if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for the CPU figures`);
const CPU_MARK = "tailtest-bench-cpu";
/** The cores the CPU figure is shared over. */
const CORES = cpus().length;

/**
 * Starts every process at once (each through GNU time, the baseline too); each one's wall time
 * from spawn to exit, its CPU time (user + sys), and its output.
 */
function burst(processes) {
  return Promise.all(
    processes.map(
      ({ args: a, input }) =>
        new Promise((resolve, reject) => {
          const started = process.hrtime.bigint();
          const child = spawn(TIME, ["-f", `${CPU_MARK} %U %S`, process.execPath, ...a], {
            cwd: root,
            env,
            stdio: "pipe",
          });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (chunk) => (stdout += chunk));
          child.stderr.on("data", (chunk) => (stderr += chunk));
          child.on("error", reject);
          child.on("close", (status) => {
            const cpu = new RegExp(`${CPU_MARK} ([\\d.]+) ([\\d.]+)\\n?`).exec(stderr);
            resolve({
              ms: Number(process.hrtime.bigint() - started) / 1e6,
              cpuMs: cpu === null ? NaN : (Number(cpu[1]) + Number(cpu[2])) * 1000,
              status,
              stdout,
              stderr: cpu === null ? stderr : stderr.replace(cpu[0], ""),
            });
          });
          child.stdin.end(input ?? "");
        }),
    ),
  );
}

function stats(results) {
  const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const cpuMs = results.reduce((sum, r) => sum + r.cpuMs, 0);
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1], cpuMs };
}

const baselineRun = await burst(Array.from({ length: CALLS }, () => ({ args: ["-e", "0"] })));
const calls = Array.from({ length: CALLS }, (_, i) => gate(i));
const gateRun = await burst(
  calls.map((call) => ({ args: [hookBin(call.adapter)], input: JSON.stringify(call.payload) })),
);
if (gateRun.some((result) => Number.isNaN(result.cpuMs)))
  throw new Error("GNU time printed no CPU time for a gate");

// Every gate must have denied (no Red): a fast answer that lets the write by says nothing.
const wrong = gateRun.filter((result) => result.status !== 0 || !/"deny"/.test(result.stdout));
if (wrong.length > 0) {
  const first = wrong[0];
  throw new Error(
    `${wrong.length} of ${CALLS} gates did not deny; first: exit ${first.status}, ${first.stdout.slice(0, 300)} ${first.stderr.slice(0, 300)}`,
  );
}

// Gates that denied at their deadline (GATE_DEADLINE_MS) rather than by deciding.
const late = gateRun.filter((result) =>
  result.stderr.startsWith("tailtest: the gate could not decide within"),
).length;
const base = stats(baselineRun);
const gates = stats(gateRun);
const judged = base.max <= BASELINE_MAX_MS;
const failures =
  judged && gates.max > MAX_MS ? [`max ${gates.max.toFixed(0)} ms > ${MAX_MS} ms`] : [];
/** The wall the hundred gates' CPU needs of every core of an otherwise idle machine. */
const cpuWall = gates.cpuMs / CORES;
const cpuFailures =
  cpuWall > MAX_MS ? [`CPU ${gates.cpuMs.toFixed(0)} ms / ${CORES} cores > ${MAX_MS} ms`] : [];
const fmt = (s) =>
  `p50 ${s.p50.toFixed(0).padStart(6)} ms  p95 ${s.p95.toFixed(0).padStart(6)} ms  max ${s.max.toFixed(0).padStart(6)} ms  CPU ${s.cpuMs.toFixed(0).padStart(6)} ms (${(s.cpuMs / CALLS).toFixed(0)} ms each)`;

const title = `${CALLS} parallel ${MODE}-mode gate calls (Claude Code, Codex apply_patch and Bash, Cursor)`;
console.log(`\n${title}`);
console.log(`node ${process.version}; ${machine()}`);
console.log(`node -e 0 ×${CALLS} (baseline)  ${fmt(base)}`);
console.log(`gate ×${CALLS}                  ${fmt(gates)}  (${late} denied at their deadline)`);
console.log(
  judged
    ? `target max ≤ ${MAX_MS} ms (baseline max ≤ ${BASELINE_MAX_MS} ms): ${failures.length === 0 ? "met" : `MISSED: ${failures[0]}`}`
    : `target max ≤ ${MAX_MS} ms not judged: the baseline's max ${base.max.toFixed(0)} ms > ${BASELINE_MAX_MS} ms (a machine this busy starves every process)`,
);
console.log(
  `target CPU / ${CORES} cores ≤ ${MAX_MS} ms: ${cpuWall.toFixed(0)} ms, ${cpuFailures.length === 0 ? "met" : `MISSED: ${cpuFailures[0]}`}`,
);

/** Instructions of one call of each kind (valgrind), beside one `node -e 0`. */
const counted = [];
if (args.instructions) {
  const kinds = [
    ["node -e 0", ["-e", "0"], ""],
    ...[0, 1, 2, 3].map((k) => {
      const call = calls[k];
      const kind = `${call.adapter} ${call.payload.tool_name}`;
      return [kind, [hookBin(call.adapter)], JSON.stringify(call.payload)];
    }),
  ];
  for (const [name, a, input] of kinds) {
    const instructions = countInstructions({
      command: process.execPath,
      args: a,
      input,
      cwd: root,
      env,
    });
    counted.push({ name, instructions });
  }
  const base0 = counted[0].instructions;
  for (const { name, instructions } of counted)
    console.log(
      `${name.padEnd(20)} ${instructions === undefined ? "no valgrind" : `${(instructions / 1e6).toFixed(0).padStart(5)} M instr (${(instructions / base0).toFixed(2)}x)`}`,
    );
}

if (args.json !== undefined) {
  const row = (name, s, target, rowFailures) => ({
    name,
    target,
    ms: s.max,
    minMs: s.p50,
    ratio: s.max / base.max,
    failures: rowFailures,
    p50: s.p50,
    p95: s.p95,
  });
  writeFileSync(
    args.json,
    `${JSON.stringify(
      {
        title,
        runs: 1,
        machine: machine(),
        rows: [
          {
            ...row(`node -e 0 ×${CALLS} in parallel, slowest (baseline)`, base, undefined, []),
            instructions: counted[0]?.instructions,
          },
          row(
            `${MODE} gate ×${CALLS} in parallel, slowest`,
            gates,
            judged ? { ms: MAX_MS } : undefined,
            failures,
          ),
          {
            name: `${MODE} gate ×${CALLS} in parallel, CPU (user + sys) / ${CORES} cores`,
            target: { ms: MAX_MS },
            ms: cpuWall,
            minMs: cpuWall,
            ratio: gates.cpuMs / base.cpuMs,
            failures: cpuFailures,
          },
          // One call of each kind, counted (no wall time): what `run.mjs --guard` keeps an eye on.
          ...counted.slice(1).map(({ name, instructions }) => ({
            name: `one ${MODE} gate, ${name}`,
            instructions,
            ratio: instructions / counted[0].instructions,
            failures: [],
          })),
        ],
      },
      null,
      2,
    )}\n`,
  );
}
