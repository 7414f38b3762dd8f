import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { braces, gateTargets, segmentPattern } from "./shell-targets.ts";

/** A command's targets read against the tree before it runs (ADR 0012). */

let project: TempProject;
afterEach(() => project.cleanup());

const targets = (root: string, written: string[], into: string[] = [], cwds: string[] = []) =>
  gateTargets(
    cwds.map((cwd) => ({ argv: ["x"], cwd })),
    { written, deleted: [], into },
    root,
    "/nonexistent-home",
  ).map((path) => path.slice(root.length + 1));

describe("gateTargets", () => {
  it("expands globs (dot files too), brace lists, folders and cp into a folder", () => {
    project = makeProject({ ".tailtest/config.json": "{}", "src/a.py": "", "calc.py": "" });
    const root = project.root;
    expect(targets(root, [".tail*"])).toEqual([".tailtest", ".tailtest/config.json"]);
    expect(targets(root, ["calc.{py,txt}"])).toEqual(["calc.py", "calc.txt"]);
    expect(targets(root, ["src"])).toEqual(["src", "src/a.py"]);
    expect(targets(root, ["calc.py"], ["calc.py/b.py"])).toEqual(["calc.py"]);
    expect(targets(root, ["src"], ["src/b.py"])).toEqual(["src", "src/a.py", "src/b.py"]);
    expect(targets(root, ["./**/a.py"])).toEqual(["src/a.py"]);
    expect(targets(root, ["nothing*"])).toEqual(["nothing*"]);
  });

  it("follows every cd, absolute ones too, and /proc/self/cwd", () => {
    project = makeProject({ "sub/x": "" });
    const root = project.root;
    expect(targets(root, ["../calc.py"], [], [join(root, "sub")])).toContain("calc.py");
    expect(targets(root, ["/proc/self/cwd/calc.py"])).toEqual(["calc.py"]);
  });
});

describe("globs and braces", () => {
  it.each([
    ["*.py", "a.py", true],
    [".t?iltest", ".tailtest", true],
    ["[!c]alc.py", "calc.py", false],
    ["[c]alc.py", "calc.py", true],
  ])("%s matches %s: %s", (glob, name, matches) => {
    expect(segmentPattern(glob).test(name)).toBe(matches);
  });

  it("expands nested lists left to right", () => {
    expect(braces("a{1,2}b{x,y}")).toEqual(["a1bx", "a1by", "a2bx", "a2by"]);
  });
});
