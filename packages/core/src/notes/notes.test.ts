import { describe, expect, it } from "vitest";
import { capText, NOTE_CAP, renderQueuedNote, renderStartupNote } from "./notes.ts";
import type { DetectedRunner } from "../runners/project-runners.ts";

const pytest: DetectedRunner = {
  id: "pytest",
  languages: ["python"],
  package_dir: "",
  command: ["python3", "-m", "pytest"],
  test_dir: "tests",
  evidence: "pytest.ini",
};

const base = {
  path: "billing.py",
  status: "new" as const,
  language: "python" as const,
  target: { kind: "file" as const, path: "tests/test_billing.py", exists: false },
  runner: pytest,
  runnerReason: "pytest.ini in the project root",
  pendingCount: 1,
};

describe("queued note", () => {
  it("uses the documented words", () => {
    expect(renderQueuedNote(base)).toBe(
      "tailtest: billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.",
    );
  });

  it("points at an existing test, counts pending files and adds the depth note", () => {
    expect(
      renderQueuedNote({
        ...base,
        status: "existing",
        target: { ...base.target, exists: true },
        pendingCount: 3,
        depthNote:
          "Complexity: thorough (billing: +4 billing +3 HTTP +3 DB +2 branches = 12 scenarios). Generate ~12 scenarios.",
      }),
    ).toBe(
      "tailtest: billing.py queued (existing, python). update existing test at tests/test_billing.py. 3 files pending -- each needs a test that covers it (update or write one). runner: pytest. Complexity: thorough (billing: +4 billing +3 HTTP +3 DB +2 branches = 12 scenarios). Generate ~12 scenarios.",
    );
  });

  it("names the test on disk that the import graph has not seen yet", () => {
    const note = (exists: boolean) =>
      renderQueuedNote({
        ...base,
        target: { ...base.target, exists },
        covering: { tests: [], suggested: "tests/unit/test_billing.py" },
      });
    expect(note(true)).toContain("update existing test at tests/test_billing.py");
    expect(note(false)).toContain("write test to tests/unit/test_billing.py");
  });

  it("hedges a test to write while the import graph is not whole", () => {
    expect(renderQueuedNote({ ...base, status: "existing", coveringUnknown: true })).toBe(
      "tailtest: billing.py queued (existing, python). write test to tests/test_billing.py, unless an existing test already covers it: tailtest has not mapped the project's imports yet (then update that test). runner: pytest.",
    );
    // A new file is hardly ever imported by a test yet.
    expect(renderQueuedNote({ ...base, coveringUnknown: true })).toBe(renderQueuedNote(base));
    // A test of its name on disk is named plainly, graph or not.
    expect(
      renderQueuedNote({
        ...base,
        status: "existing",
        target: { ...base.target, exists: true },
        coveringUnknown: true,
      }),
    ).toContain("update existing test at tests/test_billing.py. runner");
  });

  it("inline rust tests and a missing runner", () => {
    expect(
      renderQueuedNote({
        ...base,
        path: "src/parse.rs",
        language: "rust",
        target: { kind: "inline", path: "src/parse.rs", exists: true },
        runner: { ...pytest, id: "cargo", languages: ["rust"] },
      }),
    ).toBe(
      "tailtest: src/parse.rs queued (new, rust). add #[cfg(test)] block to src/parse.rs. runner: cargo test.",
    );
    // A file without a test module of its own that the crate's integration tests cover.
    const cargo = { ...pytest, id: "cargo" as const, languages: ["rust" as const] };
    const inline = { kind: "inline" as const, path: "src/eval.rs", exists: true };
    expect(
      renderQueuedNote({
        ...base,
        path: "src/eval.rs",
        language: "rust",
        target: inline,
        runner: cargo,
        covering: { tests: [{ path: "tests/test_version_req.rs", evidence: "family" }] },
      }),
    ).toBe(
      "tailtest: src/eval.rs queued (new, rust). covered by existing tests tests/test_version_req.rs (its test family): update them for this change (tailtest runs them at the end of the turn). runner: cargo test.",
    );
    // Tests in a row with the same evidence say it once (python-fire: twenty tests reach a
    // module through testutils.py; each one's "(they import it through other modules)" made
    // the note five times that long).
    expect(
      renderQueuedNote({
        ...base,
        path: "fire/parser.py",
        covering: {
          tests: [
            { path: "fire/parser_test.py", evidence: "name" },
            { path: "fire/core_test.py", evidence: "imports-via" },
            { path: "fire/fire_test.py", evidence: "imports-via" },
            { path: "fire/helptext_test.py", evidence: "imports" },
            { path: "fire/trace_test.py", evidence: "imports-via" },
            { path: "fire/main_test.py", evidence: "imports-via" },
          ],
        },
      }),
    ).toBe(
      "tailtest: fire/parser.py queued (new, python). covered by existing tests fire/parser_test.py (named after it), fire/core_test.py, fire/fire_test.py (they import it through other modules), fire/helptext_test.py (they import it), fire/trace_test.py (they import it through other modules) and 1 more: update them for this change (tailtest runs them at the end of the turn). runner: pytest.",
    );
    // Go's folders are packages (gorilla/mux's note said "its test family" for the package's
    // other tests, and expr's "through other modules" for a test whose package imports it).
    expect(
      renderQueuedNote({
        ...base,
        path: "parser/lexer/lexer.go",
        language: "go",
        target: { kind: "file", path: "parser/lexer/lexer_test.go", exists: true },
        covering: {
          tests: [
            { path: "parser/lexer/lexer_test.go", evidence: "name" },
            { path: "parser/lexer/state_test.go", evidence: "family" },
            { path: "checker/checker_test.go", evidence: "imports-via" },
          ],
        },
      }),
    ).toContain(
      "covered by existing tests parser/lexer/lexer_test.go (named after it), parser/lexer/state_test.go (the package's tests), checker/checker_test.go (through packages that import it)",
    );
    // A module that is its own test (pytest doctests, vitest in-source tests) says so: "the
    // test itself" read as though the agent had edited a test.
    expect(
      renderQueuedNote({
        ...base,
        path: "src/math.ts",
        language: "typescript",
        covering: { tests: [{ path: "src/math.ts", evidence: "self" }] },
      }),
    ).toContain("covered by existing tests src/math.ts (its own tests)");
    // None: its own test module is still the place.
    expect(
      renderQueuedNote({
        ...base,
        path: "src/eval.rs",
        language: "rust",
        target: inline,
        runner: cargo,
        covering: { tests: [] },
      }),
    ).toContain("add #[cfg(test)] block to src/eval.rs");
    expect(
      renderQueuedNote({
        ...base,
        path: "main.go",
        language: "go",
        target: undefined,
        runner: undefined,
        runnerReason: "no go test runner found for main.go",
      }),
    ).toBe(
      "tailtest: main.go queued (new, go). no test runner found (no go test runner found for main.go); add one so tailtest can run the test.",
    );
  });

  it("is deterministic and capped", () => {
    expect(renderQueuedNote(base)).toBe(renderQueuedNote(base));
    const huge = renderQueuedNote({ ...base, extraNotes: ["x".repeat(20_000)] });
    expect(huge.length).toBeLessThanOrEqual(NOTE_CAP);
    expect(capText("short")).toBe("short");
  });

  it("cuts the middle, keeping the first and the last lines (a deny's way out)", () => {
    const text = `Blocked: 8 files.\n${"- a/very/long/path.py\n".repeat(1000)}Next: run tailtest red.`;
    const capped = capText(text);
    expect(capped.length).toBeLessThanOrEqual(NOTE_CAP);
    expect(capped.startsWith("Blocked: 8 files.\n")).toBe(true);
    expect(capped.endsWith("Next: run tailtest red.")).toBe(true);
    expect(capped).toMatch(/ … \(cut: \d+ characters more than fit in one note\) … /);
    expect(capText(text, 40).length).toBeLessThanOrEqual(NOTE_CAP);
  });
});

