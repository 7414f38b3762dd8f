import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectPackageRunners } from "../../runners/project-runners.ts";
import { memoView } from "../project-view.ts";
import { createFsView, statFolder } from "./fs-view.ts";

let base: string | undefined;
afterEach(() => {
  if (base !== undefined) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** A project beside a folder outside it, with links from one into the other. */
function layout() {
  base = mkdtempSync(join(tmpdir(), "tailtest-fsview-"));
  const outside = join(base, "outside");
  const project = join(base, "project");
  for (const dir of [outside, join(project, "src/real"), join(outside, "lib")])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, "package.json"), '{"devDependencies":{"vitest":"4"}}\n');
  writeFileSync(join(outside, "secret.txt"), "not the project's\n");
  writeFileSync(join(outside, "lib/index.js"), "export {};\n");
  writeFileSync(join(project, "src/real/a.py"), "x = 1\n");
  symlinkSync(outside, join(project, "elsewhere"));
  symlinkSync(join(outside, "secret.txt"), join(project, "secret.txt"));
  symlinkSync(join(project, "src/real"), join(project, "src/alias"));
  symlinkSync("real/a.py", join(project, "src/b.py"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(join(outside, "lib"), join(project, "node_modules/lib"));
  return { project, outside };
}

describe("createFsView: nothing outside the project through a link", () => {
  it("a linked folder or file that leads outside reads as absent", () => {
    const view = createFsView(layout().project);
    expect(view.exists("elsewhere")).toBe(false);
    expect(view.isDirectory("elsewhere")).toBe(false);
    expect(view.exists("elsewhere/package.json")).toBe(false);
    expect(view.readText("elsewhere/package.json")).toBeUndefined();
    expect(view.list("elsewhere")).toEqual([]);
    expect(view.readText("secret.txt")).toBeUndefined();
    expect(view.readText("src/../../outside/secret.txt")).toBeUndefined();
    expect(view.list("")).toContain("elsewhere");
  });

  it("links that stay inside the project, and installed packages, read as usual", () => {
    const view = createFsView(layout().project);
    expect(view.readText("src/alias/a.py")).toBe("x = 1\n");
    expect(view.list("src/alias")).toEqual(["a.py"]);
    expect(view.readText("src/b.py")).toBe("x = 1\n");
    expect(view.readText("node_modules/lib/index.js")).toBe("export {};\n");
  });

  it("a path spelled with `.`, a doubled `/` or a root with a trailing one reads the same file", () => {
    const { project } = layout();
    for (const view of [createFsView(project), createFsView(`${project}/`)]) {
      expect(view.readText("src/real/a.py")).toBe("x = 1\n");
      expect(view.readText("src/./real/a.py")).toBe("x = 1\n");
      expect(view.readText("src//real/a.py")).toBe("x = 1\n");
      expect(view.isDirectory("src/real/")).toBe(true);
      expect(view.list("./src")).toEqual(["alias", "b.py", "real"]);
      expect(view.readText("src/real/../../../outside/secret.txt")).toBeUndefined();
      expect(view.exists("src/real/..")).toBe(false);
    }
  });

  it("runner detection does not find a runner in a folder outside", () => {
    const view = createFsView(layout().project);
    expect(detectPackageRunners(view, "elsewhere")).toEqual([]);
  });

  it("a project reached through a link is itself still readable", () => {
    const { project } = layout();
    const link = join(base ?? "", "via-link");
    symlinkSync(project, link);
    const view = createFsView(link);
    expect(view.readText("src/real/a.py")).toBe("x = 1\n");
    expect(view.readText("src/alias/a.py")).toBe("x = 1\n");
    expect(view.readText("secret.txt")).toBeUndefined();
  });
});

describe("createFsView: a listed folder's stamp", () => {
  it("is the folder as seen before its entries were read, a link followed", () => {
    const { project } = layout();
    const view = memoView(createFsView(project));
    expect(view.listedStamp?.("src/real")).toBeUndefined();
    view.list("src/real");
    const real = lstatSync(join(project, "src/real"));
    expect(view.listedStamp?.("src/real")).toEqual([
      real.dev,
      real.ino,
      real.mtimeMs,
      real.ctimeMs,
    ]);
    // A folder `isDirectory` saw is listed as it saw it; an entry added after the read is not in
    // what was read, and the stamp is the older one, so a later look tells the two apart.
    expect(view.isDirectory("src/alias")).toBe(true);
    view.list("src/alias", true);
    writeFileSync(join(project, "src/real/later.py"), "");
    expect(view.listedStamp?.("src/alias")).toEqual(view.listedStamp?.("src/real"));
    expect(statFolder(join(project, "src/alias"))?.mtimeMs).not.toBe(real.mtimeMs);
    // Nothing listed outside the project.
    expect(view.list("elsewhere")).toEqual([]);
    expect(view.listedStamp?.("elsewhere")).toBeUndefined();
  });
});
