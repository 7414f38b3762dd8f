import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { Node as SyntaxNode, Parser as TreeParser } from "web-tree-sitter";
import { inlineScriptOf } from "../inline-script.ts";
import { parsePatchFiles, patchEffects } from "../patch.ts";
import { findScriptWrites } from "../script-writes.ts";
import { mayWriteFiles } from "../shell-words.ts";
import { V8_FLAGS_MARK } from "./code-cache.ts";
import { ownEntry } from "../lookup.ts";

/**
 * The files a shell command writes, read from a real bash syntax tree (tree-sitter-bash, run as
 * WebAssembly so nothing native is built). Only literal file names count: a target built from a
 * variable or a command substitution cannot be known before the command runs, and the end-of-turn
 * sweep catches what it wrote. Inline interpreter scripts (`python3 -c`, `node -e`, `perl -e`,
 * `ruby -e`, `deno eval`, a script on stdin from a heredoc, a here-string or `echo … |`) are read
 * by `findScriptWrites`; `bash -c '…'`, `sh <<EOF`, `eval '…'` and the literal commands such a
 * script runs (`os.system('…')`, `execSync('…')`) are parsed again as bash.
 */
export interface ShellWrites {
  written: string[];
  deleted: string[];
  /** The command did not parse cleanly; what was found is still reported. */
  partial: boolean;
}

let parserPromise: Promise<TreeParser> | undefined;

/** The bundled adapters ship both .wasm files beside their hook; source runs resolve them. */
function locateWasm(name: string, specifier: string): string {
  const beside = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve(specifier);
}

