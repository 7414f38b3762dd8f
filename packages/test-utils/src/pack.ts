import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, relative } from "node:path";
import { execa } from "execa";
import { commitAll, FIXTURES_DIR, REPO_ROOT } from "./index.ts";

/** The pnpm of package.json's packageManager, fetched by npx like AGENTS.md says. */
const PNPM = "pnpm@10.34.9";

/**
 * The environment of a user's shell: none of the variables `npm run`/pnpm/vitest set (lowercase
 * `npm_*`; a user's own `NPM_CONFIG_*`, a registry mirror say, stays), no agent or XDG variables,
 * and no node_modules/.bin folder of this repository on PATH.
 */
export function userShellEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  const drop =
    /^(npm_|pnpm_|VITEST|XDG_|ANTHROPIC_|CLAUDE|CODEX_|CURSOR_|OPENAI_|TAILTEST_)|^(NODE_ENV|TEST|TMPDIR)$/;
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !drop.test(key)) env[key] = value;
  const path = (process.env["PATH"] ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "" && !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(dir));
  return {
    ...env,
    PATH: path.join(delimiter),
    NO_COLOR: "1",
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
    // npx never fetches a registry package because a local bin is missing.
    NPM_CONFIG_YES: "false",
  };
}

/** npm's own warnings (about the user's npmrc, say) are not ours. */
export function withoutNpmWarnings(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("npm warn"))
    .join("\n");
}

/** The packages a user installs, in the order a publish goes (dependencies first). */
export const PUBLIC_PACKAGES = [
  "packages/core",
  "packages/cli",
  "adapters/cursor",
  "adapters/claude-code",
  "adapters/codex",
] as const;

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  dependencies?: Record<string, string>;
}

function manifestOf(packageDir: string): Manifest {
  return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest;
}

