import { baseName } from "../../filter/languages.ts";
import { dirnameRel, joinRel, type ProjectView } from "../../project/project-view.ts";
import type { RelatedTest } from "../related.ts";

/**
 * The tests of the Go packages that import a file's package, however deep (ADR 0013, thirteenth
 * round). A Go package's own `*_test.go` files are its first tests, but a package with none
 * (`internal/mathx`, used by `calc`) or whose tests miss a case is still covered by the tests of
 * the packages that call it: `go test ./calc` fails on a bug in `mathx.Add`. Read from the
 * module's `.go` files' import lines (the module's path from `go.mod`), skipping `vendor`,
 * `testdata`, hidden and `_` folders and nested modules, at most `MAX_GO_FILES` files.
 */

/** Files read for their imports at most: past it the module is large, and the rest unread. */
export const MAX_GO_FILES = 5000;

/** `module example.com/m` of a go.mod. */
export function goModulePath(goMod: string): string | undefined {
  return /^\s*module\s+("?)([^\s"]+)\1\s*$/m.exec(goMod)?.[2];
}

/** The import paths a Go file names (single imports and import blocks; aliases, `_`, `.`). */
export function goImports(source: string): string[] {
  // Comments out first: a commented-out import is none.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  const paths: string[] = [];
  for (const block of text.matchAll(/^\s*import\s*\(([\s\S]*?)\)/gm))
    for (const one of (block[1] ?? "").matchAll(/"([^"\n]+)"|`([^`\n]+)`/g))
      paths.push(one[1] ?? one[2] ?? "");
  for (const one of text.matchAll(/^\s*import\s+(?:[\w.]+\s+)?(?:"([^"\n]+)"|`([^`\n]+)`)/gm))
    paths.push(one[1] ?? one[2] ?? "");
  return paths.filter((path) => path !== "");
}

/**
 * The module's tests that reach `file`'s package through imports, outside its own folder: a test
 * file importing the package (`imports`, hops 1), then the tests of each package importing it,
 * level by level (`imports-via`). `moduleDir` is the go.mod's folder.
 */
export function goImporterTests(
  view: ProjectView,
  moduleDir: string,
  file: string,
  maxHops: number,
): RelatedTest[] {
  const module = goModulePath(view.readText(joinRel(moduleDir, "go.mod")) ?? "");
  if (module === undefined) return [];
  const importPath = (dir: string): string => {
    const rel = moduleDir === "" ? dir : dir.slice(moduleDir.length + 1);
    return rel === "" || dir === moduleDir ? module : `${module}/${rel}`;
  };
  const { testsImporting, packagesImporting, testsOf } = moduleImports(view, moduleDir, module);
  const home = dirnameRel(file);
  const found = new Map<string, RelatedTest>();
  const add = (path: string, test: RelatedTest) => {
    if (dirnameRel(path) !== home && !found.has(path)) found.set(path, test);
  };
  const seen = new Set([home]);
  let level = [home];
  for (let hops = 1; hops <= maxHops && level.length > 0; hops += 1) {
    const next: string[] = [];
    for (const dir of level) {
      const name = importPath(dir);
      for (const path of [...(testsImporting.get(name) ?? [])].sort())
        add(path, {
          path,
          evidence: hops === 1 ? "imports" : "imports-via",
          detail:
            hops === 1 ? `imports ${name}` : `imports ${name}, which reaches ${baseName(file)}`,
          hops,
        });
      for (const importer of [...(packagesImporting.get(name) ?? [])].sort()) {
        if (seen.has(importer)) continue;
        seen.add(importer);
        next.push(importer);
        for (const path of testsOf.get(importer) ?? [])
          add(path, {
            path,
            evidence: "imports-via",
            detail: `its package imports ${name}`,
            hops: hops + 1,
          });
      }
    }
    level = next;
  }
  return [...found.values()].sort((a, b) => a.hops - b.hops || a.path.localeCompare(b.path));
}

interface ModuleImports {
  /** Import path → the test files importing it. */
  testsImporting: Map<string, Set<string>>;
  /** Import path → the folders whose other files import it. */
  packagesImporting: Map<string, Set<string>>;
  /** Folder → its test files. */
  testsOf: Map<string, string[]>;
}

/** Each view's modules read: a turn's Stop asks once per edited Go file, the answer is one. */
const readModules = new WeakMap<ProjectView, Map<string, ModuleImports>>();

/** Who imports each of the module's packages, from its files' import lines (once per view). */
function moduleImports(view: ProjectView, moduleDir: string, module: string): ModuleImports {
  const modules = readModules.get(view) ?? new Map<string, ModuleImports>();
  readModules.set(view, modules);
  const known = modules.get(`${moduleDir}\0${module}`);
  if (known !== undefined) return known;
  const found = readModuleImports(view, moduleDir, module);
  modules.set(`${moduleDir}\0${module}`, found);
  return found;
}

function readModuleImports(view: ProjectView, moduleDir: string, module: string): ModuleImports {
  const found: ModuleImports = {
    testsImporting: new Map(),
    packagesImporting: new Map(),
    testsOf: new Map(),
  };
  let read = 0;
  const folders = [moduleDir];
  while (folders.length > 0 && read < MAX_GO_FILES) {
    const dir = folders.shift() ?? "";
    for (const name of view.list(dir)) {
      const path = joinRel(dir, name);
      if (!name.endsWith(".go")) {
        if (walksInto(view, path, name)) folders.push(path);
        continue;
      }
      if (read >= MAX_GO_FILES) break;
      read += 1;
      const test = name.endsWith("_test.go");
      if (test) {
        const tests = found.testsOf.get(dir) ?? [];
        tests.push(path);
        found.testsOf.set(dir, tests);
      }
      for (const imported of goImports(view.readText(path) ?? "")) {
        if (imported !== module && !imported.startsWith(`${module}/`)) continue;
        const into = test ? found.testsImporting : found.packagesImporting;
        const set = into.get(imported) ?? new Set<string>();
        set.add(test ? path : dir);
        into.set(imported, set);
      }
    }
  }
  return found;
}

/** A folder of the module's own packages: not hidden, `_`, vendored, test data or a module. */
function walksInto(view: ProjectView, path: string, name: string): boolean {
  return (
    !/^[._]/.test(name) &&
    name !== "vendor" &&
    name !== "testdata" &&
    name !== "node_modules" &&
    view.isDirectory(path) &&
    !view.exists(joinRel(path, "go.mod"))
  );
}
