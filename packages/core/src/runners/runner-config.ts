import type { ProjectView } from "../project/project-view.ts";
import { pytestConfig } from "./config-text.ts";
import { detectPackageRunners, type DetectedRunner, type RunnerId } from "./project-runners.ts";
import { PYTEST_SETTINGS_FILES } from "./pytest.ts";
import { runnerSpecs, specOf } from "./table.ts";

const PYTEST_FILES: ReadonlySet<string> = new Set(PYTEST_SETTINGS_FILES);

/**
 * The runner whose own config file `path` is (project-relative): the file pytest reads its
 * settings from in the runner's package folder (`pytest.ini`; `pyproject.toml` only when it is
 * that file), or a JavaScript runner's config named by its record (`vitest.config.ts`,
 * `jest.config.js`, `.mocharc.yml`, vitest's `vite.config.ts` when it reads it). A change to one can break every test of that suite, and no
 * test imports it. `package.json` is no runner's config here: most of its changes are not.
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
  const named = (id: RunnerId): boolean => {
    const spec = specOf(id);
    return (
      spec.packageJson?.configFile?.test(name) === true || spec.alsoReads?.name.test(name) === true
    );
  };
  const candidate = PYTEST_FILES.has(name) || runnerSpecs().some((spec) => named(spec.id));
  if (!candidate || !view.exists(path)) return undefined;
  return detectPackageRunners(view, dir, overrides).find((runner) => {
    if (runner.id === "pytest")
      return PYTEST_FILES.has(name) && pytestConfig(view, dir)?.file === name;
    const spec = specOf(runner.id);
    if (spec.packageJson?.configFile?.test(name) === true) return true;
    return spec.alsoReads?.name.test(name) === true && spec.alsoReads.reads(view, dir, name);
  });
}
