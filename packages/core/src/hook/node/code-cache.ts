import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { constants, Script } from "node:vm";
import { createdState } from "./created-state.ts";

/**
 * A hook is a fresh node process on every call, and most of what it cost was V8 compiling the
 * adapter's bundle again each time. An adapter's `hook-main.cjs` is therefore evaluated through
 * `vm.Script` with a V8 code cache kept beside it (`hook-main.<hash>-<v8 version>-<arch>.cache`), the
 * way node's own built-in modules are loaded. V8 checks a cache against its source by length only,
 * so the file name carries a hash of the bundle's text: a reinstalled bundle never meets the
 * cache of another build. The build stamps that hash on the bundle's first line (`stampBuild`), so
 * a hook reads it rather than hashing 600 KB on every call.
 *
 * The cache sits in the bundle's own folder, never in a shared temporary folder: code cache is
 * code, so whoever can write it can already write the bundle itself. The build ships one, made
 * by running a few representative calls (`trainCodeCache`); a node whose V8 rejects it (another
 * version, other flags) gets the bundle compiled as usual, and the call writes a cache of its
 * own (`*.local.cache`, never packed) for the next one. Nothing here may throw past a failed cache: the cache only ever saves time.
 *
 * This module loads nothing but node's own modules (it is part of the hook launchers).
 */

/** What one evaluation of a bundle gives: its exports, and how to keep its compiled code. */
export interface LoadedBundle<T> {
  exports: T;
  /** Whether V8 took the cache from disk (false: none, or rejected). */
  cacheUsed: boolean;
  /** The cache V8 took, or (none taken) the one `keepCache` writes. */
  cacheFile: string;
  /**
   * Writes the cache when there was none or it was rejected, with everything compiled so far
   * (call it after the work, so the functions the call used are in it). Never throws.
   */
  keepCache(): void;
}

/**
 * The cache file for a bundle's text in this node: V8 rejects a cache from another V8 or arch,
 * and the hash keeps builds apart (V8 itself would take a same-length stale one).
 */
export function cachePathFor(bundle: string, source: string, route: string, flavour = ""): string {
  return cachePathOf(bundle, buildIdOf(source), route, flavour);
}

function cachePathOf(bundle: string, hash: string, route: string, flavour: string): string {
  const stem = basename(bundle).replace(/\.c?js$/, "");
  const tag = `${hash}-${process.versions.v8}-${process.arch}-${route}${flavour === "" ? "" : `-${flavour}`}`;
  return join(dirname(bundle), `${stem}.${tag.replace(/[^\w.-]/g, "_")}.cache`);
}

/**
 * Node's flags change V8's flag hash, which a cache must match: a NODE_OPTIONS or command-line
 * flag gets a cache of its own instead of rejecting (and rewriting) the shared one every call.
 */
function flagFlavour(): string {
  return flavourOf([...process.execArgv, process.env["NODE_OPTIONS"] ?? ""].join(" "));
}

/** The part of a cache's name that node's flags (`execArgv`, then NODE_OPTIONS) give it. */
export function flavourOf(nodeFlags: string): string {
  const flags = nodeFlags.trim();
  if (flags === "") return "";
  let hash = 0;
  for (let i = 0; i < flags.length; i += 1) hash = (hash * 31 + flags.charCodeAt(i)) >>> 0;
  return `f${hash.toString(36)}`;
}

/**
 * Evaluates a CommonJS bundle as node's loader would, with the code cache beside it for this
 * route: one cache per kind of call (a pre-tool gate, a post-edit note, the rest), each holding
 * only the functions its calls run, since V8 deserializes a whole cache before the first line.
 */
export function loadBundle<T>(bundle: string, route: string): LoadedBundle<T> {
  setRouteFlags(route);
  const flagsAtLoad = v8FlagsSet();
  const flavour = flagFlavour();
  let local = "";
  const { wrapped, cached, cacheFile } = readBundle(bundle, (id) => {
    const shipped = cachePathOf(bundle, id, route, flavour);
    // A cache this node wrote itself sits apart from the build's: it never ships with a package.
    local = shipped.replace(/\.cache$/, LOCAL_SUFFIX);
    return [shipped, local];
  });
  const script = new Script(wrapped, {
    ...SCRIPT_OPTIONS,
    filename: scriptName(bundle),
    ...(cached === undefined ? {} : { cachedData: cached }),
  });
  const cacheUsed = cached !== undefined && script.cachedDataRejected !== true;
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, requireFor(bundle), module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    cacheUsed,
    cacheFile: cacheUsed ? cacheFile : local,
    keepCache() {
      // A cache made after the call changed V8's flags would be rejected by the next load; one
      // made by a call that created a state file holds what the calls after it never run.
      if (cacheUsed || v8FlagsSet() !== flagsAtLoad || createdState()) return;
      writeQuietly(local, () => script.createCachedData());
    },
  };
}

