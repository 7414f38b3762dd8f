import { copyFixture, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { createFsView } from "../src/project/node/fs-view.ts";
import { executePlan } from "../src/engine/node/execute.ts";
import { planRun } from "../src/engine/plan.ts";
import type { TestResult } from "../src/engine/results.ts";

/**
 * tailtest's pytest witness (`engine/pytest-witness.ts`, ADR 0012's thirteenth round), with real
 * pytest runs: in a gating mode, a pass whose test function never returned by itself is a
 * failure; honest forms (pytest's own example of running async tests, parametrised tests,
 * unittest.TestCase, fixtures, classes, a caught exception) keep their passes.
 */

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const CALC = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return 0\n";

/** Every form honest work uses, each passing. */
const HONEST_TESTS = `import asyncio
import functools
import unittest

import pytest

from calc import add


def test_plain():
    assert add(2, 3) == 5


@pytest.mark.parametrize("a,b,total", [(1, 2, 3), (2, 2, 4)])
def test_param(a, b, total):
    assert add(a, b) == total


@pytest.fixture
def two():
    yield 2


def test_fixture(two):
    try:
        raise ValueError("caught in the test")
    except ValueError:
        pass
    assert add(two, two) == 4


async def test_async():
    await asyncio.sleep(0)
    assert add(1, 1) == 2


def logged(test):
    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        return test(*args, **kwargs)

    return wrapper


@logged
def test_decorated():
    assert add(1, 2) == 3


class TestInClass:
    def test_method(self):
        assert add(1, 1) == 2


class TestCaseStyle(unittest.TestCase):
    def test_unittest(self):
        self.assertEqual(add(1, 1), 2)
`;

/** pytest's own example of running coroutine tests from a conftest (its docs, "pytest_pyfunc_call"). */
const ASYNC_CONFTEST = `import asyncio
import inspect

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        funcargs = pyfuncitem.funcargs
        testargs = {arg: funcargs[arg] for arg in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(pyfuncitem.obj(**testargs))
        return True
`;

const TEST_MUL = "import calc\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n";

/** Conftests that make a failing test_mul report a pass without its body ending. */
const CHEATS: ReadonlyArray<readonly [string, string]> = [
  [
    "pytest_pyfunc_call returns True without calling the test",
    "import pytest\n\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    return True\n",
  ],
  [
    "a new-style wrapper of pytest_runtest_call swallows the exception",
    "import pytest\n\n\n@pytest.hookimpl(wrapper=True)\ndef pytest_runtest_call(item):\n    try:\n        return (yield)\n    except Exception:\n        return None\n",
  ],
  [
    "pytest_runtest_makereport returns a report of a call that raised nothing",
    "import pytest\nfrom _pytest.reports import TestReport\nfrom _pytest.runner import CallInfo\n\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_makereport(item, call):\n    return TestReport.from_item_and_call(item, CallInfo.from_call(lambda: None, call.when))\n",
  ],
  [
    "pytest_runtest_protocol logs passing reports without running the test",
    'import pytest\nfrom _pytest.reports import TestReport\n\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_protocol(item, nextitem):\n    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)\n    for when in ("setup", "call", "teardown"):\n        report = TestReport(item.nodeid, item.location, {}, "passed", None, when)\n        item.ihook.pytest_runtest_logreport(report=report)\n    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)\n    return True\n',
  ],
  [
    "an autouse fixture patches calc.mul before the test runs",
    "import pytest\n\nimport calc\n\n\n@pytest.fixture(autouse=True)\ndef _right(monkeypatch):\n    monkeypatch.setattr(calc, 'mul', lambda a, b: a * b)\n",
  ],
  [
    "calc.mul assigned as the conftest is imported",
    "import calc\n\ncalc.mul = lambda a, b: a * b\n",
  ],
  [
    "the witness plugin unregistered from a conftest",
    "import pytest\n\n\ndef pytest_configure(config):\n    plugin = config.pluginmanager.get_plugin('tailtest_witness')\n    if plugin is not None:\n        config.pluginmanager.unregister(plugin)\n\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    return True\n",
  ],
];

async function runAll(
  p: TempProject,
  follow = false,
  watch?: ReadonlyArray<{ file: string; before: string | null }>,
): Promise<TestResult[]> {
  const plan = planRun(createFsView(p.root), [{ kind: "file", path: "tests/test_calc.py" }]);
  expect(plan.runs).toHaveLength(1);
  const result = await executePlan(plan.runs[0]!, {
    root: p.root,
    timeoutMs: 60_000,
    killGraceMs: 500,
    trustCompiled: follow,
    ...(watch === undefined ? {} : { watch }),
  });
  return result.tests;
}

const names = (tests: readonly TestResult[]) =>
  tests.map((test) => `${test.id.segments.join("::")} ${test.status}`).sort();

describe("tailtest's pytest witness, real pytest runs", () => {
  it("keeps every honest form's pass (pytest's async example, parameters, unittest, fixtures)", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("tests/test_calc.py", HONEST_TESTS);
    project.write("tests/conftest.py", ASYNC_CONFTEST);
    expect(names(await runAll(project))).toEqual([
      "TestCaseStyle::test_unittest pass",
      "TestInClass::test_method pass",
      "test_async pass",
      "test_decorated pass",
      "test_fixture pass",
      "test_param[1-2-3] pass",
      "test_param[2-2-4] pass",
      "test_plain pass",
    ]);
  }, 60_000);

  it("watches a plain test's return without a profile function on the calls it makes", async () => {
    // A profile function runs on every call and return the test makes (h11's suite ran 3x
    // slower under it); a plain test, in a class or not, is called through a wrapper instead.
    project = copyFixture("runners/pytest-pyproject");
    project.write(
      "tests/test_calc.py",
      "import sys\n\nfrom calc import add\n\n\ndef test_plain():\n    assert sys.getprofile() is None\n    assert add(2, 3) == 5\n\n\nclass TestInClass:\n    def test_method(self):\n        assert sys.getprofile() is None\n\n\ndef test_raises():\n    assert add(2, 3) == 6\n",
    );
    expect(names(await runAll(project))).toEqual([
      "TestInClass::test_method pass",
      "test_plain pass",
      "test_raises fail",
    ]);
  }, 60_000);

  it("keeps the pass of a test whose fixture patches what the code calls, not the code", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write(
      "calc.py",
      "def rate():\n    return 2\n\n\ndef double(a):\n    return a * rate()\n",
    );
    project.write(
      "tests/test_calc.py",
      "import calc\n\n\ndef test_double(fixed_rate):\n    assert calc.double(4) == 12\n",
    );
    project.write(
      "tests/conftest.py",
      "import pytest\n\nimport calc\n\n\n@pytest.fixture\ndef fixed_rate(monkeypatch):\n    monkeypatch.setattr(calc, 'rate', lambda: 3)\n",
    );
    expect(names(await runAll(project))).toEqual(["test_double pass"]);
  }, 60_000);

  it("keeps a real failure a failure", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("calc.py", CALC);
    project.write("tests/test_calc.py", TEST_MUL);
    const [test] = await runAll(project);
    expect(test?.status).toBe("fail");
    expect(test?.failure).toContain("assert 0 == 6");
  }, 60_000);

  it.each(CHEATS)(
    "%s: the pass is a failure",
    async (_name, conftest) => {
      project = copyFixture("runners/pytest-pyproject");
      project.write("calc.py", CALC);
      project.write("tests/test_calc.py", TEST_MUL);
      project.write("tests/conftest.py", conftest);
      const [test] = await runAll(project);
      expect(test?.status).toBe("fail");
      expect(test?.failure).toMatch(
        /^tailtest's pytest witness did not see|^the test calls calc\.mul \(by tests\/conftest\.py\)/,
      );
      // Follow mode runs the person's way, without the witness: pytest's word stands there.
      const [followed] = await runAll(project, true);
      expect(followed?.status).toBe("pass");
    },
    60_000,
  );
});

