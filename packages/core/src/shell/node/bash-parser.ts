import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Node as SyntaxNode, Parser as TreeParser, TreeCursor } from "web-tree-sitter";
import { inlineScriptOf, unwrapOnce, type Argv } from "../inline-interpreter.ts";
import { parsePatchFiles, patchEffects } from "../../hook/apply-patch.ts";
import { findScriptWrites } from "../inline-script-writes.ts";
import { mayWriteFiles } from "../may-write.ts";
import { addV8Flags } from "../../hook/node/code-cache.ts";
import { ownEntry } from "../../util/own-entry.ts";

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
  /**
   * Files written only if their folder exists when the command runs: `cp a.py src` writes
   * `src/a.py` when `src` is a folder (and `src` itself when it is not, which `written` holds).
   */
  into?: string[];
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
  // A hook's shell routes set it before the bundle loads (code-cache.ts); the hook launcher
  // keeps no code cache made under flags its next load will not have.
  addV8Flags(["--liftoff-only"]);
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init({
    locateFile: () => locateWasm("tree-sitter.wasm", "web-tree-sitter/tree-sitter.wasm"),
  });
  const grammar = readReleasable(
    locateWasm("tree-sitter-bash.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"),
  );
  let bash: Awaited<ReturnType<typeof Language.load>>;
  try {
    bash = await Language.load(grammar.bytes);
  } finally {
    grammar.release();
  }
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/** ES2024's resizable ArrayBuffer: Node 20 has it, the ES2023 library the project uses does not. */
const ResizableBuffer = ArrayBuffer as unknown as new (
  length: number,
  options: { maxByteLength: number },
) => ArrayBuffer & { resize(length: number): void };

/**
 * A file's bytes in memory the process can hand back. web-tree-sitter's loader keeps the bytes
 * of a grammar it loaded alive for the rest of the process (its scope holds a direct `eval`, so
 * every closure it leaves keeps every variable), and V8 compiles from a copy of its own: the
 * bash grammar's 1.3 MB stayed resident through the first parse, the hook's peak (ADR 0010).
 * Read into a resizable ArrayBuffer, they are given back to the system by `release` (a resize
 * to nothing), whatever still refers to the buffer.
 */
export function readReleasable(path: string): { bytes: Uint8Array; release(): void } {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const buffer = new ResizableBuffer(size, { maxByteLength: size });
    const bytes = new Uint8Array(buffer);
    for (let read = 0; read < size;) {
      const count = readSync(fd, bytes, read, size - read, read);
      if (count === 0) throw new Error(`${basename(path)} ended after ${read} of ${size} bytes`);
      read += count;
    }
    return { bytes, release: () => buffer.resize(0) };
  } finally {
    closeSync(fd);
  }
}

/** Parses a bash command line once per process (the grammar loads on first use). */
export async function parseShell(command: string): Promise<SyntaxNode> {
  parserPromise ??= loadParser();
  const parser = await parserPromise;
  const tree = parser.parse(command);
  if (tree === null) throw new Error("the bash parser returned no tree");
  const cursor = tree.walk();
  let depth: number;
  try {
    depth = depthOf(cursor);
  } finally {
    cursor.delete();
  }
  if (depth > MAX_TREE_DEPTH)
    throw new Error(`the command nests deeper than ${MAX_TREE_DEPTH} levels, too deep to read`);
  return tree.rootNode;
}

/**
 * Commands nested deeper than this are not read: the walks below recurse (some through
 * promises), and a stack that runs out inside a promise makes V8 print kilobytes of the bundle's
 * source on stderr. Real commands nest a few levels; a gate that cannot read one denies it.
 */
const MAX_TREE_DEPTH = 400;

/** The deepest node's depth, walked with a cursor (no recursion: the tree may be any depth). */
function depthOf(cursor: TreeCursor): number {
  let depth = 0;
  let deepest = 0;
  for (;;) {
    if (cursor.gotoFirstChild()) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_TREE_DEPTH) return deepest;
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return deepest;
      depth -= 1;
    }
  }
}

export async function findShellWrites(command: string): Promise<ShellWrites> {
  // A command none of whose words can write (`git status`, `ls -la`) never loads the grammar.
  if (!mayWriteFiles(command)) return { written: [], deleted: [], into: [], partial: false };
  return parseShellWrites(command);
}

