import { resolve } from "node:path";
import { ModeSchema, type Mode } from "@tailtest/core";
import { Command, CommanderError, Option } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { initProject, uninstallProject, type SetupReport } from "./setup.ts";

export interface InstallerIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Exit codes: 0 done, 1 refused or failed (one line on stderr), 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const NAME = "tailtest-claude-code";
const ROOT_HELP =
  "project root, where .claude/ and node_modules/ are (default: the current folder)";

function printReport(io: InstallerIO, report: SetupReport, footer?: string): void {
  for (const line of report.lines) io.stdout(`${line}\n`);
  for (const warning of report.warnings) io.stderr(`${NAME}: warning: ${warning}\n`);
  if (footer !== undefined) io.stdout(`${footer}\n`);
}

export function createProgram(io: InstallerIO): Command {
  const program = new Command()
    .name(NAME)
    .description("Install tailtest's hooks into a project's Claude Code settings.")
    .version(packageJson.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showHelpAfterError()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();

  program
    .command("init")
    .description(
      "add tailtest's hooks to .claude/settings.json (idempotent; keeps every other setting)",
    )
    .addOption(
      new Option("--mode <mode>", "write this mode to .tailtest/config.json").choices(
        ModeSchema.options,
      ),
    )
    .option("--root <dir>", ROOT_HELP)
    .action(async (options: { root?: string; mode?: Mode }) => {
      const report = await initProject({
        root: resolve(io.cwd, options.root ?? "."),
        mode: options.mode,
      });
      printReport(
        io,
        report,
        "Claude Code loads the hooks in its next session (/hooks lists them).",
      );
    });

  program
    .command("uninstall")
    .description("remove exactly the hooks init added; .tailtest/ is left alone")
    .option("--root <dir>", ROOT_HELP)
    .action(async (options: { root?: string }) => {
      printReport(io, await uninstallProject({ root: resolve(io.cwd, options.root ?? ".") }));
    });

  return program;
}

/** Runs the installer and returns its exit code; cli.ts is the only place that exits. */
export async function runInstaller(argv: readonly string[], io: InstallerIO): Promise<number> {
  try {
    await createProgram(io).parseAsync([...argv], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    io.stderr(`${NAME}: ${message}\n`);
    return EXIT.failed;
  }
}
