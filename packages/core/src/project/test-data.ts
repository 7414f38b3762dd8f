import { TEST_DATA_DIRS } from "../filter/filter.ts";
import { detectLanguage, type Language } from "../filter/languages.ts";
import type { ProjectView } from "./project-view.ts";
import { joinRel } from "./project-view.ts";

/** How many folders, from the file's own up to its test folder, are listed for a language. */
const FOLDERS_LISTED = 4;

/**
 * The language of the tests a data file inside a test folder belongs to: a JSON, YAML or text
 * fixture (`src/__tests__/tsconfig-named.json`, `tests/data/expected.txt`) has no language of
 * its own, but the tests beside it load it, and an edit to it can turn them red. Found from the
 * first source file in its folder or a folder above it, up to the test folder itself; undefined
 * for a file with a language, one outside a test folder, or a test folder with no source file.
 */
export function testDataLanguage(view: ProjectView, path: string): Language | undefined {
  if (detectLanguage(path) !== undefined) return undefined;
  const dirs = path.split("/").slice(0, -1);
  const top = dirs.findIndex((dir) => TEST_DATA_DIRS.has(dir));
  if (top < 0) return undefined;
  for (let end = dirs.length; end > top && dirs.length - end < FOLDERS_LISTED; end -= 1) {
    const dir = dirs.slice(0, end).join("/");
    for (const name of view.list(dir)) {
      const language = detectLanguage(name);
      if (language !== undefined && view.exists(joinRel(dir, name))) return language;
    }
  }
  return undefined;
}