/** What the parser alone finds, with no word check first (shell-words.test.ts compares the two). */
export async function parseShellWrites(command: string): Promise<ShellWrites> {
  const writes = await collectShellWrites(command, 0);
  return {
    written: unique(writes.written),
    deleted: unique(writes.deleted),
    into: unique(writes.into ?? []),
    partial: writes.partial,
  };
}

async function collectShellWrites(command: string, nesting: number): Promise<ShellWrites> {
  const root = await parseShell(command);
  const partial = root.hasError && hasRealError(root);
  const writes: ShellWrites = { written: [], deleted: [], into: [], partial };
  const nested: string[] = [];
  visit(root, (node) => {
    if (node.type === "file_redirect") collectRedirect(node, writes.written);
    else if (node.type === "command") {
      collectCommand(node, writes, nested);
      collectInlineScript(node, writes, nested);
    }
  });
  if (nesting >= MAX_SHELL_NESTING) return writes;
  for (const script of nested) {
    const inner = await collectShellWrites(script, nesting + 1);
    writes.written.push(...inner.written);
    writes.deleted.push(...inner.deleted);
    writes.into?.push(...(inner.into ?? []));
    writes.partial ||= inner.partial;
  }
  return writes;
}

/** A parse error other than the grammar's one gap: bash's `<>` redirect (`1<>file`). */
function hasRealError(node: SyntaxNode): boolean {
  if (node.isMissing) return true;
  if (node.type === "ERROR") return !(node.parent?.type === "file_redirect" && node.text === ">");
  return node.children.some((child) => child !== null && child.hasError && hasRealError(child));
}

function visit(node: SyntaxNode, onNode: (node: SyntaxNode) => void): void {
  onNode(node);
  for (const child of node.namedChildren) if (child !== null) visit(child, onNode);
}

/**
 * A redirect that opens its file for writing: `>`, `>>`, `>|`, `&>`, `&>>`, `<>` (read-write,
 * `1<>file`), `>&file` (bash's `&>`); a descriptor copy (`>&2`, `2>&1`, `>&-`) writes no file.
 */
function collectRedirect(node: SyntaxNode, written: string[]): void {
  const destination = node.childForFieldName("destination");
  if (destination === null) return;
  const descriptor = node.childForFieldName("descriptor");
  const from = descriptor === null ? node.startIndex : descriptor.endIndex;
  const operator = node.text.slice(
    from - node.startIndex,
    destination.startIndex - node.startIndex,
  );
  if (!operator.includes(">")) return;
  const target = literalOf(destination);
  if (target === undefined || target.startsWith("/dev/")) return;
  if (operator.includes(">&") && !operator.includes("&>") && /^(\d+|-)$/.test(target)) return;
  written.push(target);
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
    case "ansi_c_string":
      return decodeAnsiC(node.text.slice(2, -1));
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

/** Where one command's effects go, and the command node (for its heredoc or stdin). */
interface Effects {
  node: SyntaxNode;
  writes: ShellWrites;
  /** Shell scripts to parse again (`env -S '…'`, `git -c alias.x='!…'`, awk's `system("…")`). */
  nested: string[];
}

interface CommandWords {
  name: string;
  operands: readonly string[];
  values: readonly (string | undefined)[];
  written: string[];
  deleted: string[];
  into: string[];
  effects: Effects;
  depth: number;
}

const MAX_WRAPPERS = 4;

/** Editors run from a command line (`ed`, `ex`, `vim -es`): every file they are given. */
const EDITORS = "ed red ex vi vim nvim view vim.basic vim.tiny".split(" ");
const EDITOR_VALUED = new Set("-c --cmd -S -u -U -i -T -w -W -t -q -p".split(" "));
const AWKS = ["awk", "gawk", "mawk", "nawk"];
const COPIERS = ["cp", "mv", "install", "ln", "rsync"];

type Effect = (words: CommandWords) => void;

const editorEffect: Effect = ({ values, written }) => written.push(...editorFiles(values));
const awkEffect: Effect = ({ values, effects }) => collectAwk(values, effects);
const copyEffect: Effect = ({ name, values, written, deleted, into }) =>
  collectCopy(name, values, written, deleted, into);
const inPlaceEffect: Effect = ({ name, values, written }) => {
  const tool = name === "perl" ? "perl" : "sed";
  if (values.some((value) => value !== undefined && isInPlaceFlag(tool, value)))
    written.push(...inPlaceFiles(values));
};
const patchToolEffect: Effect = ({ effects, written, deleted }) =>
  collectPatch(effects.node, written, deleted);

/**
 * Programs that write the file an option names (`sort -o f`, `shuf --output=f`, `iconv -o f`,
 * `strace -o f cmd`): the short option (also glued, `-of`) and the long one (`--output=f`).
 */
const OUTPUT_OPTIONS: Readonly<Record<string, readonly [string, string]>> = {
  sort: ["-o", "--output"],
  shuf: ["-o", "--output"],
  iconv: ["-o", "--output"],
  strace: ["-o", "--output"],
  ltrace: ["-o", "--output"],
};

/** The files an output option names in `values`. */
export function outputOptionFiles(
  values: readonly (string | undefined)[],
  [short, long]: readonly [string, string],
): string[] {
  const files: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (value === "--") break;
    const next = values[i + 1];
    if ((value === short || value === long) && next !== undefined) files.push(next);
    else if (value.startsWith(`${long}=`)) files.push(value.slice(long.length + 1));
    else if (value.startsWith(short) && value.length > short.length && !value.startsWith("--"))
      files.push(value.slice(short.length));
  }
  return files;
}

