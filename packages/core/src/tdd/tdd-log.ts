import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import { optionOf } from "../util/union-option.ts";
import { isoDateTime } from "../util/iso-datetime.ts";
import { RunnerIdSchema } from "../runners/project-runners.ts";
import { SkipRedReasonSchema } from "../state/session-record.ts";
import { OverrideFromSchema, TddStateSchema } from "./tdd-state.ts";

/**
 * The TDD log: what was declared, which test runs passed or failed, which edits were let through.
 *
 * It is kept twice. `.tailtest/events.jsonl` holds every field, one JSON object per line, and is
 * what the state is derived from. The text log is the human format, for people and for
 * agents to read; `parseLog` reads it back, but the text cannot carry everything:
 *
 * - `[test]` and `[edit]` lines have no time (they take the time of the header above them);
 * - header times are whole seconds, in UTC;
 * - a run's `runner`, `failed_tests`, `declared_test_failed`, `real_failure` and `support_hash`
 *   live only in events.jsonl, and of its `error` only the first non-blank line is written.
 *
 * `logTextView` gives exactly what survives, so `parseLog(renderLog(e)).entries` equals
 * `logTextView(e)`. Because `real_failure` and `declared_test_failed` are lost, a state derived
 * from the text alone can differ from the true one: derive it from events.jsonl.
 */

/** When an entry happened: UTC ISO 8601, passed in (core never reads the clock). */
export const TddTimeSchema = lazy(() => isoDateTime());

/** A value the text log keeps on one line: no line breaks and no surrounding blanks. */
export const OneLineSchema = lazy(() =>
  z.string().check(z.regex(/^\S(?:[^\r\n]*\S)?$/, "one line, not blank, no surrounding spaces")),
);

export { SkipRedReasonSchema, type SkipRedReason } from "../state/session-record.ts";

export const RedEntrySchema = lazy(() =>
  z.object({
    kind: z.literal("red"),
    /** The test file (or test id) that is about to fail. */
    test: OneLineSchema,
    /** Which test fails, and why. */
    expects: OneLineSchema,
    at: TddTimeSchema,
    /** The state this Red replaced, when it was logged mid-cycle. */
    override_from: z.optional(OverrideFromSchema),
  }),
);
export type RedEntry = z.infer<typeof RedEntrySchema>;

export const GreenEntrySchema = lazy(() =>
  z.object({
    kind: z.literal("green"),
    change: OneLineSchema,
    /** The only production files this Green may edit (globs allowed). */
    files: z.array(OneLineSchema).check(z.minLength(1)),
    at: TddTimeSchema,
    /** Logged without a failing test first, and why. */
    skip_red: z.optional(z.object({ reason: SkipRedReasonSchema })),
    override_from: z.optional(OverrideFromSchema),
  }),
);
export type GreenEntry = z.infer<typeof GreenEntrySchema>;

export const TestRunEntrySchema = lazy(() =>
  z.object({
    kind: z.literal("test"),
    /** The command as the agent ran it; may span lines (the text log escapes them). */
    command: z.string().check(z.minLength(1)),
    outcome: z.enum(["passed", "failed"]),
    at: TddTimeSchema,
    runner: z.optional(RunnerIdSchema),
    /** What the host or runner reported for a failure; the text log keeps its first line. */
    error: z.optional(z.string()),
    /** Ids of the tests that failed, when the runner's report says. */
    failed_tests: z.optional(z.array(z.string())),
    /** Whether the test the active Red declared was among the failures; absent when unknown. */
    declared_test_failed: z.optional(z.boolean()),
    /**
     * False when the run failed before any assertion: a load, syntax or collection error, or no
     * test selected. Such a failure is not a Red. Absent when unknown (counted as real).
     */
    real_failure: z.optional(z.boolean()),
    /**
     * What the Red's test ran with besides its own file (`strict/test-support.ts`: runner config,
     * setup files, snapshots, conftest.py…), hashed before a run tailtest measured itself.
     */
    support_hash: z.optional(z.string()),
  }),
);
export type TestRunEntry = z.infer<typeof TestRunEntrySchema>;

export const EditEntrySchema = lazy(() =>
  z.object({
    kind: z.literal("edit"),
    path: OneLineSchema,
    /** The file class the gate gave the path (`test`, `prod`, …); a bare lower-case word. */
    file_class: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/)),
    state: TddStateSchema,
    decision: z.enum(["allowed", "blocked"]),
    at: TddTimeSchema,
  }),
);
export type EditEntry = z.infer<typeof EditEntrySchema>;

