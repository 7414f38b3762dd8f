import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { optionOf } from "../util/union-option.ts";
import {
  formatStrictEvent,
  parseStrictLog,
  STRICT_EVENT_OPTIONS,
  STRICT_EVENT_TYPES,
  StrictEventSchema,
  type StrictEventInput,
} from "./strict-events.ts";

const ts = "2026-11-23T10:00:00.000Z";
const hash = "a".repeat(64);
const test = { id: "t.py::a", file: "t.py", segments: ["a"], runner: "pytest", source: "native" };
/** One event of each type, as a writer passes it. */
const EVENTS: StrictEventInput[] = [
  {
    type: "test_run",
    ts,
    test_id: test.id,
    test: { ...test, source: "native" },
    status: "fail",
    fail_reason: "assertion",
    command: "pytest",
    duration_ms: 9,
    test_file_hash: hash,
    purpose: "claim",
  },
  { type: "edit_claim", ts, claim: "c1", test_id: test.id, edit_target: "calc.py" },
  { type: "snapshot", ts, claim: "c1", path: "calc.py", object: null },
  { type: "edit_applied", ts, path: "calc.py", claims: ["c1"], object: hash, host: "codex" },
  { type: "edit_denied", ts, path: "calc.py", code: "no_claim", reason: "no claim" },
  { type: "edit_reverted", ts, claim: "c1", path: "calc.py", restored: hash, discarded: null },
  { type: "repair", ts, claim: "c1", test_id: test.id, attempt: 1, reason: "failed" },
  { type: "escalated", ts, claim: "c1", test_id: test.id, attempts: 2 },
  { type: "mode_changed", ts, mode: "refactor", by: "refactor-start", session: "s" },
  { type: "verify_result", ts, scope: "claim", claim: "c1", status: "pass", after: { a: null } },
  { type: "plan_recorded", ts, steps: [{ text: "add", test_id: test.id }], accepted: true },
  { type: "edit_unattributed", ts, path: "calc.py", discarded: hash },
] as StrictEventInput[];

describe("a strict event parsed by the option its type names (util/union-option.ts)", () => {
  const lines = EVENTS.map((event) => ({ v: 1, ...event }));

  it("covers every type, one option each, the union's own", () => {
    expect(new Set(EVENTS.map((event) => event.type))).toEqual(STRICT_EVENT_TYPES);
    const def = StrictEventSchema._zod.def as unknown as { options: z.core.$ZodType[] };
    expect(STRICT_EVENT_OPTIONS.size).toBe(def.options.length);
    for (const option of def.options)
      for (const value of option._zod.propValues?.["type"] ?? [])
        expect(STRICT_EVENT_OPTIONS.get(value)).toBe(option);
  });

  it("gives what the union gives, good or bad", () => {
    const broken = lines.flatMap((line) => [
      { ...line, ts: "today" },
      { ...line, v: 2 },
      { v: 1, type: line["type"] },
      { ...line, path: "", claim: "", status: "maybe", extra: 1 },
    ]);
    for (const sample of [...lines, ...broken, { v: 1, type: "edit_blue" }, {}, [], null]) {
      const viaUnion = z.safeParse(StrictEventSchema, sample);
      const viaOption = z.safeParse(
        optionOf(sample, "type", STRICT_EVENT_OPTIONS, StrictEventSchema),
        sample,
      );
      expect(viaOption.success).toBe(viaUnion.success);
      expect(viaOption.data).toEqual(viaUnion.data);
      expect(viaOption.error?.issues).toEqual(viaUnion.error?.issues);
    }
  });

  it("writes and reads every event back, and refuses a bad one before writing", () => {
    const text = EVENTS.map((event) => `${formatStrictEvent(event)}\n`).join("");
    const log = parseStrictLog(text);
    expect(log.problems).toEqual([]);
    expect(log.events).toEqual(lines.map((line) => z.parse(StrictEventSchema, line)));
    expect(() =>
      formatStrictEvent({ type: "edit_denied", ts, path: "", code: "no_claim", reason: "x" }),
    ).toThrow();
    const { problems } = parseStrictLog(`{"v":1,"type":"snapshot","ts":"${ts}","claim":"c1"}\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(1);
    expect(problems[0]?.message.startsWith("path: ")).toBe(true);
  });

  it("read for the state, counts a line the reducer passes over without checking its fields", () => {
    const text = [
      ...EVENTS.map((event) => formatStrictEvent(event)),
      `{"v":1,"type":"edit_denied","ts":"${ts}"}`,
      `{"v":1,"type":"snapshot","ts":"${ts}","claim":"c1"}`,
      `{"v":2,"type":"edit_applied","ts":"${ts}"}`,
    ]
      .map((line) => `${line}\n`)
      .join("");
    const checked = parseStrictLog(text);
    const forState = parseStrictLog(text, { forState: true });
    // The short edit_denied line is an event for the state, a problem otherwise; a bad line of
    // a kind that moves the state, and a newer tailtest's line, are what they always were.
    expect(checked.problems.map((problem) => problem.line)).toEqual([13, 14, 15]);
    expect(forState.problems.map((problem) => problem.line)).toEqual([14, 15]);
    expect(forState.newer).toBe(true);
    expect(forState.events.map((event) => event.type)).toEqual([
      ...EVENTS.map((event) => event.type),
      "edit_denied",
    ]);
    expect(forState.events.slice(0, EVENTS.length)).toEqual(checked.events);
  });
});
