import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { SessionStateSchema } from "../../state/session.ts";
import type { Declared } from "../declare.ts";
import type { TddState } from "../tdd-state.ts";
import {
  EDIT_EVENT_TYPE,
  EVENT_LINE_VERSION,
  parseEventLine,
  renderLogEntry,
  toEventLine,
  parseTddEntry,
  type EditEntry,
  type TddEntry,
} from "../tdd-log.ts";
import { SESSION_PATHS, STATE_DIR } from "../../project/node/project.ts";
import { APPEND_LOCK, readState, STATE_LOCK, withFileLock } from "../../state/node/store.ts";
import { copiesInForce, readPath } from "../../gating/node/state-copy.ts";
import { readKeyedLog } from "../../gating/node/keyed-read.ts";

/**
 * The node edge of tdd mode: where each agent's TDD log lives, how it is appended to, and which
 * log a `tailtest red|green` belongs to. See ADR 0007.
 *
 * Every agent (the main one, and each subagent) has its own key. Its entries are kept twice: the
 * human log `.tailtest/tdd/<key>.log`, and one JSON line each in the shared, append-only
 * `.tailtest/events.jsonl`, where every line carries `agent_key`. The state is derived from
 * events.jsonl (the text cannot carry everything: see tdd-log.ts), or, while a session's mode
 * copy says tdd or strict, from tailtest's own copy of it outside the project (state-copy.ts):
 * a line a program appended to the project's file moves nothing.
 */

/** Project-relative folder of the per-agent human logs. */
export const TDD_DIR = `${STATE_DIR}/tdd`;
/** Project-relative path of the append-only event file every agent shares. */
export const EVENTS_PATH = `${STATE_DIR}/events.jsonl`;
/** The key used when nothing names the agent: no env, no session, no log yet. */
export const DEFAULT_TDD_KEY = "default";
/** An environment variable that names the log outright (set by whoever starts the agent). */
export const TDD_KEY_ENV = "TAILTEST_TDD_KEY";

const KEY_PART_MAX = 100;
const VALID_KEY = /^[A-Za-z0-9._-]+$/;

/** One part of a key in the characters a file name can always hold: [A-Za-z0-9._-]. */
export function sanitiseKeyPart(raw: string): string {
  const clean = raw
    .trim()
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .slice(0, KEY_PART_MAX);
  // A part made only of dots would name the folder itself or its parent.
  return /^\.*$/.test(clean) ? clean.replace(/\./g, "_") : clean;
}

export interface AgentIdentity {
  sessionId?: string | undefined;
  /** Set for a subagent; the main agent has none. */
  agentId?: string | undefined;
  /** Used only when no session id is known (the log is then keyed by its hash). */
  transcriptPath?: string | undefined;
}

/**
 * The key of one agent's log: `<session>` for the main agent, `<session>.<agent>` for a subagent.
 * Without a session id, the first 8 hex digits of sha256(transcript path) stand in for it;
 * without either, `default`.
 */
export function agentKey(identity: AgentIdentity): string {
  const session = sanitiseKeyPart(identity.sessionId ?? "");
  const transcript = identity.transcriptPath ?? "";
  let base = DEFAULT_TDD_KEY;
  if (session !== "") base = session;
  else if (transcript !== "") {
    // node:crypto is loaded here, not by every hook that reads a log.
    const { createHash } = process.getBuiltinModule("node:crypto");
    base = createHash("sha256").update(transcript).digest("hex").slice(0, 8);
  }
  const agent = sanitiseKeyPart(identity.agentId ?? "");
  return agent === "" ? base : `${base}.${agent}`;
}

function checkKey(key: string): string {
  if (!VALID_KEY.test(key) || /^\.*$/.test(key)) {
    throw new Error(`invalid TDD log key ${JSON.stringify(key)}: use [A-Za-z0-9._-]`);
  }
  return key;
}

/** Project-relative path of an agent's human log. */
export function tddLogPath(key: string): string {
  return `${TDD_DIR}/${checkKey(key)}.log`;
}

/** An events.jsonl line that could not be read (1-based line number). */
export interface EventProblem {
  line: number;
  message: string;
}

export interface TddRead {
  entries: TddEntry[];
  /** Lines skipped because they cannot be read; they may belong to any agent. */
  problems: EventProblem[];
  /** The file ended in a partial line (a writer died mid-append); it was skipped. */
  torn: boolean;
}

interface LineFields {
  agent_key?: unknown;
  type?: unknown;
}

/**
 * The entries of one agent, from events.jsonl, oldest first. A missing file has none. With
 * `mineOnly` (the hooks), lines that do not name the agent's key are skipped unparsed: the file
 * holds every agent's and every mode's events, and only grows; their problems go unreported.
 * With `stateOnly` too (the gate, which reads only the state), the agent's own `tdd.edit` lines
 * are skipped after their JSON is read: the gate's audit entries never move the state
 * (`applyTddEntry`), and they are most of an agent's lines (one per gated write).
 */
