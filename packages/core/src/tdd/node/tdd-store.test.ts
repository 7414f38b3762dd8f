import { readFileSync, utimesSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { makeProject, REPO_ROOT, type TempProject } from "@tailtest/test-utils";
import { writeStateLines } from "@tailtest/test-utils/state-lines";
import { execa } from "execa";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSession } from "../../state/session.ts";
import { declareGreen, declareRed } from "../declare.ts";
import { logTextView, parseLog, type TddEntry } from "../tdd-log.ts";
import { deriveTddState } from "../tdd-state.ts";
import {
  activeTddKey,
  agentKey,
  appendTddEntries,
  declareTddEntry,
  EVENTS_PATH,
  readEventText,
  readTddEntries,
  sanitiseKeyPart,
  TDD_KEY_ENV,
  tddLogPath,
} from "./tdd-store.ts";

const AT = "2026-02-24T10:30:00.000Z";

const red: TddEntry = { kind: "red", test: "t/a.test.ts", expects: "a fails: no a()", at: AT };
const failed: TddEntry = {
  kind: "test",
  command: "npx vitest run t/a.test.ts",
  outcome: "failed",
  at: AT,
  runner: "vitest",
  failed_tests: ["t/a.test.ts > a"],
  declared_test_failed: true,
  real_failure: true,
  error: "AssertionError: expected 1\n  at a.test.ts:3",
};
const green: TddEntry = { kind: "green", change: "add a()", files: ["src/a.ts"], at: AT };

let project: TempProject;
beforeEach(() => {
  project = makeProject();
});
afterEach(() => {
  project.cleanup();
});

const read = (path: string) => readFileSync(join(project.root, path), "utf8");

