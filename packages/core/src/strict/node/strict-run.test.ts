import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { runStrictTests } from "./strict-run.ts";

let project: TempProject;
beforeEach(() => {
  project = makeProject({
    "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["."]\n',
    "calc.py": "def add(a, b):\n    while True:\n        pass\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    // An earlier run that ran to an end: the file took a tenth of a second.
    ".tailtest/runs.json": `${JSON.stringify({
      version: 1,
      runs: [
        {
          status: "passed",
          duration_ms: 100,
          test_files: 1,
          tests: [{ file: "tests/test_calc.py", duration_ms: 100 }],
        },
      ],
    })}\n`,
  });
});
afterEach(() => project.cleanup());

it("a claimed test made to hang is stopped at the hang bound, not held for the timeout", async () => {
  // The timeout (300 s) would hold the claim that long: this test's own limit fails it then.
  const started = Date.now();
  const run = await runStrictTests(
    openProject(project.root),
    [
      {
        id: "tests/test_calc.py::test_add",
        file: "tests/test_calc.py",
        segments: ["test_add"],
        source: "native",
      },
    ],
    { purpose: "claim", now: () => new Date(), hangFloorMs: 3_000 },
  );
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(run.results.map((result) => result.status)).toEqual(["timeout"]);
  expect(run.results[0]?.reason).toMatch(/over 10× what its test files took in earlier runs/);
  expect(run.events.map((event) => event.status)).toEqual(["fail"]);
}, 90_000);