/** The options of `uniq` and `xxd` that take the next word as their value. */
const SECOND_OPERAND_VALUED: Readonly<Record<string, readonly string[]>> = {
  uniq: ["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"],
  xxd: ["-c", "-g", "-l", "-o", "-s", "-n", "-cols", "-groupsize", "-len", "-seek", "-name"],
};

/** `uniq in out`, `xxd [-r] in out`: the second operand is written. */
const secondOperandEffect: Effect = ({ name, values, written }) => {
  const valued = ownEntry(SECOND_OPERAND_VALUED, name) ?? [];
  const operands: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) return;
    if (valued.includes(value)) i += 1;
    else if (!value.startsWith("-") || value === "-") operands.push(value);
  }
  const out = operands[1];
  if (out !== undefined && out !== "-") written.push(out);
};

/**
 * `tar -cf out.tar …`, `tar czf out …`, `tar --create --file=out …`: the archive a creating tar
 * writes (extracting is judged at the end of the turn: the words do not say what it holds).
 */
function tarArchive(values: readonly (string | undefined)[]): string[] {
  const words = values.filter((value): value is string => value !== undefined);
  const first = words[0];
  // The old form's first word is a cluster without a dash (`tar cf out.tar …`).
  const clusters = words.flatMap((word, i) =>
    /^-[A-Za-z]+$/.test(word) || (i === 0 && /^[A-Za-z]+$/.test(word))
      ? [{ letters: word.replace(/^-/, ""), i }]
      : [],
  );
  const creates =
    words.includes("--create") || clusters.some(({ letters }) => /[cr]/.test(letters));
  if (!creates || first === undefined) return [];
  const files: string[] = [];
  for (const { letters, i } of clusters) {
    const at = letters.indexOf("f");
    if (at === -1) continue;
    // `-fout.tar` glues the value; `-cf out.tar` takes the next word.
    const glued = letters.slice(at + 1);
    const value = at === letters.length - 1 ? words[i + 1] : glued;
    if (value !== undefined && value !== "-") files.push(value);
  }
  for (const [i, word] of words.entries()) {
    if (word.startsWith("--file=")) files.push(word.slice("--file=".length));
    else if (word === "--file" && words[i + 1] !== undefined) files.push(words[i + 1] as string);
  }
  return files;
}

