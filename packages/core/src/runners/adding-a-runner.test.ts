import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkRunnerStarts, runnerProbe } from "../install/doctor-checks.ts";
import { createFsView } from "../project/node/fs-view.ts";
import { parseRunOutput } from "../engine/parsers/index.ts";
import { planRun, REPORT_TOKEN } from "../engine/plan.ts";
import { createMemoryView, joinRel, type ProjectView } from "../project/project-view.ts";
import {
  commandForTestFiles,
  detectPackageRunners,
  findTestTarget,
  resolveRunner,
  RunnerIdSchema,
  runnerLabel,
  type RunnerId,
} from "./project-runners.ts";
import { suiteShape } from "../selection/suite.ts";
import { formatTestId, joinerFor } from "../strict/test-id.ts";
import { recogniseTestCommand } from "../tdd/test-commands.ts";
import { stemOf } from "../filter/languages.ts";
import { FILE_REPORT, type RunnerSpec } from "./spec.ts";
import { registerRunner, runnerSpecs } from "./table.ts";

/**
 * Adding a runner is one record in `runners/` plus a row in `table.ts`: a synthetic runner,
 * registered at run time and known nowhere else, is picked up by detection, test lookup,
 * planning, the parser, strict's test ids, tdd's command recognition, the suite's discovery
 * and doctor's start check.
 */

// An id no built-in runner has: the record, not an enum elsewhere, is what the code follows.
const ZAP = "zap" as RunnerId;

const zap: RunnerSpec = {
  id: ZAP,
  languages: ["python"],
  label: "zap",
  detect: (view, dir) =>
    view.exists(dir === "" ? "zap.toml" : `${dir}/zap.toml`) ? { evidence: "zap.toml" } : undefined,
  command: () => ["zap", "run"],
  testDirs: ["checks"],
  fallbackTestDir: "checks",
  testCandidates: (src, testDir) => [`${testDir ?? "checks"}/${stemOf(src)}_check.py`],
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ runner, files, ids }) => ({
    argv: [
      ...runner.command,
      `--xml=${REPORT_TOKEN}`,
      ...ids.map((id) => `--only=${id.segments.join("/")}`),
      ...files,
    ],
    format: "junit",
    report: FILE_REPORT,
  }),
  suite: () => ({ evidence: "zap checks/", isTest: (path) => path.startsWith("checks/") }),
  probe: (runner) => ({ argv: [...runner.command, "--list"], collects: true, okExits: [3] }),
  testIdJoiner: "::",
  shellPrograms: { zap: "zap" },
};

const project = createMemoryView({
  "zap.toml": "",
  "pytest.ini": "",
  "calc.py": "def add(a, b): return a + b\n",
  "checks/calc_check.py": "def check_add(): assert True\n",
});

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
});

