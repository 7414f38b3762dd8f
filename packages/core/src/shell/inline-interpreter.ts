import { ownEntry } from "../util/own-entry.ts";
/**
 * Which interpreter a command runs with a script written into the command line: `python3 -c`,
 * `node -e`/`--eval`/`-p`, `bun -e`, `deno eval`, `perl -e`, `ruby -e`, `bash -c`, `eval`, or an
 * interpreter with no script file, which reads its script on stdin (`python3 - <<EOF`). Wrappers
 * (`env X=1`, `timeout 60`, `uv run`, `poetry run`, `npx`, `pnpm exec`…) are stripped first.
 * Pure: the caller gives an argv and, for stdin, finds the heredoc or here-string itself.
 */

export type ScriptLanguage = "python" | "javascript" | "perl" | "ruby";

export interface InlineScript {
  /** `shell`: `bash -c`, `sh <<EOF`, `eval`: the caller parses the script as bash again. */
  language: ScriptLanguage | "shell";
  /** The script given on the command line (several `-e`s joined by newlines). */
  code?: string;
  /** No script on the command line: the interpreter reads it from stdin. */
  stdin: boolean;
  /** The literal words after the script (`sys.argv[1:]`, `process.argv.slice(2)`, `@ARGV`). */
  operands: string[];
}

/** A command's words, its name first; undefined where a word is not a plain literal (`$X`). */
export type Argv = readonly (string | undefined)[];

const WRAPPER_VALUED: Readonly<Record<string, readonly string[]>> = {
  env: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
  nice: ["-n", "--adjustment"],
  sudo: ["-u", "--user", "-g", "--group", "-C", "-D", "--chdir"],
  timeout: ["-s", "--signal", "-k", "--kill-after"],
  stdbuf: ["-i", "-o", "-e"],
  ionice: ["-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "-u"],
  doas: ["-u", "-C"],
  exec: ["-a"],
  npx: ["-p", "--package"],
  flock: ["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
  strace: "-o -e -p -s -u -E -P -a -b -I -O -S -X -U".split(" "),
  ltrace: "-o -e -p -s -u -a -n -A -D -F -l -x -L".split(" "),
  run: (
    "--with --with-requirements --python -p --project --directory --package --extra --group " +
    "--env-file -n --name --prefix -e --env"
  ).split(" "),
};

/** Subcommands that run the rest of the argv: `uv run`, `poetry run`, `pnpm exec`, `bun x`. */
const RUN_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    "uv poetry pipenv pdm hatch rye conda mamba micromamba"
      .split(" ")
      .map((tool) => [tool, ["run"]]),
  ),
  pnpm: ["exec", "dlx"],
  npm: ["exec"],
  yarn: ["exec"],
  bun: ["x"],
};

const PLAIN_WRAPPERS = new Set([
  "env",
  "time",
  "nohup",
  "exec",
  "nice",
  "sudo",
  "doas",
  "stdbuf",
  "setsid",
  "ionice",
  "builtin",
  "unbuffer",
  "chronic",
]);
const PACKAGE_RUNNERS = new Set(["npx", "pnpx", "bunx"]);
const MAX_WRAPPERS = 4;

function baseName(word: string): string {
  return word.split("/").pop() ?? word;
}

/** The argv after a wrapper's own options and `VAR=value` words, from `from` on. */
function afterOptions(argv: Argv, from: number, valued: readonly string[] = []): Argv | undefined {
  let i = from;
  while (i < argv.length) {
    const word = argv[i];
    if (word === undefined) return undefined;
    if (word === "--") {
      i += 1;
      break;
    }
    if (word.startsWith("-") && word !== "-") i += valued.includes(word) ? 2 : 1;
    else if (/^[A-Za-z_]\w*=/.test(word)) i += 1;
    else break;
  }
  return i < argv.length ? argv.slice(i) : undefined;
}

/** What `strace`/`ltrace`, `flock` and `script -c` run; else undefined. */
function unwrapTool(name: string, argv: Argv): Argv | undefined {
  // `strace -o log cmd`: the command it traces runs.
  if (name === "strace" || name === "ltrace") return afterOptions(argv, 1, WRAPPER_VALUED[name]);
  // `flock lockfile cmd …` runs cmd; `flock lockfile -c 'cmd'` runs a shell.
  if (name === "flock") {
    const rest = afterOptions(argv, 1, WRAPPER_VALUED.flock);
    if (rest === undefined || rest.length < 2) return undefined;
    const command = rest.slice(1);
    return command[0] === "-c" || command[0] === "--command"
      ? ["sh", "-c", ...command.slice(1)]
      : command;
  }
  // `script -qc 'cmd' log` runs a shell with cmd.
  if (name === "script") {
    const at = argv.findIndex(
      (word, i) => i > 0 && (word === "--command" || /^-[a-zA-Z]*c$/.test(word ?? "")),
    );
    return at === -1 || argv[at + 1] === undefined ? undefined : ["sh", "-c", argv[at + 1]];
  }
  return undefined;
}

