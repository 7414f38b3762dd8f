import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { Node as SyntaxNode, Parser as TreeParser } from "web-tree-sitter";
import { parsePatchFiles, patchEffects } from "../patch.ts";

/**
 * The files a shell command writes, read from a real bash syntax tree (tree-sitter-bash, run as
 * WebAssembly so nothing native is built). Only literal file names count: a target built from a
 * variable or a command substitution cannot be known before the command runs, and the end-of-turn
 * sweep catches what it wrote.
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
  const root = await parseShell(command);
  const written: string[] = [];
  const deleted: string[] = [];
  visit(root, (node) => {
    if (node.type === "file_redirect") collectRedirect(node, written);
    else if (node.type === "command") collectCommand(node, written, deleted);
  });
  return { written: unique(written), deleted: unique(deleted), partial: root.hasError };
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

function collectCommand(node: SyntaxNode, written: string[], deleted: string[]): void {
  const { name, args } = commandParts(node);
  if (name === undefined) return;
  const values = args.map((arg) => literalOf(arg));
  const operands = values.filter(
    (value, index): value is string => value !== undefined && !isOption(args[index], value),
  );
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
    case "rm":
      deleted.push(...operands);
      return;
    case "apply_patch":
    case "applypatch":
      collectPatch(node, args, written, deleted);
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