/**
 * V8's flags for the rest of a process that works over a whole tree (the cold selection's
 * search, a first session's walk for ramp-up, strict's copy of the production files), set as
 * that work starts:
 *
 * - `--semi-space-growth-factor=1`: such work allocates megabytes of short-lived strings (a large
 *   tree's paths and lines), and V8 answers by doubling its young generation up to 16 MiB a
 *   semi-space, which the process then holds (heap 33 MiB instead of 25 on 50,000 files; more,
 *   smaller scavenges instead).
 *
 * Not `--no-turbofan`: it took 4.5-6 MiB off the same peaks (TurboFan's threads and code) for a
 * fifth more CPU in the cold search (ADR 0014). Strict's copy of the production files, bound by
 * its system calls once it no longer walked the whole tree, sets it (`tree-snapshot.ts`).
 *
 * Recorded in `V8_FLAGS_MARK`: a process that sets them after its bundle loaded keeps no code
 * cache made under them.
 */
export const WHOLE_TREE_FLAGS = ["--semi-space-growth-factor=1"] as const;

/**
 * V8 takes a cache only under the flags it was made with, and the shell parser switches its
 * WebAssembly to the baseline compiler (`--liftoff-only`, see shell/node/bash-parser.ts) as it loads: a cache made
 * after that and checked before it was rejected on every call. The routes that parse shell
 * commands (after one, and a tdd or strict gate before one) set their flags before the bundle is
 * compiled, in the hooks and in the build's training alike (node's v8 module loads its streams,
 * so the other routes do not pay for it); a call that changes the flags later keeps no cache.
 *
 * Their other two flags are for memory: a shell hook peaks as Liftoff compiles the grammar's
 * lexer (one 160 KB function, ~5 MiB of compiler memory for a moment) on top of what the call
 * holds by then. Without TurboFan, which optimised a path function of node's in the gate's
 * project walk on a thread of its own, and with the young generation not doubled (WHOLE_TREE_FLAGS),
 * the Codex shell-write gate peaked 1.5 MiB lower and ran fewer instructions (ADR 0010).
 */
const SHELL_FLAGS = "--liftoff-only --no-turbofan --semi-space-growth-factor=1";
const FLAGGED_ROUTES: Readonly<Record<string, string>> = {
  shell: SHELL_FLAGS,
  "pre-shell": SHELL_FLAGS,
};

/** Set on `process` by whoever changes V8's flags in a hook process (bash-parser.ts). */
export const V8_FLAGS_MARK = Symbol.for("tailtest.v8-flags-set");

function v8FlagsSet(): unknown {
  return (process as unknown as Record<symbol, unknown>)[V8_FLAGS_MARK];
}

/** Sets `flags` (those not set yet) for the rest of the process, recorded in `V8_FLAGS_MARK`. */
export function addV8Flags(flags: readonly string[]): void {
  const marks = process as unknown as Record<symbol, unknown>;
  const set = marks[V8_FLAGS_MARK];
  const before = typeof set === "string" && set !== "" ? set.split(" ") : [];
  const missing = flags.filter((flag) => !before.includes(flag));
  if (missing.length === 0) return;
  const v8 = process.getBuiltinModule("node:v8");
  for (const flag of missing) v8.setFlagsFromString(flag);
  marks[V8_FLAGS_MARK] = [...before, ...missing].join(" ");
}

function setRouteFlags(route: string): void {
  const flags = Object.hasOwn(FLAGGED_ROUTES, route) ? FLAGGED_ROUTES[route] : undefined;
  if (flags === undefined) return;
  process.getBuiltinModule("node:v8").setFlagsFromString(flags);
  (process as unknown as Record<symbol, unknown>)[V8_FLAGS_MARK] = flags;
}

/** What a node writes for itself (a package's `files` leaves these out: see the adapters'). */
export const LOCAL_SUFFIX = ".local.cache";

/** What `readBundle` read: the text to compile, and the cache found (`cacheFile`) if any. */
interface BundleRead {
  wrapped: string;
  cached: Buffer | undefined;
  cacheFile: string;
}

/**
 * A bundle's text inside node's CommonJS wrapper, and the first of the code caches `cacheFor`
 * names for its build id that is there (`cached` undefined: none, or unreadable). The text is read into a buffer that already holds
 * the wrapper around it and decoded once, so V8 gets one flat string: the wrapper added by
 * concatenation made a string V8 copied again, whole, before it compiled (~60 pages of a 230 KB
 * bundle). The cache is then read into the same buffer (the string is a copy), sized for
 * both, so a call touches one buffer's pages, not two: each new page is a page fault (ADR 0010,
 * sixth round).
 *
 * The cache is asked for before it is opened: an install holds no shipped cache (ADR 0011), and
 * each failed open was an exception (an Error with its stack) in every hook process.
 */