describe("agentKey", () => {
  const hash = createHash("sha256").update("/t/transcript.jsonl").digest("hex").slice(0, 8);
  it.each([
    [{ sessionId: "abc-123" }, "abc-123"],
    [{ sessionId: "abc-123", agentId: "agent_7" }, "abc-123.agent_7"],
    [{ sessionId: "a b/c:d" }, "a_b_c_d"],
    [{ sessionId: "s", agentId: "../x" }, "s..._x"],
    [{ sessionId: "..", agentId: "a" }, "__.a"],
    [{ transcriptPath: "/t/transcript.jsonl" }, hash],
    [{ sessionId: "", transcriptPath: "/t/transcript.jsonl", agentId: "b" }, `${hash}.b`],
    [{}, "default"],
    [{ agentId: "b" }, "default.b"],
  ])("%j → %s", (identity, key) => {
    expect(agentKey(identity)).toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it("sanitises to file-name characters and caps the length", () => {
    expect(sanitiseKeyPart("ünï/cødé")).toBe("_n__c_d_");
    expect(sanitiseKeyPart("x".repeat(300))).toHaveLength(100);
  });

  it("refuses a key that is not a file name", () => {
    expect(() => tddLogPath("../x")).toThrow("invalid TDD log key");
    expect(() => tddLogPath("..")).toThrow("invalid TDD log key");
    expect(tddLogPath("s.a")).toBe(".tailtest/tdd/s.a.log");
  });
});

describe("appendTddEntries / readTddEntries", () => {
  it("round-trips every field through events.jsonl and writes the human text log", async () => {
    await appendTddEntries(project.root, "s1", [red, failed]);
    await appendTddEntries(project.root, "s1", [green]);
    const result = await readTddEntries(project.root, "s1");
    expect(result).toEqual({ entries: [red, failed, green], problems: [], torn: false });
    expect(deriveTddState(result.entries).state).toBe("making_tests_pass");

    const text = read(tddLogPath("s1"));
    expect(text).toBe(
      "\n## Red - 2026-02-24 10:30:00\nTest: t/a.test.ts\nExpects: a fails: no a()\n\n" +
        "[test] npx vitest run t/a.test.ts - FAILED(AssertionError: expected 1)\n" +
        "\n## Green - 2026-02-24 10:30:00\nChange: add a()\nFile: src/a.ts\n\n",
    );
    expect(parseLog(text).entries).toEqual(logTextView([red, failed, green]));

    const lines = read(EVENTS_PATH).trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      v: 1,
      type: "tdd.red",
      agent_key: "s1",
      test: "t/a.test.ts",
      expects: "a fails: no a()",
      at: AT,
    });
  });

  it("a missing events.jsonl reads as no entries", async () => {
    expect(await readTddEntries(project.root, "s1")).toEqual({
      entries: [],
      problems: [],
      torn: false,
    });
  });

  it("refuses an entry the schema does not accept, writing nothing", async () => {
    const bad = { ...red, expects: "two\nlines" } as TddEntry;
    await expect(appendTddEntries(project.root, "s1", [red, bad])).rejects.toThrow();
    expect((await readTddEntries(project.root, "s1")).entries).toEqual([]);
  });

  it("two agents share events.jsonl but never each other's entries or logs", async () => {
    await appendTddEntries(project.root, "s1", [red]);
    await appendTddEntries(project.root, "s1.sub", [green]);
    await appendTddEntries(project.root, "s1", [failed]);
    expect((await readTddEntries(project.root, "s1")).entries).toEqual([red, failed]);
    expect((await readTddEntries(project.root, "s1.sub")).entries).toEqual([green]);
    expect(read(tddLogPath("s1"))).not.toContain("Green");
    expect(read(tddLogPath("s1.sub"))).not.toContain("Red");
    expect(read(EVENTS_PATH).trimEnd().split("\n")).toHaveLength(3);
  });

  it("skips a torn final line, and the next append does not glue onto it", async () => {
    await appendTddEntries(project.root, "s1", [red]);
    writeStateLines(project.root, '{"v":1,"type":"tdd.test","agent_key":"s1","com');
    const torn = await readTddEntries(project.root, "s1");
    expect(torn).toEqual({ entries: [red], problems: [], torn: true });

    await appendTddEntries(project.root, "s1", [failed]);
    const after = await readTddEntries(project.root, "s1");
    expect(after.entries).toEqual([red, failed]);
    expect(after.torn).toBe(false);
    // The fragment is kept (history is never rewritten) and reported as the line it now is.
    expect(after.problems).toEqual([{ line: 2, message: "not JSON" }]);
  });

  it("skips and reports corrupt lines, ignores other agents' and non-TDD events", () => {
    const text = [
      JSON.stringify({ v: 1, type: "tdd.red", agent_key: "s1", test: "t", expects: "e", at: AT }),
      "garbage",
      JSON.stringify({ v: 1, type: "tdd.red", agent_key: "s1", test: "", expects: "e", at: AT }),
      JSON.stringify({ v: 1, type: "tdd.red", agent_key: "other", test: "", at: AT }),
      JSON.stringify({ v: 1, type: "session.start", agent_key: "s1" }),
      "",
      "42",
      JSON.stringify({ v: 1, type: "tdd.finished", agent_key: "s1", at: AT }),
      "",
    ].join("\n");
    expect(readEventText(text, "s1")).toEqual({
      entries: [
        { kind: "red", test: "t", expects: "e", at: AT },
        { kind: "finished", at: AT },
      ],
      problems: [
        { line: 2, message: "not JSON" },
        { line: 3, message: expect.stringContaining("test:") as string },
        { line: 7, message: "not a JSON object" },
      ],
      torn: false,
    });
    // The hooks' reading: the same entries, other agents' and unreadable lines left unparsed.
    expect(readEventText(text, "s1", true)).toEqual({
      entries: [
        { kind: "red", test: "t", expects: "e", at: AT },
        { kind: "finished", at: AT },
      ],
      problems: [{ line: 3, message: expect.stringContaining("test:") as string }],
      torn: false,
    });
    expect(readEventText(text, "s", true).entries).toEqual([]);
  });

  it("reads the same state without the agent's edit lines (the gate's reading)", () => {
    const edit = (decision: string, extra = {}) =>
      JSON.stringify({
        v: 1,
        type: "tdd.edit",
        agent_key: "s1",
        path: "src/a.ts",
        file_class: "prod",
        state: "red",
        decision,
        at: AT,
        ...extra,
      });
    const line = (entry: TddEntry, key = "s1") => {
      const { kind, ...fields } = entry;
      return JSON.stringify({ v: 1, type: `tdd.${kind}`, agent_key: key, ...fields });
    };
    const passed: TddEntry = { kind: "test", command: "npx vitest", outcome: "passed", at: AT };
    const lines = [
      line(red),
      line(failed),
      line(green),
      line(passed),
      line({ kind: "finished", at: AT }),
      line(red, "other"),
      edit("allowed"),
      edit("blocked"),
      edit("maybe"),
      edit("allowed", { at: "yesterday" }),
      edit("allowed", { agent_key: "other" }),
      JSON.stringify({ v: 1, type: "tdd.red", agent_key: "s1", test: "", expects: "e", at: AT }),
      "garbage",
      // Told apart from an audit entry without parsing only when it is one: a second `type`
      // key (JSON.parse reads the last) is parsed, and so is a path holding the word.
      `${edit("allowed").slice(0, -1)},"type":"tdd.finished"}`,
      edit("allowed", { path: 'src/"type".ts' }),
      '{"v":1,"type":"tdd.edit","agent_key":"s1",broken}',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...lines), { maxLength: 12 }), (picked) => {
        const text = picked.map((one) => `${one}\n`).join("");
        const all = readEventText(text, "s1", true);
        const state = readEventText(text, "s1", true, true);
        expect(state.entries).toEqual(all.entries.filter((entry) => entry.kind !== "edit"));
        expect(deriveTddState(state.entries)).toEqual(deriveTddState(all.entries));
      }),
    );
  });
  it("finds the agent's lines by its key's bytes as a reading of every line would", () => {
    // The hooks' reading searches the bytes for the key; reading every line and keeping those
    // that name it (what it replaced) must give the same entries, problems and line numbers.
    const byLines = (text: string, key: string, stateOnly: boolean) => {
      const all = readEventText(text, key, false, stateOnly);
      const mark = `"agent_key":${JSON.stringify(key)}`;
      const lines = text.split("\n");
      lines.pop();
      const named = new Set(lines.flatMap((raw, index) => (raw.includes(mark) ? [index + 1] : [])));
      return { ...all, problems: all.problems.filter((problem) => named.has(problem.line)) };
    };
    const line = (entry: TddEntry, key = "s1") => {
      const { kind, ...fields } = entry;
      return JSON.stringify({ v: 1, type: `tdd.${kind}`, agent_key: key, ...fields });
    };
    const pieces = [
      line(red),
      line(green),
      line(failed, "s10"),
      line(red, "other"),
      `${line({ kind: "finished", at: AT })}\r`,
      JSON.stringify({ v: 1, type: "tdd.red", agent_key: "s1", test: "", expects: "e", at: AT }),
      '{"agent_key":"s1", "broken',
      '{"v":1,"type":"tdd.red","agent_key":"other","test":"\\"agent_key\\":\\"s1\\""}',
      JSON.stringify({ v: 1, type: "tdd.edit", agent_key: "s1", path: "é/ü.py", at: AT }),
      "garbage",
      "",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 14 }),
        fc.constantFrom("", '{"agent_key":"s1","type":"tdd.red"', "partial"),
        fc.boolean(),
        (picked, tail, stateOnly) => {
          const text = `${picked.map((one) => `${one}\n`).join("")}${tail}`;
          const found = readEventText(Buffer.from(text), "s1", true, stateOnly);
          expect(found).toEqual(byLines(text, "s1", stateOnly));
          expect(readEventText(text, "s1", true, stateOnly)).toEqual(found);
        },
      ),
    );
  });
});

