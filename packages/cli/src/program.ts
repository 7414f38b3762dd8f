import type { Command } from "commander";
import packageJson from "../package.json" with { type: "json" };
import type { StrictIO } from "./commands/strict.ts";
import type { TddIO } from "./commands/tdd.ts";
import { addExplainCommand } from "./explain-command.ts";
import { baseProgram, EXIT, runProgram, type CliIO, type CliOutcome } from "./program-base.ts";
import { addStatusCommand } from "./status-command.ts";
import { useColour } from "./terminal.ts";

export { EXIT, type CliIO, type CliOutcome } from "./program-base.ts";

/**
 * The program and its commands' options only: each command's module (and with it core, the test
 * engine, chokidar, …) is imported when that command is chosen, so `--version`, `--help` and the
 * read commands do not pay for the rest (docs/performance.md, "The CLI's start"). `status` and
 * `explain` also have bundles of their own, with only their command (`cli-status.ts`, …).
 */

/** Where the report goes unless `--out` says: inside the project's state folder (gitignored). */
export const DEFAULT_REPORT_PATH = ".tailtest/report.html";

export function createProgram(io: CliIO, outcome: CliOutcome = { exitCode: EXIT.ok }): Command {
  const program = baseProgram(io);
  addAllCommands(program, io, outcome);
  return program;
}

/** Every command, in the order `--help` lists them. */
export function addAllCommands(program: Command, io: CliIO, outcome: CliOutcome): void {
  addExplainCommand(program, io, outcome);

  program
    .command("run")
    .description(
      "run the tests for the given files (source or test files; default: the session's queue, else every suite)",
    )
    .argument("[paths...]", "files, relative to the current folder or absolute")
    .option("--root <dir>", "project root (default: found from the current folder)")
    .option("--json", "print the results as JSON", false)
    .option("--dry-run", "show the plan (processes, folders, arguments) without running it", false)
    .option(
      "--timeout <seconds>",
      "kill a runner after this long (default: config test_timeout_seconds)",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 passed, 1 a test failed or is missing, 2 bad usage (or --root is not a folder),\n3 a runner could not run (load error, timeout, not installed), 4 no test ran.",
    )
    .action(
      async (
        paths: string[],
        options: { root?: string; json: boolean; dryRun: boolean; timeout?: string },
      ) => {
        const { rootOrRefuse } = await import("./project-root.ts");
        const root = rootOrRefuse(options.root, io);
        if (root === undefined) {
          outcome.exitCode = 2;
          return;
        }
        const { runTests } = await import("./commands/run.ts");
        outcome.exitCode = await runTests(
          paths,
          { ...options, root },
          {
            stdout: io.stdout,
            stderr: io.stderr,
            interactive: io.interactive ?? false,
          },
        );
      },
    );

  program
    .command("doctor")
    .description(
      "check the project for tailtest: config, mode, runners, tests, each agent's hooks, and whether strict mode can work",
    )
    .option("--root <dir>", "project root (default: found from the current folder)")
    .option("--json", "print the report as JSON", false)
    .option("--no-start", "do not start the runners (by default each starts, and pytest collects)")
    .addHelpText(
      "after",
      "\nExit codes: 0 no check failed (warnings allowed), 1 a check failed, 2 bad usage.",
    )
    .action(async (options: { root?: string; json: boolean; start: boolean }) => {
      const { runDoctor } = await import("./commands/doctor.ts");
      outcome.exitCode = await runDoctor(options, {
        stdout: io.stdout,
        stderr: io.stderr,
        cwd: io.cwd,
      });
    });

  addTddCommands(program, io, outcome);
  addStrictCommands(program, io, outcome);
  addViewCommands(program, io, outcome);
  program.addHelpText(
    "after",
    "\nEvery command has --help. Read commands (status, history, explain, doctor, tdd status,\nstrict status) take --json and write nothing. Colours only on a terminal; NO_COLOR (not\nempty) turns them off, FORCE_COLOR on.\nExit codes: 0 success, 1 the command failed (see each command's --help), 2 bad usage; 0 when\nthe reader of the output stops reading (| head -1).",
  );
}

