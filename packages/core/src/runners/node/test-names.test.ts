import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import type { HookEvent } from "../../hook/hook-event.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { folderStamp, statFolder } from "../../project/node/fs-view.ts";
import { openProject } from "../../project/node/project.ts";
import {
  EARLIER_TEST_NAMES_PATH,
  forgetTestNames,
  KEEP_FROM,
  keptTestNames,
  TEST_NAMES_PATH,
} from "./test-names.ts";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const PYTEST = { "pyproject.toml": "[tool.pytest.ini_options]\n", "calc.py": "x = 1\n" };
const names = (...list: string[]) => new Set(list);
/** Enough tests in `tests/area/sub/` that a search of them is kept. */
const SUITE = Object.fromEntries(
  Array.from({ length: KEEP_FROM }, (_, i) => [`tests/area/sub/test_m${i}.py`, ""]),
);
const FILLER = {
  dir: "tests/area/sub",
  files: Object.keys(SUITE).map((path) => path.slice(path.lastIndexOf("/") + 1)),
};

describe("the kept listing's file", () => {
  it("answers the first listed file with one of the names, and none when none is listed", () => {
    project = makeProject({ ...PYTEST, "tests/a/test_x.py": "", "tests/b/test_y.py": "" });
    const memo = keptTestNames(project.root);
    expect(memo.first(["tests"], names("test_x.py"))).toBeUndefined();
    memo.keep(
      ["tests"],
      [
        FILLER,
        { dir: "tests/empty", files: [] },
        { dir: "tests/a", files: ["test_x.py"] },
        { dir: "tests/b", files: ["end", "test_y.py", "test_x.py"] },
      ],
    );
    // A folder's line, then its entries one a line (an empty folder's line alone), then `end`.
    // A listing not read through a file view has no folder stamps: no later turn takes it back.
    expect(readFileSync(join(project.root, TEST_NAMES_PATH), "utf8").split("\n").slice(1)).toEqual([
      "-",
      `\t${FILLER.dir}`,
      ...FILLER.files,
      "\ttests/empty",
      "\ttests/a",
      "test_x.py",
      "\ttests/b",
      "end",
      "test_y.py",
      "test_x.py",
      "end",
      "",
    ]);
    const again = keptTestNames(project.root);
    expect(again.first(["tests"], names("test_y.py", "test_x.py"))).toBe("tests/a/test_x.py");
    expect(again.first(["tests"], names("test_y.py"))).toBe("tests/b/test_y.py");
    expect(again.first(["tests"], names("x.py", "test_z.py", "tests", "b"))).toBeNull();
    expect(again.first(["tests"], names("end"))).toBe("tests/b/end");
    // Another search's folders are not this listing.
    expect(again.first(["tests", "test"], names("test_x.py"))).toBeUndefined();
  });

  it("answers nothing outside the searched folders, whatever the file says", () => {
    project = makeProject({ ...PYTEST, "tests/a/test_x.py": "" });
    keptTestNames(project.root).keep(["tests"], [FILLER, { dir: "tests/a", files: ["test_x.py"] }]);
    const file = join(project.root, TEST_NAMES_PATH);
    const text = readFileSync(file, "utf8");
    expect(keptTestNames(project.root).first(["tests"], names("test_x.py"))).toBe(
      "tests/a/test_x.py",
    );
    for (const folder of ["tests/../src", "src", "tests//a", "testsuite", "tests/./a"]) {
      writeFileSync(file, text.replace("\ttests/a\n", `\t${folder}\n`));
      expect(
        keptTestNames(project.root).first(["tests"], names("test_x.py")),
        folder,
      ).toBeUndefined();
    }
  });

  it("keeps nothing of a search that listed a few entries: reading them again costs less", () => {
    project = makeProject(PYTEST);
    const memo = keptTestNames(project.root);
    memo.keep(["tests"], [{ dir: FILLER.dir, files: FILLER.files.slice(1) }]);
    expect(existsSync(join(project.root, TEST_NAMES_PATH))).toBe(false);
    // Nor one whose entries could not be told apart by line.
    memo.keep(["tests"], [FILLER, { dir: "tests/b", files: ["\ttest_x.py"] }]);
    memo.keep(["tests"], [FILLER, { dir: "tests/b", files: ["a\ntest_x.py"] }]);
    memo.keep(["tests"], [FILLER, { dir: "tests/b", files: ["a", "\ttest_x.py"] }]);
    memo.keep(["tests"], [FILLER, { dir: "tests/b\ntests/c", files: ["test_x.py"] }]);
    expect(existsSync(join(project.root, TEST_NAMES_PATH))).toBe(false);
  });

  it("is taken back by a later turn only with one unchanged stamp per folder line", () => {
    project = makeProject({ ...PYTEST, ...SUITE, "tests/a/test_x.py": "" });
    const root = project.root;
    const old = new Date("2026-01-01T00:00:00Z");
    const listing = [FILLER, { dir: "tests/a", files: ["test_x.py"] }].map((folder) => {
      utimesSync(join(root, folder.dir), old, old);
      const seen = statFolder(join(root, folder.dir));
      return { ...folder, stamp: seen === undefined ? undefined : folderStamp(seen) };
    });
    keptTestNames(root).keep(["tests"], listing);
    forgetTestNames(root);
    const earlier = join(root, EARLIER_TEST_NAMES_PATH);
    const text = readFileSync(earlier, "utf8");
    const later = new Date(Date.now() + 3_600_000);
    const takeBack = (written: string) => {
      writeFileSync(earlier, written);
      utimesSync(earlier, later, later);
      rmSync(join(root, TEST_NAMES_PATH), { force: true });
      return keptTestNames(root).first(["tests"], names("test_x.py"));
    };
    expect(takeBack(text)).toBe("tests/a/test_x.py");
    // A folder line more or less than the stamps, or stamps cut short: the disk is searched.
    const extra = text.replace("\ttests/a\n", "\ttests/b\n\ttests/a\n");
    expect(takeBack(extra)).toBeUndefined();
    expect(takeBack(text.replace("\ttests/a\ntest_x.py\n", ""))).toBeUndefined();
    const [head, checks, ...rest] = text.split("\n");
    expect(takeBack([head, checks?.slice(0, 44), ...rest].join("\n"))).toBeUndefined();
    expect(takeBack([head, "{}", ...rest].join("\n"))).toBeUndefined();
    // Each folder line's own stamp: the same stamps, the folders' lines swapped, are not its.
    const swapped = text
      .replace(`\t${FILLER.dir}\n`, "\tSWAP\n")
      .replace("\ttests/a\n", `\t${FILLER.dir}\n`)
      .replace("\tSWAP\n", "\ttests/a\n");
    expect(takeBack(swapped)).toBeUndefined();
    expect(takeBack(text)).toBe("tests/a/test_x.py");
  });

  it("is not used once a searched folder's own entries change, nor when cut short", () => {
    project = makeProject({ ...PYTEST, "tests/a/test_x.py": "" });
    const memo = keptTestNames(project.root);
    memo.first(["tests"], names("test_q.py"));
    memo.keep(["tests"], [{ dir: "tests/a", files: ["test_x.py"] }, FILLER]);
    expect(keptTestNames(project.root).first(["tests"], names("test_q.py"))).toBeNull();
    const file = join(project.root, TEST_NAMES_PATH);
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, -4));
    expect(keptTestNames(project.root).first(["tests"], names("test_q.py"))).toBeUndefined();
    writeFileSync(file, text);
    expect(keptTestNames(project.root).first(["tests"], names("test_q.py"))).toBeNull();
    project.write("tests/test_q.py", "");
    expect(keptTestNames(project.root).first(["tests"], names("test_q.py"))).toBeUndefined();
    forgetTestNames(project.root);
    expect(existsSync(file)).toBe(false);
    forgetTestNames(project.root);
  });
});

