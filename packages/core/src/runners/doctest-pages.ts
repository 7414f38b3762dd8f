import { detectLanguage, type Language } from "../filter/languages.ts";
import type { ProjectView } from "../project/project-view.ts";
import { pytestDoctestFiles } from "./doctests.ts";
import { resolveRunner, type RunnerResolution } from "./project-runners.ts";

/** What a text page is run by: only pages of these kinds are asked about. */
const PAGE = /\.(rst|md|txt|markdown)$/i;

/**
 * Python, for a text page the project's pytest runs as doctests (`--doctest-glob "*.rst"` with
 * the page under `testpaths`): sortedcontainers' `docs/introduction.rst` is a test in all but name,
 * and an edit to it must run it as an edited test runs (`tailtest run` on it, or its edit queued
 * for the end of the turn). Undefined for any other file.
 */
export function doctestPageLanguage(
  view: ProjectView,
  path: string,
  overrides?: Parameters<typeof resolveRunner>[3],
): Language | undefined {
  if (detectLanguage(path) !== undefined || !PAGE.test(path)) return undefined;
  const owner: RunnerResolution = resolveRunner(view, path, "python", overrides);
  if (owner.runner?.id !== "pytest") return undefined;
  const dir = owner.runner.package_dir;
  const rel = dir === "" ? path : path.slice(dir.length + 1);
  return pytestDoctestFiles(view, dir, rel).includes(rel) ? "python" : undefined;
}
