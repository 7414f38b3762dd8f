import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PUBLIC_PACKAGES, REPO_ROOT } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

/*
 * The repository URL has one home, the root package.json's `repository`: every published
 * manifest, the Claude Code plugin's plugin.json and the marketplace are written from it by
 * scripts/manifests.mjs, which also gives both plugin manifests the adapter's version.
 */

const SCRIPT = join(REPO_ROOT, "scripts/manifests.mjs");
const PLUGIN_MANIFEST = "adapters/claude-code/plugin/.claude-plugin/plugin.json";
const MARKETPLACE = ".claude-plugin/marketplace.json";
const MANIFESTS = [
  ...PUBLIC_PACKAGES.map((dir) => `${dir}/package.json`),
  PLUGIN_MANIFEST,
  MARKETPLACE,
];

const readJson = (root: string, path: string) =>
  JSON.parse(readFileSync(join(root, path), "utf8")) as Record<string, unknown>;

/** Every string in a JSON value that names a web or git address. */
function urlsIn(value: unknown): string[] {
  if (typeof value === "string") return /^(git\+)?https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(urlsIn);
  return [];
}

const scratches: string[] = [];
afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

/** The manifests, the root package.json and the prettier settings, copied to a scratch folder. */
function copyManifests(): string {
  const root = mkdtempSync(join(tmpdir(), "tailtest-manifests-"));
  scratches.push(root);
  for (const path of ["package.json", ".prettierrc.json", ...MANIFESTS]) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    cpSync(join(REPO_ROOT, path), join(root, path));
  }
  return root;
}

describe("the repository URL and the plugin's version, in one place", () => {
  it("every manifest is what scripts/manifests.mjs writes (--check)", async () => {
    const check = await execa("node", [SCRIPT, "--check"], { cwd: REPO_ROOT, reject: false });
    expect(check.stdout).toBe("");
    expect(check.exitCode).toBe(0);
  });

  it("every address in every manifest is the root package.json's repository", () => {
    const { url } = readJson(REPO_ROOT, "package.json")["repository"] as { url: string };
    expect(url).toBe("git+https://github.com/tailtest/tailtest.git");
    const web = "https://github.com/tailtest/tailtest";
    for (const path of MANIFESTS) {
      const urls = urlsIn(readJson(REPO_ROOT, path));
      expect(urls.length, path).toBeGreaterThan(0);
      for (const found of urls)
        expect(
          [url, web].some((base) => found.startsWith(base)),
          `${path}: ${found}`,
        ).toBe(true);
    }
    const marketplace = readJson(REPO_ROOT, MARKETPLACE) as { plugins: { source: unknown }[] };
    expect(marketplace.plugins[0]?.source).toEqual({
      source: "github",
      repo: "tailtest/tailtest",
      ref: "claude-plugin",
    });
  });

  it("the plugin manifests carry @tailtest/claude-code's version", () => {
    const version = readJson(REPO_ROOT, "adapters/claude-code/package.json")["version"];
    const marketplace = readJson(REPO_ROOT, MARKETPLACE) as { plugins: { version: string }[] };
    expect([
      readJson(REPO_ROOT, PLUGIN_MANIFEST)["version"],
      marketplace.plugins[0]?.version,
    ]).toEqual([version, version]);
  });

  it("a new URL in the root package.json reaches every manifest, and a version bump the plugin's", async () => {
    const root = copyManifests();
    const rootManifest = readJson(root, "package.json");
    rootManifest["repository"] = { type: "git", url: "git+https://github.com/someone/fork.git" };
    writeFileSync(join(root, "package.json"), `${JSON.stringify(rootManifest, null, 2)}\n`);
    const adapter = readJson(root, "adapters/claude-code/package.json");
    adapter["version"] = "9.9.9";
    writeFileSync(
      join(root, "adapters/claude-code/package.json"),
      `${JSON.stringify(adapter, null, 2)}\n`,
    );

    const script = (...args: string[]) =>
      execa("node", [SCRIPT, "--root", root, ...args], { cwd: root, reject: false });
    const stale = await script("--check");
    expect(stale.exitCode).toBe(1);
    expect(stale.stdout.split("\n").sort()).toEqual(
      MANIFESTS.map((path) => `${path}: stale`).sort(),
    );

    const write = await script();
    expect(write.exitCode, write.stderr).toBe(0);
    expect(readJson(root, "adapters/cursor/package.json")).toMatchObject({
      homepage: "https://github.com/someone/fork/tree/main/adapters/cursor#readme",
      repository: { url: "git+https://github.com/someone/fork.git", directory: "adapters/cursor" },
      bugs: { url: "https://github.com/someone/fork/issues" },
    });
    expect(readJson(root, PLUGIN_MANIFEST)).toMatchObject({
      version: "9.9.9",
      repository: "https://github.com/someone/fork",
    });
    expect(readJson(root, MARKETPLACE)).toMatchObject({
      plugins: [{ version: "9.9.9", source: { source: "github", repo: "someone/fork" } }],
    });
    expect(await script("--check")).toMatchObject({ exitCode: 0, stdout: "" });
  });
});