describe("a runner added as one record", () => {
  it("is detected ahead of the runner it is registered before, and owns the package's files", () => {
    expect(detectPackageRunners(project, "").map((r) => r.id)).toEqual(["pytest"]);
    unregister = registerRunner(zap, { before: "pytest" });
    const runners = detectPackageRunners(project, "");
    expect(runners).toEqual([
      {
        id: ZAP,
        languages: ["python"],
        package_dir: "",
        command: ["zap", "run"],
        test_dir: "checks",
        evidence: "zap.toml",
      },
    ]);
    expect(runnerLabel(ZAP)).toBe("zap");
    const resolved = resolveRunner(project, "calc.py", "python").runner;
    expect(resolved?.id).toBe(ZAP);
    if (resolved === undefined) throw new Error("unresolved");
    expect(findTestTarget(project, resolved, "calc.py")).toEqual({
      kind: "file",
      path: "checks/calc_check.py",
      exists: true,
    });
    expect(commandForTestFiles(resolved, ["checks/calc_check.py"])).toEqual([
      "zap",
      "run",
      "checks/calc_check.py",
    ]);
  });

  it("plans its argv and report, and its JUnit is parsed into its test ids", () => {
    unregister = registerRunner(zap, { before: "pytest" });
    const plan = planRun(project, [
      { kind: "file", path: "calc.py" },
      { kind: "test", id: { runner: ZAP, file: "checks/calc_check.py", segments: ["check_add"] } },
    ]);
    expect(plan.missing).toEqual([]);
    expect(plan.runs.map((run) => [run.runner.id, run.argv, run.format, run.report])).toEqual([
      [
        ZAP,
        ["zap", "run", `--xml=${REPORT_TOKEN}`, "--only=check_add", "checks/calc_check.py"],
        "junit",
        { kind: "file" },
      ],
    ]);
    const parsed = parseRunOutput(
      "junit",
      '<testsuite><testcase file="checks/calc_check.py" name="check_add"/></testsuite>',
      { runner: ZAP, packageDir: "", packageAbs: "/nowhere" },
    );
    expect(parsed.tests.map((test) => [test.id, test.status])).toEqual([
      [{ runner: ZAP, file: "checks/calc_check.py", segments: ["check_add"] }, "pass"],
    ]);
  });

  it("gives strict mode its id joiner, tdd its command, selection its suite, doctor its probe", () => {
    unregister = registerRunner(zap, { before: "pytest" });
    expect(joinerFor(ZAP)).toBe("::");
    expect(formatTestId({ runner: ZAP, file: "checks/a.py", segments: ["A", "b"] })).toBe(
      "checks/a.py::A::b",
    );
    const [runner] = detectPackageRunners(project, "");
    if (runner === undefined) throw new Error("undetected");
    expect(recogniseTestCommand([["zap", "checks/"]], { runners: [runner] })).toMatchObject({
      isTest: true,
      runner: ZAP,
    });
    const shape = suiteShape(project, runner);
    expect([shape.evidence, shape.isTest("checks/calc_check.py"), shape.isTest("calc.py")]).toEqual(
      ["zap checks/", true, false],
    );
    const probe = runnerProbe(runner);
    expect(probe.argv).toEqual(["zap", "run", "--list"]);
    const started = checkRunnerStarts([
      { label: "zap", cwd: "", exitCode: 3, output: "", timedOut: false, ...probe },
    ]);
    expect([started.status, started.summary]).toEqual([
      "ok",
      "zap started (zap collected the tests)",
    ]);
  });

  it("the table has one record per runner id, and registering one leaves it as it was", () => {
    expect(
      runnerSpecs()
        .map((spec) => spec.id)
        .sort(),
    ).toEqual([...RunnerIdSchema.options].sort());
    const before = runnerSpecs();
    registerRunner(zap)();
    expect(runnerSpecs()).toBe(before);
  });
});

/** Files under packages/core/src outside runners/, tests excepted. */
function coreSources(view: ProjectView, dir: string): string[] {
  return view.list(dir).flatMap((name) => {
    const path = joinRel(dir, name);
    if (view.isDirectory(path)) return name === "runners" ? [] : coreSources(view, path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("runner facts live only in runners/", () => {
  it('no switch on a runner id and no `case "<runner id>"` outside runners/', () => {
    const core = createFsView(join(import.meta.dirname, ".."));
    const ids = RunnerIdSchema.options.map((id) => id.replace(/-/g, "\\-")).join("|");
    const caseOfId = new RegExp(`case "(?:${ids})":`);
    const switchOnRunner = /switch \([\w.]*runner(?:\.id)?\)/;
    const files = coreSources(core, "");
    expect(files).toContain("engine/plan.ts");
    expect(files).toContain("tdd/test-commands.ts");
    const offenders = files.flatMap((file) =>
      (core.readText(file) ?? "")
        .split("\n")
        .flatMap((line, index) =>
          caseOfId.test(line) || switchOnRunner.test(line)
            ? [`${file}:${String(index + 1)}: ${line.trim()}`]
            : [],
        ),
    );
    expect(offenders).toEqual([]);
  });
});
