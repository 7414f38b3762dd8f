import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import fc from "fast-check";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  childPath,
  isResolved,
  judgeTarget,
  protectionFor,
  realTarget,
  realTargets,
  under,
} from "./write-identity.ts";

/** Targets judged by where they lead, on a real tree with real links (ADR 0012). */

let project: TempProject;
afterEach(() => {
  project.cleanup();
  rmSync(`${project.root}-home`, { recursive: true, force: true });
});

function setUp(): { root: string; home: string } {
  project = makeProject({
    ".tailtest/config.json": '{"mode":"tdd"}\n',
    "src/util.py": "x = 1\n",
    "node_modules/@tailtest/codex/dist/hook.cjs": "//\n",
  });
  const home = `${project.root}-home`;
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude/settings.json"), "{}\n");
  return { root: project.root, home };
}

const judge = (root: string, home: string, path: string) =>
  judgeTarget(root, path, protectionFor(root, { HOME: home }));

describe("judgeTarget", () => {
  it("a link made without the state folder's name leads into it", () => {
    const { root, home } = setUp();
    symlinkSync(".tailtest", join(root, "t"));
    expect(judge(root, home, "t/config.json").protectedAs).toBe(".tailtest/config.json");
  });

  it("a hard link shares the config's inode", () => {
    const { root, home } = setUp();
    linkSync(join(root, ".tailtest/config.json"), join(root, "cfg.json"));
    expect(judge(root, home, "cfg.json").protectedAs).toBe("cfg.json");
  });

  it("a folder holding protected files is protected (rm -rf node_modules)", () => {
    const { root, home } = setUp();
    expect(judge(root, home, "node_modules").protectedAs).toBe("node_modules");
    expect(judge(root, home, "src").protectedAs).toBeUndefined();
  });

  it("user-level hook settings, also not there yet, and a dangling link to them", () => {
    const { root, home } = setUp();
    expect(judge(root, home, join(home, ".claude/settings.json")).protectedAs).toBe(
      "~/.claude/settings.json",
    );
    symlinkSync(join(home, ".cursor/hooks.json"), join(root, "hk"));
    expect(judge(root, home, "hk").protectedAs).toBe("~/.cursor/hooks.json");
  });

  it("Claude Code's CLAUDE_CONFIG_DIR settings and the machine-wide settings", () => {
    const { root, home } = setUp();
    const config = join(home, "claude-config");
    const protection = protectionFor(root, { HOME: home, CLAUDE_CONFIG_DIR: config });
    for (const file of ["settings.json", "settings.local.json"])
      expect(judgeTarget(root, join(config, file), protection).protectedAs).toBeDefined();
    for (const path of [
      "/etc/claude-code/managed-settings.json",
      "/etc/cursor/hooks.json",
      "/etc/codex/config.toml",
    ])
      expect(judgeTarget(root, path, protection).protectedAs).toBe(path);
    expect(judgeTarget(root, "/etc/hostname", protection).protectedAs).toBeUndefined();
  });

  it("production code is the file a link reaches", () => {
    const { root, home } = setUp();
    mkdirSync(join(root, "build"));
    symlinkSync("../src", join(root, "build/x"));
    expect(judge(root, home, "build/x/util.py")).toEqual({
      relPath: "src/util.py",
      protectedAs: undefined,
    });
    expect(realTarget(join(root, "build/x/new.py"))).toBe(join(realTarget(root), "src/new.py"));
  });
});