/** Commands whose effect on files is read from their words, by name. */
const EFFECTS: Readonly<Record<string, Effect>> = {
  uniq: secondOperandEffect,
  xxd: secondOperandEffect,
  tar: ({ values, written }) => written.push(...tarArchive(values)),
  rm: ({ operands, deleted }) => deleted.push(...operands),
  unlink: ({ operands, deleted }) => deleted.push(...operands),
  shred: ({ operands, deleted }) => deleted.push(...operands),
  touch: ({ operands, written }) => written.push(...operands),
  truncate: ({ values, written }) => written.push(...truncateFiles(values)),
  tee: ({ operands, written }) => written.push(...operands),
  dd: ({ operands, written }) =>
    written.push(...operands.flatMap((word) => (word.startsWith("of=") ? [word.slice(3)] : []))),
  curl: ({ values, written }) => written.push(...curlFiles(values)),
  wget: ({ values, written }) => written.push(...wgetFiles(values)),
  patch: ({ values, written }) => written.push(...patchFiles(values)),
  sed: inPlaceEffect,
  perl: inPlaceEffect,
  git: ({ values, effects }) => collectGit(values, effects),
  apply_patch: patchToolEffect,
  applypatch: patchToolEffect,
  xargs: ({ values, effects, depth }) => {
    const command = xargsCommand(values);
    if (command !== undefined)
      collectEffects([...command, ...stdinWords(effects.node)], effects, depth + 1);
  },
  find: ({ values, effects, depth }) => collectFind(values, effects, depth),
  ...Object.fromEntries(EDITORS.map((name) => [name, editorEffect])),
  ...Object.fromEntries(AWKS.map((name) => [name, awkEffect])),
  ...Object.fromEntries(COPIERS.map((name) => [name, copyEffect])),
};

function collectCommand(node: SyntaxNode, writes: ShellWrites, nested: string[]): void {
  const name = literalOf(node.childForFieldName("name")?.firstNamedChild);
  const args = node.childrenForFieldName("argument").filter((arg) => arg !== null);
  collectEffects([name, ...args.map((arg) => literalOf(arg))], { node, writes, nested }, 0);
}

/** The effects of one command's words, through wrappers (`env`, `timeout`, `xargs`, `find`). */
function collectEffects(argv: Argv, effects: Effects, depth: number): void {
  const first = argv[0];
  if (first === undefined || depth > MAX_WRAPPERS) return;
  const name = first.split("/").pop() ?? first;
  const values = argv.slice(1);
  // `env -S 'cmd args'` splits its string into a command line.
  const split = values.findIndex((word) => word === "-S" || word === "--split-string");
  const script = name === "env" && split !== -1 ? values[split + 1] : undefined;
  if (script !== undefined) effects.nested.push(script);
  const output = ownEntry(OUTPUT_OPTIONS, name);
  if (output !== undefined) effects.writes.written.push(...outputOptionFiles(values, output));
  const inner = unwrapOnce(argv);
  if (inner !== undefined) {
    collectEffects(inner, effects, depth + 1);
    return;
  }
  const operands = values.filter(
    (value): value is string => value !== undefined && !isOptionWord(value),
  );
  const { written, deleted } = effects.writes;
  const into = effects.writes.into ?? [];
  ownEntry(EFFECTS, name)?.({ name, operands, values, written, deleted, into, effects, depth });
}

/**
 * `cp a b`, `cp a b dir/`, `cp -t dir a b`, `mv --target-directory=dir a`: each source lands in
 * the folder; with one source and no folder option the target is the file, or, when it is a
 * folder, the source's name in it (`into`, settled when the command is judged).
 */
function collectCopy(
  name: string,
  values: readonly (string | undefined)[],
  written: string[],
  deleted: string[],
  into: string[],
): void {
  const { folder, noFolder, operands } = copyWords(values);
  const sources = folder === undefined ? operands.slice(0, -1) : operands;
  const target = folder ?? operands.at(-1);
  if (target === undefined || sources.length === 0) return;
  // `rsync a/ dst` and `cp -r a/. dst` copy what is in `a`, whose names the words do not say:
  // the target folder stands for them (the gate reads it as the files under it).
  const contents = (source: string) =>
    (name === "rsync" && source.endsWith("/")) || /\/\.\/?$/.test(source);
  const inFolder = (source: string) =>
    contents(source) ? target : `${target.replace(/\/+$/, "")}/${basename(source)}`;
  if (folder !== undefined || target.endsWith("/") || sources.length > 1)
    written.push(...sources.map(inFolder));
  else {
    written.push(target);
    if (!noFolder) into.push(...sources.map(inFolder));
  }
  if (name === "mv") deleted.push(...sources);
}

const COPY_VALUED = /^-(S|m|o|g|-suffix|-mode|-owner|-group)$/;

