import { describe, expect, it } from "vitest";
import {
  STRICT_EVENT_VERSION,
  StrictEventSchema,
  type StrictEvent,
  type StrictEventInput,
  type TestRunEvent,
} from "./strict-events.ts";
import { claimCommand, decideStrictEdit } from "./strict-gate.ts";
import { deriveStrictState, openClaims, pendingClaims } from "./strict-state.ts";

const HASH = "a".repeat(64);
const CHANGED = "b".repeat(64);
const TEST_ID = "tests/test_billing.py::test_charge";
let clock = 0;

/** A schema-checked event: a wrong field fails the test, not the gate. */
function event(input: { type: StrictEventInput["type"] } & Record<string, unknown>): StrictEvent {
  clock += 1;
  return StrictEventSchema.parse({
    v: STRICT_EVENT_VERSION,
    ts: new Date(Date.UTC(2026, 10, 23, 10, 0, clock)).toISOString(),
    ...input,
  });
}

function run(overrides: Partial<TestRunEvent> = {}): StrictEvent {
  return event({
    type: "test_run",
    test_id: TEST_ID,
    test: {
      id: TEST_ID,
      file: "tests/test_billing.py",
      segments: ["test_charge"],
      runner: "pytest",
      source: "native",
    },
    status: "fail",
    fail_reason: "assertion",
    command: "python -m pytest tests/test_billing.py::test_charge",
    duration_ms: 120,
    test_file_hash: HASH,
    purpose: "claim",
    ...overrides,
  });
}

function claim(target = "billing.py", id = "c1", testId = TEST_ID): StrictEvent {
  return event({ type: "edit_claim", claim: id, test_id: testId, edit_target: target });
}

const hashes = (hash: string | null = HASH) => new Map([["tests/test_billing.py", hash]]);

function decide(
  events: StrictEvent[],
  relPath = "billing.py",
  fileClass = "prod" as const,
  hash: string | null = HASH,
) {
  return decideStrictEdit(deriveStrictState(events), {
    relPath,
    fileClass,
    testHashes: hashes(hash),
  });
}

