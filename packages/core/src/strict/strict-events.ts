import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import { optionOf } from "../util/union-option.ts";
import { isoDateTime } from "../util/iso-datetime.ts";
import { FailureKindSchema } from "../engine/results.ts";
import { RunnerIdSchema } from "../runners/project-runners.ts";

/*
 * zod/mini (ADR 0010): the strict gate reads these on every pre-tool call, and a hook is a fresh
 * process that builds every schema it loads.
 */

/**
 * strict mode's event log: one versioned JSON object per line of `.tailtest/events.jsonl`
 * (shared with tdd mode's `tdd.*` lines, which strict mode skips). Every decision strict mode
 * takes is a pure function of these events (plus the current hashes of test files), so a log
 * can be replayed. See ADR 0008.
 */

export const STRICT_EVENT_VERSION = 1;

/** Which agent platform (or the CLI) wrote an event. */
export const HostSchema = lazy(() => z.enum(["claude-code", "cursor", "codex", "cli"]));
export type Host = z.infer<typeof HostSchema>;

/** A non-empty string. */
const NonEmpty = lazy(() => z.string().check(z.minLength(1)));
/** A project-relative POSIX path. */
const RelPathSchema = lazy(() => z.string().check(z.minLength(1)));
/** sha256 (hex) of a file's bytes, or null: the file did not exist. */
export const ObjectRefSchema = lazy(() => z.nullable(z.string().check(z.regex(/^[0-9a-f]{64}$/))));

/**
 * A test's identity as strict mode stores it: never only a joined string. `id` is the canonical
 * text (what the agent types: `tests/test_x.py::TestA::test_b`, `src/a.test.ts::math > adds`, or
 * an annotation slug), `file` + `segments` are what the test engine selects it by.
 */
export const StrictTestSchema = lazy(() =>
  z.object({
    id: NonEmpty,
    file: RelPathSchema,
    segments: z.array(z.string()).check(z.minLength(1)),
    runner: z.optional(RunnerIdSchema),
    /** `native`: from the runner's own output; `annotation`: a `tailtest-id:` comment. */
    source: z.enum(["native", "annotation"]),
  }),
);
export type StrictTest = z.infer<typeof StrictTestSchema>;

let baseFields: ReturnType<typeof makeBase> | undefined;
/** Every event's common fields, built with the first event schema (a gate may read none). */
const base = () => (baseFields ??= makeBase());
function makeBase() {
  return {
    v: z.literal(STRICT_EVENT_VERSION),
    ts: isoDateTime(),
    /** The log key of the agent session that caused it (absent for the person's own CLI use). */
    session: z.optional(z.string()),
    host: z.optional(HostSchema),
  };
}

export const TestRunEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("test_run"),
    test_id: NonEmpty,
    test: StrictTestSchema,
    status: z.enum(["pass", "fail", "not_run"]),
    fail_reason: z.optional(FailureKindSchema),
    /** The failure was a syntax error (of the test or what it loads): never a valid red. */
    syntax_error: z.optional(z.boolean()),
    /** Modules or `module:symbol` names a collection failure says are missing. */
    missing: z.optional(z.array(z.string())),
    /** First line of the failure, for people; the gate never reads it. */
    message: z.optional(z.string()),
    /** The command tailtest ran (argv joined with spaces). */
    command: z.string(),
    duration_ms: z.number().check(z.minimum(0)),
    /** sha256 of the test file when it ran: a red is void once the file changes. */
    test_file_hash: ObjectRefSchema,
    /**
     * One sha256 of the test's support when it ran (`strict/test-support.ts`: conftest.py chain,
     * runner config, helpers, fixtures): a red is void once it changes. Absent in older logs.
     */
    support_hash: z.optional(z.string()),
    /**
     * A verification's claimed Python files whose changed code ran while the test ran (pytest's
     * witness); absent when not asked. A changed claimed file not in it fails the claim.
     */
    reached: z.optional(z.array(z.string())),
    /**
     * Those files' changed functions that did not start while the test ran (pytest's witness):
     * a claim covers only the functions its test runs. Absent when none, or not asked.
     */
    unran: z.optional(z.record(z.string(), z.array(z.string()))),
    /** Why it ran: a claim's red check, the end-of-turn verification, or a plain run. */
    purpose: z.enum(["claim", "verify", "run"]),
  }),
);
export type TestRunEvent = z.infer<typeof TestRunEventSchema>;

/** `tailtest claim`: the next edits to `edit_target` advance the red `test_id`. */
export const EditClaimEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("edit_claim"),
    /** One claim command gives one id to all its targets: the claim group. */
    claim: NonEmpty,
    test_id: NonEmpty,
    edit_target: RelPathSchema,
  }),
);
export type EditClaimEvent = z.infer<typeof EditClaimEventSchema>;

/** A file's content before the first edit of a claim's turn, kept in `.tailtest/objects`. */
export const SnapshotEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("snapshot"),
    claim: NonEmpty,
    path: RelPathSchema,
    object: ObjectRefSchema,
  }),
);
export type SnapshotEvent = z.infer<typeof SnapshotEventSchema>;