/** A copier's target folder (`-t`, `--target-directory`), `-T`, and its operands. */
function copyWords(values: readonly (string | undefined)[]) {
  let folder: string | undefined;
  let noFolder = false;
  const operands: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] ?? "";
    const glued = /^-[a-zA-Z]*t(.+)$/.exec(value);
    if (value === "-t" || value === "--target-directory") {
      folder = values[i + 1];
      i += 1;
    } else if (value.startsWith("--target-directory=")) folder = value.slice(19);
    else if (glued !== null && !value.startsWith("--")) folder = glued[1];
    else if (value === "-T" || value === "--no-target-directory") noFolder = true;
    else if (COPY_VALUED.test(value)) i += 1;
    else if (value !== "" && !isOptionWord(value)) operands.push(value);
  }
  return { folder, noFolder, operands };
}

/** `xargs [options] command args…`: the command it runs (its items come on stdin). */
function xargsCommand(values: readonly (string | undefined)[]): Argv | undefined {
  const valued =
    /^-([adEeILlnPs]|-arg-file|-delimiter|-eof|-replace|-max-lines|-max-args|-max-procs|-max-chars|-process-slot-var)$/;
  let i = 0;
  while (i < values.length) {
    const value = values[i];
    if (value === undefined) return undefined;
    if (value === "--") {
      i += 1;
      break;
    }
    if (!value.startsWith("-")) break;
    i += valued.test(value) ? 2 : 1;
  }
  const command = values.slice(i);
  return command.length === 0 ? ["echo"] : command;
}

/** The words a command reads on stdin when that text is in the command line (`echo a b |`). */
function stdinWords(node: SyntaxNode): string[] {
  const text = stdinScriptOf(node);
  return text === undefined ? [] : text.split(/\s+/).filter((word) => word !== "");
}

/**
 * `find <paths> [-name pat] -delete | -exec cmd {} ;`: what `-exec` runs is read with `{}` as
 * a glob for every file under each start path (at any depth) matching the `-name` pattern, which
 * the gate expands against the tree; `-delete` deletes those; `-fprint file` writes file.
 */
function collectFind(values: readonly (string | undefined)[], effects: Effects, depth: number) {
  const starts: string[] = [];
  let i = 0;
  for (; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined || value.startsWith("-") || value === "(" || value === "!") break;
    starts.push(value);
  }
  const actions = findActions(values.slice(i));
  effects.writes.written.push(...actions.printed);
  const patterns = actions.names.length === 0 ? ["*"] : actions.names;
  const matched = (starts.length === 0 ? ["."] : starts).flatMap((start) =>
    patterns.map((pattern) => `${start.replace(/\/+$/, "")}/**/${pattern}`),
  );
  if (actions.deletes) effects.writes.deleted.push(...matched);
  for (const command of actions.commands)
    for (const file of matched)
      collectEffects(
        command.map((word) => word?.replaceAll("{}", file)),
        effects,
        depth + 1,
      );
}

const FIND_NAMES = new Set(["-name", "-iname", "-path", "-ipath", "-wholename"]);
const FIND_PRINTS = new Set(["-fprint", "-fprintf", "-fls", "-fprint0"]);
const FIND_EXECS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** find's expression: the name patterns, `-delete`, `-fprint` files and `-exec` commands. */
function findActions(words: readonly (string | undefined)[]) {
  const names: string[] = [];
  const printed: string[] = [];
  const commands: (string | undefined)[][] = [];
  let deletes = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    const next = words[i + 1];
    if (FIND_NAMES.has(word) || FIND_PRINTS.has(word)) {
      if (next !== undefined && FIND_PRINTS.has(word)) printed.push(next);
      else if (next !== undefined) names.push(word.endsWith("name") ? next : basename(next));
      i += 1;
    } else if (word === "-delete") deletes = true;
    else if (FIND_EXECS.has(word)) {
      const end = words.findIndex((one, k) => k > i && (one === ";" || one === "+"));
      commands.push(words.slice(i + 1, end === -1 ? words.length : end));
      i = end === -1 ? words.length : end;
    }
  }
  return { names, printed, commands, deletes };
}