function readBundle(bundle: string, cacheFor: (id: string) => readonly string[]): BundleRead {
  const fd = openSync(bundle, "r");
  let cache: { fd: number; size: number; file: string } | undefined;
  let buffer: Buffer;
  let end: number;
  let ascii: boolean;
  let cacheFile: string;
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.allocUnsafe(Math.min(size, STAMP_BYTES));
    readFully(fd, head, 0, head.length, 0);
    const stamp = stampOf(head.toString("latin1"));
    // A bundle the build did not stamp: its id is a hash of its whole text (`buildIdOf`).
    if (stamp === undefined) return unstampedBundle(bundle, cacheFor);
    ascii = stamp.ascii;
    const files = cacheFor(stamp.id);
    cache = openFirst(files);
    cacheFile = cache?.file ?? files[files.length - 1] ?? "";
    end = WRAP_HEAD.length + size + WRAP_TAIL.length;
    // Past half of node's 8 KiB pool, a buffer of its own; `allocUnsafe` is what the launcher
    // already compiled for stdin (each node function a call uses first is compiled in it).
    buffer = Buffer.allocUnsafe(Math.max(end, cache?.size ?? 0));
    putAscii(buffer, WRAP_HEAD, 0);
    readFully(fd, buffer, WRAP_HEAD.length, size, 0);
    putAscii(buffer, WRAP_TAIL, WRAP_HEAD.length + size);
  } catch (error) {
    if (cache !== undefined) closeSync(cache.fd);
    throw error;
  } finally {
    closeSync(fd);
  }
  // A copy (V8 never keeps node's buffer as a string's text), so the buffer is free again.
  const wrapped = buffer.toString(ascii ? "latin1" : "utf8", 0, end);
  if (cache === undefined) return { wrapped, cached: undefined, cacheFile };
  try {
    readFully(cache.fd, buffer, 0, cache.size, 0);
    return { wrapped, cached: buffer.subarray(0, cache.size), cacheFile };
  } catch {
    return { wrapped, cached: undefined, cacheFile };
  } finally {
    closeSync(cache.fd);
  }
}

