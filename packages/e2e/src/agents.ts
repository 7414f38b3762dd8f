import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, userShellEnv } from "@tailtest/test-utils";
import { execa } from "execa";

/** A real agent CLI, pinned, and the tailtest adapter that plugs into it. */
export interface AgentCli {
  id: "claude-code" | "codex";
  /** The npm package and the exact version the suite is verified against. */
  packageName: string;
  version: string;
  /** The CLI's bin name in node_modules/.bin. */
  bin: string;
  /** The tailtest adapter: package name, folder in this repository, and its setup bin. */
  adapter: string;
  adapterDir: string;
  initBin: string;
}

export const CLAUDE_CODE: AgentCli = {
  id: "claude-code",
  packageName: "@anthropic-ai/claude-code",
  version: "2.1.330",
  bin: "claude",
  adapter: "@tailtest/claude-code",
  adapterDir: "adapters/claude-code",
  initBin: "tailtest-claude-code",
};

export const CODEX: AgentCli = {
  id: "codex",
  packageName: "@openai/codex",
  version: "0.169.0",
  bin: "codex",
  adapter: "@tailtest/codex",
  adapterDir: "adapters/codex",
  initBin: "tailtest-codex",
};

/** Where the pinned CLIs live: gitignored, shared by every checkout's test runs. */
export const AGENTS_CACHE = join(REPO_ROOT, "node_modules", ".cache", "tailtest", "agents");

export type CliStatus =
  | {
      ok: true;
      /** Absolute path of the CLI's bin. */
      bin: string;
      /** What `--version` printed. */
      version: string;
      /** How long the npm install took; undefined when the cache already held it. */
      installMs: number | undefined;
    }
  | { ok: false; reason: string };

export function cacheDir(cli: AgentCli): string {
  return join(AGENTS_CACHE, `${cli.id}@${cli.version}`);
}

/**
 * The pinned CLI from the cache, installed there with `npm i --prefix` the first time. A failed
 * install is written down (tests skip with its reason until the folder is removed); a CLI that
 * does not start is a skip reason too. Never throws.
 */
export async function ensureCli(cli: AgentCli): Promise<CliStatus> {
  const dir = cacheDir(cli);
  const failed = join(dir, ".failed");
  if (existsSync(failed))
    return {
      ok: false,
      reason: `${readFileSync(failed, "utf8").trim()} (remove ${dir} to try again)`,
    };
  let installMs: number | undefined;
  if (!existsSync(join(dir, ".installed"))) {
    const started = Date.now();
    const error = await install(cli, dir);
    if (error !== undefined) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(failed, `${error}\n`);
      return { ok: false, reason: error };
    }
    installMs = Date.now() - started;
  }
  const bin = join(dir, "node_modules", ".bin", cli.bin);
  const started = await startsUp(cli, bin);
  return started.ok ? { ok: true, bin, version: started.version, installMs } : started;
}

/** npm i into a scratch folder, then a rename: a half-finished install is never taken as done. */
async function install(cli: AgentCli, dir: string): Promise<string | undefined> {
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, "package.json"), '{ "private": true }\n');
  const spec = `${cli.packageName}@${cli.version}`;
  const result = await execa(
    "npm",
    ["i", "--prefix", scratch, spec, "--save-exact", "--no-audit", "--no-fund", "--loglevel=error"],
    { reject: false, timeout: 600_000, env: userShellEnv(), extendEnv: false },
  );
  if (result.exitCode !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    const why = `${result.stderr}`.split("\n").find((line) => line.trim() !== "") ?? "";
    return `npm i ${spec} failed (exit ${String(result.exitCode)}): ${why}`;
  }
  writeFileSync(join(scratch, ".installed"), `${spec}\n`);
  try {
    renameSync(scratch, dir);
  } catch {
    // Another test process finished the same install first; its copy is as good as ours.
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(join(dir, ".installed"))) return `could not move the install into ${dir}`;
  }
  return undefined;
}

/** `<cli> --version` in a throwaway home, so nothing is written to the real one. */
async function startsUp(
  cli: AgentCli,
  bin: string,
): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  if (!existsSync(bin)) return { ok: false, reason: `${bin} is missing after the install` };
  const home = join(tmpdir(), `tailtest-e2e-version-${process.pid}-${cli.id}`);
  mkdirSync(home, { recursive: true });
  try {
    const result = await execa(bin, ["--version"], {
      reject: false,
      timeout: 60_000,
      env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), CODEX_HOME: home },
    });
    const version = result.stdout.trim();
    if (result.exitCode !== 0 || !version.includes(cli.version)) {
      const output = `${result.stdout}\n${result.stderr}`.trim().split("\n")[0] ?? "";
      return {
        ok: false,
        reason: `${cli.bin} --version did not start as ${cli.version} (exit ${String(result.exitCode)}): ${output}`,
      };
    }
    return { ok: true, version };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