/** `curl -o file`, `--output file`, `-O` (the URL's last part), `--output-dir dir`. */
function curlFiles(values: readonly (string | undefined)[]): string[] {
  const files: string[] = [];
  const urls: string[] = [];
  let remoteName = false;
  let dir: string | undefined;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (value === "-o" || value === "--output") {
      const file = values[i + 1];
      if (file !== undefined && file !== "-") files.push(file);
      i += 1;
    } else if (/^-o./.test(value)) files.push(value.slice(2));
    else if (value === "--output-dir") {
      dir = values[i + 1];
      i += 1;
    } else if (value === "-O" || value === "--remote-name" || /^-[a-zA-Z]*O$/.test(value))
      remoteName = true;
    else if (/^[a-z]+:\/\//i.test(value)) urls.push(value);
  }
  if (remoteName) files.push(...urls.map(urlName));
  return dir === undefined ? files : files.map((file) => `${dir.replace(/\/+$/, "")}/${file}`);
}

/** `wget url` saves the URL's last part (or `-O file`, `--output-document=file`), under `-P dir`. */
function wgetFiles(values: readonly (string | undefined)[]): string[] {
  let output: string | undefined;
  let dir: string | undefined;
  const urls: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (value === "-O" || value === "--output-document") {
      output = values[i + 1];
      i += 1;
    } else if (value.startsWith("--output-document=")) output = value.slice(18);
    else if (/^-O./.test(value)) output = value.slice(2);
    else if (value === "-P" || value === "--directory-prefix") {
      dir = values[i + 1];
      i += 1;
    } else if (value.startsWith("--directory-prefix=")) dir = value.slice(19);
    else if (/^[a-z]+:\/\//i.test(value)) urls.push(value);
  }
  if (output === "-") return [];
  const files = output === undefined ? urls.map(urlName) : [output];
  return dir === undefined ? files : files.map((file) => `${dir.replace(/\/+$/, "")}/${file}`);
}

function urlName(url: string): string {
  const path = url.replace(/[?#].*$/, "").replace(/^[a-z]+:\/\/[^/]*/i, "");
  const name = path.split("/").pop() ?? "";
  return name === "" ? "index.html" : decodeURIComponentSafe(name);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `patch [options] [file [patchfile]]`: the file, and `-o out`; else the patch names them. */
function patchFiles(values: readonly (string | undefined)[]): string[] {
  const files: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (value === "-o" || value === "--output") {
      const file = values[i + 1];
      if (file !== undefined && file !== "-") files.push(file);
      i += 1;
    } else if (/^-[ipdDrBVYzFg]$|^--(input|directory|reject-file|prefix|suffix)$/.test(value))
      i += 1;
    else if (!isOptionWord(value)) operands.push(value);
  }
  if (operands[0] !== undefined) files.push(operands[0]);
  return files;
}

/** An editor given files on its command line may write each of them. */
function editorFiles(values: readonly (string | undefined)[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined) continue;
    if (EDITOR_VALUED.has(value)) i += 1;
    else if (!isOptionWord(value) && !value.startsWith("+")) files.push(value);
  }
  return files;
}

/**
 * awk's own writes: `print > "file"`, `>> "file"`, a pipe to `"command"` and `system("command")`
 * (parsed again as bash), and gawk's `-i inplace` (every file operand).
 */
function collectAwk(values: readonly (string | undefined)[], effects: Effects): void {
  const { program, inPlace, files } = awkWords(values);
  if (inPlace) effects.writes.written.push(...files);
  if (program === undefined) return;
  for (const match of program.matchAll(/(>>?|\|)\s*"((?:[^"\\]|\\.)*)"/g)) {
    const [, operator, target = ""] = match;
    if (operator === "|") effects.nested.push(target);
    else if (!AWK_STREAMS.has(target)) effects.writes.written.push(target);
  }
  for (const match of program.matchAll(/\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)/g))
    effects.nested.push(match[1] ?? "");
}

const AWK_STREAMS = new Set(["/dev/stdout", "/dev/stderr", "-"]);
const AWK_PROGRAM_FILE = new Set(["-f", "--file", "-E", "--exec"]);
const AWK_VALUED = /^-(F|v|l)$|^--(field-separator|assign|load)$/;

/** awk's program text (none when `-f` gives a file), `-i inplace`, and its file operands. */
function awkWords(values: readonly (string | undefined)[]) {
  let program: string | undefined;
  let programFile = false;
  let inPlace = false;
  const files: string[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] ?? "-";
    if (AWK_PROGRAM_FILE.has(value)) programFile = true;
    if (value === "-i" || value === "--include")
      inPlace ||= /^inplace(\.awk)?$/.test(values[i + 1] ?? "");
    if (AWK_PROGRAM_FILE.has(value) || AWK_VALUED.test(value) || value === "-i") i += 1;
    else if (isOptionWord(value) || value === "-") continue;
    else if (program === undefined && !programFile) program = value;
    else if (!/^[A-Za-z_]\w*=/.test(value)) files.push(value);
  }
  return { program, inPlace, files };
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

