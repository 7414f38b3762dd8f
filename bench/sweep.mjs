// The Codex Stop sweep on a generated 50,000-file project (plus 20,000 files in dependency
// folders it must never enter), as whole processes against `node -e 0` in the same run.
// Run after a build:
//   node bench/sweep.mjs [runs]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 11);
const edge = pathToFileURL(join(repo, "packages/core/dist/node/index.js")).href;
const project = mkdtempSync(join(tmpdir(), "tailtest-sweep-"));

const PROJECT_FILES = 50_000;
const DEPENDENCY_FILES = 20_000;
const EXTENSIONS = [".ts", ".py", ".go", ".md", ".json", ".tsx", ".rs", ".txt", ".java", ".css"];
const old = new Date("2026-01-01T00:00:00Z");

function writeTree(base, count, perDir) {
  for (let i = 0; i < count; i += 1) {
    const dir = join(base, `m${Math.floor(i / perDir / 20)}`, `d${Math.floor(i / perDir)}`);
    if (i % perDir === 0) mkdirSync(dir, { recursive: true });
    const file = join(dir, `f${i}${EXTENSIONS[i % EXTENSIONS.length]}`);
    writeFileSync(file, "x\n");
    utimesSync(file, old, old);
  }
}
writeTree(join(project, "src"), PROJECT_FILES, 50);
writeTree(join(project, "node_modules"), DEPENDENCY_FILES / 2, 100);
writeTree(join(project, ".venv"), DEPENDENCY_FILES / 2, 100);
writeFileSync(join(project, ".gitignore"), "node_modules/\n.venv/\n");
const since = Date.now() - 1000;
const changed = Array.from({ length: 10 }, (_, i) => join(project, "src", `changed${i}.ts`));

const sweep = `const m = await import(${JSON.stringify(edge)}); const r = m.sweepChangedFiles(m.openProject(process.argv[1]), ${since}); if (r.changed.length !== Number(process.argv[2])) throw new Error("found " + r.changed.length);`;
const cases = [
  ["node -e 0 (baseline)", ["-e", "0"], false],
  [
    "import @tailtest/core/node",
    ["--input-type=module", "-e", `await import(${JSON.stringify(edge)})`],
    false,
  ],
  ["sweep, nothing changed", ["--input-type=module", "-e", sweep, project, "0"], false],
  ["sweep, 10 files changed", ["--input-type=module", "-e", sweep, project, "10"], true],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const samples = cases.map(() => []);
for (let i = 0; i < runs; i += 1) {
  cases.forEach(([, args, withChanges], index) => {
    for (const file of changed) {
      if (withChanges) writeFileSync(file, "export const x = 1;\n");
      else rmSync(file, { force: true });
    }
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
    samples[index].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
}
rmSync(project, { recursive: true, force: true });

const base = median(samples[0]);
const importTime = median(samples[1]);
console.log(
  `node ${process.version}, ${PROJECT_FILES} project files + ${DEPENDENCY_FILES} in node_modules/.venv, ${runs} runs each, medians`,
);
for (const [index, [name]] of cases.entries()) {
  const value = median(samples[index]);
  const sweepOnly = index >= 2 ? `  (sweep itself ${(value - importTime).toFixed(0)} ms)` : "";
  console.log(
    `${name.padEnd(28)} ${value.toFixed(1).padStart(7)} ms  ${(value / base).toFixed(2)}x${sweepOnly}`,
  );
}
