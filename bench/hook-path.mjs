// Whole-process timings of tailtest's per-edit path, as ratios against `node -e 0` measured in
// the same run (a hook is a fresh process on every edit). Run after a build:
//   node bench/hook-path.mjs [runs]
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 21);
const edge = pathToFileURL(join(repo, "packages/core/dist/node/index.js")).href;
const project = mkdtempSync(join(tmpdir(), "tailtest-bench-"));
cpSync(join(repo, "fixtures/runners/pytest-pyproject"), project, { recursive: true });

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
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Interleave the cases so a busy machine slows them all alike.
const samples = cases.map(() => []);
for (let i = 0; i < runs; i += 1) {
  cases.forEach(([, args], index) => {
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, args, { stdio: "ignore" });
    samples[index].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
}
rmSync(project, { recursive: true, force: true });

const base = median(samples[0]);
console.log(`node ${process.version}, ${runs} runs each, medians`);
for (const [index, [name]] of cases.entries()) {
  const value = median(samples[index]);
  console.log(
    `${name.padEnd(34)} ${value.toFixed(1).padStart(7)} ms  ${(value / base).toFixed(2)}x`,
  );
}
