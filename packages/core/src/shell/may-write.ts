/**
 * Whether a shell command could write or delete a file by the shell parser's own rules
 * (`node/bash-parser.ts`), told from its words alone: a follow-mode hook sees every command the agent
 * runs (`git status`, `ls`, `npm test`), and loading the bash grammar as WebAssembly costs such a
 * hook ~3× `node -e 0`, for commands that cannot write anything the parser would report.
 *
 * It answers false only when the parser could find nothing, so nothing is missed; it may answer
 * true for a command that writes nothing (the parser then says so). What the parser reports comes
 * from exactly three places, each checked here:
 * - a write redirect (`>`, `>>`, `>|`, `&>`, `&>>`) to anything but `/dev/…`;
 * - a command by name (`rm`, `tee`, `sed`, `cp`, `git rm`/`mv`/`restore`/`checkout`, …);
 * - an inline script (`python -c`, `node -e`, `bash -c`, `eval`, a script on stdin from a heredoc,
 *   a here-string or a pipe), which is read for the files it writes.
 * shell-words.test.ts holds this to the parser on a corpus and on generated commands.
 */

/** Command names whose operands the parser reads as written or deleted files. */
const WRITER_WORDS = new Set([
  "rm",
  "unlink",
  "shred",
  "touch",
  "truncate",
  "tee",
  "sed",
  "perl",
  "cp",
  "mv",
  "install",
  "ln",
  "apply_patch",
  "applypatch",
  "dd",
  "curl",
  "wget",
  "patch",
  "rsync",
  "ed",
  "red",
  "ex",
  "vi",
  "vim",
  "nvim",
  "view",
  "inplace",
  // find's own writes (`-exec rm` is caught by rm).
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
  // git's file-writing subcommands (`git rm` and `git mv` are caught by their own words).
  "restore",
  "checkout",
  "checkout-index",
  // A shell's own re-reading of words as a command.
  "eval",
]);

/** Interpreters whose inline scripts the parser reads (node/bash-parser.ts, inline-interpreter.ts). */
const INTERPRETER =
  /^(?:sh|bash|zsh|dash|ksh|deno|node|nodejs|tsx|ts-node|bun|(?:python|pypy)(?:\d+(?:\.\d+)*)?|perl(?:\d[\d.]*)?|ruby(?:\d[\d.]*)?)$/;

/** An interpreter's script other than a file: a code flag (`-c`, `-e`, `--eval`…), `-`, `<`. */
const INLINE_SCRIPT = /(^|\s)-[\w-]*[cepEP]|(^|\s)-(\s|$)|</;

export function mayWriteFiles(command: string): boolean {
  // `$'\x72m'` spells any word, and an awk program writes with `system("…")` or a pipe.
  if (command.includes("$'") || /\bsystem\s*\(|\|\s*"/.test(command)) return true;
  // Quotes and backslashes never stop a name from being one (`r\m`, `"rm"`, `'t'ee`).
  const text = command.replace(/[\\"'`]/g, "");
  const words = text.match(/[A-Za-z0-9_.+-]+/g) ?? [];
  if (words.some((word) => WRITER_WORDS.has(word))) return true;
  if (hasWriteRedirect(text)) return true;
  return interpreterReadsScript(text) || writesAnOutputFile(text);
}

/** Programs that write the file an `-o`/`--output` option names (`sort -o f`, `strace -o f`). */
const OUTPUT_OPTION_WRITERS = new Set(["sort", "shuf", "iconv", "strace", "ltrace"]);
/** Programs whose second operand is the file they write (`uniq in out`, `xxd -r in out`). */
const SECOND_OPERAND_WRITERS = new Set(["uniq", "xxd"]);

/**
 * A stage that runs a program writing a file its words name: `sort`/`shuf`/`iconv`/`strace`
 * with an output option, `uniq`/`xxd` with two operands, any `tar` (a creating tar's archive).
 * A bare `… | sort | uniq` answers false: the shell parser is not loaded for it.
 */
function writesAnOutputFile(text: string): boolean {
  for (const stage of text.split(/\|\||&&|;|\n|\|&?/)) {
    const words = stage.trim().split(/\s+/);
    for (const [i, word] of words.entries()) {
      const name = word.split("/").pop() ?? word;
      const rest = words.slice(i + 1);
      if (name === "tar") return true;
      if (OUTPUT_OPTION_WRITERS.has(name) && rest.some((one) => /^(-o|--output)/.test(one)))
        return true;
      if (
        SECOND_OPERAND_WRITERS.has(name) &&
        rest.filter((one) => one === "-" || !one.startsWith("-")).length > 1
      )
        return true;
    }
  }
  return false;
}

/**
 * An interpreter in a stage of the command that gets its script inline: from a flag, from `-` or
 * a redirect, or from the stage before it in a pipeline (`echo … | python3`).
 */
function interpreterReadsScript(text: string): boolean {
  const parts = text.split(/(\|\||&&|;|\n|\|&?)/);
  let piped = false;
  for (let i = 0; i < parts.length; i += 2) {
    const stage = parts[i] ?? "";
    const words = stage.match(/[A-Za-z0-9_.+-]+/g) ?? [];
    if (words.some((word) => INTERPRETER.test(word)) && (piped || INLINE_SCRIPT.test(stage)))
      return true;
    const separator = parts[i + 1];
    piped = separator === "|" || separator === "|&";
  }
  return false;
}

/** A `>` left once descriptor copies (`2>&1`, `>&2`) and writes to /dev/… are taken out. */
function hasWriteRedirect(text: string): boolean {
  if (/>&\s*[^\d\s&-]/.test(text)) return true; // `>&file`, bash's `&>file`
  const rest = text.replace(/\d*>&\d*-?/g, " ").replace(/(?:\d*|&)>>?\|?\s*\/dev\/[\w/.-]*/g, " ");
  return rest.includes(">");
}