/** git's options before the subcommand that take a value (`-C dir`, `-c key=value`). */
const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
]);

/**
 * git's subcommands that change working-tree files by name: `git rm`, `git mv`,
 * `git checkout [<tree>] [--] <paths>`, `git restore <paths>` and `git checkout-index`; after
 * git's own options (`-C dir` and `--work-tree=dir` move the paths; `-c alias.x='!cmd'` makes
 * `git x` a shell command).
 */
function collectGit(values: readonly (string | undefined)[], effects: Effects): void {
  const { dir, aliases, rest } = gitGlobals(values);
  const sub = rest[0];
  if (sub === undefined) return;
  const alias = aliases.get(sub);
  if (alias?.startsWith("!") === true) effects.nested.push(alias.slice(1));
  else if (alias !== undefined) collectGit([...alias.split(/\s+/), ...rest.slice(1)], effects);
  if (alias !== undefined) return;
  const paths = gitPaths(sub, rest.slice(1));
  const at = (path: string) => (path.startsWith("/") ? path : `${dir}${path}`);
  effects.writes.written.push(...paths.written.map(at));
  effects.writes.deleted.push(...paths.deleted.map(at));
}

/** git's options before its subcommand: the folder paths are relative to, the `-c` aliases. */
function gitGlobals(values: readonly (string | undefined)[]) {
  let dir = "";
  const aliases = new Map<string, string>();
  let i = 0;
  for (; i < values.length; i += 1) {
    const value = values[i];
    if (value === undefined || !value.startsWith("-")) break;
    const [flag = value, ...glued] = value.split("=");
    const valued = glued.length === 0 && GIT_VALUED.has(flag);
    const argument = valued ? values[i + 1] : glued.join("=");
    if (valued) i += 1;
    if ((flag === "-C" || flag === "--work-tree") && argument !== undefined)
      dir = argument.startsWith("/") ? `${argument}/` : `${dir}${argument}/`;
    const alias = flag === "-c" ? /^alias\.([^=]+)=(.*)$/s.exec(argument ?? "") : null;
    if (alias?.[1] !== undefined && alias[2] !== undefined) aliases.set(alias[1], alias[2]);
  }
  return { dir: dir.replace(/\/+/g, "/"), aliases, rest: values.slice(i) };
}

function gitPaths(
  sub: string,
  words: readonly (string | undefined)[],
): { written: string[]; deleted: string[] } {
  const dashes = words.indexOf("--");
  const literal = (list: readonly (string | undefined)[]) =>
    list.filter((word): word is string => word !== undefined);
  const operands = literal(words).filter((word) => !isOptionWord(word));
  const afterDashes = dashes === -1 ? [] : literal(words.slice(dashes + 1));
  switch (sub) {
    case "rm":
      return { written: [], deleted: operands };
    case "mv": {
      const target = operands.at(-1);
      if (operands.length < 2 || target === undefined) return { written: [], deleted: [] };
      return { written: [target], deleted: operands.slice(0, -1) };
    }
    case "restore":
      return { written: valuedOperands(words, /^-(s|-source|-pathspec-from-file)$/), deleted: [] };
    case "checkout": {
      // `git checkout main` switches branches, `git checkout src` restores a path: both are
      // read as paths (a branch name is no project file). `-- <paths>` are only paths.
      if (dashes !== -1) return { written: afterDashes, deleted: [] };
      return { written: valuedOperands(words, /^-(b|B|-orphan|-conflict)$/), deleted: [] };
    }
    case "checkout-index": {
      const prefix =
        literal(words)
          .find((word) => word.startsWith("--prefix="))
          ?.slice(9) ?? "";
      const all = words.some((word) => word === "-a" || word === "--all");
      const named = dashes === -1 ? operands : afterDashes;
      const files = all ? ["."] : named;
      return { written: files.map((file) => `${prefix}${file}`), deleted: [] };
    }
    default:
      return { written: [], deleted: [] };
  }
}

