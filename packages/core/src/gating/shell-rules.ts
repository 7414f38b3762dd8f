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
const SETUP_WORDS = new Set([
  "init",
  "uninstall",
  "opt-out",
  "i",
  "install",
  "add",
  // npm's names for uninstall.
  "remove",
  "rm",
  "r",
  "un",
  "unlink",
]);

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

/** A signal sent by a process's name, or to processes looked up by name. */
const KILL_BY_NAME = /(^|[^\w-])(pkill|killall|skill|pgrep|pidof)($|[^\w-])/;
/** `kill` with its processes found by `ps` (`kill $(ps aux | grep node | …)`). */
const KILL_FROM_PS = /(^|[^\w-])kill($|[^\w-])[\s\S]*(^|[^\w-])ps($|[^\w-])/;
/** What names a hook's process: node, tailtest's bundles, the agents' hook folders. */
const HOOK_PROCESS = /node|tailtest|hook|claude|codex|cursor|\.c?js\b/i;
const PACKAGE_MANAGER = /^(npm|pnpm|yarn|bun)(@[^/]*)?$/;
/** Flags and subcommands of a package manager that take development packages away. */
const DROPS_DEV = new Set([
  "prune",
  "--omit=dev",
  "--production",
  "--prod",
  "--only=prod",
  "--only=production",
]);
/** git's commands that make commits or move refs without the working tree. */
const GIT_PLUMBING = new Set([
  "update-ref",
  "commit-tree",
  "mktree",
  "read-tree",
  "fast-import",
  "replace",
  "filter-branch",
  "filter-repo",
]);

/** The agents' own programs: a session of one runs the project's hooks as a session of its own. */
const AGENT_CLI = /^(claude|claude-code|codex|cursor-agent)$/;
/** What runs before a program without being it: assignments, wrappers, their options. */
const BEFORE_PROGRAM =
  /^(\w+=.*|-.*|\d[\w.]*|env|command|exec|nohup|nice|timeout|stdbuf|setsid|sudo|npx|bunx|pnpx|dlx|pnpm|yarn|bun|time)$/;
/** Options that only print and start no session. */
const ONLY_PRINTS = new Set(["--version", "-v", "-V", "--help", "-h", "help"]);

/**
 * Whether a command starts an agent's session in the project (`claude -p …`, `codex exec …`,
 * `cursor-agent -p …`) or hands a tailtest hook an event of its own (`… | node hook.cjs`): the
 * session state and the turn's baseline are the project's, and a session started from the
 * agent's shell starts them afresh, hiding what the turn changed before it.
 */
function startsSession(argv: readonly string[]): boolean {
  if (argv.some((word) => /(^|\/)hook(-main|-gate)?\.c?js$/.test(word))) return true;
  const at = argv.findIndex((word) => !BEFORE_PROGRAM.test(word));
  const program = at === -1 ? undefined : argv[at]?.split("/").pop();
  if (program === undefined || !AGENT_CLI.test(program)) return false;
  const next = argv[at + 1];
  return next === undefined || !ONLY_PRINTS.has(next);
}

/**
 * What in a command could stop the hooks or take them away, or change the project without its
 * files (ADR 0012): killing processes by a name a hook's process has (`pkill -f tailtest`, a
 * loop in the background that does), a package manager dropping development packages (where
 * the hooks' bundle is: `npm prune --omit=dev`, `NODE_ENV=production npm ci`), `git clean -x`
 * and `git stash --all` (ignored files: `node_modules`, the session's state), and git's
 * plumbing that commits content no gate saw (`hash-object -w`, `commit-tree`, `update-ref`),
 * the go command's settings written (`changesGoSettings`), and a session of an agent started
 * from the shell (`startsSession`).
 */