describe("decideStrictEdit: the gate table", () => {
  const cases: Array<{
    name: string;
    events: () => StrictEvent[];
    path?: string;
    fileClass?: "prod" | "test" | "other" | "e2e_test";
    hash?: string | null;
    /** "allow", or a fragment of the deny reason. */
    expected: string;
  }> = [
    { name: "no claim at all", events: () => [], expected: "no_claim" },
    { name: "a red but no claim", events: () => [run()], expected: "no_claim" },
    {
      name: "claim for another file",
      events: () => [run(), claim("other.py")],
      expected: "no_claim",
    },
    { name: "assertion red + claim", events: () => [run(), claim()], expected: "allow" },
    {
      name: "collection red naming the claimed module",
      events: () => [run({ fail_reason: "collection", missing: ["billing"] }), claim()],
      expected: "allow",
    },
    {
      name: "collection red naming a symbol of the claimed module",
      events: () => [run({ fail_reason: "collection", missing: ["billing:charge"] }), claim()],
      expected: "allow",
    },
    {
      name: "collection red naming another module",
      events: () => [run({ fail_reason: "collection", missing: ["payments"] }), claim()],
      expected: "invalid_red",
    },
    {
      name: "collection red naming nothing",
      events: () => [run({ fail_reason: "collection" }), claim()],
      expected: "invalid_red",
    },
    {
      name: "a syntax error is not a red",
      events: () => [
        run({ fail_reason: "collection", syntax_error: true, missing: ["billing"] }),
        claim(),
      ],
      expected: "invalid_red",
    },
    {
      name: "a timeout is not a red",
      events: () => [run({ fail_reason: "timeout" }), claim()],
      expected: "invalid_red",
    },
    {
      name: "a crash is not a red",
      events: () => [run({ fail_reason: "crash" }), claim()],
      expected: "invalid_red",
    },
    {
      name: "a test that did not run",
      events: () => [run({ status: "not_run" }), claim()],
      expected: "no_red",
    },
    {
      name: "claimed on a passing run",
      events: () => [run({ status: "pass" }), claim()],
      expected: "passing",
    },
    {
      name: "the test passes now (a later run)",
      events: () => [run(), claim(), run({ status: "pass", purpose: "run" })],
      expected: "passing",
    },
    {
      name: "test file changed since the red",
      events: () => [run(), claim()],
      hash: CHANGED,
      expected: "test_changed",
    },
    {
      name: "test file deleted since the red",
      events: () => [run(), claim()],
      hash: null,
      expected: "test_changed",
    },
    {
      name: "a failed verification keeps the claim's red (the edits were reverted)",
      events: () => [
        run(),
        claim(),
        event({ type: "snapshot", claim: "c1", path: "billing.py", object: null }),
        run({ purpose: "verify", fail_reason: "collection", syntax_error: true }),
        event({ type: "verify_result", scope: "claim", claim: "c1", status: "fail" }),
        event({ type: "repair", claim: "c1", test_id: TEST_ID, attempt: 1, reason: "still fails" }),
      ],
      expected: "allow",
    },
    {
      name: "a pass the verification did not accept (a function it never ran) keeps the red: the edits were reverted",
      events: () => [
        run(),
        claim(),
        event({ type: "snapshot", claim: "c1", path: "billing.py", object: null }),
        run({ purpose: "verify", status: "pass", fail_reason: undefined }),
        event({ type: "verify_result", scope: "claim", claim: "c1", status: "fail" }),
        event({ type: "repair", claim: "c1", test_id: TEST_ID, attempt: 1, reason: "never ran" }),
      ],
      expected: "allow",
    },
    {
      name: "an escalated claim grants nothing",
      events: () => [
        run(),
        claim(),
        event({ type: "escalated", claim: "c1", test_id: TEST_ID, attempts: 2 }),
      ],
      expected: "no_claim",
    },
    {
      name: "a green claim grants nothing more",
      events: () => [
        run(),
        claim(),
        run({ status: "pass", purpose: "verify" }),
        event({ type: "verify_result", scope: "claim", claim: "c1", status: "pass" }),
      ],
      expected: "no_claim",
    },
    {
      name: "refactor mode lifts the gate",
      events: () => [event({ type: "mode_changed", mode: "refactor", by: "refactor-start" })],
      expected: "allow",
    },
    {
      name: "refactor finished: the gate is back",
      events: () => [
        event({ type: "mode_changed", mode: "refactor", by: "refactor-start" }),
        event({ type: "mode_changed", mode: "strict", by: "refactor-finish" }),
      ],
      expected: "no_claim",
    },
    {
      name: "tailtest's own state is refused even in refactor mode",
      events: () => [event({ type: "mode_changed", mode: "refactor", by: "refactor-start" })],
      path: ".tailtest/events.jsonl",
      fileClass: "other",
      expected: "protected",
    },
    {
      name: "a hook config is refused",
      events: () => [],
      path: ".claude/settings.json",
      fileClass: "other",
      expected: "protected",
    },
    {
      name: "test files stay editable",
      events: () => [],
      path: "tests/test_billing.py",
      fileClass: "test",
      expected: "allow",
    },
    {
      name: "other files are not gated",
      events: () => [],
      path: "README.md",
      fileClass: "other",
      expected: "allow",
    },
    {
      name: "e2e tests are not gated",
      events: () => [],
      path: "e2e/flow.spec.ts",
      fileClass: "e2e_test",
      expected: "allow",
    },
  ];

  it.each(cases)("$name → $expected", ({ events, path, fileClass, hash, expected }) => {
    const verdict = decide(
      events(),
      path ?? "billing.py",
      (fileClass ?? "prod") as "prod",
      hash === undefined ? HASH : hash,
    );
    if (expected === "allow") expect(verdict.decision).toBe("allow");
    else {
      expect(verdict.decision).toBe("deny");
      if (verdict.decision === "deny") expect(verdict.code).toBe(expected);
    }
  });

  it("allows under every usable claim, so the snapshot goes with each", () => {
    const events = [run(), claim("billing.py", "c1"), run(), claim("billing.py", "c2")];
    const verdict = decide(events);
    expect(verdict).toEqual({ decision: "allow", claims: ["c1", "c2"] });
  });

  it("one usable claim is enough when another is void", () => {
    const other = "tests/test_vat.py::test_vat";
    const events = [
      run({
        test_id: other,
        test: { id: other, file: "tests/test_vat.py", segments: ["test_vat"], source: "native" },
        status: "pass",
      }),
      claim("billing.py", "c1", other),
      run(),
      claim("billing.py", "c2"),
    ];
    const verdict = decideStrictEdit(deriveStrictState(events), {
      relPath: "billing.py",
      fileClass: "prod",
      testHashes: new Map([
        ["tests/test_billing.py", HASH],
        ["tests/test_vat.py", HASH],
      ]),
    });
    expect(verdict).toEqual({ decision: "allow", claims: ["c2"] });
  });

  it("warns that editing a claimed test voids its red", () => {
    const verdict = decide([run(), claim()], "tests/test_billing.py", "test" as "prod");
    expect(verdict.decision).toBe("allow");
    expect(verdict.decision === "allow" ? verdict.warning : "").toContain(
      "voids the red of " + TEST_ID,
    );
  });

  it("says what is missing and the command that supplies it", () => {
    const none = decide([]);
    expect(none.decision === "deny" ? none.message : "").toContain(
      "tailtest claim '<test_id>' billing.py",
    );
    const changed = decide([run(), claim()], "billing.py", "prod", CHANGED);
    expect(changed.decision === "deny" ? changed.message : "").toContain(
      `tests/test_billing.py changed since the red of ${TEST_ID}, which voids it: run tailtest claim ${TEST_ID} billing.py`,
    );
    const other = decide([run(), claim("other.py")]);
    expect(other.decision === "deny" ? other.message : "").toContain(
      `Open claims: ${TEST_ID} → other.py`,
    );
  });

  it("names what the test runs with, in its language, when that changed since the red", () => {
    const denial = (file: string, testId: string) => {
      const test = {
        id: testId,
        file,
        segments: ["x"],
        runner: "vitest" as const,
        source: "native" as const,
      };
      const events = [
        run({ test_id: testId, test, support_hash: HASH }),
        claim("billing.py", "c1", testId),
      ];
      const verdict = decideStrictEdit(deriveStrictState(events), {
        relPath: "billing.py",
        fileClass: "prod",
        testHashes: new Map([[file, HASH]]),
        supportHashes: new Map([[file, CHANGED]]),
      });
      return verdict.decision === "deny" ? verdict.message : "";
    };
    expect(denial("test/billing.test.js", "test/billing.test.js::x")).toBe(
      `tailtest strict: billing.py is production code; its claim cannot be used: what test/billing.test.js runs with changed since the red of test/billing.test.js::x, which voids it (its runner's config (vitest.config.*, vite.config.*, jest.config.*, .mocharc.*, babel config, package.json's test scripts and "jest"/"mocha" keys) in its folder and every folder above it, the setup files, required modules and snapshot resolver it names, the files beside it that are not tests, its fixtures/, helpers/ and support/ folders, the files the config or the test names (inside the project or outside it), its snapshots (__snapshots__/, or any file named after the test), and the runner's installed files in node_modules, with the installed packages the test imports itself): run tailtest claim test/billing.test.js::x billing.py.`,
    );
    expect(denial("tests/test_billing.py", TEST_ID)).toContain(
      `which voids it (conftest.py and pytest's config (pytest.ini, pytest.toml, pyproject.toml, setup.cfg, tox.ini) in its folder and every folder above it, the files beside it that are not tests, its fixtures/, helpers/ and support/ folders, the files the config or the test names (inside the project or outside it), Python's start-up files (*.pth, sitecustomize.py, usercustomize.py) and the installed pytest and its plugins)`,
    );
  });

  it("is deterministic: the same log gives the same words", () => {
    const a = decide([run(), claim("other.py")]);
    clock += 100;
    const b = decide([run(), claim("other.py")]);
    expect(a).toEqual(b);
  });
});

