import { describe, expect, it } from "vitest";
import { runnerProbe } from "../install/doctor-checks.ts";
import { runnerArgv } from "../engine/plan.ts";
import { createMemoryView, type ProjectView } from "../project/project-view.ts";
import type { TestId } from "../engine/results.ts";
import {
  commandForTestFiles,
  detectPackageRunners,
  RunnerIdSchema,
  runnerLabel,
  type DetectedRunner,
  type RunnerId,
} from "./project-runners.ts";
import { suiteShape } from "../selection/suite.ts";
import { joinerFor } from "../strict/test-id.ts";

/**
 * Every runner's facts as one table, snapshotted: the argv, report format and report source
 * for each selection case, the doctor probe, the test-id joiner, the label and the suite's
 * evidence. Written before the runners moved into one record each, so the move could not
 * change any of them.
 */

const EXT: Partial<Record<RunnerId, string>> = {
  pytest: ".py",
  unittest: ".py",
  go: ".go",
  cargo: ".rs",
  nextest: ".rs",
  rspec: ".rb",
  minitest: ".rb",
  phpunit: ".php",
  pest: ".php",
  maven: ".java",
  gradle: ".kt",
  dotnet: ".cs",
  swift: ".swift",
};

const COMMANDS: Readonly<Record<RunnerId, readonly (readonly string[])[]>> = {
  pytest: [
    ["python3", "-m", "pytest"],
    [".venv/bin/python", "-m", "pytest", "-x"],
  ],
  unittest: [["python3", "-m", "unittest", "discover", "-s", "tests", "-t", "."]],
  vitest: [
    ["npx", "vitest", "run"],
    ["node_modules/.bin/vitest", "run", "--project", "a"],
  ],
  jest: [["npx", "--no-install", "jest"]],
  mocha: [["npx", "--no-install", "mocha"]],
  "node-test": [["node", "--test"], ["node", "--import", "tsx", "--test", "test/"], ["node"]],
  ava: [["node_modules/.bin/ava"]],
  uvu: [["node_modules/.bin/uvu"]],
  jasmine: [["node_modules/.bin/jasmine"]],
  tap: [["npx", "--no-install", "tap"]],
  tape: [["node_modules/.bin/tape"]],
  bun: [["bun", "test"]],
  deno: [["deno", "test", "-A"]],
  go: [
    ["go", "test", "./..."],
    ["go", "test", "-race", "./..."],
  ],
  cargo: [["cargo", "test"]],
  nextest: [["cargo", "nextest", "run"]],
  rspec: [["bundle", "exec", "rspec"]],
  minitest: [["bundle", "exec", "rake", "test"]],
  phpunit: [["vendor/bin/phpunit"]],
  pest: [["vendor/bin/pest"]],
  maven: [["./mvnw", "test"]],
  gradle: [["./gradlew", "test"]],
  dotnet: [["dotnet", "test"]],
  swift: [["swift", "test"]],
};

const VIEWS: Readonly<Record<string, ProjectView>> = {
  bare: createMemoryView({ "README.md": "" }),
  configured: createMemoryView({
    "node_modules/vitest/package.json": '{ "version": "5.0.1" }',
    ".config/nextest.toml": "[profile.default.junit]\npath = 'junit.xml'\n",
    "src/lib.rs": "",
  }),
  older: createMemoryView({ "node_modules/vitest/package.json": '{ "version": "3.2.0" }' }),
};

function runnerOf(id: RunnerId, command: readonly string[], packageDir = ""): DetectedRunner {
  return {
    id,
    languages: ["python"],
    package_dir: packageDir,
    command: [...command],
    evidence: "",
  };
}

function casesOf(id: RunnerId): { name: string; files: string[]; ids: TestId[] }[] {
  const ext = EXT[id] ?? ".ts";
  const files = [`-lead${ext}`, `tests/alpha${ext}`, `src/deep/beta${ext}`];
  const ids: TestId[] = [
    { runner: id, file: `tests/alpha${ext}`, segments: ["Calc (math)", "adds 1+1 $x"] },
    { runner: id, file: `tests/alpha${ext}`, segments: ["Calc (math)", "adds 1+1 $x"] },
    { runner: id, file: `src/deep/beta${ext}`, segments: ["test x"] },
    { runner: id, file: `-lead${ext}`, segments: ["A", "B", "c.d|e"] },
  ];
  return [
    { name: "suite", files: [], ids: [] },
    { name: "one file", files: [`tests/alpha${ext}`], ids: [] },
    { name: "files", files, ids: [] },
    { name: "ids", files: [], ids },
    { name: "files+ids", files: files.slice(1), ids: ids.slice(0, 3) },
  ];
}

describe("every runner's facts (snapshot taken before the move into one record each)", () => {
  for (const id of RunnerIdSchema.options) {
    it(`${id}: argv, format and report per case, probe, joiner, label`, () => {
      const table: Record<string, unknown> = {
        label: runnerLabel(id),
        joiner: joinerFor(id),
      };
      for (const [c, command] of COMMANDS[id].entries()) {
        const runner = runnerOf(id, command);
        const { argv, collects } = runnerProbe(runner);
        table[`probe ${String(c)}`] = { argv, collects };
        table[`fileCommand ${String(c)}`] = commandForTestFiles(runner, [
          `tests/a${EXT[id] ?? ".ts"}`,
          `src/b${EXT[id] ?? ".ts"}`,
        ]);
        for (const [viewName, view] of Object.entries(VIEWS)) {
          for (const testCase of casesOf(id)) {
            table[`argv ${String(c)} ${viewName} ${testCase.name}`] = runnerArgv(
              view,
              runner,
              testCase.files,
              testCase.ids,
            );
          }
        }
      }
      expect(table).toMatchSnapshot();
    });
  }

  it("runners from a package folder: argv relative to the package, probe unchanged", () => {
    const view = createMemoryView({
      "pkg/src/lib.rs": "",
      "pkg/node_modules/vitest/package.json": '{"version":"4.1.0"}',
    });
    const rows = (["cargo", "vitest", "go"] as const).map((id) =>
      runnerArgv(view, runnerOf(id, COMMANDS[id][0] ?? [], "pkg"), ["tests/x.rs", "src/a.go"], []),
    );
    expect(rows).toMatchSnapshot();
  });

  it("suite evidence for each detected runner of a polyglot fixture", () => {
    const view = createMemoryView({
      "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
      "package.json": '{ "scripts": { "test": "vitest" } }',
      "go.mod": "module x\n",
      "Cargo.toml": "",
      Gemfile: "gem 'rspec'\n",
      "composer.json": '{ "require-dev": { "phpunit/phpunit": "^10" } }',
      "pom.xml": "",
      "Package.swift": "",
      "App.sln": "",
    });
    const detected = detectPackageRunners(view, "");
    const shapes = detected.map((runner) => {
      const shape = suiteShape(view, runner);
      return {
        id: runner.id,
        command: runner.command,
        test_dir: runner.test_dir,
        evidence: runner.evidence,
        suite: shape.evidence,
        samples: [
          "tests/test_a.py",
          "a_test.go",
          "tests/it.rs",
          "src/x.test.ts",
          "spec/a_spec.rb",
        ].filter((path) => shape.isTest(path)),
      };
    });
    expect(shapes).toMatchSnapshot();
  });
});