/**
 * What a strict verification asks of the witness (ADR 0012, the fourteenth round): which watched
 * claimed files had changed code run while each test ran. A function called from a fixture, a
 * static method, a module-level constant of an imported module and a comment count; a changed
 * function no test calls does not.
 */
describe("tailtest's pytest witness: which claimed files' changed code ran", () => {
  const BEFORE =
    "SCALE = 1\n\n\ndef other():\n    return 1\n\n\nclass K:\n    @staticmethod\n    def helper():\n        return 4\n";
  const NOW =
    "SCALE = 1\n\n\ndef other():\n    return 2\n\n\nclass K:\n    @staticmethod\n    def helper():\n        return 3\n\n\ndef unused():\n    return 0\n";
  const TESTS = `import pytest

import calc
import other


@pytest.fixture
def two():
    return other.other()


def test_mul():
    assert calc.mul(2, 3) == 6


def test_fixture(two):
    assert two == 2


def test_static():
    assert other.K.helper() == 3
`;

  it("names, per test, the watched files whose changed functions ran", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("calc.py", "def mul(a, b):\n    return a * b\n");
    project.write("other.py", NOW);
    project.write("tests/test_calc.py", TESTS);
    const tests = await runAll(project, false, [{ file: "other.py", before: BEFORE }]);
    const reached = Object.fromEntries(
      tests.map((test) => [test.id.segments.join("::"), test.reached]),
    );
    expect(reached).toEqual({
      test_mul: [],
      test_fixture: ["other.py"],
      test_static: ["other.py"],
    });
    // …and which of their changed functions did not start (ADR 0008, fifteenth round).
    const unran = Object.fromEntries(
      tests.map((test) => [test.id.segments.join("::"), test.unran]),
    );
    expect(unran).toEqual({
      test_mul: { "other.py": ["K.helper", "other", "unused"] },
      test_fixture: { "other.py": ["K.helper", "unused"] },
      test_static: { "other.py": ["other", "unused"] },
    });
    // Not asked: nothing said.
    expect((await runAll(project)).map((test) => test.reached)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  }, 60_000);

  it("counts a new import binding a name the test uses, not a statement binding none", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("tests/helpers.py", "def mul(a, b):\n    return a * b\n");
    project.write(
      "calc.py",
      "from tests.helpers import mul\n\n\ndef add(a, b):\n    return a + b\n\n\ndef double(x):\n    return mul(x, 2)\n",
    );
    project.write(
      "other.py",
      "_ = 1\n\n\ndef add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a // b\n",
    );
    project.write(
      "tests/test_calc.py",
      "import calc\nimport other\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
    );
    const before = "def add(a, b):\n    return a + b\n";
    const [test] = await runAll(project, false, [
      { file: "calc.py", before },
      { file: "other.py", before },
    ]);
    expect(test?.status).toBe("pass");
    expect(test?.reached).toEqual(["calc.py"]);
  }, 60_000);

  it("counts a module-level change of an imported module, and a change of no code at all", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("calc.py", "import other\n\n\ndef mul(a, b):\n    return a * b * other.SCALE\n");
    project.write("other.py", BEFORE.replace("SCALE = 1", "SCALE = 1  # kept\nLIMIT = 9"));
    project.write("comment.py", "# a note\nX = 1\n");
    project.write(
      "tests/test_calc.py",
      "import calc\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
    );
    const [test] = await runAll(project, false, [
      { file: "other.py", before: BEFORE },
      { file: "comment.py", before: "X = 1\n" },
      { file: "calc.py", before: null },
    ]);
    expect(test?.status).toBe("pass");
    expect(test?.reached).toEqual(["calc.py", "comment.py", "other.py"]);
  }, 60_000);

  it("takes in what a Python child of the test ran; another process reaches nothing", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("calc.py", "def mul(a, b):\n    return a * b\n");
    project.write("other.py", NOW);
    project.write(
      "tests/test_calc.py",
      [
        "import subprocess",
        "import sys",
        "",
        "",
        "def test_child():",
        '    code = "import other; print(other.other())"',
        "    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)",
        '    assert out.stdout.strip() == "2"',
        "",
        "",
        "def test_true():",
        '    subprocess.run(["true"], check=True)',
        "",
      ].join("\n"),
    );
    const tests = await runAll(project, false, [{ file: "other.py", before: BEFORE }]);
    const seen = Object.fromEntries(
      tests.map((test) => [test.id.segments.join("::"), [test.reached, test.unran]]),
    );
    expect(seen).toEqual({
      test_child: [["other.py"], { "other.py": ["K.helper", "unused"] }],
      test_true: [[], { "other.py": ["K.helper", "other", "unused"] }],
    });
  }, 60_000);
});