describe("declareTddEntry", () => {
  it("judges the declaration against the agent's entries and appends only when accepted", async () => {
    const refused = await declareTddEntry(project.root, "s1", (entries) =>
      declareGreen(entries, { change: "c", files: ["src/a.ts"] }, AT),
    );
    expect(refused.declared.ok).toBe(false);
    expect(await readTddEntries(project.root, "s1")).toMatchObject({ entries: [] });

    const accepted = await declareTddEntry(project.root, "s1", (entries) =>
      declareRed(entries, { test: "t", expects: "e" }, AT),
    );
    expect(accepted.declared).toEqual({
      ok: true,
      entry: { kind: "red", test: "t", expects: "e", at: AT },
    });
    expect((await readTddEntries(project.root, "s1")).entries).toHaveLength(1);
  });
});

describe("activeTddKey", () => {
  const writeSession = (sessionId: string) =>
    project.write(
      ".tailtest/session.json",
      JSON.stringify(
        createSession({ sessionId, now: AT, depth: "standard", mode: "tdd", runners: [] }),
      ),
    );
  const touchLog = (key: string, seconds: number) => {
    const path = project.write(tddLogPath(key), "\n");
    utimesSync(path, seconds, seconds);
  };

  it("takes Claude Code's own session id from the environment", async () => {
    writeSession("from-file");
    expect(await activeTddKey(project.root, { CLAUDE_CODE_SESSION_ID: "abc/1" })).toEqual({
      key: "abc_1",
      source: "claude-session",
    });
  });

  it("finds Cursor's session too, and the later of the two sessions", async () => {
    const cursor = (sessionId: string, now: string) =>
      project.write(
        ".tailtest/cursor-session.json",
        JSON.stringify(
          createSession({ sessionId, now, depth: "standard", mode: "tdd", runners: [] }),
        ),
      );
    cursor("cursor-1", AT);
    expect(await activeTddKey(project.root, {})).toEqual({ key: "cursor-1", source: "session" });
    writeSession("claude-later");
    cursor("cursor-earlier", "2020-01-01T00:00:00.000Z");
    expect((await activeTddKey(project.root, {})).key).toBe("claude-later");
  });

  it("is default when nothing names the agent", async () => {
    expect(await activeTddKey(project.root, {})).toEqual({ key: "default", source: "default" });
  });

  it("takes the newest log when there is no session", async () => {
    touchLog("older", 1_000);
    touchLog("newer", 2_000);
    touchLog("also-old", 1_500);
    project.write(".tailtest/tdd/notes.txt", "x");
    expect(await activeTddKey(project.root, {})).toEqual({ key: "newer", source: "latest-log" });
  });

  it("prefers the session's id over any log", async () => {
    touchLog("newer", 2_000);
    writeSession("sess-42");
    expect(await activeTddKey(project.root, {})).toEqual({ key: "sess-42", source: "session" });
  });

  it("skips an unreadable session file", async () => {
    touchLog("newer", 2_000);
    project.write(".tailtest/session.json", "{not json");
    expect(await activeTddKey(project.root, {})).toEqual({ key: "newer", source: "latest-log" });
  });

  it("prefers TAILTEST_TDD_KEY over everything, sanitised", async () => {
    touchLog("newer", 2_000);
    writeSession("sess-42");
    expect(await activeTddKey(project.root, { [TDD_KEY_ENV]: "sess-42.sub 1" })).toEqual({
      key: "sess-42.sub_1",
      source: "env",
    });
    expect(await activeTddKey(project.root, { [TDD_KEY_ENV]: "" })).toEqual({
      key: "sess-42",
      source: "session",
    });
  });
});

