import { normaliseTddPath } from "../tdd/file-classes.ts";

/**
 * A test that stands in for the code it is meant to prove (ADR 0012, the twenty-third round): a
 * Red's or a claim's own test file that mocks or patches the very file the Green or the claim
 * changes (`vi.mock("../src/calc.js", …)`, `jest.mock`, node's `mock.module`,
 * `monkeypatch.setattr("calc.mul", …)`, `patch("calc.mul")`, `sys.modules["calc"] = …`). Written
 * before the Red, such a mock can act only once the export exists (`real.mul ? … : {}`): the Red
 * fails for the right reason, the test file never changes after it, and every later run passes
 * whatever the code does. A pass of such a test proves nothing of that file. Read from the text,
 * only after a pass. Since the twenty-fourth round a JavaScript specifier that is not a path from
 * the test (a `#name` of the package's `imports`, a tsconfig or runner alias, the package's own
 * name) is resolved by the caller's resolver, `vi.mock(import("…"))` is read, and so is a spy
 * on, or an assignment to, a binding the test imports from the file (`jest.spyOn(calc, "mul")`,
 * `calc.mul = …`, a named import rebound or shadowed). A computed name is not resolved.
 */

const JS_MOCK =
  /\b(?:vi|jest)\s*\.\s*(?:mock|doMock|unstable_mockModule|setMock)\s*\(\s*(?:import\s*\(\s*)?(["'`])([^"'`\n]+)\1|\b(?:mock\s*\.\s*module|td\s*\.\s*replace(?:Esm)?|require\s*\.\s*cache\s*\[\s*require\s*\.\s*resolve)\s*\(\s*(?:import\s*\(\s*)?(["'`])([^"'`\n]+)\3/g;

/** Resolves a JavaScript specifier that is not a path from the test to a project file. */
export type SpecifierResolver = (fromFile: string, specifier: string) => string | undefined;

/** `import * as calc from "…"`, `import calc from "…"`, `const calc = require("…")` (or rewire). */
const JS_WHOLE = [
  /\bimport\s+(?:[\w$]+\s*,\s*)?\*\s*as\s+([\w$]+)\s+from\s*(["'])([^"'\n]+)\2/g,
  /\bimport\s+(?!type\b)([\w$]+)\s*(?:,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+)\s*)?from\s*(["'])([^"'\n]+)\2/g,
  /\b(?:const|let|var)\s+([\w$]+)\s*=\s*(?:await\s+import|require|rewire)\s*\(\s*(["'`])([^"'`\n]+)\2\s*\)/g,
];
/** `import { mul as m } from "…"`, `const { mul: m } = require("…")`: the names, then the specifier. */
const JS_NAMED = [
  /\bimport\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(["'])([^"'\n]+)\2/g,
  /\b(?:const|let|var)\s+\{([^}]*)\}\s*=\s*(?:await\s+import|require)\s*\(\s*(["'`])([^"'`\n]+)\2\s*\)/g,
];

const escaped = (name: string) => name.replaceAll("$", "\\$");

/** A jest or vitest spy's method that gives it a body of its own (not `mockClear`, `mockName`). */
const SPY_BODY =
  "\\s*\\.\\s*mock(?:Implementation|ReturnValue|ResolvedValue|RejectedValue)(?:Once)?\\s*\\(";

/**
 * Whether the test replaces a part of a module it holds whole (`calc`): a stub (`sinon.stub`,
 * `td.replace`, node's `mock.method` given a body), a jest or vitest spy given a body
 * (`jest.spyOn(calc, "mul").mockImplementation(…)`; a spy that only watches calls runs the real
 * code, and is no stand-in), an assignment, rewire's `__set__`.
 */
function replacesPart(body: string, name: string): boolean {
  const held = `${escaped(name)}(?:\\s*\\.\\s*prototype)?`;
  const spy = `\\b(?:vi|jest)\\s*\\.\\s*spyOn\\s*\\(\\s*${held}\\s*,[^)]*\\)`;
  const spies = [
    ...body.matchAll(new RegExp(`\\b(?:const|let|var)\\s+([\\w$]+)\\s*=\\s*${spy}`, "g")),
  ].map((match) => escaped(match[1] ?? ""));
  return [
    `\\b(?:sinon|td)\\s*\\.\\s*(?:stub|replace|replaceGetter|replaceSetter)\\s*\\(\\s*${held}\\s*,`,
    `\\bjest\\s*\\.\\s*replaceProperty\\s*\\(\\s*${held}\\s*,`,
    `\\bmock\\s*\\.\\s*(?:method|getter|setter)\\s*\\(\\s*${held}\\s*,\\s*[^,)]+,\\s*[^)\\s]`,
    `${spy}${SPY_BODY}`,
    `(?<![\\w$.])${held}\\s*\\.\\s*[\\w$]+${SPY_BODY}`,
    ...spies.map((spyName) => `(?<![\\w$.])${spyName}${SPY_BODY}`),
    // rewire's setter of a module's own names.
    `(?<![\\w$.])${escaped(name)}\\s*\\.\\s*__set__\\s*\\(`,
    `(?<![\\w$.])${held}\\s*(?:\\.\\s*[\\w$]+|\\[[^\\]\\n]+\\])\\s*=(?![=>])`,
    `\\b(?:Object\\s*\\.\\s*(?:defineProperty|defineProperties|assign)|Reflect\\s*\\.\\s*(?:set|defineProperty))\\s*\\(\\s*${held}\\s*,`,
  ].some((pattern) => new RegExp(pattern).test(body));
}

/**
 * Whether the test assigns a name it imported (`mul = …` after `let { mul } = require(…)`). A
 * declaration of its own name in a nested scope (`const axe = configureAxe()`) shadows it
 * honestly often enough that it is not read; nor is a JSX attribute (`onClick={onClick}`) or a
 * type annotation (`const state: State = …`).
 */
function rebinds(body: string, name: string): boolean {
  const own = escaped(name);
  return new RegExp(
    `(?<![\\w$.])(?<!\\b(?:const|let|var|type)\\s+|:\\s*)${own}(?:\\s+=(?![=>])|=(?![=>{"']))`,
  ).test(body);
}

/** The specifiers of the modules whose exports the test spies on, assigns or rebinds. */
function replacedSpecifiers(body: string): string[] {
  const found: string[] = [];
  for (const pattern of JS_WHOLE)
    for (const match of body.matchAll(pattern))
      if (replacesPart(body, match[1] ?? "")) found.push(match[3] ?? "");
  for (const pattern of JS_NAMED)
    for (const match of body.matchAll(pattern)) {
      const names = (match[1] ?? "")
        .split(",")
        .map((part) => (part.split(/\s+as\s+|:/).at(-1) ?? "").replace(/=.*$/, "").trim())
        .filter((name) => /^[\w$]+$/.test(name) && name !== "type");
      if (names.some((name) => rebinds(body, name))) found.push(match[3] ?? "");
    }
  return found.filter((specifier) => specifier !== "");
}

/** `monkeypatch.setattr("calc.mul", …)`, `patch("calc.mul")`: a dotted name, its module first. */
const PY_STRING_TARGET =
  /\b(?:monkeypatch\s*\.\s*(?:setattr|delattr)|(?:mock\s*\.\s*)?patch)\s*\(\s*(?:target\s*=\s*)?f?(["'])([\w.{}]+)\1/g;
/** `monkeypatch.setattr(calc, "mul", …)`, `patch.object(calc, "mul")`: a module by its name. */
const PY_OBJECT_TARGET =
  /\b(?:monkeypatch\s*\.\s*(?:setattr|delattr)|patch\s*\.\s*object)\s*\(\s*([A-Za-z_][\w.]*)\s*,/g;
/**
 * `calc.mul = …`, `calc.__dict__["mul"] = …`, `setattr(calc, "mul", …)`: a module's attribute
 * set without monkeypatch (the twenty-fourth round), the module by the name the test imported.
 */
const PY_ASSIGNED = [
  /^[ \t]*([A-Za-z_][\w.]*?)(?:\.__dict__\s*\[[^\]\n]+\]|\.(?!__)\w+)\s*=(?!=)/gm,
  /(?<![\w.])(?:setattr|delattr)\s*\(\s*([A-Za-z_][\w.]*)\s*,/g,
];
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
  for (const pattern of PY_ASSIGNED)
    for (const match of body.matchAll(pattern)) {
      const [head, ...rest] = (match[1] ?? "").split(".");
      const module = imports.get(head ?? "");
      // A name imported from a module (`from calc import C`) names no module file: not matched.
      if (module !== undefined) modules.push([module, ...rest].join("."));
    }
  for (const match of body.matchAll(PY_MODULES)) modules.push(match[2] ?? match[4] ?? "");
  return modules.filter((module) => module !== "");
}

const stripExtension = (path: string) => path.replace(/\.[cm]?[jt]sx?$/, "");

/**
 * Whether a specifier no resolver reached names this file by an alias no package can have
 * (`@/calc`, `~/calc`, `#calc`): the file's path ends with what follows the alias's prefix.
 */
function aliasNames(specifier: string, target: string): boolean {
  const rest = /^(?:[@~]\/|#)(.+)$/.exec(specifier)?.[1];
  if (rest === undefined || rest.startsWith("/")) return false;
  const bare = stripExtension(target);
  const named = stripExtension(rest).replace(/\/index$/, "");
  return [bare, bare.replace(/\/index$/, "")].some(
    (path) => path === named || path.endsWith(`/${named}`),
  );
}

/** Whether a JavaScript specifier, from the test's folder, names this project file. */
function namesFile(
  testFile: string,
  specifier: string,
  target: string,
  resolve?: SpecifierResolver,
): boolean {
  if (!specifier.startsWith(".")) {
    const resolved = resolve?.(testFile, specifier);
    return resolved === undefined ? aliasNames(specifier, target) : resolved === target;
  }
  const folder = testFile.includes("/") ? testFile.slice(0, testFile.lastIndexOf("/")) : "";
  const resolved = normaliseTddPath(folder === "" ? specifier : `${folder}/${specifier}`);
  if (resolved === undefined) return false;
  const bare = stripExtension(target);
  return target === resolved || bare === stripExtension(resolved) || bare === `${resolved}/index`;
}

/** The text of a call's arguments after `from` (the index just past the specifier): to its `)`. */
function restOfCall(body: string, from: number): string {
  let depth = 1;
  let quote: string | undefined;
  for (let index = from; index < body.length; index += 1) {
    const char = body[index];
    if (quote !== undefined) {
      if (char === "\\") index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === "`") quote = char;
    else if (char === "(" || char === "[" || char === "{") depth += 1;
    else if (char === ")" || char === "]" || char === "}") {
      depth -= 1;
      if (depth === 0) return body.slice(from, index);
    }
  }
  return body.slice(from);
}

/** What follows a vi/jest mock's specifier in its call (`vi.mock(import("…"), …)` too). */
function factoryOf(body: string, match: RegExpExecArray | RegExpMatchArray): string {
  const end = (match.index ?? 0) + match[0].length;
  const after = /^\s*\)/.exec(body.slice(end));
  return restOfCall(
    body,
    /\bimport\s*\(\s*["'`]/.test(match[0]) && after ? end + after[0].length : end,
  );
}

/** Every module specifier the test loads: imports, requires, and the runners' actual loaders. */
const JS_LOADS =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\b(?:require|requireActual|importActual)\s*\(\s*)(["'`])([^"'`\n]+)\1/g;

/**
 * The names the test reads from the module a specifier loads: a named import's exported name, a
 * whole binding's members (`calc.mul`), `default` for a default import. Undefined when a whole
 * binding is used other than by a member's name (`calc[name]`, `{ mul } = calc`, `f(calc)`): then
 * any export may be read.
 */
function namesRead(body: string, loads: (specifier: string) => boolean): Set<string> | undefined {
  const names = new Set<string>();
  for (const pattern of JS_NAMED)
    for (const match of body.matchAll(pattern))
      if (loads(match[3] ?? ""))
        for (const part of (match[1] ?? "").split(",")) {
          const name = (part.trim().split(/\s+as\s+|:/)[0] ?? "").replace(/^type\s+/, "").trim();
          if (name !== "") names.add(name);
        }
  for (const [index, pattern] of JS_WHOLE.entries())
    for (const match of body.matchAll(pattern)) {
      if (!loads(match[3] ?? "")) continue;
      const whole = escaped(match[1] ?? "");
      // `import calc from` reads the default export; a namespace or a require, its members.
      if (index === 1) names.add("default");
      const uses = [
        ...body.matchAll(
          new RegExp(`(?<![\\w$./"'\`-])${whole}(?![\\w$/"'\`-])(\\s*\\??\\.\\s*([\\w$]+))?`, "g"),
        ),
      ];
      // The binding's own declaration is one use with no member.
      const bare = uses.filter((use) => use[2] === undefined).length;
      if (bare > 1) return undefined;
      for (const use of uses) if (use[2] !== undefined) names.add(use[2]);
    }
  return names;
}

/**
 * Whether a mock of the proved file spares what the test proves (ADR 0012, the twenty-fifth
 * round): its factory keeps the real module (`...(await importOriginal())`, `importActual`,
 * `requireActual`) and replaces only exports the test never reads, with no computed key, while
 * every module the test loads from the project is that file. Another export mocked beside the
 * one under test was refused as a stand-in. An export the test reaches through other project
 * code, or by a name the factory also holds, is still one.
 */
function sparesTested(
  testFile: string,
  body: string,
  factory: string,
  target: string,
  resolve?: SpecifierResolver,
): boolean {
  const params = /^\s*,\s*(?:async\s*)?\(?\s*([\w$]+)?/.exec(factory)?.[1];
  const keepsReal =
    /\b(?:importActual|requireActual)\s*\(/.test(factory) ||
    (params !== undefined && new RegExp(`(?<![\\w$.])${escaped(params)}\\s*\\(`).test(factory));
  if (!keepsReal || !/\.\.\./.test(factory)) return false;
  if (/[[,{]\s*\[|\bProxy\b|\bdefineProperty\b|\bassign\b/.test(factory)) return false;
  for (const match of body.matchAll(JS_LOADS)) {
    const specifier = match[2] ?? "";
    if (specifier.includes("${")) return false;
    const local = specifier.startsWith(".") || resolve?.(testFile, specifier) !== undefined;
    if (local && !namesFile(testFile, specifier, target, resolve)) return false;
  }
  const read = namesRead(body, (specifier) => namesFile(testFile, specifier, target, resolve));
  if (read === undefined || read.size === 0) return false;
  const words = new Set(factory.match(/[\w$]+/g) ?? []);
  return [...read].every((name) => !words.has(name));
}

/** A mock call whose first argument may be computed (`jest.mock(path.join(…))`, a template). */
const JS_MOCK_CALL =
  /\b(?:(?:vi|jest)\s*\.\s*(?:mock|doMock|unstable_mockModule|setMock)|mock\s*\.\s*module|td\s*\.\s*replace(?:Esm)?)\s*\(/g;

/** The string pieces of an expression, an identifier's own (`const p = …`) read once. */
function stringPieces(body: string, expression: string, depth = 0): string[] {
  const pieces: string[] = [];
  const token = /(["'])((?:\\.|(?!\1)[^\\\n])*)\1|`([^`]*)`|([A-Za-z_$][\w$]*)/g;
  for (const match of expression.matchAll(token)) {
    if (match[2] !== undefined) pieces.push(match[2]);
    else if (match[3] !== undefined)
      for (const part of match[3].split(/\$\{([^}]*)\}/).entries())
        pieces.push(...(part[0] % 2 === 0 ? [part[1]] : stringPieces(body, part[1], depth + 1)));
    else if (depth < 2 && match[4] !== undefined) {
      const own = new RegExp(
        `\\b(?:const|let|var)\\s+${escaped(match[4])}\\s*=\\s*([^;\\n]+)`,
      ).exec(body);
      if (own?.[1] !== undefined) pieces.push(...stringPieces(body, own[1], depth + 1));
    }
  }
  return pieces.filter((piece) => piece !== "");
}

/**
 * The paths a computed mock specifier may name (the twenty-fifth round): its string pieces
 * joined as they stand and as a path (`path.join(__dirname, "..", "src", "calc")`), from the
 * test's folder, and each piece alone. A specifier computed from what the text does not hold
 * (`fromCharCode`, an environment variable) is not followed.
 */
function computedSpecifiers(body: string, argument: string): string[] {
  const pieces = stringPieces(body, argument);
  if (pieces.length === 0) return [];
  const joined = [pieces.join(""), pieces.join("/").replace(/\/{2,}/g, "/")].map((path) =>
    path.startsWith(".") || path.startsWith("/") ? path : `./${path}`,
  );
  return [
    ...joined.map((path) => (path.startsWith("/") ? `.${path}` : path)),
    ...pieces.map((piece) => (piece.startsWith(".") ? piece : `./${piece}`)),
  ];
}

/** Whether a computed specifier's paths name this file, or a piece is its name without a folder. */
function computedNames(testFile: string, paths: readonly string[], target: string): boolean {
  const stem = stripExtension(target.split("/").pop() ?? target);
  return paths.some(
    (path) =>
      namesFile(testFile, path, target) ||
      stripExtension(path.split("/").pop() ?? path) === stem ||
      (stem === "index" &&
        stripExtension(path.split("/").pop() ?? path) === target.split("/").at(-2)),
  );
}

/**
 * The computed first arguments of the test's mock calls, as the paths they may name; and the
 * maps of `proxyquire(module, {…})` and `esmock(module, {…})`, whose keys name a module from the
 * loaded module's folder (proxyquire) or the test's (esmock): each key as both.
 */
function computedMocks(testFile: string, body: string): string[][] {
  const found: string[][] = [];
  for (const match of body.matchAll(JS_MOCK_CALL)) {
    const rest = restOfCall(body, (match.index ?? 0) + match[0].length);
    const argument = rest.split(/,(?![^(]*\))/)[0] ?? rest;
    if (/^\s*(["'])[^"'`\n]*\1\s*$/.test(argument) || /^\s*`[^`$]*`\s*$/.test(argument)) continue;
    if (/^\s*import\s*\(\s*["'`][^"'`$]*["'`]\s*\)\s*$/.test(argument)) continue;
    found.push(computedSpecifiers(body, argument));
  }
  const folder = testFile.includes("/") ? testFile.slice(0, testFile.lastIndexOf("/")) : "";
  const MAPS =
    /\b(proxyquire(?:\s*\.\s*\w+\s*\(\s*\))*|esmock(?:\s*\.\s*\w+)?)\s*\(\s*(["'`])([^"'`\n]+)\2\s*,\s*\{/g;
  for (const match of body.matchAll(MAPS)) {
    const map = restOfCall(body, (match.index ?? 0) + match[0].length);
    const loaded = normaliseTddPath(
      folder === "" ? (match[3] ?? "") : `${folder}/${match[3] ?? ""}`,
    );
    const from = loaded?.includes("/") === true ? loaded.slice(0, loaded.lastIndexOf("/")) : "";
    for (const key of map.matchAll(/(?:^|[,{]|\n)\s*(["'`])([^"'`\n]+)\1\s*:/g)) {
      const specifier = key[2] ?? "";
      if (!specifier.startsWith(".")) continue;
      const fromLoaded = normaliseTddPath(from === "" ? specifier : `${from}/${specifier}`);
      found.push([
        specifier,
        ...(fromLoaded === undefined ? [] : [relativeFrom(folder, fromLoaded)]),
      ]);
    }
  }
  return found;
}

/** A project path as a specifier from a folder (`src/calc` from `test` → `../src/calc`). */
function relativeFrom(folder: string, path: string): string {
  const up = folder === "" ? 0 : folder.split("/").length;
  return `${up === 0 ? "./" : "../".repeat(up)}${path}`;
}

/** Whether a dotted Python module is this project file (from the root or a source folder). */
function isModuleFile(module: string, target: string): boolean {
  const path = module.replaceAll(".", "/");
  return [`${path}.py`, `${path}/__init__.py`].some(
    (candidate) => target === candidate || target.endsWith(`/${candidate}`),
  );
}

/**
 * Which of `targets` (project paths) the test file's own text stands in for; `resolve` reads a
 * JavaScript specifier that is not a path from the test (an alias, `#name`, a package's name).
 */
export function standInTargets(
  testFile: string,
  text: string,
  targets: readonly string[],
  resolve?: SpecifierResolver,
): string[] {
  if (testFile.endsWith(".py")) {
    const modules = pythonPatched(text);
    return targets.filter((target) => modules.some((module) => isModuleFile(module, target)));
  }
  if (!/\.[cm]?[jt]sx?$/.test(testFile)) return [];
  const body = code(text, /^\s*\/\//);
  const mocks = [...body.matchAll(JS_MOCK)].map((match) => ({
    specifier: match[2] ?? match[4] ?? "",
    // A vi/jest mock's factory, for one that keeps the real module (`sparesTested`).
    factory: match[2] === undefined ? undefined : factoryOf(body, match),
  }));
  const replaced = replacedSpecifiers(body);
  const computed = computedMocks(testFile, body);
  return targets.filter(
    (target) =>
      mocks.some(
        ({ specifier, factory }) =>
          namesFile(testFile, specifier, target, resolve) &&
          (factory === undefined || !sparesTested(testFile, body, factory, target, resolve)),
      ) ||
      replaced.some((specifier) => namesFile(testFile, specifier, target, resolve)) ||
      computed.some((paths) => computedNames(testFile, paths, target)),
  );
}

const JS_VARIANTS = [".js", ".ts", ".jsx", ".tsx", ".mjs", ".mts", ".cjs", ".cts"];

/**
 * The project paths the test's mocks and patches may name, for targets given as a pattern (a
 * Green over `src/*`, ADR 0012, the twenty-fourth round): a JavaScript specifier resolved, or
 * from the test's folder with each extension and as a folder's index; a Python module as a file
 * or a package, from the root or `src/`. The caller keeps those its pattern covers that exist.
 */
export function standInCandidates(
  testFile: string,
  text: string,
  resolve?: SpecifierResolver,
): string[] {
  if (testFile.endsWith(".py"))
    return pythonPatched(text).flatMap((module) => {
      const path = module.replaceAll(".", "/");
      return [`${path}.py`, `${path}/__init__.py`].flatMap((file) => [file, `src/${file}`]);
    });
  if (!/\.[cm]?[jt]sx?$/.test(testFile)) return [];
  const body = code(text, /^\s*\/\//);
  const folder = testFile.includes("/") ? testFile.slice(0, testFile.lastIndexOf("/")) : "";
  return [
    ...[...body.matchAll(JS_MOCK)].map((match) => match[2] ?? match[4] ?? ""),
    ...replacedSpecifiers(body),
  ].flatMap((specifier) => {
    if (!specifier.startsWith(".")) {
      const resolved = resolve?.(testFile, specifier);
      return resolved === undefined ? [] : [resolved];
    }
    const path = normaliseTddPath(folder === "" ? specifier : `${folder}/${specifier}`);
    if (path === undefined) return [];
    const bare = stripExtension(path);
    return [path, ...JS_VARIANTS.flatMap((ext) => [`${bare}${ext}`, `${path}/index${ext}`])];
  });
}

/** The reason a pass is not trusted, for the agent. */
export function standInReason(testFile: string, files: readonly string[]): string {
  const one = files.length === 1;
  return `${testFile} mocks or patches ${files.join(", ")} itself, so its pass proves nothing of ${one ? "that file" : "those files"}: test the real code (mock only what it calls), then run the test again`;
}
