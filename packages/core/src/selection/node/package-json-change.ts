import type { Project } from "../../project/node/project.ts";
import type { DetectedRunner } from "../../runners/project-runners.ts";
import { runnerSettingsOfPackageJson } from "../../runners/runner-config.ts";

/** How long git may take to hand over the committed package.json. */
const GIT_TIMEOUT_MS = 5_000;

/**
 * The text git's HEAD holds for the project-relative `rel` (`git cat-file blob HEAD:./rel` from
 * the project's root, which may sit below the repository's top); undefined outside a work tree,
 * for a file HEAD does not have, or when git cannot answer.
 */
export function headText(root: string, rel: string): string | undefined {
  // Loaded here: node's child_process brings net and the streams (~20 M instructions), and most
  // calls that load this module (every explain, every Stop) never compare a package.json.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const run = spawnSync("git", ["--no-optional-locks", "cat-file", "blob", `HEAD:./${rel}`], {
    cwd: root,
    stdio: ["ignore", "pipe", "ignore"],
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
    encoding: "utf8",
  });
  return run.status === 0 && typeof run.stdout === "string" ? run.stdout : undefined;
}

/** The most files a deleted folder is expanded to (`headFilesUnder`). */
const FOLDER_FILES = 500;

/**
 * The files HEAD holds under `folder` (project-relative, as `git ls-tree` lists them from the
 * root), up to `FOLDER_FILES`: what a folder deleted in the turn held. Empty outside a work tree
 * or when git cannot answer.
 */
export function headFilesUnder(root: string, folder: string): string[] {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const run = spawnSync(
    "git",
    ["--no-optional-locks", "ls-tree", "-r", "-z", "--name-only", "HEAD", "--", folder],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      encoding: "utf8",
    },
  );
  if (run.status !== 0 || typeof run.stdout !== "string") return [];
  return run.stdout
    .split("\0")
    .filter((path) => path !== "")
    .slice(0, FOLDER_FILES);
}

/** Whether `root` lies in a git work tree (`git rev-parse`), asked only when HEAD had no text. */
function insideWorkTree(root: string): boolean {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const run = spawnSync("git", ["rev-parse", "--is-inside-work-tree"], {
    cwd: root,
    stdio: ["ignore", "pipe", "ignore"],
    timeout: GIT_TIMEOUT_MS,
    encoding: "utf8",
  });
  return run.status === 0 && run.stdout.trim() === "true";
}

/**
 * Whether the package.json `rel` now says something else about how `runner` runs the tests
 * than the committed one (`runnerSettingsOfPackageJson`: its key, babel's, `type`, `imports`,
 * the test script). In git, a file HEAD does not hold has nothing to compare with: no (its first
 * version is the project's set-up, not a change to a suite that ran before). Outside git nothing
 * says what the file held before (follow mode keeps no copy of it): yes, so an edit that did
 * change the runner's settings is never let through untested; the time budget bounds the run.
 */
export function packageJsonSettingsChanged(
  project: Project,
  rel: string,
  runner: DetectedRunner,
): boolean {
  const now = project.view.readText(rel);
  if (now === undefined) return false;
  const before = headText(project.root, rel);
  if (before === undefined) return !insideWorkTree(project.root);
  return (
    runnerSettingsOfPackageJson(before, runner.id) !== runnerSettingsOfPackageJson(now, runner.id)
  );
}
