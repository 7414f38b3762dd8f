import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

/** The repository root, found from this file. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const FIXTURES_DIR = join(REPO_ROOT, "fixtures");

export interface TempProject {
  root: string;
  write(relPath: string, content: string): string;
  cleanup(): void;
}

/** A fresh temporary project made from inline files (`{ "src/a.py": "..." }`). */
export function makeProject(files: Readonly<Record<string, string>> = {}): TempProject {
  const root = mkdtempSync(join(tmpdir(), "tailtest-test-"));
  const write = (relPath: string, content: string): string => {
    const abs = join(root, relPath);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return abs;
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  return { root, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A temporary copy of a fixture project, so nothing a test does touches `fixtures/`. */
export function copyFixture(relDir: string): TempProject {
  const project = makeProject();
  cpSync(join(FIXTURES_DIR, relDir), project.root, { recursive: true });
  return project;
}

/** Makes the project a git repository with everything committed (files become "existing"). */
export async function commitAll(root: string): Promise<void> {
  const git = (...args: string[]) =>
    execa("git", ["-c", "user.email=t@example.com", "-c", "user.name=tailtest-test", ...args], {
      cwd: root,
    });
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "fixture", "--no-gpg-sign");
}

/**
 * git run in `cwd` with a test identity, its output as text (stderr dropped): for tests that
 * build a repository step by step and compare with what git itself answers.
 */
export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });
}

export interface BinResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs a built bin (a dist/*.js file) with node, feeding stdin, without ever using a shell. */
export async function runBin(
  binPath: string,
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: Record<string, string> } = {},
): Promise<BinResult> {
  const result = await execa(process.execPath, [binPath, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    input: options.input ?? "",
    env: { NO_COLOR: "1", ...options.env },
    reject: false,
    timeout: 60_000,
  });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1 };
}

export { RUNNER_FIXTURES, type RunnerFixture } from "./fixtures.ts";

const CACHE = join(REPO_ROOT, "node_modules", ".cache", "tailtest");

export interface Toolchain {
  available: boolean;
  /** Why it is missing (printed by the tests that skip). */
  reason: string;
  /** PATH with the tool's folder first, when it comes from the npm cache. */
  path?: string;
}

/** Whether a runner's toolchain is on this machine: on PATH, or installed by the test setup from npm. */
export function findToolchain(command: string): Toolchain {
  const cached = join(CACHE, "tools", "node_modules", ".bin");
  if (existsSync(join(cached, command))) {
    return {
      available: true,
      reason: "",
      path: `${cached}${delimiter}${process.env["PATH"] ?? ""}`,
    };
  }
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir !== "" && existsSync(join(dir, command))) return { available: true, reason: "" };
  }
  const failed = join(CACHE, "tools", ".failed");
  const why = existsSync(failed) ? readFileSync(failed, "utf8").trim() : "not on PATH";
  return { available: false, reason: `${command} is not installed (${why})` };
}

/**
 * A temporary copy of a fixture, with its npm dependencies linked from the cache the test
 * setup filled (for JS fixtures).
 */
export function copyFixtureWithDeps(relDir: string): TempProject {
  const project = copyFixture(relDir);
  const fixture = relDir.replace(/^runners\//, "");
  for (const [sub, cacheKey] of [
    ["", fixture],
    ["packages/web", `${fixture}/packages/web`],
  ] as const) {
    const modules = join(CACHE, "fixtures", cacheKey, "node_modules");
    if (existsSync(modules)) symlinkSync(modules, join(project.root, sub, "node_modules"), "dir");
  }
  return project;
}

/** A stored runner report from `fixtures/runner-output/<runner>/<name>`. */
export function readRunnerOutput(runner: string, name: string): string {
  return readFileSync(join(FIXTURES_DIR, "runner-output", runner, name), "utf8");
}

/** Parsed tests as `[file, segments, status]` rows: the shape parser tests compare. */
export function testRows(run: {
  tests: readonly { id: { file: string; segments: string[] }; status: string }[];
}): [string, string[], string][] {
  return run.tests.map((test) => [test.id.file, test.id.segments, test.status]);
}

/** A stored hook payload: the agent's stdin and the environment its hook ran with. */
export interface StoredPayload<T = Record<string, unknown>> {
  stdin: T;
  env: Record<string, string>;
}

/**
 * A payload from `fixtures/payloads/<dir>/<name>` with its placeholders filled for a
 * temporary project: `<run>/project` becomes `root`, `<run>` its parent.
 */
export function loadPayload<T = Record<string, unknown>>(
  dir: string,
  name: string,
  root: string,
): StoredPayload<T> {
  const text = readFileSync(join(FIXTURES_DIR, "payloads", dir, name), "utf8")
    .replaceAll("<run>/project", root)
    .replaceAll("<run>", join(root, ".."));
  return JSON.parse(text) as StoredPayload<T>;
}
export {
  bundleStampOf,
  codeCachesOf,
  installOutsideProject,
  readTarballFile,
  packIntoFixture,
  packedWorkspace,
  packPackage,
  PUBLIC_PACKAGES,
  tarballName,
  tarballsBeside,
  readTarball,
  userShellEnv,
  withoutNpmWarnings,
  type CommandResult,
  type PackedProject,
} from "./pack.ts";
