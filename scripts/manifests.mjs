#!/usr/bin/env node
/**
 * The repository URL and the plugin's version, written from one place into every manifest.
 *
 *   node scripts/manifests.mjs           rewrite the manifests that differ
 *   node scripts/manifests.mjs --check   list the ones that differ and exit 1 (a test runs this)
 *   --root <dir>                          another checkout's manifests (the tests' copies)
 *
 * The root package.json's `repository.url` is the one constant: each public package's
 * `repository`, `homepage` and `bugs`, the Claude Code plugin's `plugin.json` and the
 * marketplace entry (whose source is this repository's release branch, PLUGIN_BRANCH, which
 * `scripts/release-plugin.mjs` writes) are derived from it. The plugin's version in both plugin manifests is
 * `@tailtest/claude-code`'s, which `changeset version` bumps (`pnpm version-packages` runs this
 * script after it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as prettier from "prettier";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The packages a user installs (test-utils' PUBLIC_PACKAGES). */
export const PUBLIC_PACKAGES = [
  "packages/core",
  "packages/cli",
  "adapters/cursor",
  "adapters/claude-code",
  "adapters/codex",
];

export const PLUGIN_DIR = "adapters/claude-code/plugin";
export const PLUGIN_MANIFEST = `${PLUGIN_DIR}/.claude-plugin/plugin.json`;
export const MARKETPLACE = ".claude-plugin/marketplace.json";
/** The branch that carries the built plugin (ADR 0011), and where the marketplace finds it. */
export const PLUGIN_BRANCH = "claude-plugin";

const readJson = (root, path) => JSON.parse(readFileSync(join(root, path), "utf8"));

/**
 * The repository as the root package.json names it: the git URL npm wants, and the web address
 * (`https://github.com/<owner>/<name>`) the pages and the plugin manifests use.
 */
export function repositoryOf(root = REPO_ROOT) {
  const repository = readJson(root, "package.json").repository;
  const git = typeof repository === "string" ? repository : repository?.url;
  const web = /^git\+(https:\/\/[^\s]+?)(\.git)?$/.exec(git ?? "")?.[1];
  if (git === undefined || web === undefined)
    throw new Error(`package.json: repository.url must be git+https://…, not ${String(git)}`);
  const github = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(web)?.[1];
  return { git, web, github };
}

/** Every manifest as it should read: `{ path, value }`, in the key order each file has. */
export function expectedManifests(root = REPO_ROOT) {
  const { git, web, github } = repositoryOf(root);
  const manifests = PUBLIC_PACKAGES.map((dir) => {
    const value = readJson(root, `${dir}/package.json`);
    value.homepage = `${web}/tree/main/${dir}#readme`;
    value.repository = { type: "git", url: git, directory: dir };
    value.bugs = { url: `${web}/issues` };
    return { path: `${dir}/package.json`, value };
  });
  const version = readJson(root, "adapters/claude-code/package.json").version;
  const plugin = readJson(root, PLUGIN_MANIFEST);
  plugin.version = version;
  plugin.homepage = `${web}/tree/main/adapters/claude-code#readme`;
  plugin.repository = web;
  manifests.push({ path: PLUGIN_MANIFEST, value: plugin });
  const marketplace = readJson(root, MARKETPLACE);
  for (const entry of marketplace.plugins) {
    if (entry.name !== plugin.name) continue;
    // A GitHub repository's release branch; elsewhere a git URL with the same branch.
    entry.source =
      github === undefined
        ? { source: "url", url: git.replace(/^git\+/, ""), ref: PLUGIN_BRANCH }
        : { source: "github", repo: github, ref: PLUGIN_BRANCH };
    entry.version = version;
    entry.homepage = plugin.homepage;
    entry.repository = web;
  }
  manifests.push({ path: MARKETPLACE, value: marketplace });
  return manifests;
}

/** A manifest's text as the repository keeps it (prettier, the repository's own settings). */
export async function formatManifest(root, path, value) {
  const file = join(root, path);
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(JSON.stringify(value, null, 2), { ...options, filepath: file });
}

/** The manifests whose text differs from what they should read; `write` rewrites them. */
export async function syncManifests(root = REPO_ROOT, { write = false } = {}) {
  const stale = [];
  for (const { path, value } of expectedManifests(root)) {
    const text = await formatManifest(root, path, value);
    if (readFileSync(join(root, path), "utf8") === text) continue;
    stale.push(path);
    if (write) writeFileSync(join(root, path), text);
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { check: { type: "boolean", default: false }, root: { type: "string" } },
  });
  const check = values.check;
  const stale = await syncManifests(resolve(values.root ?? REPO_ROOT), { write: !check });
  for (const path of stale) console.log(`${path}: ${check ? "stale" : "updated"}`);
  if (check && stale.length > 0) {
    console.error("run `node scripts/manifests.mjs` (the URL comes from package.json)");
    process.exitCode = 1;
  }
}