// Each child is a separate node process, as each `tailtest red` or hook call is. It loads this
// store from source through tsx and appends a Red and a failing run for its own test, together.
const CHILD = `
const { appendTddEntries } = await import(process.argv[1]);
const [root, i] = [process.argv[2], process.argv[3]];
const at = new Date().toISOString();
await appendTddEntries(root, "s1", [
  { kind: "red", test: "t/" + i + ".test.ts", expects: "case " + i + " fails", at },
  { kind: "test", command: "npx vitest run t/" + i + ".test.ts", outcome: "failed", at },
]);
`;
const PROCESSES = 20;

describe("concurrent processes", () => {
  it(`${PROCESSES} processes appending to one key lose nothing and keep each call together`, async () => {
    const store = join(REPO_ROOT, "packages/core/src/tdd/node/tdd-store.ts");
    await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        execa(
          process.execPath,
          ["--import", "tsx", "--input-type=module", "-e", CHILD, store, project.root, String(i)],
          { cwd: REPO_ROOT, timeout: 60_000 },
        ),
      ),
    );
    const result = await readTddEntries(project.root, "s1");
    expect(result.problems).toEqual([]);
    expect(result.torn).toBe(false);
    expect(result.entries).toHaveLength(PROCESSES * 2);
    // Each process's two entries are adjacent: one lock covered both writes.
    const seen = new Set<string>();
    for (let n = 0; n < result.entries.length; n += 2) {
      const [first, second] = [result.entries[n], result.entries[n + 1]];
      expect(first?.kind).toBe("red");
      const test = first?.kind === "red" ? first.test : "";
      expect(second).toMatchObject({ kind: "test", command: `npx vitest run ${test}` });
      seen.add(test);
    }
    expect(seen.size).toBe(PROCESSES);
    // The text log holds the same entries in the same order, and parses cleanly.
    const parsed = parseLog(read(tddLogPath("s1")));
    expect(parsed.unread).toEqual([]);
    expect(parsed.entries).toEqual(logTextView(result.entries));
  }, 120_000);
});