/** `tailtest status`, `history`, `report`, `watch`: what tailtest did, for people. */
function addViewCommands(program: Command, io: CliIO, outcome: CliOutcome): void {
  const env = io.env ?? process.env;
  const colour = useColour(env, io.stdoutIsTerminal ?? false);
  const root = "project root (default: found from the current folder)";
  addStatusCommand(program, io, outcome);

  program
    .command("mode")
    .description("the mode the sessions run in")
    .command("confirm")
    .description(
      "confirm a change of .tailtest/config.json's mode during a session: until then the session keeps its stricter mode, and every end of a turn says so",
    )
    .option("--root <dir>", root)
    .addHelpText(
      "after",
      "\nFor the person, not the agent (the hooks refuse it from an agent's shell in tdd and strict\nmode). Installers confirm the mode they write.\nExit codes: 0 confirmed, 1 the config does not say a mode, 2 bad usage.",
    )
    .action(async (options: { root?: string }) => {
      const { runModeConfirm } = await import("./commands/mode.ts");
      outcome.exitCode = await runModeConfirm(options, io);
    });

  program
    .command("history")
    .description(
      "show every file's measured outcome and classification across sessions, regressions and recurring failures first",
    )
    .option("--root <dir>", root)
    .option("--json", "print JSON (every file, every session)", false)
    .option("--limit <n>", "rows in the table", "30")
    .addHelpText(
      "after",
      "\nSessions still open are included as their end will record them; nothing is written.\nExit codes: 0 shown, 2 bad usage.",
    )
    .action(async (options: { root?: string; json: boolean; limit: string }) => {
      const [{ runHistory }, { styleFor }] = await Promise.all([
        import("./commands/history.ts"),
        import("./style.ts"),
      ]);
      outcome.exitCode = await runHistory(options, { ...io, style: styleFor(colour) });
    });

  program
    .command("report")
    .description(
      "write one self-contained HTML file: results per session, a chart of outcomes over time, recurring failures, TDD cycles, strict mode's red→green pairs, the slowest tests",
    )
    .option("--root <dir>", root)
    .option("--out <file>", `where to write it (default: <root>/${DEFAULT_REPORT_PATH})`)
    .option("--json", "print the report's data as JSON instead of writing the page", false)
    .addHelpText(
      "after",
      "\nThe page loads nothing from the network. Long lists are capped, and the page says so.\nExit codes: 0 written, 1 the file could not be written, 2 bad usage.",
    )
    .action(async (options: { root?: string; out?: string; json: boolean }) => {
      const { runReport } = await import("./commands/report.ts");
      outcome.exitCode = await runReport(options, { ...io, version: packageJson.version });
    });

  program
    .command("watch")
    .description(
      "for agents without hooks (Aider, Cline, Continue) or a person: watch the project, queue changed source files through the hooks' filter, and run their tests after a quiet period",
    )
    .option("--root <dir>", root)
    .option("--debounce <ms>", "quiet period after the last change before tests run", "500")
    .addHelpText(
      "after",
      "\nNever watches what the filter skips (node_modules, .git, .tailtest, caches, ignored files).\nCtrl-C (SIGINT) or SIGTERM stops it after the run in progress and records the session's\noutcomes in .tailtest/history.json.\nExit codes: 0 stopped by a signal, 1 the folder could not be watched, 2 bad usage.",
    )
    .action(async (options: { root?: string; debounce: string }) => {
      const [{ runWatch }, { styleFor }] = await Promise.all([
        import("./commands/watch.ts"),
        import("./style.ts"),
      ]);
      outcome.exitCode = await runWatch(options, {
        ...io,
        style: styleFor(colour),
        interactive: io.interactive ?? false,
      });
    });
}

const SKIP_RED_REASONS = "refactoring|lint-only|adding-coverage";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `tailtest red`, `tailtest green`, `tailtest tdd status`: refusals exit 1 with one line. */
function addTddCommands(program: Command, io: CliIO, outcome: CliOutcome): void {
  const tddIO: TddIO = {
    stdout: io.stdout,
    stderr: io.stderr,
    cwd: io.cwd,
    env: io.env ?? process.env,
  };
  const logHelp =
    "\nThe log is found for you: --agent <id> picks a subagent's, else TAILTEST_TDD_KEY, else the\nsession in .tailtest/session.json, else the newest .tailtest/tdd/*.log.\nExit codes: 0 recorded, 1 refused (the reason and the command to run are on stderr), 2 bad usage.";

  program
    .command("red")
    .description("declare a Red: the test you are about to make fail, and why it fails")
    .requiredOption("--test <test>", "the test file (or test id) that will fail")
    .requiredOption("--expects <text>", "which test fails, and why")
    .option("--root <dir>", "project root (default: found from the current folder)")
    .option("--agent <id>", "the subagent whose log this is (default: the main agent's)")
    .addHelpText("after", logHelp)
    .action(async (options: { test: string; expects: string; root?: string; agent?: string }) => {
      const { logRed } = await import("./commands/tdd.ts");
      outcome.exitCode = await logRed(options, tddIO);
    });

  program
    .command("green")
    .description("declare a Green: the change that makes the failing test pass, and its files")
    .requiredOption("--change <text>", "what you will change")
    .option(
      "--file <path>",
      "a file (or glob) this change edits; repeat for each",
      collect,
      [] as string[],
    )
    .option("--skip-red", "no failing test first (needs --reason)", false)
    .option("--reason <reason>", `why Red is skipped: ${SKIP_RED_REASONS}`)
    .option("--root <dir>", "project root (default: found from the current folder)")
    .option("--agent <id>", "the subagent whose log this is (default: the main agent's)")
    .addHelpText("after", logHelp)
    .action(
      async (options: {
        change: string;
        file: string[];
        skipRed: boolean;
        reason?: string;
        root?: string;
        agent?: string;
      }) => {
        const { logGreen } = await import("./commands/tdd.ts");
        outcome.exitCode = await logGreen(options, tddIO);
      },
    );

  program
    .command("tdd")
    .description("tdd mode")
    .command("status")
    .description(
      "show the TDD log's state, active declaration, allowlist, last test run and overrides",
    )
    .option("--root <dir>", "project root (default: found from the current folder)")
    .option("--agent <id>", "the subagent whose log to show (default: the main agent's)")
    .option("--json", "print JSON", false)
    .addHelpText(
      "after",
      "\nThe log is found as for red and green; nothing is written.\nExit codes: 0 shown, 1 --agent is empty, 2 bad usage.",
    )
    .action(async (options: { json: boolean; root?: string; agent?: string }) => {
      const { tddStatus } = await import("./commands/tdd.ts");
      outcome.exitCode = await tddStatus(options, tddIO);
    });
}

