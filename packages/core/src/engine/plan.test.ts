import { join } from "node:path";
import { FIXTURES_DIR } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { createFsView } from "../project/node/fs-view.ts";
import { flakyRerun, planRun, planSuites, REPORT_TOKEN, REPORTER_TOKEN } from "./plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { detectPackageRunners, detectProjectRunners } from "../runners/project-runners.ts";

const monorepo = () => createFsView(join(FIXTURES_DIR, "runners", "monorepo"));

describe("planRun", () => {
  it("batches every target of a runner into one process per package", () => {
    const view = createMemoryView({
      "pytest.ini": "",
      "a.py": "",
      "b.py": "",
      "tests/test_a.py": "",
      "tests/test_b.py": "",
    });
    const plan = planRun(view, [
      { kind: "file", path: "a.py" },
      { kind: "file", path: "b.py" },
      { kind: "file", path: "tests/test_a.py" },
    ]);
    expect(plan.runs).toHaveLength(1);
    expect(plan.runs[0]).toMatchObject({
      cwd: "",
      argv: [
        "python3",
        "-m",
        "pytest",
        "-o",
        "junit_family=xunit1",
        `--junitxml=${REPORT_TOKEN}`,
        "--continue-on-collection-errors",
        "tests/test_a.py",
        "tests/test_b.py",
      ],
      format: "junit",
      test_files: ["tests/test_a.py", "tests/test_b.py"],
      sources: { "a.py": "tests/test_a.py", "b.py": "tests/test_b.py" },
      env: { CI: "1" },
    });
  });

  it("runs the conventional test on disk when the selection found nothing (a test made behind the hooks)", () => {
    const files = { "pytest.ini": "", "src/billing.py": "", "tests/test_billing.py": "" };
    const related = new Map([["src/billing.py", [] as string[]]]);
    const plan = planRun(createMemoryView(files), [{ kind: "file", path: "src/billing.py" }], {
      related,
    });
    expect(plan.missing).toEqual([]);
    expect(plan.runs[0]?.test_files).toEqual(["tests/test_billing.py"]);
    const none = planRun(
      createMemoryView({ "pytest.ini": "", "src/billing.py": "" }),
      [{ kind: "file", path: "src/billing.py" }],
      { related },
    );
    expect(none.runs).toEqual([]);
    expect(none.missing).toMatchObject([{ source: "src/billing.py" }]);
  });

  it("runs a related page of examples (a doctest file) with the source's own runner", () => {
    const view = createMemoryView({
      "tox.ini": '[pytest]\naddopts = --doctest-glob "*.rst"\n',
      "src/sc/sortedlist.py": "",
      "docs/introduction.rst": "    >>> import sc\n",
      "tests/test_sortedlist.py": "",
    });
    const related = new Map([
      ["src/sc/sortedlist.py", ["tests/test_sortedlist.py", "docs/introduction.rst"]],
    ]);
    const plan = planRun(view, [{ kind: "file", path: "src/sc/sortedlist.py" }], { related });
    expect(plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["pytest", ["docs/introduction.rst", "tests/test_sortedlist.py"]],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it("runs an edited page pytest takes as doctests, and skips any other page", () => {
    const view = createMemoryView({
      "tox.ini": '[pytest]\naddopts = --doctest-glob "*.rst"\ntestpaths = docs tests\n',
      "src/sc/__init__.py": "",
      "docs/introduction.rst": "    >>> import sc\n",
      "docs/notes.md": "# notes\n",
      "README.rst": "    >>> import sc\n",
      "tests/test_sortedlist.py": "",
    });
    const plan = planRun(view, [
      { kind: "file", path: "docs/introduction.rst" },
      { kind: "file", path: "docs/notes.md" },
      { kind: "file", path: "README.rst" },
    ]);
    expect(plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["pytest", ["docs/introduction.rst"]],
    ]);
    // Outside testpaths, or matching no glob: documentation, as before.
    expect(plan.skipped.map((item) => item.path)).toEqual(["docs/notes.md", "README.rst"]);
  });

  it("one process per runner and package in a monorepo, run from the package", () => {
    const plan = planRun(monorepo(), [
      { kind: "file", path: "services/billing/calc.py" },
      { kind: "file", path: "packages/web/src/calc.ts" },
    ]);
    expect(plan.runs.map((run) => [run.runner.id, run.cwd, run.argv])).toEqual([
      [
        "pytest",
        "services/billing",
        [
          "python3",
          "-m",
          "pytest",
          "-o",
          "junit_family=xunit1",
          `--junitxml=${REPORT_TOKEN}`,
          "--continue-on-collection-errors",
          "tests/test_calc.py",
        ],
      ],
      [
        "vitest",
        "packages/web",
        [
          "npx",
          "--no-install",
          "vitest",
          "run",
          "--coverage.enabled=false",
          "--reporter=json",
          `--outputFile=${REPORT_TOKEN}`,
          "src/calc.test.ts",
        ],
      ],
    ]);
  });

  it("a source file without a test is reported missing, not dropped", () => {
    const view = createMemoryView({ "pytest.ini": "", "billing.py": "x = 1" });
    const plan = planRun(view, [{ kind: "file", path: "billing.py" }]);
    expect(plan).toEqual({
      runs: [],
      missing: [{ source: "billing.py", expected_test: "tests/test_billing.py", runner: "pytest" }],
      skipped: [],
    });
  });

  it("files that are not testable are skipped with a reason", () => {
    const view = createMemoryView({ "pytest.ini": "" });
    const plan = planRun(view, [
      { kind: "file", path: "README.md" },
      { kind: "file", path: "main.go" },
    ]);
    expect(plan.skipped).toEqual([
      { path: "README.md", reason: "documentation" },
      { path: "main.go", reason: "no go test runner found for main.go" },
    ]);
  });

  it("a file name is one argv element, whatever it contains", () => {
    const view = createMemoryView({ "pytest.ini": "", "tests/test_$(rm -rf ~); x.py": "" });
    const plan = planRun(view, [{ kind: "file", path: "tests/test_$(rm -rf ~); x.py" }]);
    expect(plan.runs[0]?.argv.at(-1)).toBe("tests/test_$(rm -rf ~); x.py");
  });
});

describe("selecting single tests by id", () => {
  const id = (runner: string, file: string, ...segments: string[]) => ({
    kind: "test" as const,
    id: { runner: runner as never, file, segments },
  });

  it("vitest gets ONE -t regex; segments joined for the installed major, or both ways when unknown", () => {
    const files = {
      "package.json": '{"devDependencies":{"vitest":"4"}}',
      "src/a.test.ts": "",
      "src/b.test.ts": "",
    };
    const targets = [
      id("vitest", "src/a.test.ts", "math", "adds (1+1)"),
      id("vitest", "src/b.test.ts", "inc 2 -> 3"),
    ];
    const unknown = planRun(createMemoryView(files), targets).runs[0]!;
    expect(unknown.argv.filter((arg) => arg === "-t")).toHaveLength(1);
    expect(unknown.argv[unknown.argv.indexOf("-t") + 1]).toBe(
      "^(?:math(?: > | )adds \\(1\\+1\\)|inc 2 -> 3)$",
    );
    const v4 = planRun(
      createMemoryView({ ...files, "node_modules/vitest/package.json": '{"version": "4.1.12"}' }),
      targets,
    ).runs[0]!;
    expect(v4.argv[v4.argv.indexOf("-t") + 1]).toBe("^(?:math adds \\(1\\+1\\)|inc 2 -> 3)$");
    const v5 = planRun(
      createMemoryView({ ...files, "node_modules/vitest/package.json": '{"version": "5.0.0"}' }),
      targets,
    ).runs[0]!;
    expect(v5.argv[v5.argv.indexOf("-t") + 1]).toBe("^(?:math > adds \\(1\\+1\\)|inc 2 -> 3)$");
    expect(v5.requested).toHaveLength(2);
  });

  it.each([
    [
      { "pytest.ini": "", "tests/test_a.py": "" },
      id("pytest", "tests/test_a.py", "TestA", "test_x[1-2]"),
      ["tests/test_a.py::TestA::test_x[1-2]"],
    ],
    [
      { "setup.py": "", "tests/test_a.py": "" },
      id("unittest", "tests/test_a.py", "TestA", "test_x"),
      ["-v", "tests.test_a.TestA.test_x"],
    ],
    [
      // A doctest its test module's load_tests adds: only that module can run it again.
      { "setup.py": "", "tests/test_a.py": "" },
      id("unittest", "tests/test_a.py", "calc.Counter.bump"),
      ["-v", "tests.test_a"],
    ],
    [
      { "package.json": '{"devDependencies":{"jest":"30"}}', "a.test.js": "" },
      id("jest", "a.test.js", "calc", "adds"),
      ["-t", "^(?:calc adds)$"],
    ],
    [
      { "package.json": '{"devDependencies":{"mocha":"11"}}', "test/a.test.js": "" },
      id("mocha", "test/a.test.js", "calc", "adds"),
      ["--grep", "^(?:calc adds)$"],
    ],
    [
      { "package.json": '{"scripts":{"test":"node --test"}}', "test/a.test.js": "" },
      id("node-test", "test/a.test.js", "calc", "adds"),
      ["--test-name-pattern=^adds$"],
    ],
    [
      { "go.mod": "", "pkg/a_test.go": "" },
      id("go", "pkg/a_test.go", "TestA", "sub case"),
      ["-run", "^(?:TestA)$/^(?:sub_case)$", "./pkg"],
    ],
    [
      { "Cargo.toml": "", "src/lib.rs": "" },
      id("cargo", "src/lib.rs", "tests", "adds"),
      ["--", "--exact", "tests::adds"],
    ],
    [
      { "Cargo.toml": "", ".config/nextest.toml": "", "src/lib.rs": "" },
      id("nextest", "src/lib.rs", "tests", "adds"),
      ["-E", "test(=tests::adds)"],
    ],
    [
      { Gemfile: 'gem "rspec"', "spec/a_spec.rb": "" },
      id("rspec", "spec/a_spec.rb", "Calc", "adds"),
      ["-e", "Calc adds"],
    ],
    [
      { "composer.json": '{"require-dev":{"phpunit/phpunit":"11"}}', "tests/ATest.php": "" },
      id("phpunit", "tests/ATest.php", "ATest", "testAdds"),
      ["--filter", "^(?:testAdds)$"],
    ],
    [
      { "pom.xml": "", "src/test/java/ATest.java": "" },
      id("maven", "src/test/java/ATest.java", "ATest", "adds"),
      ["-Dtest=ATest#adds"],
    ],
    [
      { "build.gradle": "", "src/test/java/ATest.java": "" },
      id("gradle", "src/test/java/ATest.java", "ATest", "adds"),
      ["--tests", "ATest.adds"],
    ],
    [
      { "x.csproj": "", "T/ATests.cs": "" },
      id("dotnet", "T/ATests.cs", "ATests", "Adds"),
      ["--filter", "FullyQualifiedName~ATests.Adds"],
    ],
  ])("%#: %j", (files, target, expected) => {
    const run = planRun(createMemoryView(files), [target]).runs[0]!;
    const at = run.argv.indexOf(expected[0]!);
    expect(at, run.argv.join(" ")).toBeGreaterThan(-1);
    expect(run.argv.slice(at, at + expected.length)).toEqual(expected);
  });

  it("a test id owned by no such runner is skipped", () => {
    const plan = planRun(createMemoryView({ "pytest.ini": "" }), [id("jest", "a.test.js", "x")]);
    expect(plan.skipped).toEqual([{ path: "a.test.js", reason: "no jest runner owns a.test.js" }]);
  });
});

describe("test files whose names start with a dash", () => {
  it.each([
    ["node-test", { "package.json": '{"scripts":{"test":"node --test"}}', "-x.test.js": "" }],
    ["pytest", { "pytest.ini": "", "-x_test.py": "" }],
    ["vitest", { "package.json": '{"devDependencies":{"vitest":"4"}}', "-x.test.ts": "" }],
  ] as const)("%s gets them as ./paths, never as options", (runner, files) => {
    const file = Object.keys(files).find((name) => name.startsWith("-")) ?? "";
    const plan = planRun(createMemoryView(files), [{ kind: "file", path: file }]);
    expect(plan.runs.map((run) => run.runner.id)).toEqual([runner]);
    const argv = plan.runs[0]?.argv ?? [];
    expect(argv.at(-1)).toBe(`./${file}`);
    expect(argv).not.toContain(file);
  });
});

describe("planSuites over a workspace whose members run their own runner", () => {
  // TanStack/virtual: vitest in the root's devDependencies, each member runs it by `test:lib`
  // from its folder with its own vite.config.ts. strict's full suite also ran `vitest run` from
  // the root, which loads the members' tests without their config: 25 of 139 red on a comment.
  const workspace = {
    "package.json": JSON.stringify({
      workspaces: ["packages/*"],
      devDependencies: { vitest: "^4.1.4" },
    }),
    "packages/core/package.json": JSON.stringify({ scripts: { "test:lib": "vitest" } }),
    "packages/core/vite.config.ts": "export default { test: { dir: './tests' } }",
    "packages/core/tests/index.test.ts": "",
    "packages/react/package.json": JSON.stringify({ scripts: { "test:lib": "vitest" } }),
    "packages/react/vite.config.ts": "export default { test: { environment: 'jsdom' } }",
    "packages/react/tests/index.test.tsx": "",
  };

  it("runs each member's suite from its folder, not the root's over them", () => {
    const view = createMemoryView(workspace);
    const plan = planSuites(view, detectProjectRunners(view));
    expect(plan.runs.map((run) => run.cwd).sort()).toEqual(["packages/core", "packages/react"]);
  });

  it("keeps the root's run when the root has tests of its own", () => {
    const view = createMemoryView({ ...workspace, "test/root.test.ts": "" });
    const plan = planSuites(view, detectProjectRunners(view));
    expect(plan.runs.map((run) => run.cwd).sort()).toEqual(["", "packages/core", "packages/react"]);
  });
});

describe("machine output per runner", () => {
  it("nextest uses its JUnit report when the default profile configures one", () => {
    const view = createMemoryView({
      "Cargo.toml": "",
      ".config/nextest.toml": '[profile.default.junit]\npath = "junit.xml"\n',
    });
    const run = planSuites(view, detectPackageRunners(view, "")).runs[0]!;
    expect(run).toMatchObject({
      format: "junit",
      report: { kind: "dir", path: "target/nextest/default", pattern: "junit.xml" },
    });
  });

  it.each([
    ["pytest-pyproject", "junit", "file"],
    ["unittest", "unittest-text", "output"],
    ["vitest", "jest-json", "file"],
    ["jest", "jest-json", "file"],
    ["mocha", "mocha-json", "file"],
    ["node-test", "node-test-ndjson", "file"],
    ["bun", "junit", "file"],
    ["deno", "junit", "file"],
    ["go", "go-json", "output"],
    ["cargo", "libtest-text", "output"],
    ["nextest", "nextest-text", "output"],
    ["rspec", "rspec-json", "file"],
    ["minitest", "minitest-text", "output"],
    ["phpunit", "junit", "file"],
    ["pest", "junit", "file"],
    ["maven", "junit", "dir"],
    ["gradle", "junit", "dir"],
    ["dotnet", "trx", "file"],
  ])("%s → %s from %s", (fixture, format, source) => {
    const view = createFsView(join(FIXTURES_DIR, "runners", fixture));
    const plan = planSuites(view, detectPackageRunners(view, ""));
    expect(plan.runs).toHaveLength(1);
    const run = plan.runs[0]!;
    expect(run.format).toBe(format);
    expect(run.report.kind).toBe(source);
    if (source === "file") expect(run.argv.some((arg) => arg.includes(REPORT_TOKEN))).toBe(true);
    if (fixture === "node-test") expect(run.argv).toContain(`--test-reporter=${REPORTER_TOKEN}`);
  });
});

describe("flakyRerun: what is run again to tell a flaky failure from a red one", () => {
  const JEST = '{"scripts":{"test":"jest"},"devDependencies":{"jest":"^29"}}';
  const VITEST = '{"scripts":{"test":"vitest run"},"devDependencies":{"vitest":"^3"}}';
  const files = (pkg: string, extra: Record<string, string> = {}) => ({
    "package.json": pkg,
    "src/a.ts": "",
    "src/a.test.ts": "",
    "src/b.test.ts": "",
    "src/c.test.ts": "",
    ...extra,
  });
  const TESTS = ["src/a.test.ts", "src/b.test.ts", "src/c.test.ts"];
  /** The run over three test files, and its result with `failing` red. */
  const rerunOf = (view: ReturnType<typeof createMemoryView>, failing: string[]) => {
    const plan = planRun(
      view,
      TESTS.map((path) => ({ kind: "file" as const, path })),
    );
    const run = plan.runs[0]!;
    const result = {
      runner: run.runner.id,
      cwd: "",
      command: run.argv,
      exit_code: 1,
      duration_ms: 1,
      status: "failed" as const,
      reason: "",
      tests: TESTS.map((file) => ({
        id: { runner: run.runner.id, file, segments: ["t"] },
        status: failing.includes(file) ? ("fail" as const) : ("pass" as const),
      })),
      errors: [],
      output_tail: "",
    };
    return { run, again: flakyRerun(view, run, result) };
  };

  it.each([
    ["jest", JEST, {}],
    ["vitest", VITEST, {}],
    [
      "vitest with a config that isolates",
      VITEST,
      { "vitest.config.ts": "export default { test: { isolate: true } };" },
    ],
  ])("%s: only the files that failed", (_, pkg, extra) => {
    const { run, again } = rerunOf(createMemoryView(files(pkg, extra)), ["src/b.test.ts"]);
    expect(again.test_files).toEqual(["src/b.test.ts"]);
    expect(again.argv).toContain("src/b.test.ts");
    expect(again.argv).not.toContain("src/a.test.ts");
    expect(again.argv.filter((arg) => !TESTS.includes(arg))).toEqual(
      run.argv.filter((arg) => !TESTS.includes(arg)),
    );
  });

  it.each([
    [
      "vitest told not to isolate",
      files(VITEST, { "vitest.config.ts": "export default { test: { isolate: false } };" }),
    ],
    [
      "vitest in one fork",
      files(VITEST, {
        "vite.config.ts":
          "export default { test: { poolOptions: { forks: { singleFork: true } } } };",
      }),
    ],
    ["vitest with a workspace", files(VITEST, { "vitest.workspace.ts": "export default [];" })],
    [
      "node --test without isolation",
      files('{"scripts":{"test":"node --test --experimental-test-isolation=none"}}'),
    ],
  ])("%s: the whole run again", (_, tree) => {
    const view = createMemoryView(tree);
    const { run, again } = rerunOf(view, ["src/b.test.ts"]);
    expect(again).toBe(run);
  });

  it("pytest, whose files share a process: the whole run again", () => {
    const view = createMemoryView({
      "pytest.ini": "",
      "tests/test_a.py": "",
      "tests/test_b.py": "",
    });
    const run = planRun(view, [
      { kind: "file", path: "tests/test_a.py" },
      { kind: "file", path: "tests/test_b.py" },
    ]).runs[0]!;
    const test = (file: string, status: "pass" | "fail") => ({
      id: { runner: "pytest" as const, file, segments: ["test_x"] },
      status,
    });
    const result = {
      runner: "pytest" as const,
      cwd: "",
      command: run.argv,
      exit_code: 1,
      duration_ms: 1,
      status: "failed" as const,
      reason: "",
      tests: [test("tests/test_a.py", "pass"), test("tests/test_b.py", "fail")],
      errors: [],
      output_tail: "",
    };
    expect(flakyRerun(view, run, result)).toBe(run);
  });

  it("every file failed: the whole run again", () => {
    const { run, again } = rerunOf(createMemoryView(files(JEST)), TESTS);
    expect(again).toBe(run);
  });
});