describe("startup note", () => {
  it("does not say a runner's tests are in a folder the project does not have", () => {
    const note = renderStartupNote({
      runners: [{ ...pytest, test_dir_missing: true }],
      depth: "standard",
      mode: "follow",
    });
    expect(note).toBe(
      "tailtest: session started. Runners: python: pytest (no tests/ folder). Depth: standard. Mode: follow.",
    );
  });

  it("lists runners, depth, mode and history lines", () => {
    const note = renderStartupNote({
      runners: [
        pytest,
        {
          ...pytest,
          id: "vitest",
          languages: ["javascript", "typescript"],
          package_dir: "web",
          test_dir: undefined,
        },
      ],
      depth: "standard",
      mode: "follow",
      historyLines: ["Recent regressions: billing.py (was passing, now failing)."],
      lastFailures: "Previous session failures: a.py (tests red after 3 fix attempts).",
    });
    expect(note).toBe(
      [
        "tailtest: session started. Runners: python: pytest (tests in tests/), javascript/typescript: vitest in web/ (tests beside the source). Depth: standard. Mode: follow.",
        "Recent regressions: billing.py (was passing, now failing).",
        "Previous session failures: a.py (tests red after 3 fix attempts).",
      ].join("\n"),
    );
  });

  it("stays under the cap with hundreds of runners", () => {
    const runners = Array.from({ length: 500 }, (_, i) => ({
      ...pytest,
      package_dir: `services/s${i}`,
    }));
    expect(
      renderStartupNote({ runners, depth: "simple", mode: "follow" }).length,
    ).toBeLessThanOrEqual(NOTE_CAP);
  });
});
