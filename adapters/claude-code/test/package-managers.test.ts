import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import {
  commitAll,
  FIXTURES_DIR,
  findToolchain,
  loadPayload,
  packPackage,
  REPO_ROOT,
  tarballsBeside,
  userShellEnv,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The packed @tailtest/claude-code (and the @tailtest/cli it depends on) installed the way each
 * package manager's user installs it, then `init` through that manager and a hook fired through
 * the command init wrote. npm is pack.test.ts. Nothing is on a registry yet, so each project
 * points the adapter's `@tailtest/cli` dependency at the tarball (pnpm.overrides, resolutions,
 * overrides): what a registry would resolve. yarn is Yarn berry from its npm package.
 */

const PACKAGE_DIR = join(REPO_ROOT, "adapters/claude-code");
const VERSION = "claude-2.1.330";
const YARN = ["-y", "-p", "@yarnpkg/cli-dist@4", "yarn"];
const NOT_INSTALLED =
  "tailtest: @tailtest/claude-code is not installed in this checkout yet (run npm install); its hooks do nothing until then";

interface Manager {
  name: string;
  /** undefined: runs; a string: why this machine cannot. */
  missing?: () => string | undefined;
  /** package.json fields that send the adapter's @tailtest/cli to the tarball. */
  manifest: (cliTarball: string) => Record<string, unknown>;
  files?: Record<string, string>;
  add: (tarballs: string[]) => [string, string[]];
  exec: (bin: string, args: string[]) => [string, string[]];
  /** Whether hooks can run (a node_modules/ folder). */
  hooksRun: boolean;
}

/** bun from the npm cache the test setup fills (its folder, put first on PATH), or PATH's. */
const bun = findToolchain("bun");
const bunDir = bun.path?.split(delimiter)[0];

const MANAGERS: Manager[] = [
  {
    name: "pnpm",
    manifest: (cli) => ({ pnpm: { overrides: { "@tailtest/cli": `file:${cli}` } } }),
    add: (tarballs) => ["npx", ["-y", "pnpm@10.34.9", "add", "-D", ...tarballs, "--offline"]],
    exec: (bin, args) => ["npx", ["-y", "pnpm@10.34.9", "exec", bin, ...args]],
    hooksRun: true,
  },
  {
    name: "yarn berry (node-modules)",
    manifest: (cli) => ({ resolutions: { "@tailtest/cli": `file:${cli}` } }),
    files: { ".yarnrc.yml": "nodeLinker: node-modules\nenableTelemetry: false\n", "yarn.lock": "" },
    add: (tarballs) => ["npx", [...YARN, "add", "-D", ...tarballs.map(asYarnSpec)]],
    exec: (bin, args) => ["npx", [...YARN, bin, ...args]],
    hooksRun: true,
  },
  {
    name: "yarn berry (Plug'n'Play)",
    manifest: (cli) => ({ resolutions: { "@tailtest/cli": `file:${cli}` } }),
    files: { ".yarnrc.yml": "nodeLinker: pnp\nenableTelemetry: false\n", "yarn.lock": "" },
    add: (tarballs) => ["npx", [...YARN, "add", "-D", ...tarballs.map(asYarnSpec)]],
    exec: (bin, args) => ["npx", [...YARN, bin, ...args]],
    hooksRun: false,
  },
  {
    name: "bun",
    missing: () => (bun.available ? undefined : bun.reason),
    manifest: (cli) => ({ overrides: { "@tailtest/cli": cli } }),
    add: (tarballs) => ["bun", ["add", "-d", ...tarballs]],
    exec: (bin, args) => ["bun", ["x", bin, ...args]],
    hooksRun: true,
  },
];

/** Yarn takes a tarball as `<name>@file:<path>`. */
function asYarnSpec(tarball: string): string {
  const name = tarball.includes("tailtest-cli-") ? "@tailtest/cli" : "@tailtest/claude-code";
  return `${name}@file:${tarball}`;
}

let scratch = "";
let tarballs: string[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tailtest-pm-"));
  tarballs = tarballsBeside(await packPackage(PACKAGE_DIR, join(scratch, "packs")));
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(MANAGERS)("installed with $name", (manager) => {
  it("installs the packed tarballs, init sets up the hooks, and the hook command answers", async (ctx) => {
    const why = manager.missing?.();
    if (why !== undefined) return ctx.skip(why);
    const project = join(scratch, manager.name.replace(/\W+/g, "-"));
    cpSync(join(FIXTURES_DIR, "runners/pytest-pyproject"), project, { recursive: true });
    const cli = tarballs.find((file) => file.includes("tailtest-cli-")) ?? "";
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "app", version: "1.0.0", private: true, ...manager.manifest(cli) }, null, 2)}\n`,
    );
    for (const [path, text] of Object.entries(manager.files ?? {}))
      writeFileSync(join(project, path), text);
    await commitAll(project);
    const shell = userShellEnv();
    const PATH = [bunDir, shell["PATH"]].filter((dir) => dir !== undefined).join(delimiter);
    const env = { ...shell, PATH };
    const run = ([command, args]: [string, string[]], input?: string) =>
      execa(command, args, {
        cwd: project,
        env: { ...env, CLAUDE_PROJECT_DIR: project },
        extendEnv: false,
        reject: false,
        timeout: 180_000,
        ...(input === undefined ? {} : { input }),
      });

    const add = await run(manager.add(tarballs));
    expect(add.exitCode, `${add.stdout}\n${add.stderr}`).toBe(0);
    const init = await run(manager.exec("tailtest-claude-code", ["init"]));
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain(".claude/settings.json: added hooks");
    const version = await run(manager.exec("tailtest", ["--version"]));
    expect(version.stdout.trim().split("\n").at(-1)).toBe("0.1.0");

    const settings = JSON.parse(readFileSync(join(project, ".claude/settings.json"), "utf8")) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks["SessionStart"]?.[0]?.hooks[0]?.command ?? "";
    const { stdin } = loadPayload(VERSION, "context.SessionStart.json", project);
    const start = await run(["sh", ["-c", command]], JSON.stringify(stdin));
    expect(start.exitCode).toBe(0);
    if (manager.hooksRun) {
      expect(start.stderr).toBe("");
      expect(start.stdout).toContain('"additionalContext":"tailtest: session started.');
    } else {
      // No node_modules/: init warned, and every hook says so in one line instead of failing.
      expect(init.stderr).toContain("is not in this project");
      expect(start).toMatchObject({ stdout: "", stderr: NOT_INSTALLED });
    }
  }, 300_000);
});