/** A subagent's log was closed (SubagentStop). */
export const FinishedEntrySchema = lazy(() =>
  z.object({
    kind: z.literal("finished"),
    at: TddTimeSchema,
  }),
);
export type FinishedEntry = z.infer<typeof FinishedEntrySchema>;

export const TddEntrySchema = lazy(() =>
  z.discriminatedUnion("kind", [
    RedEntrySchema,
    GreenEntrySchema,
    TestRunEntrySchema,
    EditEntrySchema,
    FinishedEntrySchema,
  ]),
);
/** Each option of `TddEntrySchema` by its `kind` (util/union-option.ts). */
export const TDD_ENTRY_OPTIONS: ReadonlyMap<unknown, z.core.$ZodType> = new Map<
  TddEntry["kind"],
  z.core.$ZodType
>([
  ["red", RedEntrySchema],
  ["green", GreenEntrySchema],
  ["test", TestRunEntrySchema],
  ["edit", EditEntrySchema],
  ["finished", FinishedEntrySchema],
]);
export type TddEntry = z.infer<typeof TddEntrySchema>;

/**
 * An entry checked by the option its `kind` names: what `TddEntrySchema.parse` gives, without
 * building the other kinds' schemas (a gate reads and writes one kind of entry).
 */
export function parseTddEntry(entry: unknown): TddEntry {
  return z.parse(optionOf(entry, "kind", TDD_ENTRY_OPTIONS, TddEntrySchema), entry);
}

// ---------------------------------------------------------------------------------------------
// The text log
// ---------------------------------------------------------------------------------------------

/** The time a `[test]` or `[edit]` line gets when no header above it gives one. */
export const UNKNOWN_LOG_TIME = "1970-01-01T00:00:00Z";

/** `2026-02-24T10:30:00.123Z` → `2026-02-24 10:30:00` (the text log's header time, UTC). */
export function formatLogTime(at: string): string {
  return `${at.slice(0, 10)} ${at.slice(11, 19)}`;
}

/** An ISO time cut to what the text log keeps: whole seconds, UTC. */
function toLogSeconds(at: string): string {
  return `${at.slice(0, 19)}Z`;
}

/**
 * A header time back to UTC ISO. Reads `2026-02-24 10:30:00` (UTC) and the original's
 * `2026-02-24T10:30:00+01:00` (converted to UTC).
 */
export function parseLogTime(text: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(
    text,
  );
  if (match === null) return undefined;
  const [, date, time, zone] = match;
  if (zone === undefined || zone === "Z") {
    const iso = `${date}T${time}Z`;
    return TddTimeSchema.safeParse(iso).success ? iso : undefined;
  }
  const ms = Date.parse(`${date}T${time}${zone}`);
  return Number.isNaN(ms) ? undefined : toLogSeconds(new Date(ms).toISOString());
}

/**
 * A command on one line. The original escaped only line feeds; we also escape backslashes and
 * carriage returns, and ` - FAILED(` (which would make the line ambiguous), so the command reads
 * back exactly.
 */
export function escapeLogCommand(command: string): string {
  return command
    .replace(/\\/g, "\\\\")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replaceAll(" - FAILED(", " - FAILED\\(");
}