export async function readTddEntries(
  root: string,
  key: string,
  options: { mineOnly?: boolean; stateOnly?: boolean } = {},
): Promise<TddRead> {
  checkKey(key);
  const mineOnly = options.mineOnly === true;
  const stateOnly = options.stateOnly === true;
  try {
    if (!mineOnly) return readEventText(readFileSync(readPath(root, EVENTS_PATH), "utf8"), key);
    // From the agent's first line when the copy knows where it starts (keyed-read.ts).
    const part = readKeyedLog(root, EVENTS_PATH, key, keyMark(key), join(root, EVENTS_PATH));
    const read = readEventText(part.bytes, key, true, stateOnly);
    // A problem's line number counts from the file's start: read it whole to say it.
    if (part.offset === 0 || read.problems.length === 0) return read;
    return readEventText(readFileSync(readPath(root, EVENTS_PATH)), key, true, stateOnly);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { entries: [], problems: [], torn: false };
    }
    throw error;
  }
}

/** How `eventLineFor` and `recordApplied` spell an agent's key: a key is ASCII, needing no escape. */
export function keyMark(key: string): Buffer {
  return Buffer.from(`"agent_key":${JSON.stringify(key)}`, "latin1");
}

/**
 * The part of `readTddEntries` that reads the file's text (or bytes): exported for the store's
 * own tests. With `mineOnly`, the agent's lines are found by a search of the bytes for its key,
 * and only they are decoded and split out: the file holds every session's lines and only grows,
 * and splitting all of it into lines cost a gate ~3,500 instructions a line (a 20,000-line log
 * put a denied gate at 2.5× `node -e 0`; ADR 0010).
 */
export function readEventText(
  text: string | Buffer,
  key: string,
  mineOnly = false,
  stateOnly = false,
): TddRead {
  const entries: TddEntry[] = [];
  const problems: EventProblem[] = [];
  if (mineOnly) {
    const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    // eventLineFor writes the key as `"agent_key":"<key>"` (a key needs no JSON escape, and is
    // ASCII, so its bytes are found only where its characters are).
    const mark = keyMark(key);
    // Every whole line ends with "\n"; what follows the last one is a write cut short.
    const end = bytes.lastIndexOf(0x0a) + 1;
    const torn = bytes.toString("utf8", end).trim() !== "";
    const lineOf = lineCounter(bytes);
    for (let at = bytes.indexOf(mark); at !== -1 && at < end;) {
      const start = at === 0 ? 0 : bytes.lastIndexOf(0x0a, at - 1) + 1;
      const stop = bytes.indexOf(0x0a, at);
      readEventLine(bytes.toString("utf8", start, stop), () => lineOf(start), {
        key,
        stateOnly,
        entries,
        problems,
      });
      at = bytes.indexOf(mark, stop + 1);
    }
    return { entries, problems, torn };
  }
  const lines = (typeof text === "string" ? text : text.toString("utf8")).split("\n");
  // Every whole line ends with "\n", so the last piece is empty unless a write was cut short.
  const tail = lines.pop() ?? "";
  const torn = tail.trim() !== "";
  lines.forEach((raw, index) =>
    readEventLine(raw, () => index + 1, { key, stateOnly, entries, problems }),
  );
  return { entries, problems, torn };
}

/**
 * The 1-based number of the line starting at a byte, asked only for a problem, in increasing
 * order: the line breaks are counted once, from where the last answer left off.
 */
function lineCounter(bytes: Buffer): (start: number) => number {
  let counted = 0;
  let line = 1;
  return (start) => {
    for (let at = bytes.indexOf(0x0a, counted); at !== -1 && at < start;) {
      line += 1;
      counted = at + 1;
      at = bytes.indexOf(0x0a, counted);
    }
    return line;
  };
}

/** How `toEventLine` starts a gate's audit entry: its version, then its type. */
const EDIT_LINE_START = `{"v":${EVENT_LINE_VERSION},"type":"${EDIT_EVENT_TYPE}",`;

/**
 * A line `toEventLine` wrote for a gate's audit entry, told without parsing it: its start, one
 * `"type"` key (an unescaped quote only ever opens or closes a key or a string, so a second
 * `"type":` would be a second key, which JSON.parse would read instead) and a closing brace.
 * A line that is not one is parsed as any other.
 */
function isEditLine(text: string): boolean {
  return (
    text.startsWith(EDIT_LINE_START) &&
    text.endsWith("}") &&
    !text.includes('"type"', EDIT_LINE_START.length)
  );
}

