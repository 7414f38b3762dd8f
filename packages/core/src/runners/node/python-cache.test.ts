import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compiledShadowsReason, prepareForPython } from "./python-cache.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(paths: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), "tailtest-pycache-"));
  roots.push(root);
  for (const path of paths) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, "x");
  }
  return root;
}

const present = (root: string, paths: readonly string[]) =>
  paths.filter((path) => existsSync(join(root, path)));

describe("prepareForPython", () => {
  it("removes the bytecode of the project's own code, installed packages' kept", () => {
    const own = ["__pycache__/calc.cpython-311.pyc", "src/pkg/__pycache__/mod.cpython-311.pyc"];
    const kept = [
      ".venv/lib/python3.11/site-packages/__pycache__/dep.cpython-311.pyc",
      "venv/pyvenv.cfg",
      "venv/lib/python3.11/site-packages/dep/__pycache__/x.cpython-311.pyc",
      "lib/site-packages/__pycache__/y.cpython-311.pyc",
      "node_modules/z/__pycache__/z.cpython-311.pyc",
    ];
    const root = project(["calc.py", "src/pkg/mod.py", ...own, ...kept]);
    expect(prepareForPython(root)).toEqual([]);
    expect(present(root, own)).toEqual([]);
    expect(present(root, kept)).toEqual(kept);
  });

  it("finds the compiled modules Python imports in place of a source", () => {
    const root = project([
      "calc.pyc",
      "pkg/__init__.pyc",
      "pkg/mod.py",
      "pkg/mod.cpython-311-x86_64-linux-gnu.so",
      "lib/fast.py",
      "lib/fast.abi3.so",
      "lib/win.py",
      "lib/win.cp311-win_amd64.pyd",
    ]);
    expect(prepareForPython(root)).toEqual([
      "calc.pyc",
      "lib/fast.abi3.so",
      "lib/win.cp311-win_amd64.pyd",
      "pkg/__init__.pyc",
      "pkg/mod.cpython-311-x86_64-linux-gnu.so",
    ]);
  });

  it("leaves what Python does not import in place of a source, and installed code", () => {
    const root = project([
      "old.py",
      "old.pyc",
      "copied.cpython-311.pyc",
      "ext/speedup.pyx",
      "ext/speedup.cpython-311-x86_64-linux-gnu.so",
      ".venv/pyvenv.cfg",
      ".venv/lib/dep.pyc",
      "env/pyvenv.cfg",
      "env/lib/dep.pyc",
      "node_modules/x/y.pyc",
      "lib/site-packages/z.pyc",
      ".tailtest/objects/calc.pyc",
    ]);
    expect(prepareForPython(root)).toEqual([]);
  });

  it("says why the run is not trusted, naming the files", () => {
    expect(compiledShadowsReason(["a.pyc", "b.pyc", "c.pyc", "d.pyc"])).toBe(
      "Python imports compiled code in place of the source a fresh checkout runs (a.pyc, b.pyc, c.pyc, …): the run is not trusted while they are there",
    );
  });
});
