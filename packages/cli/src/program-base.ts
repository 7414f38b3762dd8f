import { Command, CommanderError } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { useColour } from "./terminal.ts";
import { oneLine } from "./usage-line.ts";

/**
 * The program as every bundle of the command builds it (name, version, help, where its output
 * goes), with no command yet: `program.ts` adds them all, and the bundles for one command
 * (`cli-status.ts`, `cli-explain.ts`) add only theirs, so a call builds no other command's options.
 */

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** stderr is a terminal: progress lines may redraw themselves. */
  interactive?: boolean;
  /** The environment (`TAILTEST_TDD_KEY`, `NO_COLOR`, …); `process.env` when not given. */
  env?: Readonly<Record<string, string | undefined>>;
  /** stdout is a terminal: text gets colours unless `NO_COLOR` says otherwise. */
  stdoutIsTerminal?: boolean;
  /** `tailtest watch`: calls `stop` on SIGINT/SIGTERM (default: the process's signals). */
  onStopSignal?: (stop: () => void) => () => void;
}

/** Exit codes: 0 success, 1 the command failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** What a command reports back beyond success or failure (e.g. `run`'s verdict). */
export interface CliOutcome {
  exitCode: number;
}

/** Adds commands to the program; each command's module is imported only when it is chosen. */
export type AddCommands = (program: Command, io: CliIO, outcome: CliOutcome) => void;

/** What `--root` says in every command's help. */
export const ROOT_HELP = "project root (default: found from the current folder)";

export function baseProgram(io: CliIO): Command {
  return (
    new Command()
      .name("tailtest")
      .description("Tests that follow every edit a coding agent makes.")
      .version(packageJson.version, "-v, --version", "print the version")
      .helpOption("-h, --help", "show help")
      // commander would ask process.stdout and process.stderr for these, which builds node's
      // stdio streams on every call (ADR 0010): only a terminal has a width (else commander's 80)
      // or colours. A usage error is one line (`oneLine`).
      .configureOutput({
        writeOut: io.stdout,
        writeErr: io.stderr,
        outputError: oneLine,
        getOutHelpWidth: () => (io.stdoutIsTerminal === true ? process.stdout.columns : 80),
        getErrHelpWidth: () => (io.interactive === true ? process.stderr.columns : 80),
        getOutHasColors: () => useColour(io.env ?? process.env, io.stdoutIsTerminal ?? false),
        getErrHasColors: () => io.interactive === true,
      })
      .exitOverride()
  );
}

/** Runs a program of the given commands and returns its exit code; the bin is the only place that exits. */
export async function runProgram(
  argv: readonly string[],
  io: CliIO,
  addCommands: AddCommands,
): Promise<number> {
  const outcome: CliOutcome = { exitCode: EXIT.ok };
  const program = baseProgram(io);
  addCommands(program, io, outcome);
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
