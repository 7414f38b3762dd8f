import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { execa } from "execa";

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

/**
 * `pnpm pack` of a built workspace package (it rewrites workspace: ranges, as publishing would)
 * into `dest`; returns the tarball. Packing never builds.
 */
export async function packPackage(packageDir: string, dest: string): Promise<string> {
  if (!existsSync(join(packageDir, "dist")))
    throw new Error(`${packageDir}/dist is missing: build it first`);
  mkdirSync(dest, { recursive: true });
  const result = await execa("npx", ["-y", PNPM, "pack", "--pack-destination", dest], {
    cwd: packageDir,
    env: userShellEnv(),
    extendEnv: false,
    reject: false,
    timeout: 180_000,
  });
  const name = readdirSync(dest).find((file) => file.endsWith(".tgz"));
  if (result.exitCode !== 0 || name === undefined)
    throw new Error(`pnpm pack in ${packageDir} failed: ${result.stderr || result.stdout}`);
  return join(dest, name);
}
