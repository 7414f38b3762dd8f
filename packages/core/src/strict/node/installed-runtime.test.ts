import { mkdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  jsRunnerDescription,
  pythonSiteFolders,
  pythonStartupDescription,
} from "./installed-runtime.ts";

/** The Python start-up files a strict verdict depends on, on a real tree (ADR 0012). */

let project: TempProject;
afterEach(() => {
  project.cleanup();
  rmSync(`${project.root}-home`, { recursive: true, force: true });
});

function setUp() {
  project = makeProject({ "calc.py": "x = 1\n" });
  const home = `${project.root}-home`;
  const userSite = join(home, ".local/lib/python3.11/site-packages");
  const venvSite = join(project.root, ".venv/lib/python3.12/site-packages");
  for (const dir of [userSite, venvSite, join(venvSite, "_pytest/config")])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(venvSite, "_pytest/config/__init__.py"), "# pytest\n");
  // Plugins pytest loads into every run: by name, and through an entry point (xdist).
  mkdirSync(join(venvSite, "pytest_cov"));
  writeFileSync(join(venvSite, "pytest_cov/plugin.py"), "# plugin\n");
  writeFileSync(join(venvSite, "_hypothesis_pytestplugin.py"), "# plugin\n");
  mkdirSync(join(venvSite, "xdist"));
  writeFileSync(join(venvSite, "xdist/plugin.py"), "# plugin\n");
  mkdirSync(join(venvSite, "pytest_xdist-3.5.0.dist-info"));
  writeFileSync(
    join(venvSite, "pytest_xdist-3.5.0.dist-info/entry_points.txt"),
    "[console_scripts]\nx = y:z\n\n[pytest11]\nxdist = xdist.plugin\nxdist.looponfail = xdist.looponfail\n",
  );
  return { root: project.root, env: { HOME: home }, userSite, venvSite };
}

describe("pythonStartupDescription", () => {
  it("finds the project's venv and the user's site folder", () => {
    const { root, env, userSite, venvSite } = setUp();
    const folders = pythonSiteFolders(root, env);
    expect(folders).toContain(userSite);
    expect(folders).toContain(venvSite);
  });

  it.each([
    ["a usercustomize.py in the user's site", "user", "usercustomize.py", "import calc\n"],
    ["a .pth file in the venv", "venv", "zz.pth", "import evil\n"],
    ["a pytest plugin installed in the user's site", "user", "evil-1.0.dist-info", undefined],
    ["a rewritten pytest module", "venv", "_pytest/config/__init__.py", "# passes all\n"],
    // The thirty-sixth round: an installed plugin rewritten (not pytest's or pluggy's own).
    ["a rewritten plugin module", "venv", "_hypothesis_pytestplugin.py", "# passes all\n"],
    ["a rewritten plugin package", "venv", "pytest_cov/plugin.py", "# passes all\n"],
    ["a rewritten plugin an entry point names", "venv", "xdist/plugin.py", "# passes all\n"],
  ] as const)("changes with %s", (_name, where, file, content) => {
    const { root, env, userSite, venvSite } = setUp();
    const before = pythonStartupDescription(root, env);
    const path = join(where === "user" ? userSite : venvSite, file);
    if (content === undefined) mkdirSync(path);
    else writeFileSync(path, content);
    expect(pythonStartupDescription(root, env)).not.toBe(before);
  });

  it("stays the same when nothing there changed", () => {
    const { root, env } = setUp();
    expect(pythonStartupDescription(root, env)).toBe(pythonStartupDescription(root, env));
  });
});

/** A JS project with mocha installed flat (npm) and vitest through a package store (pnpm). */
function setUpJs() {
  project = makeProject({
    "test/calc.test.js": "// a test\n",
    "node_modules/mocha/lib/runner.js": "// mocha's runner\n",
    "node_modules/mocha/package.json": '{"name":"mocha"}\n',
    "node_modules/lodash/index.js": "// not a runner\n",
    "node_modules/.vite/cache.json": "{}\n",
    "node_modules/.pnpm/vitest@3/node_modules/vitest/dist/index.js": "// vitest\n",
    "node_modules/.pnpm/vitest@3/node_modules/@vitest/runner/dist/index.js": "// runner\n",
  });
  const root = project.root;
  mkdirSync(join(root, "node_modules/.bin"));
  symlinkSync("../mocha/lib/runner.js", join(root, "node_modules/.bin/mocha"));
  symlinkSync(".pnpm/vitest@3/node_modules/vitest", join(root, "node_modules/vitest"));
  return root;
}

/** Rewrites a file with bytes of the same size and puts its mtime back (`touch -d`). */
function sneaky(path: string, content: string): void {
  const { atime, mtime } = statSync(path);
  writeFileSync(path, content);
  utimesSync(path, atime, mtime);
}

describe("jsRunnerDescription", () => {
  it.each([
    ["mocha's runner rewritten, its mtime put back", "node_modules/mocha/lib/runner.js"],
    [
      "a runner part beside vitest in the package store",
      "node_modules/.pnpm/vitest@3/node_modules/@vitest/runner/dist/index.js",
    ],
    ["vitest's own file through the store link", "node_modules/vitest/dist/index.js"],
  ] as const)("changes with %s", (_name, file) => {
    const root = setUpJs();
    const before = jsRunnerDescription(root, "test/calc.test.js");
    sneaky(join(root, file), "// passes!\n".padEnd(statSync(join(root, file)).size - 1) + "\n");
    expect(jsRunnerDescription(root, "test/calc.test.js")).not.toBe(before);
  });

  it("changes when the runner's command in node_modules/.bin is replaced", () => {
    const root = setUpJs();
    const before = jsRunnerDescription(root, "test/calc.test.js");
    rmSync(join(root, "node_modules/.bin/mocha"));
    writeFileSync(join(root, "node_modules/.bin/mocha"), "#!/bin/sh\necho passing\n");
    expect(jsRunnerDescription(root, "test/calc.test.js")).not.toBe(before);
  });

  // The thirty-fourth round: supertest's header check patched to return verified a claim.
  it("changes with an installed package the test imports, not with a workspace link", () => {
    const root = setUpJs();
    writeFileSync(
      join(root, "test/calc.test.js"),
      "var request = require('supertest')\nvar assert = require('assert')\nimport { x } from '@acme/calc'\n",
    );
    mkdirSync(join(root, "node_modules/supertest/lib"), { recursive: true });
    writeFileSync(join(root, "node_modules/supertest/lib/test.js"), "// checks headers\n");
    mkdirSync(join(root, "packages/calc"), { recursive: true });
    writeFileSync(join(root, "packages/calc/index.js"), "// production\n");
    mkdirSync(join(root, "node_modules/@acme"));
    symlinkSync("../../packages/calc", join(root, "node_modules/@acme/calc"));
    const before = jsRunnerDescription(root, "test/calc.test.js");
    writeFileSync(join(root, "packages/calc/index.js"), "// production, changed\n");
    expect(jsRunnerDescription(root, "test/calc.test.js")).toBe(before);
    sneaky(join(root, "node_modules/supertest/lib/test.js"), "// return;   headers\n");
    expect(jsRunnerDescription(root, "test/calc.test.js")).not.toBe(before);
  });

  it("stays the same for packages that are no runner and for caches", () => {
    const root = setUpJs();
    const before = jsRunnerDescription(root, "test/calc.test.js");
    writeFileSync(join(root, "node_modules/lodash/index.js"), "// changed\n");
    writeFileSync(join(root, "node_modules/.vite/cache.json"), '{"x":1}\n');
    expect(jsRunnerDescription(root, "test/calc.test.js")).toBe(before);
  });
});