/** strict mode: `tailtest claim`, `refactor start|finish`, `strict status`, `export`. */
function addStrictCommands(program: Command, io: CliIO, outcome: CliOutcome): void {
  const strictIO: StrictIO = {
    stdout: io.stdout,
    stderr: io.stderr,
    cwd: io.cwd,
    env: io.env ?? process.env,
  };
  const root = "project root (default: found from the current folder)";
  program
    .command("claim")
    .description(
      "strict mode: claim that your next edits to these production files make this failing test pass (the test is run now; the claim counts only if it fails on an assertion, or on a claimed file missing)",
    )
    .argument(
      "<test_id>",
      "tests/test_x.py::test_y, src/x.test.ts::suite > case, or a tailtest-id slug",
    )
    .argument("<files...>", "the production files the claim lets you edit")
    .option("--root <dir>", root)
    .addHelpText(
      "after",
      "\nExit codes: 0 claimed, 1 refused (the reason is on stderr), 2 bad usage.",
    )
    .action(async (testId: string, files: string[], options: { root?: string }) => {
      const { claim } = await import("./commands/strict.ts");
      outcome.exitCode = await claim(testId, files, options, strictIO);
    });

  program
    .command("refactor")
    .description(
      "strict mode: start lifts the per-edit gate; finish runs the verify command (default: the full test run) and returns to strict mode if it passes",
    )
    .argument("<action>", "start or finish")
    .option("--root <dir>", root)
    .addHelpText(
      "after",
      "\nExit codes: 0 started, or finished with the verify command passing; 1 refused (not in strict\nmode, or the verify failed; the reason is on stderr); 2 bad usage (an action other than start\nor finish).",
    )
    .action(async (action: string, options: { root?: string }) => {
      const { refactor } = await import("./commands/strict.ts");
      outcome.exitCode = await refactor(action, options, strictIO);
    });

  program
    .command("strict")
    .description("strict mode")
    .command("status")
    .description("show the mode, the open claims and their last runs")
    .option("--root <dir>", root)
    .option("--json", "print JSON", false)
    .addHelpText(
      "after",
      "\nReads .tailtest/events.jsonl; writes nothing.\nExit codes: 0 shown, 1 the project folder cannot be used, 2 bad usage (--root is not a\nfolder).",
    )
    .action(async (options: { root?: string; json: boolean }) => {
      const { strictStatus } = await import("./commands/strict.ts");
      outcome.exitCode = await strictStatus(options, strictIO);
    });

  program
    .command("export")
    .description(
      "print every verified (red test, edit, green test) triple of strict mode as JSONL: a labelled corpus",
    )
    .option("--root <dir>", root)
    .addHelpText(
      "after",
      "\nUnreadable lines of .tailtest/events.jsonl are skipped, with a warning on stderr.\nExit codes: 0 printed (nothing when there is no triple yet), 1 the project folder cannot be\nused, 2 bad usage (--root is not a folder).",
    )
    .action(async (options: { root?: string }) => {
      const { exportTriples } = await import("./commands/strict.ts");
      outcome.exitCode = await exportTriples(options, strictIO);
    });
}

/** Runs the CLI and returns its exit code; the bin is the only place that exits. */
export function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  return runProgram(argv, io, addAllCommands);
}