async function loadParser(): Promise<TreeParser> {
  // A hook is a short-lived process. With V8's default tiering the grammar's WebAssembly gets an
  // optimising compile that held a 2-core machine ~1.1 s before the next state write; the
  // baseline compiler parses just as well (a Codex Bash PostToolUse: 1.5 s → 0.4 s).
  setFlagsFromString("--liftoff-only");
  // The hook launcher keeps no code cache made under flags its next load will not have.
  (process as unknown as Record<symbol, unknown>)[V8_FLAGS_MARK] = "--liftoff-only";
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init({
    locateFile: () => locateWasm("tree-sitter.wasm", "web-tree-sitter/tree-sitter.wasm"),
  });
  const bash = await Language.load(
    locateWasm("tree-sitter-bash.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"),
  );
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/** Parses a bash command line once per process (the grammar loads on first use). */
export async function parseShell(command: string): Promise<SyntaxNode> {
  parserPromise ??= loadParser();
  const parser = await parserPromise;
  const tree = parser.parse(command);
  if (tree === null) throw new Error("the bash parser returned no tree");
  return tree.rootNode;
}

const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>"]);

export async function findShellWrites(command: string): Promise<ShellWrites> {
  // A command none of whose words can write (`git status`, `ls -la`) never loads the grammar.
  if (!mayWriteFiles(command)) return { written: [], deleted: [], partial: false };
  return parseShellWrites(command);
}

/** What the parser alone finds, with no word check first (shell-words.test.ts compares the two). */
export async function parseShellWrites(command: string): Promise<ShellWrites> {
  const writes = await collectShellWrites(command, 0);
  return {
    written: unique(writes.written),
    deleted: unique(writes.deleted),
    partial: writes.partial,
  };
}

async function collectShellWrites(command: string, nesting: number): Promise<ShellWrites> {
  const root = await parseShell(command);
  const writes: ShellWrites = { written: [], deleted: [], partial: root.hasError };
  const nested: string[] = [];
  visit(root, (node) => {
    if (node.type === "file_redirect") collectRedirect(node, writes.written);
    else if (node.type === "command") {
      collectCommand(node, writes.written, writes.deleted);
      collectInlineScript(node, writes, nested);
    }
  });
  if (nesting >= MAX_SHELL_NESTING) return writes;
  for (const script of nested) {
    const inner = await collectShellWrites(script, nesting + 1);
    writes.written.push(...inner.written);
    writes.deleted.push(...inner.deleted);
    writes.partial ||= inner.partial;
  }
  return writes;
}

function visit(node: SyntaxNode, onNode: (node: SyntaxNode) => void): void {
  onNode(node);
  for (const child of node.namedChildren) if (child !== null) visit(child, onNode);
}

function collectRedirect(node: SyntaxNode, written: string[]): void {
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type;
  if (operator === undefined || !WRITE_REDIRECTS.has(operator)) return;
  const target = literalOf(node.childForFieldName("destination"));
  if (target !== undefined && !target.startsWith("/dev/")) written.push(target);
}

/** A word's value when it is a plain literal (quotes removed), else undefined. */
export function literalOf(node: SyntaxNode | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case "word":
      return node.text.replace(/\\(.)/g, "$1");
    case "number": // `timeout 60`, `head -n 5`: a word of digits
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string": {
      const parts = node.namedChildren;
      if (parts.some((part) => part?.type !== "string_content")) return undefined;
      return node.text.slice(1, -1).replace(/\\(["\\$`])/g, "$1");
    }
    case "concatenation": {
      const values = node.namedChildren.map((part) => literalOf(part));
      return values.some((value) => value === undefined) ? undefined : values.join("");
    }
    default:
      return undefined;
  }
}

function commandParts(node: SyntaxNode): { name: string | undefined; args: SyntaxNode[] } {
  const name = literalOf(node.childForFieldName("name")?.firstNamedChild);
  const args = node.childrenForFieldName("argument").filter((arg) => arg !== null);
  return { name: name?.split("/").pop(), args };
}

interface CommandWords {
  operands: readonly string[];
  values: readonly (string | undefined)[];
  written: string[];
  deleted: string[];
}

/** Commands whose effect on files is read straight from their operands. */
const SIMPLE_EFFECTS: Readonly<Record<string, (words: CommandWords) => void>> = {
  rm: ({ operands, deleted }) => deleted.push(...operands),
  unlink: ({ operands, deleted }) => deleted.push(...operands),
  shred: ({ operands, deleted }) => deleted.push(...operands),
  touch: ({ operands, written }) => written.push(...operands),
  truncate: ({ values, written }) => written.push(...truncateFiles(values)),
  git: ({ operands, values, written, deleted }) => {
    collectGit(operands, values, written, deleted);
  },
};

function collectCommand(node: SyntaxNode, written: string[], deleted: string[]): void {
  const { name, args } = commandParts(node);
  if (name === undefined) return;
  const values = args.map((arg) => literalOf(arg));
  const operands = values.filter(
    (value, index): value is string => value !== undefined && !isOption(args[index], value),
  );
  const simple = ownEntry(SIMPLE_EFFECTS, name);
  if (simple !== undefined) {
    simple({ operands, values, written, deleted });
    return;
  }
  switch (name) {
    case "tee":
      written.push(...operands);
      return;
    case "sed":
    case "perl":
      if (values.some((value) => value !== undefined && isInPlaceFlag(name, value)))
        written.push(...inPlaceFiles(args, values));
      return;
    case "cp":
    case "mv":
    case "install":
    case "ln": {
      const target = operands.at(-1);
      if (operands.length >= 2 && target !== undefined) {
        const sources = operands.slice(0, -1);
        // `cp a b dir/` puts each source inside the folder; `cp a b` writes b.
        if (target.endsWith("/") || sources.length > 1)
          written.push(
            ...sources.map((source) => `${target.replace(/\/+$/, "")}/${basename(source)}`),
          );
        else written.push(target);
        if (name === "mv") deleted.push(...sources);
      }
      return;
    }
    case "apply_patch":
    case "applypatch":
      collectPatch(node, args, written, deleted);
      return;
    default:
      return;
  }
}

/** `truncate -s 0 a.py -r ref b.py`: the files, not the values of -s/-r. */
function truncateFiles(values: readonly (string | undefined)[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (/^-(s|r|-size|-reference)$/.test(value)) i += 1;
    else if (!value.startsWith("-")) files.push(value);
  }
  return files;
}

/**
 * git's subcommands that change working-tree files by name: `git rm`, `git mv`, and
 * `git checkout [<tree>] -- <files>` / `git restore <files>` (which overwrite them).
 */
function collectGit(
  operands: readonly string[],
  values: readonly (string | undefined)[],
  written: string[],
  deleted: string[],
): void {
  const [sub, ...rest] = operands;
  const dashes = values.indexOf("--");
  const afterDashes =
    dashes === -1 ? [] : values.slice(dashes + 1).filter((v): v is string => v !== undefined);
  switch (sub) {
    case "rm":
      deleted.push(...rest);
      return;
    case "mv": {
      const target = rest.at(-1);
      if (rest.length >= 2 && target !== undefined) {
        written.push(target);
        deleted.push(...rest.slice(0, -1));
      }
      return;
    }
    case "restore":
      written.push(...rest);
      return;
    case "checkout":
      // `git checkout main` switches branches; `-- <files>`, or `<tree> <files>`, overwrite files.
      written.push(...(dashes === -1 ? rest.slice(1) : afterDashes));
      return;
    default:
      return;
  }
}

/** `apply_patch <<'EOF' … EOF` or `apply_patch "$(cat …)"`: the patch is the heredoc or the argument. */
function collectPatch(
  node: SyntaxNode,
  args: SyntaxNode[],
  written: string[],
  deleted: string[],
): void {
  const texts = args.map((arg) => literalOf(arg) ?? arg.text);
  const statement = node.parent?.type === "redirected_statement" ? node.parent : undefined;
  for (const redirect of statement?.namedChildren ?? []) {
    if (redirect?.type !== "heredoc_redirect") continue;
    const body = redirect.namedChildren.find((child) => child?.type === "heredoc_body");
    if (body !== undefined && body !== null) texts.push(body.text);
  }
  const effects = patchEffects(texts.flatMap((text) => parsePatchFiles(text)));
  written.push(...effects.written);
  deleted.push(...effects.deleted);
}

/**
 * A word as the program it carries: its literal value, or for a double-quoted string with
 * expansions (`"open('$F','w')"`) the text between the quotes, left for the script reader to
 * find what is literal in it; undefined for anything else.
 */
function scriptWordOf(node: SyntaxNode | null | undefined): string | undefined {
  const literal = literalOf(node);
  if (literal !== undefined) return literal;
  if (node?.type === "ansi_c_string") return unescapeAnsiC(node.text.slice(2, -1));
  if (node?.type !== "string") return undefined;
  return node.text.slice(1, -1).replace(/\\(["\\$`])/g, "$1");
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r" };

/** `$'…'`: the escapes a script's text depends on (newlines, quotes, backslashes). */
function unescapeAnsiC(text: string): string {
  return text.replace(
    /\\(.)/g,
    (whole, ch: string) => ANSI_C_ESCAPES[ch] ?? (/\w/.test(ch) ? whole : ch),
  );
}

/** `python3 -c '…'`, `node -e`, `bash -c`, `python3 - <<EOF`: what the script writes. */
function collectInlineScript(node: SyntaxNode, writes: ShellWrites, nested: string[]): void {
  const name = node.childForFieldName("name")?.firstNamedChild;
  const args = node.childrenForFieldName("argument").filter((arg) => arg !== null);
  const inline = inlineScriptOf([literalOf(name), ...args.map((arg) => scriptWordOf(arg))]);
  if (inline === undefined) return;
  const code = inline.code ?? (inline.stdin ? stdinScriptOf(node) : undefined);
  if (code === undefined) return;
  if (inline.language === "shell") {
    nested.push(code);
    return;
  }
  const found = findScriptWrites(inline.language, code, inline.operands);
  writes.written.push(...found.written);
  writes.deleted.push(...found.deleted);
  nested.push(...found.commands);
}

/**
 * What a command reads on stdin when it is written out in the command line: its here-string
 * (`<<< "…"`), its heredoc, or the text piped to it by `echo`/`printf`, by `cat <<EOF` or by
 * `cat <<< "…"`.
 */
function stdinScriptOf(command: SyntaxNode): string | undefined {
  const herestring = childOfType(command, "herestring_redirect");
  if (herestring !== undefined) return scriptWordOf(herestring.firstNamedChild);
  const heredoc = heredocFeeding(command);
  if (heredoc !== undefined) return heredoc;
  const parent = command.parent;
  if (parent?.type !== "pipeline") return undefined;
  const stages = parent.namedChildren.filter((stage) => stage !== null);
  const at = stages.findIndex((stage) => stage.id === command.id);
  if (at > 0) return producedText(stages[at - 1]);
  // `cat <<'EOF' | python3`: the pipeline sits inside the heredoc redirect of the `cat`.
  const redirect = parent.parent;
  const statement = redirect?.parent;
  if (
    at !== 0 ||
    redirect?.type !== "heredoc_redirect" ||
    statement?.type !== "redirected_statement"
  )
    return undefined;
  return producedText(statement);
}

/** The text `echo x`, `printf x`, `cat <<EOF` or `cat <<< x` writes to stdout. */
function producedText(stage: SyntaxNode | undefined): string | undefined {
  if (stage?.type === "redirected_statement") {
    const body = lastCommandOf(stage.childForFieldName("body"));
    return body?.type === "command" && isBareCat(body) ? heredocOf(stage) : undefined;
  }
  if (stage?.type !== "command") return undefined;
  const { name, args } = commandParts(stage);
  const words = args.map((arg) => scriptWordOf(arg));
  if (words.some((word) => word === undefined)) return undefined;
  const texts = words as string[];
  if (name === "echo") return texts.filter((word, i) => i > 0 || !/^-[neE]+$/.test(word)).join(" ");
  if (name === "printf") return texts.join("\n");
  if (name === "cat" && isBareCat(stage)) {
    const herestring = childOfType(stage, "herestring_redirect");
    return herestring === undefined ? undefined : scriptWordOf(herestring.firstNamedChild);
  }
  return undefined;
}

const COMMAND_LISTS = new Set(["list", "pipeline"]);

/**
 * The heredoc a command reads: tree-sitter hangs `a && b <<EOF` and `a | b <<EOF` on the whole
 * list or pipeline, but the heredoc is the stdin of the command right before it (and wins over
 * a pipe).
 */
function heredocFeeding(command: SyntaxNode): string | undefined {
  let node = command;
  let parent = node.parent;
  while (
    parent !== null &&
    COMMAND_LISTS.has(parent.type) &&
    parent.lastNamedChild?.id === node.id
  ) {
    node = parent;
    parent = parent.parent;
  }
  if (parent?.type !== "redirected_statement") return undefined;
  return parent.childForFieldName("body")?.id === node.id ? heredocOf(parent) : undefined;
}

/** The last command of a list or pipeline (`cd x && cat` → `cat`), or the node itself. */
function lastCommandOf(node: SyntaxNode | null): SyntaxNode | null {
  let current = node;
  while (current !== null && COMMAND_LISTS.has(current.type)) current = current.lastNamedChild;
  return current;
}

function isBareCat(command: SyntaxNode): boolean {
  const { name, args } = commandParts(command);
  return name === "cat" && args.every((arg) => literalOf(arg) === "-");
}

/** The body of a statement's heredoc (`<<-` strips leading tabs, as bash does). */
function heredocOf(statement: SyntaxNode): string | undefined {
  const redirect = childOfType(statement, "heredoc_redirect");
  const body = redirect === undefined ? undefined : childOfType(redirect, "heredoc_body");
  if (redirect === undefined || body === undefined) return undefined;
  const stripTabs = redirect.children.some((child) => child?.type === "<<-");
  return stripTabs ? body.text.replace(/^\t+/gm, "") : body.text;
}

function childOfType(node: SyntaxNode, type: string): SyntaxNode | undefined {
  return node.namedChildren.find((child) => child?.type === type) ?? undefined;
}

const SCRIPT_OPTIONS = new Set(["-e", "-f", "--expression", "--file"]);

/** `sed -i [-e script | -f file]… files`: the script is the first operand unless an option gave it. */
function inPlaceFiles(
  args: readonly SyntaxNode[],
  values: readonly (string | undefined)[],
): string[] {
  const files: string[] = [];
  let scriptGiven = false;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (SCRIPT_OPTIONS.has(value) || /^-[a-zA-Z]*e$/.test(value)) {
      scriptGiven = true;
      i += 1;
      continue;
    }
    if (isOption(args[i], value)) continue;
    files.push(value);
  }
  return scriptGiven ? files : files.slice(1);
}

function isOption(node: SyntaxNode | undefined, value: string): boolean {
  return node?.type === "word" && value.startsWith("-") && value !== "-";
}

function isInPlaceFlag(command: "sed" | "perl", value: string): boolean {
  if (value === "--in-place" || value.startsWith("--in-place=")) return command === "sed";
  // -i, -i.bak, -ni, -pi -e …: any short-option cluster containing i.
  return /^-[a-zA-Z]*i/.test(value) && !value.startsWith("--");
}

function basename(path: string): string {
  return path.replace(/\/+$/, "").split("/").pop() ?? path;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** One simple command of a command line and the folder it runs in. */
export interface SimpleCommand {
  /** Words with quotes removed; a word that is not a plain literal (`$X`, `$(…)`) is its raw text. */
  argv: string[];
  /**
   * The folder the `cd`s before it lead to, joined (`cd web && cd src` → "web/src"; back at the
   * start → "."); undefined when no `cd` applies. A `cd` to a non-literal target gives its raw
   * text (`$DIR`), a bare `cd` gives "~".
   */
  cwd: string | undefined;
}

interface ShellScope {
  cwd: string | undefined;
}

const MAX_SHELL_NESTING = 3;
const SHELLS = new Set(["sh", "bash", "zsh", "dash"]);
/** Children that run in a subshell: a `cd` inside them does not change the caller's folder. */
const SUBSHELL_TYPES = new Set([
  "subshell",
  "command_substitution",
  "process_substitution",
  "pipeline",
]);

/**
 * Every simple command of a bash command line in the order they run (a command substitution
 * before the command that uses it), with the folder each runs in: `cd <dir>` carries over
 * `&&`, `||`, `;` and newlines, but not out of a subshell, a pipeline stage or a substitution.
 * `bash -c '<literal>'` (also `sh`, `-lc`) is listed, then the commands inside it. Function
 * bodies are not listed: defining a function runs nothing.
 */
export async function listSimpleCommands(command: string): Promise<SimpleCommand[]> {
  const found: SimpleCommand[] = [];
  await walkCommands(await parseShell(command), { cwd: undefined }, found, 0);
  return found;
}

async function walkCommands(
  node: SyntaxNode,
  scope: ShellScope,
  found: SimpleCommand[],
  nesting: number,
): Promise<void> {
  if (node.type === "function_definition" || node.type === "heredoc_body") return;
  if (node.type === "command") {
    await walkCommand(node, scope, found, nesting);
    return;
  }
  const pipeline = node.type === "pipeline";
  const inner = SUBSHELL_TYPES.has(node.type) && !pipeline ? { ...scope } : scope;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    // Each stage of a pipeline runs in its own subshell.
    await walkCommands(child, pipeline ? { ...scope } : inner, found, nesting);
  }
}

async function walkCommand(
  node: SyntaxNode,
  scope: ShellScope,
  found: SimpleCommand[],
  nesting: number,
): Promise<void> {
  // Substitutions in the words run first, each in a subshell.
  for (const child of node.namedChildren) {
    if (child === null || child.type === "command_name") continue;
    await walkCommands(child, { ...scope }, found, nesting);
  }
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return;
  const args = node.childrenForFieldName("argument").filter((arg) => arg !== null);
  const name = literalOf(nameNode.firstNamedChild) ?? nameNode.text;
  const argv = [name, ...args.map((arg) => literalOf(arg) ?? arg.text)];
  found.push({ argv, cwd: scope.cwd });
  if (name === "cd") {
    scope.cwd = changeDir(scope.cwd, args);
    return;
  }
  const script = shellScript(name, argv);
  if (script !== undefined && nesting < MAX_SHELL_NESTING) {
    await walkCommands(await parseShell(script), { ...scope }, found, nesting + 1);
  }
}

/** The `-c` string of `bash -c '…'`, `sh -lc "…"`, when it is a literal. */
function shellScript(name: string, argv: readonly string[]): string | undefined {
  if (!SHELLS.has(name.split("/").pop() ?? name)) return undefined;
  const flag = argv.findIndex((word, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(word));
  const script = flag === -1 ? undefined : argv[flag + 1];
  return script === undefined || /^\$|^`/.test(script) ? undefined : script;
}

function changeDir(cwd: string | undefined, args: readonly SyntaxNode[]): string {
  const target = args.find((arg) => {
    const value = literalOf(arg);
    return value === undefined || !/^-[LPe@]+$/.test(value);
  });
  if (target === undefined) return "~";
  const literal = literalOf(target);
  if (literal === undefined) return target.text;
  if (literal.startsWith("/") || literal.startsWith("~") || literal === "-") return literal;
  return joinShellPath(cwd ?? "", literal);
}

function joinShellPath(base: string, target: string): string {
  const absolute = base.startsWith("/");
  const parts: string[] = [];
  for (const part of `${base}/${target}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(part);
  }
  const joined = parts.join("/");
  if (absolute) return `/${joined}`;
  return joined === "" ? "." : joined;
}
