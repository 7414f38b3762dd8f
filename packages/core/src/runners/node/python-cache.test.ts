import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  compiledShadows,
  compiledShadowsReason,
  PYTHON_CACHE_DIR,
  pythonRunEnv,
} from "./python-cache.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(): { root: string; mirror: string; put: (path: string) => string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "tailtest-pycache-")));
  roots.push(root);
  const mirror = join(root, PYTHON_CACHE_DIR, root.slice(1));
  const put = (path: string) => {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, "x");
    return abs;
  };
  return { root, mirror, put };
}

describe("pythonRunEnv", () => {
  it("points Python's bytecode at tailtest's own cache", () => {
    const { root } = project();
    expect(pythonRunEnv(root)).toEqual({
      PYTHONPYCACHEPREFIX: join(root, PYTHON_CACHE_DIR),
      PYTHONDONTWRITEBYTECODE: "",
    });
  });

  it("empties the mirror of the project's own modules, a virtualenv's and the library's kept", () => {
    const { root, put } = project();
    put(".venv/pyvenv.cfg");
    const planted = put(`${PYTHON_CACHE_DIR}/${root.slice(1)}/calc.cpython-311.pyc`);
    const nested = put(`${PYTHON_CACHE_DIR}/${root.slice(1)}/src/pkg/mod.cpython-311.pyc`);
    const venv = put(
      `${PYTHON_CACHE_DIR}/${root.slice(1)}/.venv/lib/site-packages/dep.cpython-311.pyc`,
    );
    const library = put(`${PYTHON_CACHE_DIR}/usr/lib/python3.11/os.cpython-311.pyc`);
    pythonRunEnv(root);
    expect([planted, nested].filter((path) => existsSync(path))).toEqual([]);
    expect([venv, library].filter((path) => existsSync(path))).toEqual([venv, library]);
  });

  it("does not keep a folder named like a virtualenv that is not one", () => {
    const { root, put } = project();
    const planted = put(`${PYTHON_CACHE_DIR}/${root.slice(1)}/venv/calc.cpython-311.pyc`);
    pythonRunEnv(root);
    expect(existsSync(planted)).toBe(false);
  });

  it("answers for a project that has no cache yet", () => {
    const { root, mirror } = project();
    expect(() => pythonRunEnv(root)).not.toThrow();
    expect(existsSync(mirror)).toBe(false);
  });
});

describe("compiledShadows", () => {
  it("finds the compiled modules Python imports in place of a source", () => {
    const { root, put } = project();
    for (const path of [
      "calc.pyc",
      "pkg/__init__.pyc",
      "pkg/mod.py",
      "pkg/mod.cpython-311-x86_64-linux-gnu.so",
      "lib/fast.py",
      "lib/fast.abi3.so",
      "lib/win.py",
      "lib/win.cp311-win_amd64.pyd",
    ])
      put(path);
    expect(compiledShadows(root)).toEqual([
      "calc.pyc",
      "lib/fast.abi3.so",
      "lib/win.cp311-win_amd64.pyd",
      "pkg/__init__.pyc",
      "pkg/mod.cpython-311-x86_64-linux-gnu.so",
    ]);
  });

  it("leaves what Python does not import in place of a source, and installed code", () => {
    const { root, put } = project();
    for (const path of [
      "old.py",
      "old.pyc",
      "__pycache__/calc.cpython-311.pyc",
      "copied.cpython-311.pyc",
      "ext/speedup.pyx",
      "ext/speedup.cpython-311-x86_64-linux-gnu.so",
      ".venv/pyvenv.cfg",
      ".venv/lib/dep.pyc",
      "env/pyvenv.cfg",
      "env/lib/dep.pyc",
      "node_modules/x/y.pyc",
      "lib/site-packages/z.pyc",
      ".tailtest/pycache/calc.pyc",
    ])
      put(path);
    expect(compiledShadows(root)).toEqual([]);
  });

  it("says why the run is not trusted, naming the files", () => {
    expect(compiledShadowsReason(["a.pyc", "b.pyc", "c.pyc", "d.pyc"])).toBe(
      "Python imports compiled code in place of the source a fresh checkout runs (a.pyc, b.pyc, c.pyc, …): the run is not trusted while they are there",
    );
  });
});
