import { createMemoryView, withFile, type ProjectView } from "../project/project-view.ts";
import { pytestConfig } from "./config-text.ts";
import { detectPackageRunners, type DetectedRunner, type RunnerId } from "./project-runners.ts";
import { PYTEST_SETTINGS_FILES } from "./pytest.ts";
import { packageTestScript } from "./shared.ts";
import { runnerSpecs, specOf } from "./table.ts";

const PYTEST_FILES: ReadonlySet<string> = new Set(PYTEST_SETTINGS_FILES);

/**
 * The runner whose own config file `path` is (project-relative): the file pytest reads its
 * settings from in the runner's package folder (`pytest.ini`; `pyproject.toml` only when it is
 * that file), or a JavaScript runner's config named by its record (`vitest.config.ts`,
 * `jest.config.js`, `.mocharc.yml`, vitest's `vite.config.ts` when it reads it), or the manifest
 * a runner seen through no package.json builds the tests by (`Cargo.toml`, `go.mod`). A change to one
 * can break every test of that suite, and no test imports it. `package.json` is no runner's
 * config here (`packageJsonRunner`): most of its changes are not.
 */
export function runnerConfigOwner(
  view: ProjectView,
  path: string,
  overrides?: Parameters<typeof detectPackageRunners>[2],
): DetectedRunner | undefined {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  const dir = slash === -1 ? "" : path.slice(0, slash);
  // Most files are no config: no detection for them.
  if (!mayBeRunnerConfig(path) || !view.exists(path)) return undefined;
  return detectPackageRunners(view, dir, overrides).find((runner) => {
    if (runner.id === "pytest")
      return PYTEST_FILES.has(name) && pytestConfig(view, dir)?.file === name;
    const spec = specOf(runner.id);
    if (spec.packageJson?.configFile?.test(name) === true) return true;
    if (spec.settingsFile?.test(name) === true) return true;
    return spec.alsoReads?.name.test(name) === true && spec.alsoReads.reads(view, dir, name);
  });
}

/**
 * The runner whose config the deleted file `path` was: `runnerConfigOwner` asked of the project
 * with the file put back, holding `before` (its committed text) when that is known. Deleting a
 * config changes how the suite runs as an edit of it does (jest's defaults, pytest's rootdir and
 * `testpaths`). Without the earlier text, only a file that is config by its name alone says so
 * (`pytest.ini`, `jest.config.js`, `.mocharc.yml`); `pyproject.toml`, `tox.ini` and `setup.cfg`
 * are pytest's only by what they held.
 */
export function deletedConfigOwner(
  view: ProjectView,
  path: string,
  before: () => string | undefined,
  overrides?: Parameters<typeof detectPackageRunners>[2],
): DetectedRunner | undefined {
  if (!mayBeRunnerConfig(path) || view.exists(path)) return undefined;
  return runnerConfigOwner(withFile(view, path, before() ?? ""), path, overrides);
}

/** Whether a file of this name may be some runner's config (most files are not: no detection). */
export function mayBeRunnerConfig(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return PYTEST_FILES.has(name) || runnerSpecs().some((spec) => namedConfig(spec.id, name));
}

function namedConfig(id: RunnerId, name: string): boolean {
  const spec = specOf(id);
  return (
    spec.packageJson?.configFile?.test(name) === true ||
    spec.settingsFile?.test(name) === true ||
    spec.alsoReads?.name.test(name) === true
  );
}

/**
 * The JavaScript runner of the package whose `package.json` `path` is: its settings may live
 * there (a `"jest"` or `"mocha"` key, the test script), so a change to them is a change to its
 * config. Whether one changed is `runnerSettingsOfPackageJson`'s to say: most edits of the file
 * (a dependency, a version) change none.
 */
export function packageJsonRunner(
  view: ProjectView,
  path: string,
  overrides?: Parameters<typeof detectPackageRunners>[2],
): DetectedRunner | undefined {
  const slash = path.lastIndexOf("/");
  if (path.slice(slash + 1) !== "package.json" || !view.exists(path)) return undefined;
  const dir = slash === -1 ? "" : path.slice(0, slash);
  return detectPackageRunners(view, dir, overrides).find((runner) =>
    runner.languages.some((language) => language === "javascript" || language === "typescript"),
  );
}

/** Keys of a package.json that change how any JavaScript runner loads the tests. */
const LOADING_KEYS = ["type", "imports"] as const;

/**
 * What of a package.json's text the runner `id` runs by, as one comparable string: the key named
 * after it (`"jest"`, `"mocha"`, `"ava"`, `"tap"`), babel's settings (jest and ava compile with
 * them), `type` and `imports` (how a `.js` file and a `#name` load), and the test script with
 * every script it calls spelled in. Undefined for a text that is no JSON object.
 */
export function runnerSettingsOfPackageJson(text: string, id: RunnerId): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const pkg = parsed as Record<string, unknown>;
  const script = packageTestScript(createMemoryView({ "package.json": text }), "");
  return JSON.stringify([pkg[id], pkg["babel"], ...LOADING_KEYS.map((key) => pkg[key]), script]);
}