describe("deriveStrictState", () => {
  it("keeps the first snapshot of a file since the last verification", () => {
    const state = deriveStrictState([
      run(),
      claim(),
      event({ type: "snapshot", claim: "c1", path: "billing.py", object: null }),
      event({ type: "snapshot", claim: "c1", path: "billing.py", object: HASH }),
    ]);
    expect(state.claims.get("c1")?.snapshots.get("billing.py")).toBeNull();
    expect(pendingClaims(state).map((entry) => entry.claim)).toEqual(["c1"]);
  });

  it("counts failed verifications and clears what was reverted", () => {
    const state = deriveStrictState([
      run(),
      claim(),
      event({ type: "snapshot", claim: "c1", path: "billing.py", object: null }),
      event({ type: "repair", claim: "c1", test_id: TEST_ID, attempt: 1, reason: "x" }),
    ]);
    const entry = state.claims.get("c1");
    expect(entry?.attempts).toBe(1);
    expect(entry?.snapshots.size).toBe(0);
    expect(openClaims(state)).toHaveLength(1);
  });

  it("groups the targets of one claim", () => {
    const state = deriveStrictState([run(), claim("a.py"), claim("b.py"), claim("a.py")]);
    expect(state.claims.get("c1")?.targets).toEqual(["a.py", "b.py"]);
  });
});

describe("claimCommand", () => {
  it("quotes what the shell would split", () => {
    expect(claimCommand("src/a.test.ts::math > adds", ["src/a.ts"])).toBe(
      "tailtest claim 'src/a.test.ts::math > adds' src/a.ts",
    );
    expect(claimCommand("tests/t.py::test_x[it's]", ["a.py"])).toBe(
      "tailtest claim 'tests/t.py::test_x[it'\\''s]' a.py",
    );
  });
});