describe("realTargets", () => {
  const NAMES = ["a", "b", "c"];
  /** A path of one to four names under `base`, or `base` itself. */
  const pathArb = fc.array(fc.constantFrom(...NAMES, ".."), { maxLength: 4 });
  /** What a tree holds at a path: a folder, a file, or a link (relative, absolute, to itself). */
  const entryArb = fc.record({
    at: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    kind: fc.constantFrom("folder", "file", "relative link", "absolute link"),
    to: pathArb,
  });

  function tree(entries: ReadonlyArray<{ at: string[]; kind: string; to: string[] }>) {
    const base = mkdtempSync(join(tmpdir(), "tailtest-real-"));
    for (const { at, kind, to } of entries) {
      const path = join(base, ...at);
      try {
        mkdirSync(join(path, ".."), { recursive: true });
        if (kind === "folder") mkdirSync(path, { recursive: true });
        else if (kind === "file") writeFileSync(path, "x");
        else if (kind === "relative link") symlinkSync(to.length === 0 ? "." : join(...to), path);
        else symlinkSync(join(base, ...to), path);
      } catch {
        // Taken already, or under a file or a link: the tree is what it is.
      }
    }
    return base;
  }

  it("answers what realTarget answers path by path, links, loops and missing paths alike", () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 12 }),
        fc.array(pathArb, { minLength: 1, maxLength: 12 }),
        (entries, asked) => {
          const base = tree(entries);
          try {
            const paths = asked.map((names) => join(base, ...names, "x.json"));
            const all = [...paths, ...asked.map((names) => join(base, ...names))];
            expect(realTargets(all)).toEqual(all.map((path) => realTarget(path)));
          } finally {
            rmSync(base, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  /** The walk as it was before its parents and children were taken as strings. */
  function joinedTarget(path: string, depth = 0): { real: string; whole: boolean } {
    const abs = resolve(path);
    if (existsSync(abs)) return { real: realpathSync.native(abs), whole: true };
    const parent = dirname(abs);
    if (parent === abs) return { real: abs, whole: true };
    if (depth > 40) return { real: abs, whole: false };
    const realParent = joinedTarget(parent, depth + 1);
    const here = join(realParent.real, basename(abs));
    try {
      if (lstatSync(here, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
        const link = readlinkSync(here);
        const to = isAbsolute(link) ? link : join(realParent.real, link);
        const next = joinedTarget(to, depth + 1);
        return { real: next.real, whole: realParent.whole && next.whole };
      }
    } catch {
      // Not there at all (under a file).
    }
    return { real: here, whole: realParent.whole };
  }

  it("answers what the walk through join and resolve answered, spelt any way", () => {
    const spelt = fc.array(fc.constantFrom(...NAMES, "..", ".", "", "x.json"), { maxLength: 6 });
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 12 }), fc.array(spelt), (entries, asked) => {
        const base = tree(entries);
        try {
          const paths = asked.map((names) => [base, ...names].join("/"));
          const reference = paths.map((path) => joinedTarget(path).real);
          expect(paths.map((path) => realTarget(path))).toEqual(reference);
          expect(realTargets(paths)).toEqual(reference);
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
      }),
      { numRuns: 150 },
    );
  });

  it("childPath is join for a resolved folder and a plain name", () => {
    const segment = fc.constantFrom("a", "b", "..", ".", "", "c d", ".x");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.array(segment), (folder, named) => {
        const real = resolve("/", ...folder);
        const named_ = resolve("/", ...named);
        if (named_ === "/") return;
        const name = basename(named_);
        expect(childPath(real, name)).toBe(join(real, name));
        expect(under(real, name, "hooks.json")).toBe(join(real, name, "hooks.json"));
        const spelt = [...folder, ""].join("/");
        expect(under(spelt, name)).toBe(join(spelt, name));
      }),
    );
  });

  it("isResolved says a path is resolved exactly when resolve answers it unchanged", () => {
    const part = fc.constantFrom("a", "b", "..", ".", "", "...", ".x", "x.", "c d");
    const spelt = fc.tuple(fc.constantFrom("/", "", "//"), fc.array(part, { maxLength: 6 }));
    fc.assert(
      fc.property(spelt, ([lead, parts]) => {
        const path = `${lead}${parts.join("/")}`;
        expect(isResolved(path)).toBe(path === resolve(path));
        expect(isResolved(resolve(path))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("a chain of links past the bound answers the same whichever link is asked first", () => {
    const base = mkdtempSync(join(tmpdir(), "tailtest-real-"));
    try {
      // l0 → l1 → … → l49 → missing: the walk from l0 stops at the bound, from l30 it does not.
      for (let i = 0; i < 50; i += 1) symlinkSync(join(base, `l${i + 1}`), join(base, `l${i}`));
      const links = [0, 30, 5, 45, 0, 49].map((i) => join(base, `l${i}`, "settings.json"));
      for (const order of [links, [...links].reverse()])
        expect(realTargets(order)).toEqual(order.map((path) => realTarget(path)));
      // A loop never ends anywhere but where the bound cuts it, asked first or last.
      symlinkSync(join(base, "m1"), join(base, "m0"));
      symlinkSync(join(base, "m0"), join(base, "m1"));
      const loop = [join(base, "m0/x"), join(base, "m1/x"), join(base, "m0")];
      expect(realTargets(loop)).toEqual(loop.map((path) => realTarget(path)));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