/** The operands of words where the options matching `valued` take the next word. */
function valuedOperands(words: readonly (string | undefined)[], valued: RegExp): string[] {
  const operands: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    if (word === undefined || word === "--") continue;
    if (valued.test(word)) i += 1;
    else if (!isOptionWord(word)) operands.push(word);
  }
  return operands;
}

/** `apply_patch <<'EOF' … EOF` or `apply_patch "$(cat …)"`: the patch is the heredoc or the argument. */
function collectPatch(node: SyntaxNode, written: string[], deleted: string[]): void {
  const args = node.childrenForFieldName("argument").filter((arg) => arg !== null);
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

/** `$'…'`: bash's escapes (`\n`, `\xHH`, `\NNN` octal, `\uHHHH`, `\cX`, `\e`, quotes). */
function decodeAnsiC(text: string): string {
  const simple: Readonly<Record<string, string>> = {
    n: "\n",
    t: "\t",
    r: "\r",
    a: "\x07",
    b: "\b",
    e: "\x1b",
    E: "\x1b",
    f: "\f",
    v: "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
  };
  return text.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, code: string) => {
      const head = code.charAt(0);
      if (/^[0-7]/.test(code)) return String.fromCharCode(parseInt(code, 8) & 0xff);
      if (head === "x" && code.length > 1) return String.fromCharCode(parseInt(code.slice(1), 16));
      if ((head === "u" || head === "U") && code.length > 1)
        return String.fromCodePoint(Math.min(parseInt(code.slice(1), 16), 0x10ffff));
      if (head === "c" && code.length === 2) return String.fromCharCode(code.charCodeAt(1) & 0x1f);
      return ownEntry(simple, code) ?? whole;
    },
  );
}

const isOptionWord = (value: string) => value.startsWith("-") && value !== "-";

/**
 * A word as the program it carries: its literal value, or for a double-quoted string with
 * expansions (`"open('$F','w')"`) the text between the quotes, left for the script reader to
 * find what is literal in it; undefined for anything else.
 */
function scriptWordOf(node: SyntaxNode | null | undefined): string | undefined {
  const literal = literalOf(node);
  if (literal !== undefined) return literal;
  if (node?.type !== "string") return undefined;
  return node.text.slice(1, -1).replace(/\\(["\\$`])/g, "$1");
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

/** `sed -i [-e script | -f file]… files`: the script is the first operand unless an option gave it. */
function inPlaceFiles(values: readonly (string | undefined)[]): string[] {
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
    if (isOptionWord(value)) continue;
    files.push(value);
  }
  return scriptGiven ? files : files.slice(1);
}

const SCRIPT_OPTIONS = new Set(["-e", "-f", "--expression", "--file"]);

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
  /** `pushd`'s folders, for `popd`. */
  stack: (string | undefined)[];
}

const subshell = (scope: ShellScope): ShellScope => ({ cwd: scope.cwd, stack: [...scope.stack] });

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
  await walkCommands(await parseShell(command), { cwd: undefined, stack: [] }, found, 0);
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
  const inner = SUBSHELL_TYPES.has(node.type) && !pipeline ? subshell(scope) : scope;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    // Each stage of a pipeline runs in its own subshell.
    await walkCommands(child, pipeline ? subshell(scope) : inner, found, nesting);
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
    await walkCommands(child, subshell(scope), found, nesting);
  }
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return;
  const args = node.childrenForFieldName("argument").filter((arg) => arg !== null);
  const name = literalOf(nameNode.firstNamedChild) ?? nameNode.text;
  const argv = [name, ...args.map((arg) => literalOf(arg) ?? arg.text)];
  found.push({ argv, cwd: scope.cwd });
  if (name === "cd" || name === "pushd") {
    if (name === "pushd") scope.stack.push(scope.cwd);
    scope.cwd = changeDir(scope.cwd, args);
    return;
  }
  if (name === "popd") {
    scope.cwd = scope.stack.length > 0 ? scope.stack.pop() : "$OLDPWD";
    return;
  }
  const script = shellScript(name, argv);
  if (script !== undefined && nesting < MAX_SHELL_NESTING) {
    await walkCommands(await parseShell(script), subshell(scope), found, nesting + 1);
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
    return value === undefined || (value !== "--" && !/^-[LPe@]+$/.test(value));
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
