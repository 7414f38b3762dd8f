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
  return goDataPackage(view, path) === undefined ? undefined : "go";
}

/**
 * The Go package a data file belongs to: the folder holding its outermost test data folder
 * (`golden/` for `golden/testdata/upper.golden`, `internal/toml-test/` for its embedded
 * `tests/valid/bool/bool.json`), when that folder is a Go package. Go keeps no code in a data
 * folder: the package's tests read it relative to the package (`os.ReadFile("testdata/…")`), or
 * the package embeds it (`//go:embed tests/*`). Undefined for a file with a language, one outside
 * a test folder, or a folder above it that holds no Go file.
 */
export function goDataPackage(view: ProjectView, path: string): string | undefined {
  if (detectLanguage(path) !== undefined) return undefined;
  const dirs = path.split("/").slice(0, -1);
  const top = dirs.findIndex((dir) => TEST_DATA_DIRS.has(dir));
  if (top < 0) return undefined;
  const owner = dirs.slice(0, top).join("/");
  return view.list(owner).some((name) => name.endsWith(".go") && view.exists(joinRel(owner, name)))
    ? owner
    : undefined;
}

/** What a Python web framework's template is written in (Jinja, Django templates). */
const TEMPLATE_EXTENSIONS = [".html", ".htm", ".jinja", ".jinja2", ".j2", ".txt", ".xml"];

/**
 * Where a Python package's template sits: `{ root, name }` for `flaskr/templates/blog/index.html`
 * is `flaskr/templates` and `blog/index.html`, the name a view renders it by
 * (`render_template("blog/index.html")`), when the folder holding `templates/` is Python code
 * (an `__init__.py` or a module beside it). Undefined for any other file: a page in `static/`,
 * a template folder of no Python project.
 */
export function pythonTemplate(
  view: ProjectView,
  path: string,
): { root: string; name: string } | undefined {
  if (!TEMPLATE_EXTENSIONS.some((ext) => path.endsWith(ext))) return undefined;
  const parts = path.split("/");
  const at = parts.lastIndexOf("templates", parts.length - 2);
  if (at < 0) return undefined;
  const owner = parts.slice(0, at).join("/");
  const python = view.list(owner).some((name) => name.endsWith(".py"));
  if (!python) return undefined;
  return { root: parts.slice(0, at + 1).join("/"), name: parts.slice(at + 1).join("/") };
}

/** A file's language for choosing its tests: its own, a test folder's data file's, a template's. */
export function templateLanguage(view: ProjectView, path: string): Language | undefined {
  return pythonTemplate(view, path) === undefined ? undefined : "python";
}

/** Files a Python project marks its folder with, beside or instead of a module. */
const PYTHON_MARKERS = ["pyproject.toml", "setup.py", "setup.cfg", "manage.py", "requirements.txt"];

/**
 * Whether a file is a dotenv file (`.env`, `.env.test`) in a Python project's folder: python-dotenv,
 * pydantic-settings, Starlette's `Config` or django-environ read it as a settings module is
 * imported, so an edit to it changes what the tests of that module see.
 */
export function pythonDotenv(view: ProjectView, path: string): boolean {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  if (name !== ".env" && !/^\.env\.[\w.-]+$/.test(name)) return false;
  const dir = parts.slice(0, -1).join("/");
  return view.list(dir).some((entry) => entry.endsWith(".py") || PYTHON_MARKERS.includes(entry));
}

/** A dotenv file's language for choosing its tests: Python's, when a Python project reads it. */
export function dotenvLanguage(view: ProjectView, path: string): Language | undefined {
  return pythonDotenv(view, path) ? "python" : undefined;
}
