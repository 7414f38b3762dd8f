import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll, copyFixture, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import type { Decision } from "../../hook/hook-event.ts";
import { steppingClock } from "../budget.ts";
import { runStartAnalyses } from "./run-analyses.ts";
import { FIRST_GRAPH_FILES } from "./session-analysis.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { createSourceSort, isRampUpDue, rampUpFile, runRampUp } from "./ramp-up-scan.ts";
import { openProject, sessionFile } from "../../project/node/project.ts";
import { readState } from "../../state/node/store.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());

function configure(root: string, config: Record<string, unknown>): void {
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(join(root, ".tailtest/config.json"), JSON.stringify(config));
}

function textOf(decision: Decision): string {
  return decision.kind === "context" ? decision.text : "";
}

async function start(root: string): Promise<string> {
  return textOf(
    await handleEvent(
      openProject(root),
      { kind: "SessionStarted", source: "startup" },
      { platform: "claude-code" },
    ),
  );
}

async function edit(root: string, path: string): Promise<string> {
  return textOf(
    await handleEvent(
      openProject(root),
      { kind: "FilesEdited", paths: [join(root, path)] },
      { platform: "claude-code" },
    ),
  );
}

describe("the analyses are off by default", () => {
  it("adds no line and writes no analysis state", async () => {
    temp = copyFixture("analysis/python-app");
    const started = await start(temp.root);
    const note = await edit(temp.root, "src/shop/billing.py");
    expect(note).toMatch(/^tailtest: src\/shop\/billing\.py queued/);
    expect(`${started}\n${note}`).not.toMatch(
      /Impact|API|coverage scan|how this project writes tests/,
    );
    expect(existsSync(join(temp.root, ".tailtest/ramp-up.json"))).toBe(false);
  });
});