/** One line of events.jsonl: an entry of the agent's, a problem, or nothing (not its line). */
function readEventLine(
  raw: string,
  line: () => number,
  into: { key: string; stateOnly: boolean; entries: TddEntry[]; problems: EventProblem[] },
): void {
  const text = raw.trim();
  if (text === "") return;
  if (into.stateOnly && isEditLine(text)) return;
  let fields: LineFields;
  try {
    fields = JSON.parse(text) as LineFields;
  } catch {
    into.problems.push({ line: line(), message: "not JSON" });
    return;
  }
  if (fields === null || typeof fields !== "object") {
    into.problems.push({ line: line(), message: "not a JSON object" });
    return;
  }
  // Another agent's line, or an event that is not a TDD one (the file is shared).
  if (fields.agent_key !== into.key) return;
  if (typeof fields.type !== "string" || !fields.type.startsWith("tdd.")) return;
  if (into.stateOnly && fields.type === EDIT_EVENT_TYPE) return;
  const parsed = parseEventLine(text);
  if (parsed.ok) into.entries.push(parsed.entry);
  else into.problems.push({ line: line(), message: parsed.message });
}

/**
 * The project paths any agent was allowed to edit at or after `sinceIso` (the gate's `edit`
 * entries, every agent's): what the end-of-turn sweep compares changed files against.
 */