/** Undoes `escapeLogCommand`; an unknown escape (an original log's raw `\|`) is kept as it is. */
export function unescapeLogCommand(text: string): string {
  return text.replace(/\\([\\nr(])/g, (_, char: string) => {
    if (char === "n") return "\n";
    if (char === "r") return "\r";
    return char;
  });
}

/** The part of a failure's report the text log keeps: its first non-blank line, trimmed. */
export function firstErrorLine(error: string | undefined): string {
  return ((error ?? "").trim().split(/\r\n|\r|\n/)[0] ?? "").trim();
}

function redLabel(entry: RedEntry): string {
  return entry.override_from === undefined ? "Red" : `Red (override from ${entry.override_from})`;
}

function greenLabel(entry: GreenEntry): string {
  const notes = [
    ...(entry.skip_red === undefined ? [] : ["skip-red"]),
    ...(entry.override_from === undefined ? [] : [`override from ${entry.override_from}`]),
  ];
  return notes.length === 0 ? "Green" : `Green (${notes.join(", ")})`;
}

function block(label: string, at: string, body: readonly string[]): string {
  return `\n## ${label} - ${formatLogTime(at)}\n${body.map((line) => `${line}\n`).join("")}\n`;
}

/** The text one entry appends to the log, in the human format. */
export function renderLogEntry(entry: TddEntry): string {
  switch (entry.kind) {
    case "red":
      return block(redLabel(entry), entry.at, [`Test: ${entry.test}`, `Expects: ${entry.expects}`]);
    case "green":
      return block(greenLabel(entry), entry.at, [
        `Change: ${entry.change}`,
        ...entry.files.map((file) => `File: ${file}`),
        ...(entry.skip_red === undefined ? [] : [`Reason: ${entry.skip_red.reason}`]),
      ]);
    case "test": {
      const error = firstErrorLine(entry.error);
      let suffix = "SUCCEEDED";
      if (entry.outcome === "failed") suffix = error === "" ? "FAILED" : `FAILED(${error})`;
      return `[test] ${escapeLogCommand(entry.command)} - ${suffix}\n`;
    }
    case "edit":
      return `[edit] ${entry.path} (${entry.file_class}) state=${entry.state} - ${entry.decision === "allowed" ? "ALLOWED" : "BLOCKED"}\n`;
    case "finished":
      return `\n## FINISHED - ${formatLogTime(entry.at)}\n`;
  }
}

export function renderLog(entries: readonly TddEntry[]): string {
  return entries.map(renderLogEntry).join("");
}

/**
 * The entries as the text log can carry them (see the top of this file): what
 * `parseLog(renderLog(entries)).entries` gives back.
 */
export function logTextView(entries: readonly TddEntry[]): TddEntry[] {
  let lastTime = UNKNOWN_LOG_TIME;
  return entries.map((entry): TddEntry => {
    switch (entry.kind) {
      case "red":
      case "green":
      case "finished":
        lastTime = toLogSeconds(entry.at);
        return { ...entry, at: lastTime };
      case "edit":
        return { ...entry, at: lastTime };
      case "test": {
        const error = entry.outcome === "failed" ? firstErrorLine(entry.error) : "";
        return {
          kind: "test",
          command: entry.command,
          outcome: entry.outcome,
          at: lastTime,
          ...(error === "" ? {} : { error }),
        };
      }
    }
  });
}

/** A line `parseLog` could not read as part of an entry (1-based line number). */
export interface UnreadLine {
  line: number;
  text: string;
}

export interface ParsedLog {
  entries: TddEntry[];
  /**
   * Lines that are not part of any entry: the original's `[bash]` and `[ignored e2e test]` lines,
   * hand edits, a header whose body does not fit the schema (with its body).
   */
  unread: UnreadLine[];
}

interface Line {
  line: number;
  text: string;
}

interface OpenBlock {
  header: Line;
  kind: "red" | "green" | "finished";
  at: string;
  label: string | undefined;
  fields: Map<string, string>;
  files: string[];
  lines: Line[];
}

const HEADER = /^## (Red|Green|FINISHED)(?: \((.*)\))? - (.+)$/;
const BODY = /^(Test|Expects|Change|File|Reason):(.*)$/;
const EDIT = /^\[edit\] (.+) \(([a-z][a-z0-9_]*)\) state=([a-z_]+) - (ALLOWED|BLOCKED)$/;

const BODY_KEYS: Record<OpenBlock["kind"], readonly string[]> = {
  red: ["Test", "Expects"],
  green: ["Change", "File", "Reason"],
  finished: [],
};

/** What a header's parenthesised label says: `skip-red`, `override from <state>`, or both. */
interface Label {
  skipRed: boolean;
  overrideFrom: string | undefined;
}

function readLabel(kind: OpenBlock["kind"], label: string | undefined): Label | undefined {
  if (label === undefined) return { skipRed: false, overrideFrom: undefined };
  if (kind === "finished") return undefined;
  const notes = label.split(", ");
  const skipRed = kind === "green" && notes[0] === "skip-red";
  const rest = skipRed ? notes.slice(1) : notes;
  if (rest.length === 0) return { skipRed, overrideFrom: undefined };
  const from = rest.length === 1 ? /^override from (\S+)$/.exec(rest[0] ?? "")?.[1] : undefined;
  return from === undefined ? undefined : { skipRed, overrideFrom: from };
}

/** The block as an entry-shaped object for the schema to judge; undefined if the label is wrong. */
function blockCandidate(open: OpenBlock): unknown {
  const label = readLabel(open.kind, open.label);
  if (label === undefined) return undefined;
  const override = label.overrideFrom === undefined ? {} : { override_from: label.overrideFrom };
  switch (open.kind) {
    case "red":
      return {
        kind: "red",
        test: open.fields.get("Test"),
        expects: open.fields.get("Expects"),
        at: open.at,
        ...override,
      };
    case "finished":
      return { kind: "finished", at: open.at };
    case "green": {
      const reason = open.fields.get("Reason");
      // A skip-red header needs its Reason line, and only a skip-red Green may have one.
      if ((reason !== undefined) !== label.skipRed) return undefined;
      return {
        kind: "green",
        change: open.fields.get("Change"),
        files: open.files,
        at: open.at,
        ...(reason === undefined ? {} : { skip_red: { reason } }),
        ...override,
      };
    }
  }
}

const TEST_PASSED = " - SUCCEEDED";
const TEST_FAILED = " - FAILED";
const TEST_FAILED_WITH = " - FAILED(";

function parseTestLine(text: string, at: string): TddEntry | undefined {
  const body = text.slice("[test] ".length);
  let command: string;
  let outcome: "passed" | "failed" = "failed";
  let error = "";
  if (body.endsWith(TEST_PASSED)) {
    command = body.slice(0, -TEST_PASSED.length);
    outcome = "passed";
  } else if (body.endsWith(TEST_FAILED)) {
    command = body.slice(0, -TEST_FAILED.length);
  } else {
    // The command cannot hold ` - FAILED(` (it is escaped), so the first one starts the error.
    const split = body.indexOf(TEST_FAILED_WITH);
    if (split === -1 || !body.endsWith(")")) return undefined;
    command = body.slice(0, split);
    error = body.slice(split + TEST_FAILED_WITH.length, -1);
  }
  const parsed = TestRunEntrySchema.safeParse({
    kind: "test",
    command: unescapeLogCommand(command),
    outcome,
    at,
    ...(error === "" ? {} : { error }),
  });
  return parsed.success ? parsed.data : undefined;
}

function parseEditLine(text: string, at: string): TddEntry | undefined {
  // Greedy: a path may itself hold parentheses; the last ` (class) state=… - …` is the suffix.
  const match = EDIT.exec(text);
  if (match === null) return undefined;
  const [, path, fileClass, state, decision] = match;
  const parsed = EditEntrySchema.safeParse({
    kind: "edit",
    path,
    file_class: fileClass,
    state,
    decision: decision === "ALLOWED" ? "allowed" : "blocked",
    at,
  });
  return parsed.success ? parsed.data : undefined;
}

const HEADER_KINDS: Record<string, OpenBlock["kind"]> = {
  Red: "red",
  Green: "green",
  FINISHED: "finished",
};

class LogReader {
  readonly entries: TddEntry[] = [];
  readonly unread: UnreadLine[] = [];
  private open: OpenBlock | undefined;
  /** The time of the last header read: `[test]` and `[edit]` lines carry none of their own. */
  private lastTime = UNKNOWN_LOG_TIME;

  read(line: Line): void {
    const body = BODY.exec(line.text);
    if (this.open !== undefined && body !== null) {
      this.addBodyLine(this.open, line, body[1] ?? "", (body[2] ?? "").trim());
      return;
    }
    this.close();
    if (line.text === "") return;
    const header = HEADER.exec(line.text);
    if (header !== null) {
      this.openBlock(line, header);
      return;
    }
    let entry: TddEntry | undefined;
    if (line.text.startsWith("[test] ")) entry = parseTestLine(line.text, this.lastTime);
    else if (line.text.startsWith("[edit] ")) entry = parseEditLine(line.text, this.lastTime);
    if (entry === undefined) this.unread.push(line);
    else this.entries.push(entry);
  }

  close(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    const parsed = TddEntrySchema.safeParse(blockCandidate(open));
    if (parsed.success) {
      this.entries.push(parsed.data);
      this.lastTime = open.at;
    } else {
      this.unread.push(open.header, ...open.lines);
    }
  }

  private openBlock(line: Line, header: RegExpExecArray): void {
    const at = parseLogTime(header[3] ?? "");
    const kind = HEADER_KINDS[header[1] ?? ""];
    if (at === undefined || kind === undefined) {
      this.unread.push(line);
      return;
    }
    this.open = {
      header: line,
      kind,
      at,
      label: header[2],
      fields: new Map(),
      files: [],
      lines: [],
    };
  }

  private addBodyLine(open: OpenBlock, line: Line, key: string, value: string): void {
    const fits = BODY_KEYS[open.kind].includes(key) && (key === "File" || !open.fields.has(key));
    if (!fits) {
      this.unread.push(line);
      return;
    }
    open.lines.push(line);
    if (key === "File") open.files.push(value);
    else open.fields.set(key, value);
  }
}

/**
 * Reads a text log back into entries (see the top of this file for what it cannot carry). Lines
 * that are not ours are listed in `unread`, never guessed at.
 */
export function parseLog(text: string): ParsedLog {
  const reader = new LogReader();
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    reader.read({ line: index + 1, text: raw.trimEnd() });
  });
  reader.close();
  return { entries: reader.entries, unread: reader.unread };
}

