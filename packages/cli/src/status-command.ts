import type { Command } from "commander";
import { ROOT_HELP, type CliIO, type CliOutcome } from "./program-base.ts";
import { useColour } from "./terminal.ts";

/** `tailtest status`, in the whole program and alone in its own bundle (`cli-status.ts`). */
export function addStatusCommand(program: Command, io: CliIO, outcome: CliOutcome): void {
  program
    .command("status")
    .description(
      "show the mode, which agents' hooks are installed (and whether Codex still has to trust them), the sessions and their queues, each agent's TDD state, strict claims, and the last test run",
    )
    .option("--root <dir>", ROOT_HELP)
    .option("--json", "print JSON", false)
    .addHelpText(
      "after",
      "\nReads .tailtest/, the agents' hook files and, for Codex, $CODEX_HOME/config.toml\n(default ~/.codex/config.toml); writes nothing.\nExit codes: 0 shown, 2 bad usage (--root is not a folder).",
    )
    .action(async (options: { root?: string; json: boolean }) => {
      const env = io.env ?? process.env;
      const [{ runStatus }, { styleFor }] = await Promise.all([
        import("./commands/status.ts"),
        import("./style.ts"),
      ]);
      const style = styleFor(useColour(env, io.stdoutIsTerminal ?? false));
      outcome.exitCode = await runStatus(options, { ...io, env, style });
    });
}
