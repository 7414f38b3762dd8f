import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { pythonSiteFolders, pythonStartupDescription } from "./python-startup.ts";

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
