#!/usr/bin/env node
/**
 * Writes the Claude Code plugin, with its built hook bundle, to the release branch (ADR 0011).
 *
 *   node scripts/release-plugin.mjs                  build, then commit to claude-plugin here
 *   node scripts/release-plugin.mjs --no-build       use the build that is there
 *   node scripts/release-plugin.mjs --repo <dir>     commit into another git repository
 *   node scripts/release-plugin.mjs --branch <name>  another branch name
 *   node scripts/release-plugin.mjs --out <dir>      only write the tree into <dir>
 *
 * The branch's tree is the plugin at its root (what the marketplace's `github` source with
 * `ref: claude-plugin` installs) and a marketplace listing it as `./` (so a checkout of the
 * branch is a marketplace too): `.claude-plugin/{plugin,marketplace}.json`, `hooks/hooks.json`,
 * `dist/` (the launcher, its bundles, the bash parser; no code cache), LICENSE and a README. No
 * source, no test. The commit is reproducible: git plumbing on a scratch index, the source
 * commit's date, a fixed author; a build that changed nothing adds no commit. Pushing the branch
 * is the caller's (the release workflow's) step.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  formatManifest,
  MARKETPLACE,
  PLUGIN_BRANCH,
  PLUGIN_DIR,
  PLUGIN_MANIFEST,
  REPO_ROOT,
  repositoryOf,
  syncManifests,
} from "./manifests.mjs";

/** What `dist/` of the plugin carries: the launcher, its bundles and the parser's files. */
export const PLUGIN_DIST = [
  "hook.cjs",
  "hook-main.cjs",
  "hook-post.cjs",
  "hook-gate.cjs",
  "tree-sitter.wasm",
  "tree-sitter-bash.wasm",
];

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

function git(args, options = {}) {
  return execFileSync("git", args, { encoding: "utf8", ...options }).trim();
}

function readme(version, { web, github }) {
  return [
    "# tailtest for Claude Code: the plugin",
    "",
    `This branch is written by \`scripts/release-plugin.mjs\` from main (version ${version}):`,
    "the plugin with its built hook, so that no hook needs a build step or the network. Do not",
    `edit it; the sources are on main (${web}).`,
    "",
    "```text",
    `/plugin marketplace add ${github ?? web}`,
    "/plugin install tailtest@tailtest",
    "```",
    "",
  ].join("\n");
}

/** Writes the plugin tree into `out` (emptied first) and returns the plugin's version. */
export async function writePluginTree(out, root = REPO_ROOT) {
  const stale = await syncManifests(root);
  if (stale.length > 0)
    throw new Error(`${stale.join(", ")}: stale; run \`node scripts/manifests.mjs\` first`);
  const version = readJson(join(root, "adapters/claude-code/package.json")).version;
  const plugin = join(root, PLUGIN_DIR);
  const missing = PLUGIN_DIST.filter((file) => !existsSync(join(plugin, "dist", file)));
  if (missing.length > 0)
    throw new Error(
      `${PLUGIN_DIR}/dist/${missing[0]} is missing: build first (or drop --no-build)`,
    );
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, ".claude-plugin"), { recursive: true });
  mkdirSync(join(out, "dist"));
  cpSync(join(root, PLUGIN_MANIFEST), join(out, ".claude-plugin/plugin.json"));
  cpSync(join(plugin, "hooks"), join(out, "hooks"), { recursive: true });
  cpSync(join(plugin, "LICENSE"), join(out, "LICENSE"));
  for (const file of PLUGIN_DIST) cpSync(join(plugin, "dist", file), join(out, "dist", file));
  const marketplace = readJson(join(root, MARKETPLACE));
  for (const entry of marketplace.plugins) entry.source = "./";
  writeFileSync(
    join(out, ".claude-plugin/marketplace.json"),
    await formatManifest(root, MARKETPLACE, marketplace),
  );
  writeFileSync(join(out, "README.md"), readme(version, repositoryOf(root)));
  return version;
}

/**
 * Commits the tree in `dir` as the next commit of `branch` in `repo`, without touching that
 * repository's work tree or index. Returns the commit, and whether it is new.
 */
export function commitTree({ dir, repo, branch, message, date }) {
  const gitDir = git(["-C", repo, "rev-parse", "--absolute-git-dir"]);
  const scratch = mkdtempSync(join(tmpdir(), "tailtest-release-"));
  const env = {
    ...process.env,
    GIT_INDEX_FILE: join(scratch, "index"),
    GIT_AUTHOR_NAME: "tailtest release",
    GIT_AUTHOR_EMAIL: "release@tailtest.invalid",
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: "tailtest release",
    GIT_COMMITTER_EMAIL: "release@tailtest.invalid",
    GIT_COMMITTER_DATE: date,
  };
  try {
    const at = ["--git-dir", gitDir, "--work-tree", dir];
    git([...at, "add", "--force", "--all", "."], { env, cwd: dir });
    const tree = git([...at, "write-tree"], { env });
    let parent;
    try {
      parent = git([
        "--git-dir",
        gitDir,
        "rev-parse",
        "--verify",
        "--quiet",
        `refs/heads/${branch}`,
      ]);
    } catch {
      parent = undefined;
    }
    if (
      parent !== undefined &&
      git(["--git-dir", gitDir, "rev-parse", `${parent}^{tree}`]) === tree
    )
      return { commit: parent, created: false };
    const commit = git(
      ["--git-dir", gitDir, "commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message],
      { env },
    );
    git(["--git-dir", gitDir, "update-ref", `refs/heads/${branch}`, commit, parent ?? ""]);
    return { commit, created: true };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      repo: { type: "string" },
      branch: { type: "string", default: PLUGIN_BRANCH },
      out: { type: "string" },
      "no-build": { type: "boolean", default: false },
    },
  });
  if (!values["no-build"])
    execFileSync(
      join(REPO_ROOT, "node_modules/.bin/turbo"),
      ["run", "build", "--filter=@tailtest/claude-code", "--output-logs=errors-only"],
      { cwd: REPO_ROOT, stdio: "inherit" },
    );
  if (values.out !== undefined) {
    const out = resolve(values.out);
    const version = await writePluginTree(out);
    console.log(`${out}: the tailtest plugin ${version} (${readdirSync(out).length} entries)`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "tailtest-plugin-"));
  try {
    const version = await writePluginTree(dir);
    const source = git(["-C", REPO_ROOT, "rev-parse", "HEAD"]);
    const date = git(["-C", REPO_ROOT, "log", "-1", "--format=%cI", "HEAD"]);
    const repo = resolve(values.repo ?? REPO_ROOT);
    const { commit, created } = commitTree({
      dir,
      repo,
      branch: values.branch,
      message: `Claude Code plugin ${version}\n\nBuilt from ${source} by scripts/release-plugin.mjs.\n`,
      date,
    });
    console.log(
      created
        ? `${values.branch}: ${commit.slice(0, 12)}, the tailtest plugin ${version}`
        : `${values.branch}: already the tailtest plugin ${version} (${commit.slice(0, 12)}), no commit`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    console.error(`release-plugin: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