/** What a wrapper runs: `env X=1 cmd`, `timeout 60 cmd`, `uv run cmd`, `npx cmd`; else undefined. */
export function unwrapOnce(argv: Argv): Argv | undefined {
  const name = argv[0] === undefined ? undefined : baseName(argv[0]);
  if (name === undefined) return undefined;
  // `command rm x` runs rm; `command -v rm` only looks it up.
  if (name === "command")
    return argv.some((word) => word === "-v" || word === "-V") ? undefined : afterOptions(argv, 1);
  if (PLAIN_WRAPPERS.has(name)) return afterOptions(argv, 1, WRAPPER_VALUED[name]);
  if (name === "timeout") {
    const rest = afterOptions(argv, 1, WRAPPER_VALUED.timeout);
    return rest === undefined || rest.length < 2 ? undefined : rest.slice(1);
  }
  if (PACKAGE_RUNNERS.has(name)) return afterOptions(argv, 1, WRAPPER_VALUED.npx);
  const tool = unwrapTool(name, argv);
  if (tool !== undefined) return tool;
  const sub = argv[1];
  if (sub !== undefined && ownEntry(RUN_SUBCOMMANDS, name)?.includes(sub) === true)
    return afterOptions(argv, 2, WRAPPER_VALUED.run);
  return undefined;
}

/** The command a chain of wrappers finally runs (`env X=1 uv run python -c …` → `python -c …`). */
export function unwrapCommand(argv: Argv): Argv {
  let current = argv;
  for (let depth = 0; depth < MAX_WRAPPERS; depth += 1) {
    const inner = unwrapOnce(current);
    if (inner === undefined) return current;
    current = inner;
  }
  return current;
}

interface FlagSpec {
  language: InlineScript["language"];
  /** Short flags whose value is the script (`-c`, `-e`). */
  code: string;
  /** The script may be glued to its flag (`python -cCODE`, `perl -e'…'`); node and bash: never. */
  gluedCode: boolean;
  /** Short flags with a value: the rest of the word, else the next word. */
  valued: string;
  /** Short flags that take the rest of the word only (`perl -i.bak`, `-Mstrict`). */
  glued: string;
  /** Short flags after which there is no inline script (`python -m pytest`). */
  stop: string;
  longCode: readonly string[];
  longValued: readonly string[];
  /** Several script flags add up (`perl -e 'a' -e 'b'`); else the first one ends the options. */
  multiple: boolean;
}

const NO_FLAGS = { valued: "", glued: "", stop: "", longCode: [], longValued: [] } as const;

const PYTHON_FLAGS: FlagSpec = {
  ...NO_FLAGS,
  language: "python",
  code: "c",
  gluedCode: true,
  valued: "WX",
  stop: "m",
  longValued: ["--check-hash-based-pycs"],
  multiple: false,
};
const NODE_FLAGS: FlagSpec = {
  ...NO_FLAGS,
  language: "javascript",
  code: "ep",
  gluedCode: false,
  valued: "rC",
  longCode: ["--eval", "--print"],
  longValued: (
    "--require --import --loader --experimental-loader --conditions --input-type --env-file " +
    "--title --tsconfig"
  ).split(" "),
  multiple: false,
};
const PERL_FLAGS: FlagSpec = {
  ...NO_FLAGS,
  language: "perl",
  code: "eE",
  gluedCode: true,
  glued: "iIMmxdDC",
  multiple: true,
};
const RUBY_FLAGS: FlagSpec = {
  ...NO_FLAGS,
  language: "ruby",
  code: "e",
  gluedCode: true,
  valued: "rICE",
  glued: "iWxKT",
  multiple: true,
};
const SHELL_FLAGS: FlagSpec = {
  ...NO_FLAGS,
  language: "shell",
  code: "c",
  gluedCode: false,
  valued: "oO",
  longValued: ["--rcfile", "--init-file"],
  multiple: false,
};
const DENO_EVAL_VALUED = ["--ext", "--config", "-c", "--import-map", "--location"];

interface FlagStep {
  /** The script glued to its flag, or `next` when it is the next word. */
  code?: { glued: string } | "next";
  skipNext?: boolean;
  stop?: boolean;
}