export async function readAllowedEdits(
  root: string,
  sinceIso: string,
  /** Only the edits allowed while the agent's cycle was in this state. */
  state?: TddState,
): Promise<Set<string>> {
  let text: string;
  try {
    text = readFileSync(readPath(root, EVENTS_PATH), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Set();
    throw error;
  }
  const since = Date.parse(sinceIso);
  const allowed = new Set<string>();
  for (const raw of text.split("\n")) {
    // A cheap test first: the file holds every agent's every event.
    if (!raw.includes('"tdd.edit"') || !raw.includes('"allowed"')) continue;
    const parsed = parseEventLine(raw.trim());
    if (!parsed.ok || parsed.entry.kind !== "edit") continue;
    if (parsed.entry.decision !== "allowed" || Date.parse(parsed.entry.at) < since) continue;
    if (state === undefined || parsed.entry.state === state) allowed.add(parsed.entry.path);
  }
  return allowed;
}

/** The events.jsonl line for one entry of one agent (without its newline). */
export function eventLineFor(key: string, entry: TddEntry): string {
  const fields = JSON.parse(toEventLine(entry)) as Record<string, unknown>;
  return JSON.stringify({ v: fields.v, type: fields.type, agent_key: key, ...fields });
}

/** Appends `text` and fsyncs it; a file cut off mid-line first gets the newline it lacks. */
export async function appendDurably(path: string, text: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  // Synchronous: a hook does one thing at a time, and the promise API loads node's streams.
  const fd = openSync(path, "a+");
  try {
    const { size } = fstatSync(fd);
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = "\n";
    }
    // The last byte is read without a lock: while another process's write of more than a page
    // is landing, the size can end inside its line, and this write then begins with a newline
    // that leaves a blank line after it. Readers skip blank lines; no line is ever torn.
    // One write: O_APPEND puts it at the end as a whole, whatever other agents append meanwhile.
    const data = Buffer.from(`${prefix}${text}`, "utf8");
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends whole lines to a project log (`relPath`) and, while a session's mode copy is in force,
 * to tailtest's copy of it (state-copy.ts): the same text, each in one fsynced O_APPEND write. A
 * copy that cannot be written is left out: what it lacks reads as not done (a stricter gate).
 */
export async function appendLogged(root: string, relPath: string, text: string): Promise<void> {
  await appendDurably(join(root, relPath), text);
  const copy = copiesInForce(root)?.(relPath);
  if (copy === undefined) return;
  try {
    await appendDurably(copy, text);
  } catch {
    // No copy: the state folder cannot be written.
  }
}

async function withTddLock<R>(root: string, key: string, work: () => Promise<R>): Promise<R> {
  return withFileLock(join(root, tddLogPath(key)), STATE_LOCK, work);
}

async function writeEntries(root: string, key: string, entries: readonly TddEntry[]) {
  if (entries.length === 0) return;
  const checked = entries.map((entry) => parseTddEntry(entry));
  // events.jsonl first: it is what the state is derived from.
  await appendLogged(
    root,
    EVENTS_PATH,
    checked.map((entry) => `${eventLineFor(key, entry)}\n`).join(""),
  );
  await appendDurably(join(root, tddLogPath(key)), checked.map(renderLogEntry).join(""));
}

/**
 * Appends entries to an agent's log and to events.jsonl, under the agent's lock, each write
 * fsynced. History is never rewritten: a torn last line is closed with a newline and kept.
 */
export async function appendTddEntries(
  root: string,
  key: string,
  entries: readonly TddEntry[],
): Promise<void> {
  checkKey(key);
  // Appends only: past a gate's deadline they go without the lock, whole lines all the same.
  await withFileLock(join(root, tddLogPath(key)), APPEND_LOCK, () =>
    writeEntries(root, key, entries),
  );
}

/**
 * Appends the gate's own audit entries (`edit`: allowed or blocked), with no lock. They never move
 * the state (`applyTddEntry`), so no declaration judged under the lock can depend on them, and
 * each file gets them in one O_APPEND write of whole lines, which lands whole whatever other
 * agents append at the same moment. A gate thus never queues behind another (a hundred at once
 * waited seconds for each other's fsyncs); each write is still fsynced.
 */
export async function appendTddAudit(
  root: string,
  key: string,
  entries: readonly EditEntry[],
): Promise<void> {
  checkKey(key);
  await writeEntries(root, key, entries);
}

export interface Declaration<E extends TddEntry> {
  declared: Declared<E>;
  /** What the declaration was judged against (before its own entry). */
  read: TddRead;
}

/**
 * Reads the agent's entries, asks `decide` for the entry to append, and appends it, all under the
 * agent's lock, so two declarations at once are judged one after the other.
 */
export async function declareTddEntry<E extends TddEntry>(
  root: string,
  key: string,
  decide: (entries: readonly TddEntry[]) => Declared<E>,
): Promise<Declaration<E>> {
  checkKey(key);
  return withTddLock(root, key, async () => {
    const read = await readTddEntries(root, key);
    const declared = decide(read.entries);
    if (declared.ok) await writeEntries(root, key, [declared.entry]);
    return { declared, read };
  });
}

/**
 * The latest main agent's session id: from `.tailtest/session.json` or Cursor's
 * `.tailtest/cursor-session.json`, whichever session started last, if either can be read.
 */
export async function readSessionId(root: string): Promise<string | undefined> {
  let latest: { id: string; started: number } | undefined;
  for (const path of SESSION_PATHS) {
    const read = await readState({
      path: join(root, path),
      schema: z.optional(SessionStateSchema),
      create: () => undefined,
    });
    const session = read.value;
    if (session === undefined) continue;
    const started = Date.parse(session.started_at);
    if (latest === undefined || started > latest.started)
      latest = { id: session.session_id, started };
  }
  return latest?.id;
}

/** The most recently modified `.tailtest/tdd/*.log` (newest first, then by name), if any. */
async function latestLogKey(root: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = readdirSync(join(root, TDD_DIR));
  } catch {
    return undefined;
  }
  const logs = names
    .filter((name) => name.endsWith(".log") && VALID_KEY.test(name))
    .map((name) => {
      const info = statSync(join(root, TDD_DIR, name), { throwIfNoEntry: false });
      return info?.isFile() === true ? { key: name.slice(0, -4), mtime: info.mtimeMs } : undefined;
    });
  const found = logs.filter(
    (log): log is { key: string; mtime: number } => log !== undefined && log.key !== "",
  );
  found.sort((a, b) => b.mtime - a.mtime || a.key.localeCompare(b.key));
  return found[0]?.key;
}

export type TddKeySource = "env" | "claude-session" | "session" | "latest-log" | "default";

/** Claude Code sets this in the environment of the commands its agent runs. */
export const CLAUDE_SESSION_ENV = "CLAUDE_CODE_SESSION_ID";

export interface ActiveTddKey {
  key: string;
  source: TddKeySource;
}

/**
 * Which log a `tailtest red|green` run by the agent belongs to, so the agent never copies a
 * `--log`: `TAILTEST_TDD_KEY` (written into the agent's environment at SessionStart where the
 * platform allows), else Claude Code's own `CLAUDE_CODE_SESSION_ID`, else the session id in
 * `.tailtest/session.json` (the latest main agent), else the most recently modified log in
 * `.tailtest/tdd/`, else `default`.
 */
export async function activeTddKey(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ActiveTddKey> {
  const fromEnv = sanitiseKeyPart(env[TDD_KEY_ENV] ?? "");
  if (fromEnv !== "") return { key: fromEnv, source: "env" };
  const claude = env[CLAUDE_SESSION_ENV] ?? "";
  if (claude.trim() !== "")
    return { key: agentKey({ sessionId: claude }), source: "claude-session" };
  const session = await readSessionId(root);
  if (session !== undefined) return { key: agentKey({ sessionId: session }), source: "session" };
  const latest = await latestLogKey(root);
  if (latest !== undefined) return { key: latest, source: "latest-log" };
  return { key: DEFAULT_TDD_KEY, source: "default" };
}
