/**
 * What a shell command may not do in a gating mode (tdd, strict), beyond the files it writes:
 * run one of tailtest's installers or `tailtest mode confirm`, or name tailtest's state or an
 * agent's hook folder in anything but a plain read. Pure: the hooks parse the command
 * (`shell/node/bash-parser.ts`) and pass its simple commands and writes in.
 */

/** One simple command of a command line, as the bash parser gives it. */
interface CommandWords {
  /** Words with quotes removed; a word that is not a plain literal is its raw text. */
  readonly argv: readonly string[];
}

const INSTALLERS =
  /(^|[/@])tailtest-(claude-code|cursor|codex)\b|@tailtest\/(claude-code|cursor|codex)\b/;
/**
 * An installer's commands that change the hooks, and a package manager's that add the package:
 * a user-level install stands aside in a project that opted out (`.tailtest/off`) or that has the
 * package in its own `node_modules` (hook/node/launcher.ts), so either switches tailtest off.
 */
const SETUP_WORDS = new Set(["init", "uninstall", "opt-out", "i", "install", "add"]);

/**
 * The agent runs a tailtest installer (which could switch the mode or remove the hooks), installs
 * a tailtest package, or confirms a mode change, which is the person's to do (node/mode-pin.ts).
 */
export function runsInstaller(commands: readonly CommandWords[]): boolean {
  return commands.some(
    (command) =>
      (command.argv.some((word) => INSTALLERS.test(word)) &&
        command.argv.some((word) => SETUP_WORDS.has(word))) ||
      confirmsMode(command.argv),
  );
}

/** The CLI by any name it runs under: its bin, its bundle (`node …/tailtest.cjs`), its package. */
const CLI_WORD = /(^|\/)tailtest(\.c?js)?$|(^|\/)@tailtest\/cli(@[^/\s]*)?(\/|$)/;

function confirmsMode(argv: readonly string[]): boolean {
  const at = argv.findIndex((word) => CLI_WORD.test(word));
  return at !== -1 && argv[at + 1] === "mode" && argv.slice(at + 2).includes("confirm");
}

/** The refusal of an installer run by the agent, for every mode that gates. */
export function installerRefusal(mode: string): string {
  return `tailtest ${mode}: agents may not run tailtest's installers (init, uninstall, opt-out), install its packages, or run \`tailtest mode confirm\`: they change the mode and the hooks, which only the person does. Ask the person if the mode must change.`;
}

/** Commands that only read: they may look at tailtest's state and the agents' hook configs. */
const READ_ONLY_COMMANDS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "ls",
  "grep",
  "rg",
  "egrep",
  "fgrep",
  "wc",
  "jq",
  "stat",
  "file",
  "diff",
  "cmp",
  "sha256sum",
  "md5sum",
  "test",
  "[",
  "true",
  "pwd",
  "cd",
  "tree",
]);

const STATE_REFERENCE = /\.(tailtest|claude|cursor|codex)(\/|\b)/;

/**
 * What a shell command in a gating mode may not do, beyond the files its writes name: mention
 * tailtest's state or an agent's hook folder in anything but a read (a `cd .tailtest` before a
 * write, a target in a variable, a `git checkout` of the config), or run an installer.
 */
export function shellRefusal(
  mode: "tdd" | "strict",
  command: string,
  commands: readonly CommandWords[],
  writes: { written: readonly string[]; deleted: readonly string[] },
): string | undefined {
  if (runsInstaller(commands)) return installerRefusal(mode);
  if (!STATE_REFERENCE.test(command)) return undefined;
  const readOnly =
    writes.written.length === 0 &&
    writes.deleted.length === 0 &&
    commands.every((entry) => READ_ONLY_COMMANDS.has((entry.argv[0] ?? "").split("/").pop() ?? ""));
  if (readOnly) return undefined;
  return `tailtest ${mode}: this command names tailtest's state (.tailtest/) or an agent's hook folder (.claude, .cursor, .codex) and is not a plain read (cat, ls, grep, …). Only the person changes those; ask them, or run the command without touching them.`;
}
