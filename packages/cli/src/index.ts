import { Command, CommanderError } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { explainFiles } from "./commands/explain.ts";

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Exit codes: 0 success, 1 the command failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export function createProgram(io: CliIO): Command {
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

  return program;
}

/** Runs the CLI and returns its exit code; the bin is the only place that exits. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.ok;
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
