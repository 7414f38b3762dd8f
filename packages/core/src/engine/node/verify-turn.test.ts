import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject, sessionFile } from "../../project/node/project.ts";
import { runLogFile } from "../../state/node/run-log-store.ts";
import { readState } from "../../state/node/store.ts";
import { verifyTurn } from "./verify-turn.ts";

let project: TempProject;
const clock = () => new Date("2026-11-23T10:00:00.000Z");
const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
const RED_TEST =
  "from billing import charge\n\n\ndef test_charge():\n    assert charge(10) == 13\n";
const GREEN_TEST =
  "from billing import charge\n\n\ndef test_charge():\n    assert charge(10) == 12\n";

beforeEach(() => {
  project = makeProject({ "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["."]\n' });
});
afterEach(() => project.cleanup());

const opened = () => openProject(project.root);
const session = async () => (await readState(sessionFile(opened(), clock))).value;
const edit = async (path: string, content: string, agentId?: string) => {
  project.write(path, content);
  return handleEvent(
    opened(),
    { kind: "FilesEdited", paths: [join(project.root, path)], agentId },
    { platform: "claude-code", now: clock },
  );
};
const stop = (stopHookActive = false, agentId?: string) =>
  handleEvent(
    opened(),
    { kind: "TurnEnded", stopHookActive, agentId },
    { platform: "claude-code", now: clock },
  );

describe("end of turn: tailtest runs the queued files' tests itself", () => {
  it("missing test → block; red test → block with the failure; green → the turn ends and outcomes are recorded", async () => {
    await handleEvent(
      opened(),
      { kind: "SessionStarted", sessionId: "s1", source: "startup" },
      { platform: "claude-code", now: clock },
    );
    expect(await edit("billing.py", BILLING)).toEqual({
      kind: "context",
      text: "tailtest: billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.",
    });

    const missing = await stop();
    expect(missing.kind).toBe("block");
    if (missing.kind !== "block") return;
    expect(missing.reason).toContain("MISSING billing.py: no test at tests/test_billing.py");
    expect(missing.reason).toContain(
      "Next: write the missing tests, run them, and make them pass.",
    );
    expect(missing.reason).toContain("(round 1 of 3)");

    await edit("tests/test_billing.py", RED_TEST);
    const red = await stop(true);
    expect(red.kind).toBe("block");
    if (red.kind !== "block") return;
    expect(red.reason).toContain("FAIL tests/test_billing.py::test_charge");
    expect(red.reason).toContain("assert 12.0 == 13");
    expect(red.reason).toContain("(round 2 of 3)");
    expect(red.reason).toMatch(/\nRe-run them: \S*python\S* -m pytest tests\/test_billing\.py\n/);
    expect(red.reason).not.toContain(project.root);
    expect((await session()).fix_attempts).toEqual({ "billing.py": 1 });

    await edit("tests/test_billing.py", GREEN_TEST);
    // Green: nothing for the agent, one line for the person.
    expect(await stop(true)).toEqual({
      kind: "none",
      // billing.py; its test file, edited too, was run for it and is not a file of its own.
      userMessage: expect.stringMatching(
        /^tailtest: 1 edited file, 1 test passed \(\d+(\.\d)? m?s\)$/,
      ),
    });
    const after = await session();
    expect(after.pending_files).toEqual([]);
    expect(after.results["billing.py"]).toMatchObject({
      outcome: "passed",
      test_path: "tests/test_billing.py",
    });
    expect(after.generated_tests).toEqual({ "billing.py": "tests/test_billing.py" });
    expect(after.fix_attempts).toEqual({ "billing.py": 2 });
    expect(after.stop_blocks).toBe(0);
    // Each end of turn that ran or missed a test is in runs.json (a missing test fails the run),
    // with per-test durations.
    const runs = (await readState(runLogFile(opened()))).value.runs;
    expect(runs.map((run) => [run.source, run.status])).toEqual([
      ["hook", "failed"],
      ["hook", "failed"],
      ["hook", "passed"],
    ]);
    expect(runs[2]?.tests).toEqual([
      expect.objectContaining({
        id: "tests/test_billing.py::test_charge",
        status: "pass",
        duration_ms: expect.any(Number),
      }),
    ]);

    await handleEvent(opened(), { kind: "SessionEnded" }, { platform: "claude-code", now: clock });
    const next = await handleEvent(
      opened(),
      { kind: "SessionStarted", sessionId: "s2", source: "startup" },
      { platform: "claude-code", now: clock },
    );
    expect(next.kind).toBe("context");
  }, 60_000);

  it("the loop budget ends the blocking and records what is still red", async () => {
    project.write(".tailtest/config.json", '{"stop_loop_budget": 2}');
    await edit("billing.py", BILLING);
    await edit("tests/test_billing.py", RED_TEST);
    expect((await stop(false)).kind).toBe("block");
    expect((await stop(true)).kind).toBe("block");
    const spent = await stop(true);
    expect(spent).toEqual({
      kind: "context",
      text: "tailtest: still red after the last round, recorded as failed: billing.py. Tell the user.",
      userMessage: expect.stringMatching(/^tailtest: 1 edited file, 1 test: 0 passed, 1 failed \(/),
    });
    const state = await session();
    expect(state.results["billing.py"]?.outcome).toBe("failed");
    expect(state.stop_blocks).toBe(0);
    // A new user turn starts a fresh budget.
    expect((await stop(false)).kind).toBe("block");
  }, 60_000);

  it("an existing file without a test is recorded, not forced; a new one is", async () => {
    project.write("legacy.py", "def old():\n    return 1\n");
    await commitAll(project.root);
    expect(await edit("legacy.py", "def old():\n    return 2\n")).toMatchObject({
      kind: "context",
    });
    expect((await session()).pending_files.map((entry) => entry.status)).toEqual(["existing"]);
    expect(await stop()).toEqual({
      kind: "none",
      userMessage: "tailtest: 1 edited file, 1 missing test",
    });
    const state = await session();
    expect(state.results["legacy.py"]?.outcome).toBe("missing_test");
    expect(state.pending_files).toEqual([]);
  }, 60_000);

  it("a test module that cannot import an uninstalled package is an environment error, never red", async () => {
    project.write("billing.py", BILLING);
    // Its own named test imports the missing package too: the name is not a changed file.
    project.write("tests/test_billing.py", `import freezegun_not_installed\n${GREEN_TEST}`);
    project.write(
      "tests/test_timed.py",
      "import freezegun_not_installed\nfrom billing import charge\n\n\ndef test_t():\n    assert charge(1) == 1.2\n",
    );
    await commitAll(project.root);
    await edit("billing.py", "def charge(amount):\n    return round(amount * 1.2, 2)  # same\n");
    const decision = await stop();
    expect(decision.kind).not.toBe("block");
    expect(JSON.stringify(decision)).toContain(
      "tests/test_timed.py (freezegun_not_installed) could not import a package that is not installed",
    );
    // The same missing import reached from a changed file is the change's fault: red.
    project.write("tests/test_billing.py", GREEN_TEST);
    project.write(
      "tests/test_timed.py",
      "from billing import charge\n\n\ndef test_t():\n    assert charge(1) == 1.2\n",
    );
    await edit("billing.py", "import requests_not_installed\n\n" + BILLING);
    const red = await stop();
    expect(red.kind).toBe("block");
  }, 60_000);

  it("in follow mode the project's bytecode caches are left as the person's own run keeps them", async () => {
    // tdd and strict remove them before a run (an agent could plant bytecode there: ADR 0012);
    // follow mode runs what the person's own pytest would, caches included.
    project.write("tests/test_billing.py", GREEN_TEST);
    project.write("__pycache__/kept.cpython-311.pyc", "not bytecode");
    expect((await edit("billing.py", BILLING)).kind).toBe("context");
    expect((await stop()).kind).toBe("none");
    expect(existsSync(join(project.root, "__pycache__/kept.cpython-311.pyc"))).toBe(true);
  });

  it("a run many times slower than its tests' earlier runs is stopped then, not at the timeout", async () => {
    project.write("tests/test_billing.py", GREEN_TEST);
    await edit("billing.py", BILLING);
    expect((await stop()).kind).toBe("none");
    // A seeded endless loop: the timeout (5 minutes) would hold the agent that long.
    await edit("billing.py", "def charge(amount):\n    while True:\n        pass\n");
    // Ten times the green run's time (a second or two), where the timeout is 300 s: this test's
    // own time limit below is what fails it when the bound does not hold.
    const verified = await verifyTurn(opened(), {
      stopHookActive: false,
      now: clock,
      hangFloorMs: 3_000,
    });
    expect(verified.results.map((result) => result.status)).toEqual(["timeout"]);
    expect(verified.results[0]?.reason).toMatch(
      /^pytest was stopped after [\d.]+ s, over 10× what its test files took in earlier runs \([\d.]+ s\)$/,
    );
    expect(verified.decision.kind).toBe("block");
    expect(verified.decision.kind === "block" ? verified.decision.reason : "").toMatch(
      /TIMEOUT pytest in \.: stopped after [\d.]+ s, over 10× what its test files took in earlier runs \([\d.]+ s\) before it finished\. A test hung; it was here \(innermost first\):\n {2}File "billing\.py", line [23] in charge\n {2}File "tests\/test_billing\.py", line 5 in test_charge\n/,
    );
  }, 150_000);

  it("a test that fails, then passes when run again, is told as flaky, never red nor green", async () => {
    // Fails on its first run in this project, passes on every run after (a timing bound, say).
    const flaky =
      "import os\n\nfrom billing import charge\n\n\ndef test_charge():\n    assert charge(10) == 12\n\n\ndef test_timing():\n    first = not os.path.exists('ran-once')\n    open('ran-once', 'w').close()\n    assert not first, 'took too long'\n";
    project.write("tests/test_billing.py", flaky);
    await edit("billing.py", BILLING);
    const decision = await stop();
    expect(decision.kind).toBe("context");
    expect(decision.kind === "context" ? decision.text : "").toContain(
      "tailtest: tests/test_billing.py > test_timing failed, then passed when run again: a flaky test, not counted as red.",
    );
    // Not called green: the file stays queued, and its first run's failure is what is recorded.
    expect((await session()).pending_files.map((entry) => entry.path)).toEqual(["billing.py"]);
    // The person hears of it too, as flaky: not as a red test, not as a pass.
    expect(decision.userMessage).toMatch(
      /^tailtest: 1 edited file, 1 test passed, 1 flaky test \(/,
    );
  });

  it("where the runner isolates its files, only the file that failed is run again", async () => {
    // node --test runs each file in a process of its own: the other file runs once.
    const js = makeProject({
      "package.json": '{"name":"calc","scripts":{"test":"node --test test/"}}',
      "calc.js": "exports.add = (a, b) => a + b;\n",
      "test/calc.test.js":
        "const test = require('node:test');\nconst fs = require('node:fs');\nconst { add } = require('../calc');\ntest('add', () => { fs.appendFileSync('runs.txt', 'calc\\n'); if (add(1, 2) !== 3) throw new Error('no'); });\n",
      "test/timing.test.js":
        "const test = require('node:test');\nconst fs = require('node:fs');\nrequire('../calc');\ntest('timing', () => { const first = !fs.existsSync('ran-once'); fs.writeFileSync('ran-once', ''); fs.appendFileSync('runs.txt', 'timing\\n'); if (first) throw new Error('took too long'); });\n",
    });
    try {
      const open = () => openProject(js.root);
      js.write("calc.js", "exports.add = (a, b) => b + a;\n");
      await handleEvent(
        open(),
        { kind: "FilesEdited", paths: [join(js.root, "calc.js")] },
        { platform: "claude-code", now: clock },
      );
      const decision = await handleEvent(
        open(),
        { kind: "TurnEnded", stopHookActive: false },
        { platform: "claude-code", now: clock },
      );
      expect(decision.kind === "context" ? decision.text : decision.kind).toContain(
        "tailtest: test/timing.test.js > timing failed, then passed when run again: a flaky test, not counted as red.",
      );
      expect(readFileSync(join(js.root, "runs.txt"), "utf8").split("\n").sort()).toEqual([
        "",
        "calc",
        "timing",
        "timing",
      ]);
    } finally {
      js.cleanup();
    }
  });

  it("a pytest run's failed file is run again alone first: red there, the rest runs once", async () => {
    // pytest runs its files in one process: the whole run again took as long as the first,
    // though a test that fails alone fails whatever the other files leave behind.
    const logged = (name: string, body: string) =>
      `from billing import charge\n\n\ndef test_${name}():\n    with open('runs.txt', 'a') as log:\n        log.write('${name}\\n')\n    ${body}\n`;
    project.write("tests/test_billing.py", logged("charge", "assert charge(10) == 13"));
    project.write("tests/test_more_billing.py", logged("more", "assert charge(0) == 0"));
    project.write("tests/test_fees.py", logged("fees", "assert charge(1) == 1.2"));
    await edit("billing.py", BILLING);
    const decision = await stop();
    expect(decision.kind).toBe("block");
    expect(decision.kind === "block" ? decision.reason : "").not.toContain("flaky");
    const runs = readFileSync(join(project.root, "runs.txt"), "utf8").split("\n").filter(Boolean);
    expect(runs.filter((name) => name === "charge")).toHaveLength(2);
    expect(runs.filter((name) => name !== "charge").length).toBeLessThanOrEqual(2);
    expect(new Set(runs.filter((name) => name !== "charge")).size).toBe(
      runs.filter((name) => name !== "charge").length,
    );
  });

  it("a pytest test that passes alone is judged by the whole run again", async () => {
    // Fails only after another file's test ran in the same process: alone it passes, so the
    // whole run is made again, where it fails again: red, not flaky.
    project.write(
      "tests/test_a_state.py",
      "import billing\n\n\ndef test_leaves_state():\n    billing.RATE = 2\n",
    );
    project.write(
      "tests/test_billing.py",
      "import billing\n\n\ndef test_rate():\n    assert getattr(billing, 'RATE', 1) == 1\n",
    );
    await edit("billing.py", BILLING);
    const decision = await stop();
    expect(decision.kind).toBe("block");
    expect(decision.kind === "block" ? decision.reason : "").toContain("test_rate");
    expect(decision.kind === "block" ? decision.reason : "").not.toContain("flaky");
  });

  it("a test that fails twice is red, whatever runs beside it", async () => {
    const twice =
      "from billing import charge\n\n\ndef test_charge():\n    assert charge(10) == 13\n";
    project.write("tests/test_billing.py", twice);
    await edit("billing.py", BILLING);
    const decision = await stop();
    expect(decision.kind).toBe("block");
    expect(decision.kind === "block" ? decision.reason : "").not.toContain("flaky");
  });

  it("nothing queued → no opinion, no test run", async () => {
    expect(await stop()).toEqual({ kind: "none" });
  });

  it("a subagent's files are verified at its own stop, not the parent's", async () => {
    await edit("billing.py", BILLING, "agent-7");
    expect(await stop(false)).toEqual({ kind: "none" });
    const sub = await stop(false, "agent-7");
    expect(sub.kind).toBe("block");
  }, 60_000);
});

describe("end of turn: red tests the report files under no selected test file", () => {
  // unittest only (no pytest configuration): a module's doctests run by its test's load_tests,
  // and a TestCase class a test module imports from a helper (reported under the helper).
  const CALC =
    'def add(a, b):\n    """Add.\n\n    >>> add(2, 3)\n    5\n    """\n    return a + b\n';
  let unit: TempProject;
  beforeEach(() => {
    unit = makeProject({
      "setup.py": "from setuptools import setup\n\nsetup(name='calc')\n",
      "calc.py": CALC,
      "tests/__init__.py": "",
      "tests/shared.py":
        "import unittest\n\nfrom calc import add\n\n\nclass SharedCalcTests(unittest.TestCase):\n    def test_adds_negative(self):\n        self.assertEqual(add(-1, -1), -2)\n",
      "tests/test_calc.py":
        "import doctest\nimport unittest\n\nimport calc\nfrom tests.shared import SharedCalcTests  # noqa: F401\n\n\ndef load_tests(loader, tests, ignore):\n    tests.addTests(doctest.DocTestSuite(calc))\n    return tests\n\n\nclass TestCalc(unittest.TestCase):\n    def test_adds(self):\n        self.assertEqual(calc.add(2, 3), 5)\n",
      "tests/test_other.py":
        "import unittest\n\nfrom calc import add\n\n\nclass TestOther(unittest.TestCase):\n    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\n",
    });
  });
  afterEach(() => unit.cleanup());
  const editUnit = (content: string) => {
    unit.write("calc.py", content);
    return handleEvent(
      openProject(unit.root),
      { kind: "FilesEdited", paths: [join(unit.root, "calc.py")] },
      { platform: "claude-code", now: clock },
    );
  };
  const stopUnit = () =>
    handleEvent(
      openProject(unit.root),
      { kind: "TurnEnded", stopHookActive: false },
      { platform: "claude-code", now: clock },
    );

  it("a failing doctest blocks under the test file that runs it, with its re-run command", async () => {
    await commitAll(unit.root);
    await editUnit(CALC.replace("    5\n", "    6\n"));
    const red = await stopUnit();
    expect(red.kind).toBe("block");
    if (red.kind !== "block") return;
    expect(red.reason).toContain("FAIL tests/test_calc.py::calc.add");
    expect(red.reason).toContain(
      "FAIL tests/test_calc.py::calc.add\n  Failed example:\n      add(2, 3)\n  Expected:\n      6\n  Got:\n      5\n",
    );
    expect(red.reason).toMatch(/\nRe-run them: \S*python\S* -m unittest tests\/test_calc\.py\n/);
  }, 60_000);

  it("a failing test imported from a helper module blocks though the helper is no test file", async () => {
    await commitAll(unit.root);
    await editUnit(CALC.replace("return a + b", "return a + b if a >= 0 else a - b"));
    const red = await stopUnit();
    expect(red.kind).toBe("block");
    if (red.kind !== "block") return;
    expect(red.reason).toContain("FAIL tests/shared.py::SharedCalcTests::test_adds_negative");
  }, 60_000);
});

describe("end of turn: an edited file whose tests ran no test", () => {
  it("says the file was not checked, never that its tests passed", async () => {
    const unit = makeProject({
      "setup.py": "from setuptools import setup\n\nsetup(name='calc')\n",
      "calc.py": "def add(a, b):\n    return a + b\n",
      "tests/__init__.py": "",
      // A TestCase with no test method: unittest runs nothing of it.
      "tests/test_calc.py":
        "import unittest\n\nimport calc\n\n\nclass TestCalc(unittest.TestCase):\n    pass\n",
    });
    try {
      await commitAll(unit.root);
      unit.write("calc.py", "def add(a, b):\n    return a - b\n");
      await handleEvent(
        openProject(unit.root),
        { kind: "FilesEdited", paths: [join(unit.root, "calc.py")] },
        { platform: "claude-code", now: clock },
      );
      const stop = await handleEvent(
        openProject(unit.root),
        { kind: "TurnEnded", stopHookActive: false },
        { platform: "claude-code", now: clock },
      );
      expect(stop.kind).toBe("context");
      const text = stop.kind === "context" ? stop.text : "";
      expect(text).toContain(
        "tailtest: tests/test_calc.py ran no test under unittest (`python3 -m unittest tests/test_calc.py`), so calc.py was not checked.",
      );
      expect(JSON.stringify(stop)).not.toContain("0 tests passed");
    } finally {
      unit.cleanup();
    }
  }, 60_000);
});

describe("end of turn: doctest pages that need another folder's conftest", () => {
  // python-semver's shape: `testpaths = tests docs`, docs/*.rst examples that use names a
  // tests/conftest.py autouse fixture puts in pytest's session-wide doctest_namespace.
  const CALC = "def add(a, b):\n    return a + b\n";
  let docs: TempProject;
  beforeEach(() => {
    docs = makeProject({
      "pytest.ini":
        "[pytest]\ntestpaths = tests docs\npythonpath = .\naddopts = --doctest-glob='*.rst'\n",
      "calc.py": CALC,
      "tests/conftest.py":
        "import pytest\n\nimport calc\n\n\n@pytest.fixture(autouse=True)\ndef add_calc(doctest_namespace):\n    doctest_namespace['calc'] = calc\n",
      "tests/test_calc.py": "import calc\n\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n",
      "tests/test_more.py":
        "import calc\n\n\ndef test_zero():\n    assert calc.add(0, 0) == 0\n\n\ndef test_one():\n    assert calc.add(1, 0) == 1\n",
      "docs/usage.rst":
        "Usage\n=====\n\n>>> from calc import add\n>>> add(1, 2)\n3\n>>> calc.add(2, 1)\n3\n",
      "docs/more.rst": "More\n====\n\n>>> calc.add(2, 2)\n4\n",
    });
  });
  afterEach(() => docs.cleanup());
  const editDocs = (path: string, content: string) => {
    docs.write(path, content);
    return handleEvent(
      openProject(docs.root),
      { kind: "FilesEdited", paths: [join(docs.root, path)] },
      { platform: "claude-code", now: clock },
    );
  };
  const stopDocs = () =>
    handleEvent(
      openProject(docs.root),
      { kind: "TurnEnded", stopHookActive: false },
      { platform: "claude-code", now: clock },
    );

  it("a harmless edit of the module passes: the pages run after the tests, as in pytest's run", async () => {
    await commitAll(docs.root);
    await editDocs("calc.py", `# Adding.\n${CALC}`);
    const stopped = await stopDocs();
    expect(stopped.kind).toBe("none");
    // tests/test_calc.py, tests/test_more.py and docs/usage.rst, which imports calc.
    expect(stopped).toMatchObject({
      userMessage: expect.stringMatching(/^tailtest: 1 edited file, 4 tests passed \(/),
    });
  }, 60_000);

  it("a harmless edit of a page alone passes: a test of the conftest's folder runs first", async () => {
    await commitAll(docs.root);
    await editDocs("docs/more.rst", "More\n====\n\nAdding twice.\n\n>>> calc.add(2, 2)\n4\n");
    const stopped = await stopDocs();
    expect(stopped.kind).toBe("none");
    // The page's example and the one test of tests/test_calc.py (the smaller file).
    expect(stopped).toMatchObject({
      userMessage: expect.stringMatching(/^tailtest: 2 tests passed/),
    });
  }, 60_000);

  it("a wrong example in the page still blocks", async () => {
    await commitAll(docs.root);
    await editDocs("docs/more.rst", "More\n====\n\n>>> calc.add(2, 2)\n5\n");
    const red = await stopDocs();
    expect(red.kind).toBe("block");
    if (red.kind !== "block") return;
    expect(red.reason).toContain("docs/more.rst");
  }, 60_000);
});