/** The first of `files` that is there and opens, with its size. */
function openFirst(
  files: readonly string[],
): { fd: number; size: number; file: string } | undefined {
  for (const file of files) {
    if (!existsSync(file)) continue;
    let fd: number | undefined;
    try {
      fd = openSync(file, "r");
      return { fd, size: fstatSync(fd).size, file };
    } catch {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return undefined;
}

function unstampedBundle(bundle: string, cacheFor: (id: string) => readonly string[]): BundleRead {
  const source = readFileSync(bundle, "utf8");
  const files = cacheFor(buildIdOf(source));
  for (const file of files) {
    try {
      if (existsSync(file))
        return { wrapped: wrap(source), cached: readFileSync(file), cacheFile: file };
    } catch {
      // Unreadable: the next one, or none.
    }
  }
  return { wrapped: wrap(source), cached: undefined, cacheFile: files[files.length - 1] ?? "" };
}

/** ASCII `text` into `buffer` at `offset` (a loop: no encoder of node's to compile for 60 bytes). */
function putAscii(buffer: Buffer, text: string, offset: number): void {
  for (let i = 0; i < text.length; i += 1) buffer[offset + i] = text.charCodeAt(i);
}

/** Reads `length` bytes at `position` into `buffer` at `offset`; a file cut short throws. */
function readFully(fd: number, buffer: Buffer, offset: number, length: number, position: number) {
  let done = 0;
  while (done < length) {
    const count = readSync(fd, buffer, offset + done, length - done, position + done);
    if (count === 0) throw new Error("the file ended early");
    done += count;
  }
}

/**
 * Runs `calls` through a freshly evaluated bundle in this process, then writes the route's cache
 * with every function they compiled (the build's cache, so a first hook call is already fast).
 * Returns the cache file written.
 */
export async function trainCodeCache<T>(
  bundle: string,
  route: string,
  calls: (exports: T) => Promise<void>,
): Promise<string> {
  setRouteFlags(route);
  const flagsBefore = v8FlagsSet();
  const source = readSource(bundle);
  // The same text `loadBundle` compiles: V8 checks a cache against its source's length.
  const script = new Script(wrap(source), { ...SCRIPT_OPTIONS, filename: scriptName(bundle) });
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, requireFor(bundle), module, bundle, dirname(bundle));
  await calls(module.exports);
  if (v8FlagsSet() !== flagsBefore)
    throw new Error(`training the ${route} route changed V8's flags: see FLAGGED_ROUTES`);
  // The build trains each route under its hook command's node flags (launcher.ts
  // `hookNodeFlags`), so this is the name the commands `init` writes look for.
  const cacheFile = cachePathFor(bundle, source, route, flagFlavour());
  const data = script.createCachedData();
  writeWhole(cacheFile, data);
  return cacheFile;
}

/**
 * The `require` a bundle is evaluated with, as node's loader would give it: one that resolves
 * from the bundle's folder. In a CommonJS launcher beside the bundle (an adapter's `hook.cjs`,
 * the `tailtest` bin) that is the launcher's own `require`, which resolves every name the same
 * (node derives a module's lookup from its folder alone); anywhere else, `createRequire`. Node's
 * `module` module is not loaded at start-up, and loading it cost every hook call ~5 M
 * instructions (ADR 0010), though the bundles require node's own modules only.
 */
function requireFor(bundle: string): NodeJS.Require {
  if (
    typeof require === "function" &&
    typeof __dirname === "string" &&
    __dirname === dirname(bundle)
  )
    return require;
  return process.getBuiltinModule("node:module").createRequire(bundle);
}

/**
 * A bundle's `import()` would go to node's own loader, as from a file node loaded itself; node
 * 20 drops that for a script compiled from a cache, so the hook bundles are built with no
 * `import()` left in them (tsup.config.base.ts) and this only serves a bundle built otherwise.
 */
const SCRIPT_OPTIONS = { importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER };
/**
 * The script's name: its file name alone (its folder reaches the bundle as __filename). V8 writes
 * the name into the cache, and a cache shipped in a package must not carry the path of the
 * machine that built it. A copy, not `basename`'s slice: V8 keeps a slice as its whole parent
 * string, which would put the full path in the cache after all.
 */
function scriptName(bundle: string): string {
  return Buffer.from(basename(bundle), "utf8").toString("utf8");
}

const BUILD_MARK = "/*tailtest-build:";
const BUILD_MARK_END = "*/\n";
/** Stamped on a bundle of ASCII only, which is read without UTF-8 decoding (~10% of a hook). */
const ASCII_MARK = ":ascii";

/** A bundle's text: as Latin-1 (a plain copy) when the build stamped it ASCII, else UTF-8. */
function readSource(bundle: string): string {
  const bytes = readFileSync(bundle);
  const ascii = bytes.toString("latin1", 0, Math.min(bytes.length, 64)).includes(ASCII_MARK);
  return bytes.toString(ascii ? "latin1" : "utf8");
}

function hashOf(text: string): string {
  // Loaded only for a bundle the build did not stamp.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The stamped hash of a bundle's text, or the hash itself for a bundle without a stamp. */
export function buildIdOf(source: string): string {
  return stampOf(source)?.id ?? hashOf(source);
}

/** More than a stamp's length: `/*tailtest-build:<16 hex>:ascii*\/` and its newline. */
const STAMP_BYTES = 64;

/** The build's stamp at the start of a bundle's text, or undefined for none. */
function stampOf(text: string): { id: string; ascii: boolean } | undefined {
  if (!text.startsWith(BUILD_MARK)) return undefined;
  const end = text.indexOf(BUILD_MARK_END);
  if (end === -1 || end > STAMP_BYTES - BUILD_MARK_END.length) return undefined;
  const mark = text.slice(BUILD_MARK.length, end);
  const id = mark.replace(ASCII_MARK, "");
  return /^[0-9a-f]{16}$/.test(id) ? { id, ascii: mark.includes(ASCII_MARK) } : undefined;
}

/**
 * Puts the hash of a bundle's text on its first line (replacing an earlier stamp), for
 * `cachePathFor`. The build runs it once, before training the cache.
 */
export function stampBuild(bundle: string): { id: string; ascii: boolean } {
  let source = readFileSync(bundle, "utf8");
  if (source.startsWith(BUILD_MARK)) {
    const end = source.indexOf(BUILD_MARK_END);
    if (end !== -1) source = source.slice(end + BUILD_MARK_END.length);
  }
  const id = hashOf(source);
  // eslint-disable-next-line no-control-regex -- the test is for bytes outside ASCII
  const ascii = !/[^\x00-\x7f]/.test(source);
  writeFileSync(bundle, `${BUILD_MARK}${id}${ascii ? ASCII_MARK : ""}${BUILD_MARK_END}${source}`);
  return { id, ascii };
}

/** Node's CommonJS wrapper, on one line so the bundle's line numbers stay as they are. */
const WRAP_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const WRAP_TAIL = "\n});";

function wrap(source: string): string {
  return `${WRAP_HEAD}${source}${WRAP_TAIL}`;
}

function writeQuietly(path: string, data: () => Buffer): void {
  try {
    writeWhole(path, data());
  } catch {
    // A read-only install, a full disk: the next call compiles the bundle again, nothing else.
  }
}

/** Temp file then rename: a concurrent hook reads the old cache or the new one, never half. */
function writeWhole(path: string, data: Uint8Array): void {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temp, "w", 0o644);
  try {
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