function readShortFlags(cluster: string, spec: FlagSpec): FlagStep {
  for (let k = 0; k < cluster.length; k += 1) {
    const flag = cluster.charAt(k);
    const rest = cluster.slice(k + 1);
    if (spec.stop.includes(flag)) return { stop: true };
    if (spec.code.includes(flag))
      return { code: rest === "" || !spec.gluedCode ? "next" : { glued: rest } };
    if (spec.valued.includes(flag)) return { skipNext: rest === "" };
    if (spec.glued.includes(flag)) return {};
  }
  return {};
}

function readLongFlag(word: string, spec: FlagSpec): FlagStep {
  const [flag = word, ...value] = word.split("=");
  if (spec.longCode.includes(flag))
    return { code: value.length > 0 ? { glued: value.join("=") } : "next" };
  return { skipNext: value.length === 0 && spec.longValued.includes(flag) };
}

function literalWords(words: Argv): string[] {
  return words.filter((word): word is string => word !== undefined);
}

/** An interpreter's options, up to its script: a flag's value, a script file, `-`, or none (stdin). */
function readInterpreter(args: Argv, spec: FlagSpec): InlineScript | undefined {
  const code: string[] = [];
  let i = 0;
  for (; i < args.length; i += 1) {
    const word = args[i];
    if (word === undefined) return undefined;
    if (word === "-" || !word.startsWith("-")) break;
    if (word === "--") {
      i += 1;
      break;
    }
    const step = word.startsWith("--")
      ? readLongFlag(word, spec)
      : readShortFlags(word.slice(1), spec);
    if (step.stop === true) return undefined;
    if (step.code !== undefined) {
      const text = step.code === "next" ? args[(i += 1)] : step.code.glued;
      if (text === undefined) return undefined;
      code.push(text);
      if (!spec.multiple) {
        i += 1;
        break;
      }
    } else if (step.skipNext === true) i += 1;
  }
  const { language } = spec;
  if (code.length > 0)
    return { language, code: code.join("\n"), stdin: false, operands: literalWords(args.slice(i)) };
  // A script file is a file the agent wrote, which the gate sees on its own; `-` or none: stdin.
  if (i >= args.length) return { language, stdin: true, operands: [] };
  return args[i] === "-"
    ? { language, stdin: true, operands: literalWords(args.slice(i + 1)) }
    : undefined;
}

/** `deno eval [options] <code>`, `deno run -` (the script on stdin). */
function denoScript(args: Argv): InlineScript | undefined {
  const language = "javascript";
  if (args[0] === "run")
    return args.includes("-") ? { language, stdin: true, operands: [] } : undefined;
  if (args[0] !== "eval") return undefined;
  for (let i = 1; i < args.length; i += 1) {
    const word = args[i];
    if (word === undefined) return undefined;
    if (!word.startsWith("-"))
      return { language, code: word, stdin: false, operands: literalWords(args.slice(i + 1)) };
    if (DENO_EVAL_VALUED.includes(word)) i += 1;
  }
  return undefined;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
const JS_RUNTIMES = new Set(["node", "nodejs", "tsx", "ts-node", "bun"]);

/**
 * Which interpreter an argv runs and where its script is, wrappers stripped; undefined for
 * anything else (`python -m pytest`, `node script.js`, `ls`).
 */
export function inlineScriptOf(argv: Argv): InlineScript | undefined {
  const command = unwrapCommand(argv);
  const first = command[0];
  if (first === undefined) return undefined;
  const name = baseName(first);
  const args = command.slice(1);
  if (name === "eval") {
    const words = literalWords(args);
    if (words.length === 0 || words.length < args.length) return undefined;
    return { language: "shell", code: words.join(" "), stdin: false, operands: [] };
  }
  if (SHELLS.has(name)) return readInterpreter(args, SHELL_FLAGS);
  if (/^(?:python|pypy)(?:\d+(?:\.\d+)*)?$/.test(name)) return readInterpreter(args, PYTHON_FLAGS);
  if (name === "deno") return denoScript(args);
  if (JS_RUNTIMES.has(name))
    return readInterpreter(name === "bun" && args[0] === "run" ? args.slice(1) : args, NODE_FLAGS);
  if (/^perl(?:\d[\d.]*)?$/.test(name)) return readInterpreter(args, PERL_FLAGS);
  if (/^ruby(?:\d[\d.]*)?$/.test(name)) return readInterpreter(args, RUBY_FLAGS);
  return undefined;
}