describe("a project's first session builds the import graph", () => {
  it("so the first edit's note names the tests that import the file, not a test to write", async () => {
    temp = copyFixture("analysis/python-app");
    await commitAll(temp.root);
    expect(await start(temp.root)).not.toMatch(/import graph/);
    expect(existsSync(join(temp.root, ".tailtest/graph/index.json"))).toBe(true);
    // tax.py has no test of its name; tests/test_billing.py reaches it through billing.py.
    expect(await edit(temp.root, "src/shop/tax.py")).toContain(
      "covered by existing tests tests/test_billing.py (they import it through other modules)",
    );
  });

  it("before the graph is built, an existing file's test to write is hedged", async () => {
    temp = copyFixture("analysis/python-app");
    await commitAll(temp.root);
    // No session has started: no graph yet, and tax.py has no test of its name.
    expect(await edit(temp.root, "src/shop/tax.py")).toContain(
      "write test to tests/test_tax.py, unless an existing test already covers it: tailtest has not mapped the project's imports yet (then update that test)",
    );
    await start(temp.root);
    expect(await edit(temp.root, "src/shop/tax.py")).toContain(
      "covered by existing tests tests/test_billing.py",
    );
  });

  it("and builds it again when an earlier version of tailtest wrote it", async () => {
    temp = copyFixture("analysis/python-app");
    await commitAll(temp.root);
    await start(temp.root);
    const index = join(temp.root, ".tailtest/graph/index.json");
    const text = readFileSync(index, "utf8");
    writeFileSync(index, text.replace(/^\{"version":\d+/, '{"version":1'));
    // Read by nothing now: the note cannot name the tests that reach tax.py.
    expect(await edit(temp.root, "src/shop/tax.py")).not.toContain("covered by existing tests");
    await start(temp.root);
    expect(readFileSync(index, "utf8")).toBe(text);
    expect(await edit(temp.root, "src/shop/tax.py")).toContain(
      "covered by existing tests tests/test_billing.py",
    );
  });

  it("Go and Rust need no graph: a package's tests are named from the first edit", async () => {
    temp = makeProject({
      "go.mod": "module example.com/calc\n\ngo 1.21\n",
      "calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
      "util.go": "package calc\n\nfunc double(a int) int { return Add(a, a) }\n",
      "calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {}\n',
    });
    await commitAll(temp.root);
    expect(await edit(temp.root, "util.go")).toContain(
      "covered by existing tests calc_test.go (the package's tests)",
    );
    // The package's test that calls what the file declares comes first (uuid's version4.go:
    // its tests are in uuid_test.go, after json_test.go ... time_test.go by name).
    temp.write("a_test.go", 'package calc\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n');
    temp.write("random.go", "package calc\n\nfunc NewRandom() int { return 4 }\n");
    temp.write("z_test.go", "package calc\n\nfunc TestZ(t *testing.T) { NewRandom() }\n");
    expect(await edit(temp.root, "random.go")).toContain(
      "covered by existing tests z_test.go, a_test.go, calc_test.go (the package's tests)",
    );
    temp.cleanup();
    temp = makeProject({
      "Cargo.toml": '[package]\nname = "ver"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "pub mod eval;\n",
      "src/eval.rs": "pub fn eval() -> u8 { 1 }\n",
      "tests/test_eval.rs": "#[test]\nfn evaluates() { assert_eq!(ver::eval::eval(), 1); }\n",
    });
    await commitAll(temp.root);
    expect(await edit(temp.root, "src/eval.rs")).toContain(
      "covered by existing tests tests/test_eval.rs",
    );
  });

  it("not in a project past its file bound: the ends of turns build that one", async () => {
    const files: Record<string, string> = { "pyproject.toml": "[tool.pytest.ini_options]\n" };
    for (let i = 0; i <= FIRST_GRAPH_FILES; i += 1) files[`lib/d${i % 50}/m${i}.py`] = "x = 1\n";
    temp = makeProject(files);
    expect(await start(temp.root)).not.toMatch(/import graph/);
    expect(existsSync(join(temp.root, ".tailtest/graph/index.json"))).toBe(false);
  });

  it("not when selection is by name only, and not again on a resume", async () => {
    temp = copyFixture("analysis/python-app");
    configure(temp.root, { select: "named" });
    await start(temp.root);
    expect(existsSync(join(temp.root, ".tailtest/graph/index.json"))).toBe(false);
    configure(temp.root, {});
    const resumed = { resumed: true, runners: [], now: () => new Date() };
    expect(await runStartAnalyses(openProject(temp.root), resumed)).toEqual([]);
    expect(existsSync(join(temp.root, ".tailtest/graph/index.json"))).toBe(false);
  });
});

describe("impact tracing, API validation and ramp-up belong to follow mode", () => {
  it.each(["tdd", "strict"])(
    "%s mode skips them (a Red test imports what does not exist yet) and samples style",
    async (mode) => {
      temp = copyFixture("analysis/python-app");
      await commitAll(temp.root);
      configure(temp.root, {
        mode,
        impact_tracing: true,
        api_validation: true,
        ramp_up_limit: 5,
        style_sampling: true,
      });
      const started = await start(temp.root);
      expect(started).toContain("tailtest: how this project writes tests");
      expect(started).not.toContain("coverage scan");
      // test_billing.py imports refund_all, which billing.py does not define: no API check here.
      const notes = [
        await edit(temp.root, "tests/test_billing.py"),
        await edit(temp.root, "src/shop/billing.py"),
      ].join("\n");
      expect(notes).not.toMatch(/Impact|API/);
      expect(existsSync(join(temp.root, ".tailtest/graph/index.json"))).toBe(false);
      expect(existsSync(join(temp.root, ".tailtest/ramp-up.json"))).toBe(false);
    },
  );
});

describe("impact tracing and API validation on a Python project", () => {
  it("adds the impact line, the file's names and a test's missing import to the queued note", async () => {
    temp = copyFixture("analysis/python-app");
    configure(temp.root, { impact_tracing: true, api_validation: true });
    await start(temp.root);
    expect(existsSync(join(temp.root, ".tailtest/graph/index.json"))).toBe(true);
    const note = await edit(temp.root, "src/shop/billing.py");
    expect(note).toContain(
      "Impact: src/shop/billing.py is imported by src/shop/__init__.py, src/shop/api/routes.py, src/shop/cart.py, tests/test_billing.py; 1 more file imports those (up to 2 hops)",
    );
    expect(note).toContain(
      "API: src/shop/billing.py defines charge, refund (static parse); tests import only what it defines",
    );
    expect(note).toContain(
      "API check: tests/test_billing.py imports a name refund_all from src/shop/billing.py, which does not define it (it defines: charge, refund); fix the test or the source",
    );
    // The session file holds no graph: every edit reads and writes it.
    expect(readFileSync(join(temp.root, ".tailtest/session.json"), "utf8")).not.toContain("edges");
  });

  it("checks a test file the agent writes, though a test is never queued", async () => {
    temp = copyFixture("analysis/python-app");
    configure(temp.root, { api_validation: true });
    writeFileSync(
      join(temp.root, "tests/test_cart.py"),
      "from shop.cart import Cart, Basket\nfrom shop import charge, api\n",
    );
    const note = await edit(temp.root, "tests/test_cart.py");
    expect(note).toBe(
      "API check: tests/test_cart.py imports a name Basket from src/shop/cart.py, which does not define it (it defines: Cart); fix the test or the source",
    );
  });
});

describe("API validation on a TypeScript project", () => {
  it("follows export * and flags a name the module does not export", async () => {
    temp = copyFixture("analysis/ts-app");
    configure(temp.root, { api_validation: true });
    expect(await edit(temp.root, "test/money.test.ts")).toBe(
      "API check: test/money.test.ts imports a name subtract from src/lib/money.ts, which does not define it (it defines: Money, ZERO, add); fix the test or the source",
    );
    writeFileSync(
      join(temp.root, "test/lib.test.ts"),
      'import { add, formatMoney, ZERO, missing } from "@lib";\nimport { Price } from "@/components/Price";\n',
    );
    expect(await edit(temp.root, "test/lib.test.ts")).toBe(
      "API check: test/lib.test.ts imports a name missing from src/lib/index.ts, which does not define it (it defines: formatMoney, Money, ZERO, add); fix the test or the source",
    );
  });

  it("never imports or runs the code it reads", async () => {
    temp = copyFixture("analysis/ts-app");
    configure(temp.root, { api_validation: true, impact_tracing: true });
    const marker = join(temp.root, "ran.txt");
    writeFileSync(
      join(temp.root, "src/boom.ts"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport const boom = 1;\n`,
    );
    await start(temp.root);
    const note = await edit(temp.root, "src/boom.ts");
    expect(note).toContain("API: src/boom.ts defines boom");
    expect(existsSync(marker)).toBe(false);
  });
});

function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `value_${i} = ${i}\n`).join("");
}

describe("the first session's coverage scan", () => {
  it("queues the best untested files, skips tested ones, and runs once", async () => {
    temp = makeProject({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "src/services/payments.py": lines(100),
      "src/models/user.py": lines(100),
      "tests/test_user.py": "def test_user():\n    pass\n",
      "src/util.py": lines(5),
      "src/tool.py": lines(100),
      "scripts/release.py": lines(100),
      "docs/readme.md": "# docs\n",
    });
    await commitAll(temp.root);
    configure(temp.root, { ramp_up_limit: 2 });
    const note = await start(temp.root);
    expect(note).toContain(
      "tailtest: first-session coverage scan: 2 untested file(s) queued (ramp-up): src/services/payments.py, src/tool.py.",
    );
    const session = await readState(sessionFile(openProject(temp.root)));
    expect(session.value.pending_files.map((entry) => [entry.path, entry.status])).toEqual([
      ["src/services/payments.py", "ramp-up"],
      ["src/tool.py", "ramp-up"],
    ]);
    expect(await start(temp.root)).not.toContain("coverage scan");
  });

  it("ranks the untested file git's recent commits changed most first", async () => {
    temp = makeProject({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "src/a.py": lines(100),
      "src/b.py": lines(100),
      "src/c.py": lines(100),
    });
    await commitAll(temp.root);
    // b.py changed in two more commits than a.py and c.py: by path alone a.py would come first.
    for (const size of [101, 102]) {
      temp.write("src/b.py", lines(size));
      await commitAll(temp.root);
    }
    configure(temp.root, { ramp_up_limit: 2 });
    expect(await start(temp.root)).toContain(
      "2 untested file(s) queued (ramp-up): src/b.py, src/a.py.",
    );
  });

  it("says when its time box ran out, queues nothing, and tries again next session", async () => {
    const files: Record<string, string> = { "pyproject.toml": "[tool.pytest.ini_options]\n" };
    // Small files score alike, so no file can be ruled out unread: the scan must read them all.
    for (let i = 0; i < 60; i += 1) files[`lib/m${String(i).padStart(2, "0")}.py`] = lines(5);
    temp = makeProject(files);
    configure(temp.root, { ramp_up_limit: 3, analysis_budget_ms: 50 });
    const input = { resumed: false, runners: [], now: () => new Date() };
    // A clock that moves 1 ms per reading: the 50 ms box runs out after 50 steps, by count.
    const cut = await runStartAnalyses(openProject(temp.root), {
      ...input,
      clock: steppingClock(),
    });
    expect(cut).toEqual([
      expect.stringMatching(
        /^tailtest: first-session coverage scan stopped at its time box \(50 ms\) after reading \d+ of 60 untested source files; nothing was queued, and it runs again next session\.$/,
      ),
    ]);
    expect((await readState(sessionFile(openProject(temp.root)))).value.pending_files).toEqual([]);
    const again = await runStartAnalyses(openProject(temp.root), {
      ...input,
      clock: steppingClock(0.1),
    });
    expect(again).toEqual([
      "tailtest: first-session coverage scan: 3 untested file(s) queued (ramp-up): lib/m00.py, lib/m01.py, lib/m02.py. Write tests for them as for any queued file.",
    ]);
    expect(await runStartAnalyses(openProject(temp.root), input)).toEqual([]);
  });
});

describe("the coverage scan on the analysis fixtures", () => {
  it("queues a TypeScript project's untested modules, not its barrel or its tested module", async () => {
    temp = copyFixture("analysis/ts-app");
    await commitAll(temp.root);
    configure(temp.root, { ramp_up_limit: 15 });
    // src/lib/index.ts only re-exports; src/lib/money.ts has test/money.test.ts.
    expect(await start(temp.root)).toContain(
      "tailtest: first-session coverage scan: 5 untested file(s) queued (ramp-up): src/lib/format.ts, src/app.ts, src/components/Price.tsx, src/legacy/helper.cjs, src/legacy/util.cjs.",
    );
    const session = await readState(sessionFile(openProject(temp.root)));
    expect(session.value.pending_files.map((entry) => [entry.path, entry.test_path])).toEqual([
      ["src/lib/format.ts", "test/lib/format.test.ts"],
      ["src/app.ts", "test/app.test.ts"],
      ["src/components/Price.tsx", "test/components/Price.test.tsx"],
      ["src/legacy/helper.cjs", "test/legacy/helper.test.cjs"],
      ["src/legacy/util.cjs", "test/legacy/util.test.cjs"],
    ]);
  });

  it("leaves out a Python package's __init__.py files that define nothing", async () => {
    temp = copyFixture("analysis/python-app");
    await commitAll(temp.root);
    configure(temp.root, { ramp_up_limit: 15 });
    expect(await start(temp.root)).toContain(
      "tailtest: first-session coverage scan: 3 untested file(s) queued (ramp-up): src/shop/api/routes.py, src/shop/cart.py, src/shop/tax.py.",
    );
  });

  it("keeps a package __init__.py that defines a function", async () => {
    temp = copyFixture("analysis/python-app");
    writeFileSync(
      join(temp.root, "src/shop/api/__init__.py"),
      "# The HTTP layer.\n\n\ndef create_app():\n    return object()\n",
    );
    await commitAll(temp.root);
    configure(temp.root, { ramp_up_limit: 15 });
    expect(await start(temp.root)).toContain(
      "queued (ramp-up): src/shop/api/__init__.py, src/shop/api/routes.py, src/shop/cart.py, src/shop/tax.py.",
    );
  });
});

describe("a coverage scan cut by its time box says how far it got", () => {
  const spent = { ms: 50, expired: () => true, remaining: () => 0 };

  it("while the walk was listing files", async () => {
    temp = makeProject({ "pyproject.toml": "[tool.pytest.ini_options]\n" });
    const project = openProject(temp.root);
    const sources = createSourceSort(project);
    for (const file of ["pyproject.toml", "lib/a.py", "lib/b.py"]) sources.add(file);
    expect(await runRampUp(project, { sources, complete: false }, spent, () => new Date())).toBe(
      "tailtest: first-session coverage scan stopped at its time box (50 ms) while listing the project's files (3 found so far); nothing was queued, and it runs again next session.",
    );
    expect(await isRampUpDue(openProject(temp.root))).toBe(true);
  });

  it("before reading, once the walk is done", async () => {
    temp = makeProject({ "pyproject.toml": "[tool.pytest.ini_options]\n" });
    const project = openProject(temp.root);
    const sources = createSourceSort(project);
    for (let i = 0; i < 600; i += 1) sources.add(`lib/m${i}.py`);
    expect(await runRampUp(project, { sources, complete: true }, spent, () => new Date())).toBe(
      "tailtest: first-session coverage scan stopped at its time box (50 ms) after reading 0 of 600 untested source files; nothing was queued, and it runs again next session.",
    );
    const state = await readState(rampUpFile(openProject(temp.root)));
    expect(state.value).toMatchObject({ done: false, cut: 1, queued: [] });
  });
});

describe("style sampling", () => {
  it("shows the newest tests' first lines per runner and the helpers they use", async () => {
    temp = copyFixture("analysis/python-app");
    configure(temp.root, { style_sampling: true });
    const note = await start(temp.root);
    expect(note).toContain(
      [
        "tailtest: how this project writes tests, from its newest test files; write new tests the same way:",
        "tests/test_billing.py (pytest):",
        "  | from shop.billing import charge, refund_all",
        "  | ",
        "  | ",
        "  | def test_charge_adds_tax():",
        "  |     assert charge(100.0) == 120.0",
        "helpers these tests use: tests/conftest.py",
      ].join("\n"),
    );
  });

  it("samples a TypeScript project's newest vitest files and the helpers they import", async () => {
    temp = copyFixture("analysis/ts-app");
    configure(temp.root, { style_sampling: true });
    temp.write(
      "test/format.test.ts",
      [
        "",
        'import { expect, test } from "vitest";',
        'import { format } from "../src/lib/format";',
        'import { cents } from "./helpers";',
        'import { fixed } from "@/test-utils";',
        "",
        'test("formats cents", () => expect(format(cents(150))).toBe(fixed("1.50")));',
        "",
      ].join("\n"),
    );
    temp.write("test/helpers.ts", "export const cents = (value: number) => ({ cents: value });\n");
    temp.write("src/test-utils.ts", "export const fixed = (text: string) => `$${text}`;\n");
    temp.write(
      "test/old.test.ts",
      'import { it } from "vitest";\nimport { older } from "./older-helpers";\n',
    );
    temp.write("test/older-helpers.ts", "export const older = 1;\n");
    // Newest first: format.test.ts, then money.test.ts; old.test.ts is a third and left out.
    const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds));
    utimesSync(join(temp.root, "test/old.test.ts"), at(1), at(1));
    utimesSync(join(temp.root, "test/money.test.ts"), at(2), at(2));
    utimesSync(join(temp.root, "test/format.test.ts"), at(3), at(3));
    const note = await start(temp.root);
    expect(note).toContain(
      [
        "tailtest: how this project writes tests, from its newest test files; write new tests the same way:",
        "test/format.test.ts (vitest):",
        '  | import { expect, test } from "vitest";',
        '  | import { format } from "../src/lib/format";',
        '  | import { cents } from "./helpers";',
        '  | import { fixed } from "@/test-utils";',
        "  | ",
        '  | test("formats cents", () => expect(format(cents(150))).toBe(fixed("1.50")));',
        "test/money.test.ts (vitest):",
        '  | import { describe, expect, it } from "vitest";',
        '  | import { add, subtract, ZERO } from "../src/lib/money";',
        "  | ",
        '  | describe("add", () => {',
        '  |   it("adds cents", () => {',
        "  |     expect(add(ZERO, { cents: 5 })).toEqual({ cents: 5 });",
        "  |     expect(subtract).toBeDefined();",
        "  |   });",
        "  | });",
        "helpers these tests use: src/test-utils.ts, test/helpers.ts",
      ].join("\n"),
    );
    expect(note).not.toContain("old.test.ts");
    expect(note).not.toContain("older-helpers");
  });
});
