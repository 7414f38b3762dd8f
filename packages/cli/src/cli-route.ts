/** The commands that get a code cache of their own; anything else shares "other". */
const ROUTES = new Set([
  "explain",
  "run",
  "doctor",
  "status",
  "history",
  "report",
  "watch",
  "red",
  "green",
  "tdd",
  "claim",
  "refactor",
  "strict",
  "export",
]);

/**
 * Which code cache a `tailtest` call uses (V8 deserialises a whole cache before the first line,
 * so each command keeps only what it runs): the command named, "help" for a call that names none
 * (`--version`, `--help`, nothing), "other" for an unknown word, "run-dry" for `run --dry-run`.
 */
export function cliRoute(argv: readonly string[]): string {
  const command = argv.find((arg) => !arg.startsWith("-"));
  if (command === undefined) return "help";
  if (!ROUTES.has(command)) return "other";
  // A command's first call writes its cache: a plan shown first must not leave `run` without
  // the test engine it compiles only when it runs.
  return command === "run" && argv.includes("--dry-run") ? "run-dry" : command;
}

/** The commands with a bundle of their own (`tailtest-<command>.cjs`: cli-status.ts, …). */
const OWN_BUNDLES = new Set(["status", "explain"]);

/**
 * The bundle a `tailtest` call evaluates: a command's own when it is the first word (options
 * before it, `tailtest --help status`, are the whole program's to read), else the whole command.
 */
export function cliBundle(argv: readonly string[]): string {
  const first = argv[0];
  return first !== undefined && OWN_BUNDLES.has(first)
    ? `tailtest-${first}.cjs`
    : "tailtest-main.cjs";
}
