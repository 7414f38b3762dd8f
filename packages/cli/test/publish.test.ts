import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import {
  packedWorkspace,
  PUBLIC_PACKAGES,
  REPO_ROOT,
  tarballName,
  userShellEnv,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * What `pnpm publish` would send, for every public package: `pnpm publish --dry-run` (scripts
 * off, so it checks the build this run made instead of rebuilding under the other tests; the
 * `prepack` every manifest carries is what builds on a real publish) and the run's one packing.
 */

const PNPM = "pnpm@10.34.9";

interface DryRun {
  name: string;
  version: string;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

interface Manifest {
  name: string;
  version: string;
  license?: string;
  homepage?: string;
  repository?: { url?: string; directory?: string };
  bugs?: { url?: string };
  keywords?: string[];
  engines?: { node?: string };
  files?: string[];
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  publishConfig?: { access?: string };
}

async function dryRun(dir: string): Promise<DryRun> {
  const result = await execa(
    "npx",
    [
      "-y",
      PNPM,
      "publish",
      "--dry-run",
      "--json",
      "--no-git-checks",
      "--config.ignore-scripts=true",
    ],
    {
      cwd: join(REPO_ROOT, dir),
      env: userShellEnv(),
      extendEnv: false,
      reject: false,
      timeout: 180_000,
    },
  );
  if (result.exitCode !== 0) throw new Error(`pnpm publish --dry-run in ${dir}: ${result.stderr}`);
  const parsed = JSON.parse(result.stdout) as Record<string, DryRun>;
  const [only] = Object.values(parsed);
  if (only === undefined) throw new Error(`pnpm publish --dry-run in ${dir} reported nothing`);
  return only;
}

/** Every file of an unpacked tarball, by its path inside the package, as bytes. */
function unpacked(into: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(join(into, "package"), path), readFileSync(path));
    }
  };
  walk(into);
  return files;
}

/** README's install table: `| [`@tailtest/x`](…) | … | 1.2 MB |` rows, in MB. */
function documentedSizes(): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const match of readFileSync(join(REPO_ROOT, "README.md"), "utf8").matchAll(
    /^\| \[?`(@tailtest\/[\w-]+)`.*\| ([\d.]+) MB\s*\|$/gm,
  ))
    sizes.set(match[1] ?? "", Number(match[2]));
  return sizes;
}

/** Folders of the machine that built the tarball, as a path inside them would start. */
const MACHINE_PATHS = [...new Set([REPO_ROOT, homedir(), tmpdir()].map((dir) => `${dir}/`))].filter(
  (path) => path !== "/" && path !== "//",
);

describe.each(PUBLIC_PACKAGES)("publishing %s", (dir) => {
  const manifest = JSON.parse(
    readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8"),
  ) as Manifest;
  let report: DryRun | undefined;
  let files = new Map<string, Buffer>();
  let scratch = "";

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "tailtest-publish-"));
    const [dry, packs] = await Promise.all([dryRun(dir), packedWorkspace()]);
    report = dry;
    await execa("tar", ["-xzf", join(packs, tarballName(join(REPO_ROOT, dir))), "-C", scratch]);
    files = unpacked(scratch);
  }, 300_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("has the manifest a registry page and a package manager need, and builds before it packs", () => {
    expect(manifest).toMatchObject({
      license: "MIT",
      repository: { url: expect.stringMatching(/^git\+https:\/\//), directory: dir },
      bugs: { url: expect.stringMatching(/^https:\/\//) },
      homepage: expect.stringMatching(/^https:\/\//),
      engines: { node: ">=20.19.0" },
      publishConfig: { access: "public" },
      scripts: { prepack: "tsup" },
    });
    expect(manifest.keywords?.length).toBeGreaterThan(0);
    expect(manifest.files?.some((entry) => entry.startsWith("dist"))).toBe(true);
  });

  it("sends LICENSE, README, CHANGELOG and dist, and no test, source map, code cache or source", () => {
    const paths = (report as DryRun).files.map((file) => file.path).sort();
    expect(paths).toEqual([...files.keys()].sort());
    for (const name of ["LICENSE", "README.md", "CHANGELOG.md", "package.json"])
      expect(paths).toContain(name);
    const unwanted = paths.filter((path) =>
      /(^|\/)(test|tests|__tests__|src|fixtures)\/|\.(test|spec)\.|\.map$|\.cache$|\.tgz$/.test(
        path,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it("carries no file twice and no path of the machine that packed it", () => {
    const byHash = new Map<string, string[]>();
    for (const [path, bytes] of files) {
      if (bytes.length === 0) continue;
      const hash = createHash("sha256").update(bytes).digest("hex");
      byHash.set(hash, [...(byHash.get(hash) ?? []), path]);
    }
    expect([...byHash.values()].filter((paths) => paths.length > 1)).toEqual([]);
    for (const [path, bytes] of files) {
      if (path.endsWith(".wasm")) continue;
      const text = bytes.toString("latin1");
      for (const machinePath of MACHINE_PATHS)
        expect(text.includes(machinePath), `${path} contains ${machinePath}`).toBe(false);
    }
  });

  it("is as large as the README says (within 10%)", () => {
    const documented = documentedSizes().get(manifest.name);
    const measured = (report as DryRun).unpackedSize / 1_000_000;
    expect(documented, `README: add ${manifest.name} at ${measured.toFixed(1)} MB`).toBeDefined();
    expect(
      Math.abs(measured - (documented ?? 0)) / measured,
      `${manifest.name} unpacks to ${measured.toFixed(1)} MB, README says ${String(documented)} MB`,
    ).toBeLessThanOrEqual(0.1);
  });
});

describe("the tailtest command", () => {
  const manifests = PUBLIC_PACKAGES.map(
    (dir) => JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8")) as Manifest,
  );

  it("is one package's bin, and every adapter depends on that package at its own version", () => {
    const owners = manifests.filter((manifest) => manifest.bin?.["tailtest"] !== undefined);
    expect(owners.map((manifest) => manifest.name)).toEqual(["@tailtest/cli"]);
    for (const manifest of manifests.filter((m) => m.name.match(/claude-code|cursor|codex/)))
      expect(manifest.dependencies, manifest.name).toEqual({ "@tailtest/cli": "workspace:*" });
  });

  it("all five packages share one version (changesets' fixed group)", () => {
    const config = JSON.parse(readFileSync(join(REPO_ROOT, ".changeset/config.json"), "utf8")) as {
      fixed: string[][];
    };
    expect([...(config.fixed[0] ?? [])].sort()).toEqual(manifests.map((m) => m.name).sort());
    expect(new Set(manifests.map((manifest) => manifest.version)).size).toBe(1);
  });
});