// ---------------------------------------------------------------------------------------------
// .tailtest/events.jsonl
// ---------------------------------------------------------------------------------------------

export const EVENT_LINE_VERSION = 1;

const EVENT_TYPES = {
  red: "tdd.red",
  green: "tdd.green",
  test: "tdd.test",
  edit: "tdd.edit",
  finished: "tdd.finished",
} as const satisfies Record<TddEntry["kind"], string>;

/** The `type` of the gate's audit lines (`edit` entries), which never move the state. */
export const EDIT_EVENT_TYPE = EVENT_TYPES.edit;

const eventFields = { v: z.literal(EVENT_LINE_VERSION) };

const RedLineSchema = lazy(() =>
  z.extend(z.omit(RedEntrySchema, { kind: true }), {
    ...eventFields,
    type: z.literal(EVENT_TYPES.red),
  }),
);
const GreenLineSchema = lazy(() =>
  z.extend(z.omit(GreenEntrySchema, { kind: true }), {
    ...eventFields,
    type: z.literal(EVENT_TYPES.green),
  }),
);
const TestRunLineSchema = lazy(() =>
  z.extend(z.omit(TestRunEntrySchema, { kind: true }), {
    ...eventFields,
    type: z.literal(EVENT_TYPES.test),
  }),
);
const EditLineSchema = lazy(() =>
  z.extend(z.omit(EditEntrySchema, { kind: true }), {
    ...eventFields,
    type: z.literal(EVENT_TYPES.edit),
  }),
);
const FinishedLineSchema = lazy(() =>
  z.extend(z.omit(FinishedEntrySchema, { kind: true }), {
    ...eventFields,
    type: z.literal(EVENT_TYPES.finished),
  }),
);