describe("a new file's note in follow mode", () => {
  const send = (event: HookEvent) =>
    handleEvent(openProject(project!.root), event, {
      platform: "claude-code",
      identity: { sessionId: "n" },
    });
  const wrote = (rel: string): HookEvent => {
    const path = project!.write(
      rel,
      rel.includes("test_") ? "def test_x():\n    pass\n" : "x = 1\n",
    );
    return { kind: "FilesEdited", paths: [path], created: [path] };
  };
  const noteOf = async (event: HookEvent) => {
    const decision = await send(event);
    return decision.kind === "context" ? decision.text : "";
  };
  const kept = () => existsSync(join(project!.root, TEST_NAMES_PATH));

  it("keeps what its search listed, and a test written through the hooks drops it", async () => {
    project = makeProject({ ...PYTEST, ...SUITE });
    expect(await noteOf(wrote("fresh.py"))).toContain("write test to tests/test_fresh.py");
    expect(kept()).toBe(true);
    expect(await noteOf(wrote("again.py"))).toContain("write test to tests/test_again.py");
    await send(wrote("tests/area/sub/test_later.py"));
    expect(kept()).toBe(false);
    expect(await noteOf(wrote("later.py"))).toContain(
      "update existing test at tests/area/sub/test_later.py",
    );
  });

  it("a test made behind the hooks' back is seen once the turn ends or a new one starts", async () => {
    project = makeProject({ ...PYTEST, ...SUITE });
    await noteOf(wrote("fresh.py"));
    project.write("tests/area/sub/test_made.py", "");
    // The listing does not know it yet (a folder below the test folder changed, not the folder).
    expect(await noteOf(wrote("made.py"))).toContain("write test to tests/test_made.py");
    await send({ kind: "TurnStarted" });
    expect(kept()).toBe(false);
    expect(await noteOf(wrote("made.py"))).toContain(
      "update existing test at tests/area/sub/test_made.py",
    );
  });

  it("an edit of several files drops the listing before its notes", async () => {
    project = makeProject({ ...PYTEST, ...SUITE });
    await noteOf(wrote("fresh.py"));
    expect(kept()).toBe(true);
    const test = project.write("tests/area/sub/test_pair.py", "");
    const source = project.write("pair.py", "x = 1\n");
    const note = await noteOf({ kind: "FilesEdited", paths: [source, test], created: [source] });
    expect(note).toContain("update existing test at tests/area/sub/test_pair.py");
  });

  describe("the next turn's first note", () => {
    const earlier = () => join(project!.root, EARLIER_TEST_NAMES_PATH);
    /** A listing kept, the turn ended, and what `change` did to the tree since. */
    const afterTurn = async (change: (root: string) => void, trusted = true) => {
      project = makeProject({ ...PYTEST, ...SUITE, "tests/area/other/test_o.py": "" });
      // A whole second, which a folder's time can be set back to exactly.
      utimesSync(join(project.root, "tests/area/sub"), WHOLE, WHOLE);
      expect(await noteOf(wrote("fresh.py"))).toContain("write test to tests/test_fresh.py");
      await send({ kind: "TurnStarted" });
      expect(kept()).toBe(false);
      expect(existsSync(earlier())).toBe(true);
      change(project.root);
      // Its folders' times older than the second it was written in: a coarse clock hid nothing.
      if (trusted) {
        const later = new Date(Date.now() + 3_600_000);
        utimesSync(earlier(), later, later);
      }
    };

    it("takes the earlier listing back when no folder it read changed", async () => {
      await afterTurn((root) => writeFileSync(join(root, "tests/area/sub/test_m0.py"), "# more"));
      expect(await noteOf(wrote("made.py"))).toContain("write test to tests/test_made.py");
      expect(kept()).toBe(true);
      expect(existsSync(earlier())).toBe(false);
    });

    const SUB = "tests/area/sub/test_made.py";
    const WHOLE = new Date("2026-01-01T00:00:00Z");
    it.each([
      [
        "a test made in a folder it read",
        SUB,
        (root: string) => writeFileSync(join(root, SUB), ""),
      ],
      [
        "a test renamed",
        SUB,
        (root: string) => renameSync(join(root, "tests/area/sub/test_m1.py"), join(root, SUB)),
      ],
      [
        "a test in a new folder",
        "tests/area/sub/deeper/test_made.py",
        (root: string) => {
          mkdirSync(join(root, "tests/area/sub/deeper"));
          writeFileSync(join(root, "tests/area/sub/deeper/test_made.py"), "");
        },
      ],
      [
        "a folder replaced by a link to one with the test",
        "tests/area/other/test_made.py",
        (root: string) => {
          mkdirSync(join(root, "elsewhere"));
          writeFileSync(join(root, "elsewhere/test_made.py"), "");
          rmSync(join(root, "tests/area/other"), { recursive: true });
          symlinkSync(join(root, "elsewhere"), join(root, "tests/area/other"));
        },
      ],
      [
        "a test made, its folder's modification time set back (its change time moves on)",
        SUB,
        (root: string) => {
          writeFileSync(join(root, SUB), "");
          utimesSync(join(root, "tests/area/sub"), WHOLE, WHOLE);
        },
      ],
    ])("is not used after %s", async (_, test, change) => {
      await afterTurn(change);
      expect(await noteOf(wrote("made.py"))).toContain(`update existing test at ${test}`);
    });

    it("is not used after a test is deleted that the listing named", async () => {
      await afterTurn((root) => rmSync(join(root, "tests/area/other/test_o.py")));
      expect(await noteOf(wrote("o.py"))).toContain("write test to tests/test_o.py");
    });

    it("is not used when a folder's time is as new as the second it was written in", async () => {
      // Made in the same second as the listing: a coarse clock could hide a change since.
      await afterTurn(() => {}, false);
      expect(await noteOf(wrote("made.py"))).toContain("write test to tests/test_made.py");
      expect(existsSync(earlier())).toBe(true);
    });
  });
});
