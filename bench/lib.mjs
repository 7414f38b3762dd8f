// What every benchmark here shares: whole processes, timed against `node -e 0` started in the
// same run and interleaved with it (a busy machine slows every case alike), medians, peak memory.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
export const hookBin = (adapter) => join(REPO, "adapters", adapter, "dist/hook.cjs");

/** `--runs N` (at least 10: a median of fewer says little), `--env-as-is`, `--json FILE`. */
export function benchArgs(argv = process.argv.slice(2), defaults = { runs: 15 }) {
  const args = { runs: defaults.runs, envAsIs: false, json: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--runs") args.runs = Math.max(10, Number(argv[(i += 1)]));
    else if (arg === "--env-as-is") args.envAsIs = true;
    else if (arg === "--json") args.json = argv[(i += 1)];
    else if (/^\d+$/.test(arg)) args.runs = Math.max(10, Number(arg));
  }
  return args;
}

/**
 * The environment the processes run in. NODE_EXTRA_CA_CERTS makes every node process parse a
 * certificate bundle before its first line (on this machine ~4/5 of `node -e 0`'s work), which
 * makes every ratio look far better than on a developer's machine, where it is rarely set: it is
 * removed unless `--env-as-is` (node's own compile cache and options go too, for the same reason).
 */
export function benchEnv(args, extra = {}) {
  const env = { ...process.env, ...extra };
  if (!args.envAsIs) {
    delete env["NODE_EXTRA_CA_CERTS"];
    delete env["NODE_COMPILE_CACHE"];
    delete env["NODE_OPTIONS"];
  }
  return env;
}

const TIME = "/usr/bin/time";
const hasTime = existsSync(TIME);

/**
 * One whole process: wall time from spawn to exit, and peak resident memory (GNU time's %M, in
 * KiB) when /usr/bin/time exists. Every case, `node -e 0` included, runs through the same wrapper.
 */
export function runOnce({ command, args = [], input = "", cwd, env }) {
  const argv = hasTime ? ["-f", "tailtest-bench-rss %M", command, ...args] : args;
  const started = process.hrtime.bigint();
  const result = spawnSync(hasTime ? TIME : command, argv, {
    input,
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const stderr = String(result.stderr);
  const rss = /tailtest-bench-rss (\d+)/.exec(stderr)?.[1];
  return {
    ms,
    rssKiB: rss === undefined ? undefined : Number(rss),
    status: result.status,
    stdout: String(result.stdout),
    stderr: stderr.replace(/tailtest-bench-rss \d+\n?/, ""),
  };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Runs every case `runs` times, interleaved, after one warm-up round (a first call may write a
 * code cache or a session). `check(result)` may throw on a wrong answer: a benchmark of a hook
 * that failed says nothing. `before(caseIndex)` prepares a case's state before each of its runs.
 */
export function measure(cases, { runs, before, check }) {
  const samples = cases.map(() => []);
  for (let round = -1; round < runs; round += 1) {
    cases.forEach((one, index) => {
      before?.(one, index);
      const result = runOnce(one);
      if (result.status !== 0)
        throw new Error(`${one.name}: exit ${result.status}: ${result.stderr.slice(0, 500)}`);
      check?.(one, result);
      if (round >= 0) samples[index].push(result);
    });
  }
  return cases.map((one, index) => ({
    name: one.name,
    target: one.target,
    ms: median(samples[index].map((s) => s.ms)),
    minMs: Math.min(...samples[index].map((s) => s.ms)),
    rssKiB: Math.max(...samples[index].map((s) => s.rssKiB ?? 0)) || undefined,
  }));
}

/** The baseline every run times beside its cases. */
export function baselineCase(env) {
  return { name: "node -e 0 (baseline)", command: process.execPath, args: ["-e", "0"], env };
}

/** Prints rows as a table: median, ratio to the baseline's median, fastest, peak memory. */
export function report(title, rows, args) {
  const base = rows[0].ms;
  console.log(`\n${title}`);
  console.log(
    `node ${process.version}, ${args.runs} runs each (medians)${args.envAsIs ? ", environment as is" : ", NODE_EXTRA_CA_CERTS unset"}`,
  );
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const ratio = `${(row.ms / base).toFixed(2)}x`;
    const rss = row.rssKiB === undefined ? "" : `  ${(row.rssKiB / 1024).toFixed(1)} MiB`;
    const target = row.target === undefined ? "" : `  (target ${row.target})`;
    console.log(
      `${row.name.padEnd(width)}  ${row.ms.toFixed(1).padStart(8)} ms  ${ratio.padStart(6)}  min ${row.minMs.toFixed(1).padStart(7)} ms${rss}${target}`,
    );
  }
  return rows.map((row) => ({ ...row, ratio: row.ms / base }));
}

/** A scratch folder, removed when the process exits. */
export function scratch(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