/**
 * One line of `.tailtest/events.jsonl`: an entry with every field, its kind as a namespaced
 * `type` (the file is shared with events other than TDD ones) and a version.
 */
export const EventLineSchema = lazy(() =>
  z.discriminatedUnion("type", [
    RedLineSchema,
    GreenLineSchema,
    TestRunLineSchema,
    EditLineSchema,
    FinishedLineSchema,
  ]),
);
/** Each option of `EventLineSchema` by its `type` (util/union-option.ts). */
export const EVENT_LINE_OPTIONS: ReadonlyMap<unknown, z.core.$ZodType> = new Map<
  string,
  z.core.$ZodType
>([
  [EVENT_TYPES.red, RedLineSchema],
  [EVENT_TYPES.green, GreenLineSchema],
  [EVENT_TYPES.test, TestRunLineSchema],
  [EVENT_TYPES.edit, EditLineSchema],
  [EVENT_TYPES.finished, FinishedLineSchema],
]);
export type EventLine = z.infer<typeof EventLineSchema>;

const KIND_OF_TYPE = Object.fromEntries(
  Object.entries(EVENT_TYPES).map(([kind, type]) => [type, kind]),
) as Record<EventLine["type"], TddEntry["kind"]>;

/** The JSON line (without its newline) that records `entry` in events.jsonl. */
export function toEventLine(entry: TddEntry): string {
  const { kind, ...fields } = entry;
  return JSON.stringify({ v: EVENT_LINE_VERSION, type: EVENT_TYPES[kind], ...fields });
}

export type ParsedEventLine = { ok: true; entry: TddEntry } | { ok: false; message: string };

/** One events.jsonl line back to its entry, or a one-line reason it cannot be read. */
export function parseEventLine(line: string): ParsedEventLine {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, message: "not JSON" };
  }
  // The option its `type` names: the union's answer, without building the other kinds.
  const parsed = z.safeParse(optionOf(json, "type", EVENT_LINE_OPTIONS, EventLineSchema), json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
    return { ok: false, message: `${where}${issue?.message ?? "does not match the schema"}` };
  }
  // The entry schemas strip `v` and `type`; `kind` comes back from the type.
  return {
    ok: true,
    entry: parseTddEntry({ ...parsed.data, kind: KIND_OF_TYPE[parsed.data.type] }),
  };
}