export const EditAppliedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("edit_applied"),
    path: RelPathSchema,
    /** The claims the gate allowed it under (empty in refactor mode). */
    claims: z.array(z.string()),
    /** The file after the edit. */
    object: z.optional(ObjectRefSchema),
  }),
);
export type EditAppliedEvent = z.infer<typeof EditAppliedEventSchema>;

export const DenyCodeSchema = lazy(() =>
  z.enum([
    "no_claim",
    "no_red",
    "passing",
    "invalid_red",
    "test_changed",
    "protected",
    "plan_without_tests",
    "undecidable",
  ]),
);
export type DenyCode = z.infer<typeof DenyCodeSchema>;

export const EditDeniedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("edit_denied"),
    path: RelPathSchema,
    code: DenyCodeSchema,
    reason: z.string(),
  }),
);
export type EditDeniedEvent = z.infer<typeof EditDeniedEventSchema>;

export const EditRevertedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("edit_reverted"),
    claim: NonEmpty,
    path: RelPathSchema,
    /** What the file was put back to (null: removed, it did not exist before). */
    restored: ObjectRefSchema,
    /** What was there before the revert, kept so nothing is lost. */
    discarded: ObjectRefSchema,
  }),
);
export type EditRevertedEvent = z.infer<typeof EditRevertedEventSchema>;

/** A claim's verification failed; the agent is sent back to try again (attempt 1, 2, …). */
export const RepairEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("repair"),
    claim: NonEmpty,
    test_id: NonEmpty,
    attempt: z.number().check(z.int(), z.minimum(1)),
    reason: z.string(),
  }),
);
export type RepairEvent = z.infer<typeof RepairEventSchema>;

/** A claim failed too often: reverted and handed to the person; it grants no more edits. */
export const EscalatedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("escalated"),
    claim: NonEmpty,
    test_id: NonEmpty,
    attempts: z.number().check(z.int(), z.minimum(1)),
  }),
);
export type EscalatedEvent = z.infer<typeof EscalatedEventSchema>;

export const StrictModeSchema = lazy(() => z.enum(["strict", "refactor"]));
export type StrictMode = z.infer<typeof StrictModeSchema>;

export const ModeChangedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("mode_changed"),
    mode: StrictModeSchema,
    /** What changed it: `tailtest refactor start|finish`, or a session finding the config. */
    by: z.enum(["refactor-start", "refactor-finish", "config"]),
  }),
);
export type ModeChangedEvent = z.infer<typeof ModeChangedEventSchema>;

export const VerifyResultEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("verify_result"),
    /** `claim`: one claim group's tests at the end of a turn; `refactor`: the verify command. */
    scope: z.enum(["claim", "refactor"]),
    claim: z.optional(z.string()),
    status: z.enum(["pass", "fail"]),
    command: z.optional(z.string()),
    duration_ms: z.optional(z.number().check(z.minimum(0))),
    /** One line: what failed. */
    reason: z.optional(z.string()),
    /** The claim's files after a green, for the exported corpus. */
    after: z.optional(z.record(z.string(), ObjectRefSchema)),
  }),
);
export type VerifyResultEvent = z.infer<typeof VerifyResultEventSchema>;

export const PlanStepSchema = lazy(() =>
  z.object({
    text: z.string(),
    test_id: z.optional(z.string()),
    test_file: z.optional(z.string()),
  }),
);
export type PlanStep = z.infer<typeof PlanStepSchema>;

export const PlanRecordedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("plan_recorded"),
    steps: z.array(PlanStepSchema),
    accepted: z.boolean(),
  }),
);
export type PlanRecordedEvent = z.infer<typeof PlanRecordedEventSchema>;

/** A production file changed in a turn without passing the gate (found by the end-of-turn sweep). */
export const EditUnattributedEventSchema = lazy(() =>
  z.object({
    ...base(),
    type: z.literal("edit_unattributed"),
    path: RelPathSchema,
    /** Put back to the turn's start by content (strict's end-of-turn check). */
    reverted: z.optional(z.boolean()),
    /** What the file held before that revert, kept so nothing is lost. */
    discarded: z.optional(ObjectRefSchema),
  }),
);
export type EditUnattributedEvent = z.infer<typeof EditUnattributedEventSchema>;

export const StrictEventSchema = lazy(() =>
  z.discriminatedUnion("type", [
    TestRunEventSchema,
    EditClaimEventSchema,
    SnapshotEventSchema,
    EditAppliedEventSchema,
    EditDeniedEventSchema,
    EditRevertedEventSchema,
    RepairEventSchema,
    EscalatedEventSchema,
    ModeChangedEventSchema,
    VerifyResultEventSchema,
    PlanRecordedEventSchema,
    EditUnattributedEventSchema,
  ]),
);
export type StrictEvent = z.infer<typeof StrictEventSchema>;
export type StrictEventType = StrictEvent["type"];