/** The file `pnpm pack` writes for a package: `@scope/name` 1.2.3 → `scope-name-1.2.3.tgz`. */
export function tarballName(packageDir: string): string {
  const { name, version } = manifestOf(packageDir);
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/** What a pack reads: the manifest, the top-level texts and every file under dist/. */
function packInputs(packageDir: string): string {
  const lines: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        lines.push(`${relative(packageDir, path)} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  for (const file of readdirSync(packageDir))
    if (/\.(json|md)$|^LICENSE$/.test(file))
      lines.push(`${file} ${readFileSync(join(packageDir, file), "utf8")}`);
  if (!existsSync(join(packageDir, "dist")))
    throw new Error(`${packageDir}/dist is missing: build it first`);
  walk(join(packageDir, "dist"));
  return lines.sort().join("\n");
}

/** Where the packs are kept (a function: index.ts, which defines REPO_ROOT, imports this module). */
const packsDir = (): string => join(REPO_ROOT, "node_modules", ".cache", "tailtest", "packs");

async function sleep(ms: number): Promise<void> {
  await new Promise((done) => setTimeout(done, ms));
}

/**
 * Every public package packed once per build: the first test that needs a tarball packs them all
 * (`pnpm pack`, scripts off: it rewrites workspace: ranges as publishing would, and never
 * builds) into a folder named after what the packs read; every other test file, in any worker,
 * waits for it and reuses the tarballs. Returns the folder.
 */
export async function packedWorkspace(): Promise<string> {
  const dirs = PUBLIC_PACKAGES.map((dir) => join(REPO_ROOT, dir));
  const key = createHash("sha256")
    .update(dirs.map((dir) => `${dir}\n${packInputs(dir)}`).join("\n\n"))
    .digest("hex")
    .slice(0, 16);
  const dest = join(packsDir(), key);
  const done = join(dest, ".done");
  const lock = `${dest}.lock`;
  mkdirSync(packsDir(), { recursive: true });
  for (const started = Date.now(); !existsSync(done);) {
    try {
      mkdirSync(lock);
    } catch {
      // Another worker is packing; a lock older than the packing could take is a dead one's.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > 900_000) throw new Error(`waited 15 minutes for ${lock}`);
      await sleep(250);
      continue;
    }
    try {
      if (existsSync(done)) break;
      rmSync(dest, { recursive: true, force: true });
      mkdirSync(dest, { recursive: true });
      for (const dir of dirs) await packOne(dir, dest);
      writeFileSync(done, "");
      // Earlier builds' packs are never read again.
      for (const old of readdirSync(packsDir()))
        if (old !== key && !old.endsWith(".lock"))
          rmSync(join(packsDir(), old), { recursive: true, force: true });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dest;
}

async function packOne(packageDir: string, dest: string): Promise<void> {
  const result = await execa(
    "npx",
    ["-y", PNPM, "pack", "--config.ignore-scripts=true", "--pack-destination", dest],
    { cwd: packageDir, env: userShellEnv(), extendEnv: false, reject: false, timeout: 180_000 },
  );
  if (result.exitCode !== 0 || !existsSync(join(dest, tarballName(packageDir))))
    throw new Error(`pnpm pack in ${packageDir} failed: ${result.stderr || result.stdout}`);
}

/**
 * A built workspace package's tarball copied into `dest` from the run's one packing
 * (`packedWorkspace`), with the tarballs of the workspace packages it depends on beside it
 * (`@tailtest/cli` for an adapter): install them together, as `tarballsBeside` lists them.
 * Returns the package's own tarball.
 */
export async function packPackage(packageDir: string, dest: string): Promise<string> {
  const packs = await packedWorkspace();
  mkdirSync(dest, { recursive: true });
  const wanted = [packageDir];
  for (const name of Object.keys(manifestOf(packageDir).dependencies ?? {})) {
    const dir = PUBLIC_PACKAGES.map((d) => join(REPO_ROOT, d)).find(
      (d) => manifestOf(d).name === name,
    );
    if (dir !== undefined) wanted.push(dir);
  }
  for (const dir of wanted)
    copyFileSync(join(packs, tarballName(dir)), join(dest, tarballName(dir)));
  return join(dest, tarballName(packageDir));
}

/** A tarball and the workspace dependencies `packPackage` put beside it, the tarball first. */
export function tarballsBeside(tarball: string): string[] {
  const others = readdirSync(dirname(tarball))
    .filter((file) => file.endsWith(".tgz") && file !== basename(tarball))
    .sort()
    .map((file) => join(dirname(tarball), file));
  return [tarball, ...others];
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
}

/** A packed package and a fresh fixture project to install it into, as a user would. */
export interface PackedProject {
  tarball: string;
  project: string;
  /** The user's shell environment the project's commands run with. */
  env: Record<string, string>;
  /** Runs a command in the project (never rejects; 60 s at most). */
  run: (command: string, args: readonly string[]) => Promise<CommandResult>;
  /**
   * `npm install --save-dev <tarball> <its workspace dependencies' tarballs>` offline: everything
   * must already be in the tarballs.
   */
  installTarball: () => Promise<CommandResult>;
  cleanup: () => void;
}

/**
 * Packs a built package and copies a fixture to `<scratch>/run/project` (recorded payloads use
 * `<run>/project`); `setUp` adds the user's own files before everything is committed.
 */
export async function packIntoFixture(
  packageDir: string,
  fixture: string,
  setUp: (project: string) => void = () => undefined,
): Promise<PackedProject> {
  const scratch = mkdtempSync(join(tmpdir(), "tailtest-pack-"));
  const project = join(scratch, "run", "project");
  const tarball = await packPackage(packageDir, scratch);
  cpSync(join(FIXTURES_DIR, fixture), project, { recursive: true });
  setUp(project);
  await commitAll(project);
  const env = userShellEnv();
  const run = async (command: string, args: readonly string[]): Promise<CommandResult> => {
    const result = await execa(command, [...args], {
      cwd: project,
      env,
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
  };
  return {
    tarball,
    project,
    env,
    run,
    installTarball: () =>
      run("npm", [
        "install",
        "--save-dev",
        ...tarballsBeside(tarball),
        "--offline",
        "--no-audit",
        "--no-fund",
      ]),
    cleanup: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

const CODE_CACHE =
  /(hook-main|hook-post|hook-gate)\.([0-9a-f]{16})-.+-(pre|post|shell|stop|other)\.cache$/;

/**
 * A shipped file list with each hook code cache (core's code-cache.ts: named by the bundle's
 * hash, node's V8 version and arch, and the route) as `<bundle>.<route>.cache`; and the bundle
 * hashes those names carry, per bundle, so a test can hold them to the bundles' own stamps.
 */
export function codeCachesOf(files: readonly string[]): {
  files: string[];
  hashes: Record<string, string[]>;
} {
  const hashes: Record<string, Set<string>> = {};
  const named = files.map((file) => {
    const match = CODE_CACHE.exec(file);
    if (match === null) return file;
    const [, bundle = "", hash = "", route = ""] = match;
    (hashes[bundle] ??= new Set()).add(hash);
    return file.replace(CODE_CACHE, `${bundle}.${route}.cache`);
  });
  return {
    files: named.sort(),
    hashes: Object.fromEntries(Object.entries(hashes).map(([name, set]) => [name, [...set]])),
  };
}

/** The hash a hook bundle's build stamped on its first line (code-cache.ts `stampBuild`). */
export function bundleStampOf(text: string): string | undefined {
  return /^\/\*tailtest-build:([0-9a-f]{16})(?::ascii)?\*\//.exec(text)?.[1];
}

/** The text of one file in a tarball (`package/…`). */
export async function readTarballFile(tarball: string, path: string): Promise<string> {
  return (await execa("tar", ["-xzOf", tarball, path])).stdout;
}

/** What a tarball ships: its file list, its manifest, and the text of every non-binary file. */
export async function readTarball(tarball: string): Promise<{
  files: string[];
  manifestText: string;
  /** Which of dependencies / peerDependencies / optionalDependencies the manifest declares. */
  dependencyFields: string[];
  text: string;
}> {
  const files = (await execa("tar", ["-tzf", tarball])).stdout.split("\n").sort();
  const manifestText = (await execa("tar", ["-xzOf", tarball, "package/package.json"])).stdout;
  const manifest = JSON.parse(manifestText) as Record<string, unknown>;
  const textFiles = files.filter((file) => !file.endsWith(".wasm"));
  const text = (await execa("tar", ["-xzOf", tarball, ...textFiles])).stdout;
  const dependencyFields = ["dependencies", "peerDependencies", "optionalDependencies"].filter(
    (field) => manifest[field] !== undefined,
  );
  return { files, manifestText, dependencyFields, text };
}

/**
 * A package installed the way `npx <package> init --user` gets it: its tarballs (with the
 * workspace packages it depends on) installed by npm, offline, into `<scratch>/tools`, a folder
 * that is no project's. Returns the path of `bin` there.
 */
export async function installOutsideProject(
  packageDir: string,
  scratch: string,
  bin: string,
  env: Record<string, string>,
): Promise<string> {
  const tools = join(scratch, "tools");
  const tarball = await packPackage(packageDir, join(scratch, "tarballs"));
  mkdirSync(tools, { recursive: true });
  writeFileSync(join(tools, "package.json"), '{ "private": true }\n');
  const install = await execa(
    "npm",
    ["install", ...tarballsBeside(tarball), "--offline", "--no-audit", "--no-fund"],
    { cwd: tools, env, extendEnv: false, reject: false, timeout: 120_000 },
  );
  if (install.exitCode !== 0) throw new Error(`npm install ${tarball} failed: ${install.stderr}`);
  return join(tools, "node_modules", ".bin", bin);
}
