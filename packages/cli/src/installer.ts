import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ModeSchema, type Mode } from "@tailtest/core";
import { confirmMode, isFollowProject, type SetupReport } from "@tailtest/core/node";
import { oneLine } from "./usage-line.ts";
import { Command, CommanderError, Option } from "commander";

export * from "./user-install.ts";

/**
 * The `tailtest-<agent> init | uninstall` command every adapter ships. Each adapter describes
 * its files and supplies the two actions; the command line, the report format and the exit
 * codes are the same everywhere.
 */
export interface InstallerSpec {
  /** The bin name, e.g. `tailtest-cursor`. */
  name: string;
  version: string;
  /** One line under the name in --help. */
  description: string;
  /** What `init` does, for its --help. */
  initDescription: string;
  /** What --root points at, e.g. "project root, where .cursor/ and node_modules/ are". */
  rootHelp: string;
  /** Printed after init's report: when the hooks take effect and what the user must still do. */
  initFooter: string | ((root: string) => string);
  init: (options: { root: string; mode: Mode | undefined }) => Promise<SetupReport>;
  uninstall: (options: { root: string }) => Promise<SetupReport>;
  /**
   * `init --user` / `uninstall --user`: a pinned copy in the user's data folder and hooks in the
   * agent's user settings, for every project (absent: the agent has no user-level install yet).
   */
  user?: {
    init: () => Promise<SetupReport>;
    uninstall: () => Promise<SetupReport>;
    /** Printed after `init --user` (default: initFooter when it is a string). */
    footer?: string;
  };
}

/** A project's opt-out of a user-level install (core's hook/node/launcher.ts OPT_OUT_FILE). */
const OPT_OUT_FILE = ".tailtest/off";

export interface InstallerIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Exit codes: 0 done, 1 refused or failed (one line on stderr), 2 bad usage. */
export const INSTALLER_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * The project folder `--root` names (relative to the current folder); when it is not a folder,
 * one line and exit 2 (a typo must not become a new folder with hooks in it).
 */
function rootFolder(spec: InstallerSpec, io: InstallerIO, root: string | undefined): string {
  const chosen = resolve(io.cwd, root ?? ".");
  if (isFolder(chosen)) return chosen;
  io.stderr(`${spec.name}: --root ${root ?? "."}: not a folder\n`);
  throw new CommanderError(INSTALLER_EXIT.usage, "tailtest.root", `--root ${root ?? "."}`);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function printReport(
  spec: InstallerSpec,
  io: InstallerIO,
  report: SetupReport,
  footer?: string,
): void {
  for (const line of report.lines) io.stdout(`${line}\n`);
  for (const warning of report.warnings) io.stderr(`${spec.name}: warning: ${warning}\n`);
  if (footer !== undefined) io.stdout(`${footer}\n`);
}

export function createInstallerProgram(spec: InstallerSpec, io: InstallerIO): Command {
  const rootHelp = `${spec.rootHelp} (default: the current folder)`;
  const program = new Command()
    .name(spec.name)
    .description(spec.description)
    .version(spec.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: oneLine })
    .exitOverride();

  program
    .command("init")
    .description(spec.initDescription)
    .addOption(
      new Option("--mode <mode>", "write this mode to .tailtest/config.json").choices(
        ModeSchema.options,
      ),
    )
    .option("--root <dir>", rootHelp)
    .option("--user", "install for every project: a pinned copy in your data folder, user hooks")
    .action(async (options: { root?: string; mode?: Mode; user?: boolean }) => {
      if (options.user === true) {
        const user = userSide(spec);
        const report = await user.init();
        const footer =
          user.footer ?? (typeof spec.initFooter === "string" ? spec.initFooter : undefined);
        printReport(spec, io, report, footer);
        return;
      }
      const root = rootFolder(spec, io, options.root);
      const report = await spec.init({ root, mode: options.mode });
      // The person ran the installer: the sessions take the mode it left (mode-pin.ts).
      await confirmMode(root).catch(() => undefined);
      const footer = typeof spec.initFooter === "string" ? spec.initFooter : spec.initFooter(root);
      printReport(spec, io, report, footer);
    });

  program
    .command("uninstall")
    .description("remove exactly the hooks init added; .tailtest/ is left alone")
    .option("--root <dir>", rootHelp)
    .option("--user", "remove the user-level install: its hooks and its copy")
    .action(async (options: { root?: string; user?: boolean }) => {
      const report =
        options.user === true
          ? await userSide(spec).uninstall()
          : await spec.uninstall({ root: rootFolder(spec, io, options.root) });
      printReport(spec, io, report);
    });

  for (const [name, off] of [
    ["opt-out", true],
    ["opt-in", false],
  ] as const)
    program
      .command(name)
      .description(
        off
          ? `a user-level install leaves this project alone (writes ${OPT_OUT_FILE})`
          : `a user-level install works in this project again (removes ${OPT_OUT_FILE})`,
      )
      .option("--root <dir>", rootHelp)
      .action((options: { root?: string }) => {
        const root = rootFolder(spec, io, options.root);
        const file = join(root, OPT_OUT_FILE);
        const there = existsSync(file);
        if (off && !there) {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, "tailtest's user-level hooks leave this project alone.\n");
        }
        if (!off && there) rmSync(file);
        const done = off === there ? "already" : "now";
        io.stdout(`${OPT_OUT_FILE}: ${done} ${off ? "opted out" : "opted in"}\n`);
        if (off && !isFollowProject(root))
          io.stdout(
            `This project is in tdd or strict mode, which an opt-out does not end: set "mode": "follow" in .tailtest/config.json and run \`tailtest mode confirm\` first.\n`,
          );
      });

  return program;
}

function userSide(spec: InstallerSpec): NonNullable<InstallerSpec["user"]> {
  if (spec.user === undefined)
    throw new Error(`--user is not available for ${spec.name} yet; install it in the project`);
  return spec.user;
}

/** Runs an installer and returns its exit code; the adapter's cli.ts is the only place that exits. */
export async function runInstallerProgram(
  spec: InstallerSpec,
  argv: readonly string[],
  io: InstallerIO,
): Promise<number> {
  try {
    await createInstallerProgram(spec, io).parseAsync([...argv], { from: "user" });
    return INSTALLER_EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 ? INSTALLER_EXIT.ok : INSTALLER_EXIT.usage;
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    io.stderr(`${spec.name}: ${message}\n`);
    return INSTALLER_EXIT.failed;
  }
}