export function tamperKind(command: string, commands: readonly CommandWords[]): string | undefined {
  if ((KILL_BY_NAME.test(command) || KILL_FROM_PS.test(command)) && HOOK_PROCESS.test(command))
    return "stops processes by a name tailtest's hooks run under";
  for (const { argv } of commands) {
    if (startsSession(argv))
      return "starts an agent's session or feeds tailtest's hook an event, which starts the session's state and the turn's baseline afresh";
    if (dropsDevPackages(command, argv))
      return "removes development packages, where tailtest's hooks are installed";
    if (changesGoSettings(argv))
      return "changes the go command's settings for every build (`go env -w`: GOFLAGS such as an -overlay that swaps a file under test for another), outside the project's files";
    const git = argv.findIndex((word) => (word.split("/").pop() ?? "") === "git");
    if (git === -1) continue;
    const sub = argv.slice(git + 1).find((word, index, rest) => {
      if (word.startsWith("-")) return false;
      // The values of git's own options before the subcommand (`git -C dir clean`).
      const before = rest[index - 1];
      return before === undefined || !["-C", "-c", "--git-dir", "--work-tree"].includes(before);
    });
    const args = sub === undefined ? [] : argv.slice(argv.indexOf(sub, git + 1) + 1);
    if (sub === "clean" && args.some((word) => /^-[a-zA-Z]*[xX]/.test(word)))
      return "deletes ignored files (node_modules and tailtest's session state among them)";
    if (sub === "stash" && args.some((word) => word === "--all" || /^-[a-zA-Z]*a/.test(word)))
      return "stashes ignored files (node_modules and tailtest's session state among them)";
    if (sub !== undefined && GIT_PLUMBING.has(sub))
      return "changes the repository's history without its working tree";
    if (sub === "hash-object" && args.includes("-w"))
      return "writes content into the repository without its working tree";
  }
  return undefined;
}

/** A package manager's command that takes development packages away (`npm prune --omit=dev`). */
function dropsDevPackages(command: string, argv: readonly string[]): boolean {
  const at = argv.findIndex((word) => PACKAGE_MANAGER.test(word.split("/").pop() ?? ""));
  if (at === -1) return false;
  const rest = argv.slice(at + 1);
  return (
    rest.some((word) => DROPS_DEV.has(word)) ||
    rest.some((word, index) => word === "--omit" && rest[index + 1] === "dev") ||
    /\bNODE_ENV=["']?production/.test(command)
  );
}

/**
 * `go env -w NAME=value` or `go env -u NAME`: the go command keeps these in the user's settings
 * file and every later `go test` builds with them, the end of a turn's too (the thirty-sixth
 * round: `go env -w GOFLAGS=-overlay=fixed.json` compiled a fixed copy kept outside the project
 * in place of the file under test). A claim's support counts that file (`goEnvDescription`), but
 * a change before a Red, or with no cycle open, hides a bug from every run with nothing to compare.
 */
function changesGoSettings(argv: readonly string[]): boolean {
  const go = argv.findIndex((word) => (word.split("/").pop() ?? "") === "go");
  if (go === -1 || argv[go + 1] !== "env") return false;
  return argv.slice(go + 2).some((word) => word === "-w" || word === "-u");
}

/** The refusal of a command `tamperKind` names, for every mode that gates. */
export function tamperRefusal(mode: string, kind: string): string {
  return `tailtest ${mode}: this command ${kind}; in ${mode} mode only the person does that. Ask them, or do it another way (stop a process of your own by its pid).`;
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
  const tamper = tamperKind(command, commands);
  if (tamper !== undefined) return tamperRefusal(mode, tamper);
  if (!STATE_REFERENCE.test(command)) return undefined;
  const readOnly =
    writes.written.length === 0 &&
    writes.deleted.length === 0 &&
    commands.every((entry) => READ_ONLY_COMMANDS.has((entry.argv[0] ?? "").split("/").pop() ?? ""));
  if (readOnly) return undefined;
  return `tailtest ${mode}: this command names tailtest's state (.tailtest/) or an agent's hook folder (.claude, .cursor, .codex) and is not a plain read (cat, ls, grep, …). Only the person changes those; ask them, or run the command without touching them.`;
}
