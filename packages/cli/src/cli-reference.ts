import type { Command } from "commander";
import { createProgram } from "./program.ts";

/** Every command's help, as a person sees it with `--help`, at this width. */
const HELP_WIDTH = 100;

function allCommands(
  command: Command,
  path: string[] = [],
): { path: string[]; command: Command }[] {
  return command.commands.flatMap((child) => {
    const childPath = [...path, child.name()];
    return [{ path: childPath, command: child }, ...allCommands(child, childPath)];
  });
}

/**
 * docs/cli.md, generated from the commands themselves (`pnpm gen-docs`), so the page and
 * `--help` cannot drift: a test fails when the page is stale.
 */
export function renderCliReference(): string {
  let help = "";
  const program = createProgram({
    stdout: (text) => {
      help += text;
    },
    stderr: () => undefined,
    // Defaults that show a folder show it as "." rather than this machine's path.
    cwd: ".",
    env: {},
  });
  const helpOf = (command: Command): string => {
    help = "";
    command.configureHelp({ helpWidth: HELP_WIDTH });
    command.outputHelp();
    return help.trimEnd();
  };
  const sections = allCommands(program)
    .filter(({ command }) => command.commands.length === 0)
    .map(({ path, command }) =>
      [`## tailtest ${path.join(" ")}`, "", "```text", helpOf(command), "```", ""].join("\n"),
    );
  return [
    "# Command reference",
    "",
    "<!-- Generated from the commands by `pnpm gen-docs`; a test fails when this file is stale. -->",
    "",
    "Every command prints this with `--help`. Commands that only read (`status`, `history`,",
    "`explain`, `doctor`, `tdd status`, `strict status`, `report --json`) take `--json` and never",
    "write state. Colours appear only on a terminal: `NO_COLOR` (set, not empty) turns them off,",
    "`FORCE_COLOR` on (`NO_COLOR` wins).",
    "",
    "```text",
    helpOf(program),
    "```",
    "",
    ...sections,
  ].join("\n");
}