/** Each option of `StrictEventSchema` by its `type` (util/union-option.ts). */
export const STRICT_EVENT_OPTIONS: ReadonlyMap<unknown, z.core.$ZodType> = new Map<
  StrictEventType,
  z.core.$ZodType
>([
  ["test_run", TestRunEventSchema],
  ["edit_claim", EditClaimEventSchema],
  ["snapshot", SnapshotEventSchema],
  ["edit_applied", EditAppliedEventSchema],
  ["edit_denied", EditDeniedEventSchema],
  ["edit_reverted", EditRevertedEventSchema],
  ["repair", RepairEventSchema],
  ["escalated", EscalatedEventSchema],
  ["mode_changed", ModeChangedEventSchema],
  ["verify_result", VerifyResultEventSchema],
  ["plan_recorded", PlanRecordedEventSchema],
  ["edit_unattributed", EditUnattributedEventSchema],
]);

/**
 * What `StrictEventSchema` makes of a value, through the option its `type` names: the same
 * answer without building the other eleven (a gate reads a few kinds of line and writes one).
 */
function strictEventSchemaFor(value: unknown) {
  return optionOf(value, "type", STRICT_EVENT_OPTIONS, StrictEventSchema);
}

/** An event before `v` is stamped on it (writers pass these). */
export type StrictEventInput = StrictEvent extends infer E
  ? E extends StrictEvent
    ? Omit<E, "v">
    : never
  : never;

export const STRICT_EVENT_TYPES: ReadonlySet<string> = new Set<StrictEventType>([
  "test_run",
  "edit_claim",
  "snapshot",
  "edit_applied",
  "edit_denied",
  "edit_reverted",
  "repair",
  "escalated",
  "mode_changed",
  "verify_result",
  "plan_recorded",
  "edit_unattributed",
]);

/** The line (without its newline) for an event; validated, so a bad event is never written. */
export function formatStrictEvent(event: StrictEventInput): string {
  const line = { v: STRICT_EVENT_VERSION, ...event };
  return JSON.stringify(z.parse(strictEventSchemaFor(line), line));
}

export interface StrictLogProblem {
  /** 1-based line number in events.jsonl. */
  line: number;
  message: string;
}

export interface StrictLog {
  events: StrictEvent[];
  problems: StrictLogProblem[];
  /** A line written by a newer tailtest (a higher `v`): decisions must not be taken on it. */
  newer: boolean;
}

/**
 * The kinds of line the reducer passes over (strict-state.ts): they record what happened, and
 * change no claim, run or mode.
 */
const STATELESS_TYPES: ReadonlySet<string> = new Set<StrictEventType>([
  "edit_applied",
  "edit_denied",
  "plan_recorded",
  "edit_unattributed",
]);

/** How `parseStrictLog` reads. */
export interface StrictLogReading {
  /**
   * For the reduced state only (strict-store.ts, every reader of the state and its checkpoint):
   * a line of a kind the reducer passes over is counted with its type and version checked, its
   * other fields not (a gate's log gains one such line per edit, and each cost the schema's
   * ~35 µs). Such an event is no use to anything but the reducer.
   */
  forState?: boolean;
}

/**
 * Reads the strict events of events.jsonl text. Lines of other kinds (tdd mode's) are skipped;
 * unreadable lines are listed, never guessed at; a last line with no newline (a writer died
 * mid-append) is ignored here and closed by the next append.
 */
export function parseStrictLog(text: string, reading: StrictLogReading = {}): StrictLog {
  const lines = text.split("\n");
  lines.pop();
  const events: StrictEvent[] = [];
  const problems: StrictLogProblem[] = [];
  let newer = false;
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    // Cheap filter: tdd mode's lines are the other tenants of the file.
    if (line.includes('"type":"tdd.')) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      problems.push({ line: index + 1, message: "not JSON" });
      return;
    }
    const fields = json as { type?: unknown; v?: unknown } | null;
    if (fields === null || typeof fields !== "object") {
      problems.push({ line: index + 1, message: "not a JSON object" });
      return;
    }
    if (typeof fields.type !== "string") {
      problems.push({ line: index + 1, message: "no event type" });
      return;
    }
    // Another tenant's line (tdd mode's, or a later feature's): not ours to judge.
    if (!STRICT_EVENT_TYPES.has(fields.type)) return;
    if (typeof fields.v === "number" && fields.v > STRICT_EVENT_VERSION) {
      newer = true;
      problems.push({ line: index + 1, message: `written by a newer tailtest (v${fields.v})` });
      return;
    }
    if (reading.forState === true && STATELESS_TYPES.has(fields.type)) {
      events.push(json as StrictEvent);
      return;
    }
    const parsed = z.safeParse(strictEventSchemaFor(json), json);
    if (parsed.success) events.push(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      const where =
        issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
      problems.push({ line: index + 1, message: `${where}${issue?.message ?? "bad event"}` });
    }
  });
  return { events, problems, newer };
}
