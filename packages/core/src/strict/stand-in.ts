import { normaliseTddPath } from "../tdd/file-classes.ts";

/**
 * A test that stands in for the code it is meant to prove (ADR 0012, the twenty-third round): a
 * Red's or a claim's own test file that mocks or patches the very file the Green or the claim
 * changes (`vi.mock("../src/calc.js", …)`, `jest.mock`, node's `mock.module`,
 * `monkeypatch.setattr("calc.mul", …)`, `patch("calc.mul")`, `sys.modules["calc"] = …`). Written
 * before the Red, such a mock can act only once the export exists (`real.mul ? … : {}`): the Red
 * fails for the right reason, the test file never changes after it, and every later run passes
 * whatever the code does. A pass of such a test proves nothing of that file. Read from the text,
 * only after a pass; a specifier reached through an alias or a computed name is not resolved.
 */

const JS_MOCK =
  /\b(?:vi|jest)\s*\.\s*(?:mock|doMock|unstable_mockModule|setMock)\s*\(\s*(["'`])([^"'`\n]+)\1|\bmock\s*\.\s*module\s*\(\s*(["'`])([^"'`\n]+)\3/g;

/** `monkeypatch.setattr("calc.mul", …)`, `patch("calc.mul")`: a dotted name, its module first. */
const PY_STRING_TARGET =
  /\b(?:monkeypatch\s*\.\s*(?:setattr|delattr)|(?:mock\s*\.\s*)?patch)\s*\(\s*(?:target\s*=\s*)?f?(["'])([\w.{}]+)\1/g;
/** `monkeypatch.setattr(calc, "mul", …)`, `patch.object(calc, "mul")`: a module by its name. */
const PY_OBJECT_TARGET =
  /\b(?:monkeypatch\s*\.\s*(?:setattr|delattr)|patch\s*\.\s*object)\s*\(\s*([A-Za-z_][\w.]*)\s*,/g;
/** `sys.modules["calc"] = …`, `sys.modules.update({"calc": …})`. */
const PY_MODULES =
  /\bsys\s*\.\s*modules\s*(?:\[\s*(["'])([\w.]+)\1\s*\]\s*=(?!=)|\.\s*(?:update|setdefault)\s*\(\s*\{?\s*(["'])([\w.]+)\3)/g;

const code = (text: string, comment: RegExp) =>
  text
    .split("\n")
    .filter((line) => !comment.test(line))
    .join("\n");

/** The modules a Python test's text imports, by the name it uses: `c` → `pkg.calc`. */
function pythonImports(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const match of text.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm))
    for (const part of (match[1] ?? "").split(",")) {
      const [module, alias] = part.trim().split(/\s+as\s+/);
      if (module === undefined || module === "") continue;
      names.set(
        alias ?? module.split(".")[0] ?? module,
        alias === undefined ? (module.split(".")[0] ?? module) : module,
      );
    }
  for (const match of text.matchAll(/^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]*\(?([^)\n#]+)/gm))
    for (const part of (match[2] ?? "").split(",")) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name !== undefined && /^\w+$/.test(name))
        names.set(alias ?? name, `${match[1] ?? ""}.${name}`);
    }
  return names;
}

/** The Python modules (dotted) a test's text patches or replaces. */
function pythonPatched(text: string): string[] {
  const body = code(text, /^\s*#/);
  const imports = pythonImports(body);
  const modules: string[] = [];
  for (const match of body.matchAll(PY_STRING_TARGET)) {
    const dotted = (match[2] ?? "").split(".");
    if (dotted.length > 1) modules.push(dotted.slice(0, -1).join("."));
  }
  for (const match of body.matchAll(PY_OBJECT_TARGET)) {
    const name = match[1] ?? "";
    const [head, ...rest] = name.split(".");
    const module = imports.get(head ?? "");
    if (module !== undefined) modules.push([module, ...rest].join("."));
  }
  for (const match of body.matchAll(PY_MODULES)) modules.push(match[2] ?? match[4] ?? "");
  return modules.filter((module) => module !== "");
}

const stripExtension = (path: string) => path.replace(/\.[cm]?[jt]sx?$/, "");

/** Whether a JavaScript specifier, from the test's folder, names this project file. */
function namesFile(testFile: string, specifier: string, target: string): boolean {
  if (!specifier.startsWith(".")) return false;
  const folder = testFile.includes("/") ? testFile.slice(0, testFile.lastIndexOf("/")) : "";
  const resolved = normaliseTddPath(folder === "" ? specifier : `${folder}/${specifier}`);
  if (resolved === undefined) return false;
  const bare = stripExtension(target);
  return target === resolved || bare === stripExtension(resolved) || bare === `${resolved}/index`;
}

/** Whether a dotted Python module is this project file (from the root or a source folder). */
function isModuleFile(module: string, target: string): boolean {
  const path = module.replaceAll(".", "/");
  return [`${path}.py`, `${path}/__init__.py`].some(
    (candidate) => target === candidate || target.endsWith(`/${candidate}`),
  );
}

/** Which of `targets` (project paths) the test file's own text stands in for. */
export function standInTargets(
  testFile: string,
  text: string,
  targets: readonly string[],
): string[] {
  if (testFile.endsWith(".py")) {
    const modules = pythonPatched(text);
    return targets.filter((target) => modules.some((module) => isModuleFile(module, target)));
  }
  if (!/\.[cm]?[jt]sx?$/.test(testFile)) return [];
  const specifiers = [...code(text, /^\s*\/\//).matchAll(JS_MOCK)].map(
    (match) => match[2] ?? match[4] ?? "",
  );
  return targets.filter((target) =>
    specifiers.some((specifier) => namesFile(testFile, specifier, target)),
  );
}

/** The reason a pass is not trusted, for the agent. */
export function standInReason(testFile: string, files: readonly string[]): string {
  const one = files.length === 1;
  return `${testFile} mocks or patches ${files.join(", ")} itself, so its pass proves nothing of ${one ? "that file" : "those files"}: test the real code (mock only what it calls), then run the test again`;
}
