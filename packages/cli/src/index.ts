import { Command, CommanderError } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { explainFiles } from "./commands/explain.ts";
import { runTests } from "./commands/run.ts";

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** stderr is a terminal: progress lines may redraw themselves. */
  interactive?: boolean;
}

/** Exit codes: 0 success, 1 the command failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** What a command reports back beyond success or failure (e.g. `run`'s verdict). */
export interface CliOutcome {
  exitCode: number;
}

export function createProgram(io: CliIO, outcome: CliOutcome = { exitCode: EXIT.ok }): Command {
  const program = new Command()
    .name("tailtest")
    .description("Tests that follow every edit a coding agent makes.")
    .version(packageJson.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showHelpAfterError()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();

  program
    .command("explain")
    .description(
      "show what tailtest would do with files an agent edits: queue or skip, why, runner, test path, depth",
    )
    .argument("<files...>", "files, relative to the project root or absolute")
    .option("--root <dir>", "project root", io.cwd)
    .option("--json", "print JSON", false)
    .action((files: string[], options: { root: string; json: boolean }) => {
      io.stdout(explainFiles(files, options));
    });

  program
    .command("run")
    .description(
      "run the tests for the given files (source or test files; default: the session's queue, else every suite)",
    )
    .argument("[paths...]", "files, relative to the current folder or absolute")
    .option("--root <dir>", "project root", io.cwd)
    .option("--json", "print the results as JSON", false)
    .option("--dry-run", "show the plan (processes, folders, arguments) without running it", false)
    .option(
      "--timeout <seconds>",
      "kill a runner after this long (default: config test_timeout_seconds)",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 passed, 1 a test failed or is missing, 2 bad usage, 3 a runner could not run\n(load error, timeout, not installed), 4 no test ran.",
    )
    .action(
      async (
        paths: string[],
        options: { root: string; json: boolean; dryRun: boolean; timeout?: string },
      ) => {
        outcome.exitCode = await runTests(paths, options, {
          stdout: io.stdout,
          stderr: io.stderr,
          interactive: io.interactive ?? false,
        });
      },
    );

  return program;
}

/** Runs the CLI and returns its exit code; the bin is the only place that exits. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const outcome: CliOutcome = { exitCode: EXIT.ok };
  const program = createProgram(io, outcome);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`tailtest: ${message}\n`);
    return EXIT.failed;
  }
}

export { renderConfigReference } from "./config-reference.ts";
