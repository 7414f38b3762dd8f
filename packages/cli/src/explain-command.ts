import type { Command } from "commander";
import { ROOT_HELP, type CliIO, type CliOutcome } from "./program-base.ts";

/** `tailtest explain`, in the whole program and alone in its own bundle (`cli-explain.ts`). */
export function addExplainCommand(program: Command, io: CliIO, outcome: CliOutcome): void {
  program
    .command("explain")
    .description(
      "show what tailtest would do with files an agent edits: queue or skip, why, runner, the related tests and the evidence for each, depth",
    )
    .argument("<files...>", "files, relative to the project root or absolute")
    .option("--root <dir>", ROOT_HELP)
    .option("--json", "print JSON", false)
    .addHelpText(
      "after",
      "\nWrites nothing.\nExit codes: 0 shown, 1 the project folder cannot be used, 2 bad usage (no file given, or\n--root is not a folder).",
    )
    .action(async (files: string[], options: { root?: string; json: boolean }) => {
      const { rootOrRefuse } = await import("./project-root.ts");
      const root = rootOrRefuse(options.root, io);
      if (root === undefined) {
        outcome.exitCode = 2;
        return;
      }
      const { explainFiles } = await import("./commands/explain.ts");
      io.stdout(await explainFiles(files, { json: options.json, root }));
    });
}
