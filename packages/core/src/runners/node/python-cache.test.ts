import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PYTHON_CACHE_DIR, pythonRunEnv } from "./python-cache.ts";

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
