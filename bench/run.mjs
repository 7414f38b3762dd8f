// Every benchmark, one after the other, each against `node -e 0` in its own run, and a summary of
// the hook targets: met or missed. `pnpm bench` builds first and runs this.
//   node bench/run.mjs [--runs N] [--only hook-path,sweep,…] [--check] [--guard] [--record]
//                      [--markdown FILE] [--instructions]
// --check exits 1 when a target is missed. --guard exits 1 when a case got more than a quarter
// slower (as a ratio against `node -e 0`, or against its `of` case) than the figures recorded in
// bench/recorded.json, which --record rewrites: the guard against regressions, by benchmark, not
// by timed unit tests. --markdown writes the summary as a table. With --instructions, each case's
// instructions against the baseline's are recorded and guarded too (`<case> [instructions]`).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, describeTarget } from "./lib.mjs";

const BENCHES = [
  "hook-path",
  "cli",
  "run-cost",
  "session-start",
  "sweep",
  "verify",
  "analysis",
  "selection-scale",
  "gate-contention",
];

const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const runs = option("--runs") ?? "15";
const only = option("--only")?.split(",") ?? BENCHES;
const markdown = option("--markdown");
const check = argv.includes("--check");
const guard = argv.includes("--guard");
const record = argv.includes("--record");
// Each benchmark that supports it also counts its cases' instructions (bench/lib.mjs).
const instructions = argv.includes("--instructions") ? ["--instructions"] : [];
const RECORDED = join(REPO, "bench/recorded.json");
/** How much slower than recorded a case may be before --guard fails. */
const SLACK = 1.25;
const unknown = only.filter((name) => !BENCHES.includes(name));
if (unknown.length > 0) throw new Error(`no benchmark named ${unknown.join(", ")}`);

const out = mkdtempSync(join(tmpdir(), "tailtest-bench-run-"));
const results = [];
try {
  for (const name of only) {
    const json = join(out, `${name}.json`);
    execFileSync(
      process.execPath,
      [join(REPO, "bench", `${name}.mjs`), "--runs", runs, "--json", json, ...instructions],
      {
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    results.push({ name, ...JSON.parse(readFileSync(json, "utf8")) });
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

const rows = results.flatMap((result) =>
  result.rows
    .filter((row) => row.target !== undefined)
    .map((row) => ({ bench: result.name, ...row })),
);
const missed = rows.filter((row) => row.failures.length > 0);
const mib = (row) => (row.rssKiB === undefined ? "—" : `${(row.rssKiB / 1024).toFixed(1)} MiB`);
const machines = results.map(
  (result) => `- ${result.name}: ${result.machine ?? "unknown machine"}`,
);
const lines = [
  `node ${process.version}, ${runs} runs per case (medians). Each benchmark's machine and load at its end:`,
  "",
  ...machines,
  "",
  `| benchmark | case | target | median | × node -e 0 | peak memory | |`,
  `| --- | --- | --- | --- | --- | --- | --- |`,
  ...rows.map(
    (row) =>
      `| ${row.bench} | ${row.name} | ${describeTarget(row.target)} | ${row.ms.toFixed(1)} ms | ${row.ratio.toFixed(2)}× | ${mib(row)} | ${row.failures.length === 0 ? "met" : `missed: ${row.failures.join("; ")}`} |`,
  ),
];
console.log(`\nTargets: ${rows.length - missed.length} of ${rows.length} met`);
for (const row of missed)
  console.log(`  missed: ${row.bench}: ${row.name}: ${row.failures.join("; ")}`);
if (markdown !== undefined) writeFileSync(markdown, `${lines.join("\n")}\n`);
if (check && missed.length > 0) process.exitCode = 1;

/** A case's figure the guard compares: against its `of` case when it has one, else the baseline. */
function figure(result, row) {
  const of = row.target?.of;
  const other = of === undefined ? undefined : result.rows.find((r) => r.name === of);
  return other === undefined ? row.ratio : row.ms / other.ms;
}
/**
 * A case's instructions against the baseline's (`--instructions`): a figure the machine's load
 * does not move, so the guard holds on a shared machine too.
 */
function instructionFigures(result) {
  const base = result.rows[0]?.instructions;
  if (base === undefined || base === null) return [];
  return result.rows
    .slice(1)
    .filter((row) => typeof row.instructions === "number")
    .map((row) => [`${result.name}: ${row.name} [instructions]`, row.instructions / base]);
}
const figures = Object.fromEntries(
  results.flatMap((result) => [
    ...result.rows.slice(1).map((row) => [`${result.name}: ${row.name}`, figure(result, row)]),
    ...instructionFigures(result),
  ]),
);
if (record) {
  const kept = existsSync(RECORDED) ? JSON.parse(readFileSync(RECORDED, "utf8")) : {};
  const merged = {
    ...kept,
    ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v.toFixed(3))])),
  };
  writeFileSync(RECORDED, `${JSON.stringify(merged, null, 2)}\n`);
  console.log(`recorded ${Object.keys(figures).length} figures in bench/recorded.json`);
}
if (guard) {
  const recorded = JSON.parse(readFileSync(RECORDED, "utf8"));
  const slower = Object.entries(figures).filter(
    ([name, value]) => recorded[name] !== undefined && value > recorded[name] * SLACK,
  );
  for (const [name, value] of slower)
    console.log(`  slower: ${name}: ${value.toFixed(2)}× (recorded ${recorded[name]}×)`);
  console.log(
    `Guard: ${slower.length === 0 ? "no case" : `${slower.length} case(s)`} more than ${Math.round((SLACK - 1) * 100)}% slower than recorded`,
  );
  if (slower.length > 0) process.exitCode = 1;
}
