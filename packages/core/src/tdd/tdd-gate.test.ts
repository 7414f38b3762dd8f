import { describe, expect, it } from "vitest";
import type { TddFileClass } from "./file-classes.ts";
import {
  ALLOWLIST_WARNING_THRESHOLD,
  allowlistCovers,
  decideEdit,
  decideFiles,
  greenCommand,
  isProtectedPath,
  RED_COMMAND,
  type EditGateInput,
} from "./tdd-gate.ts";
import type { TddState } from "./tdd-state.ts";

const RED = 'tailtest red --test "<test file>" --expects "<test name> fails because <reason>"';

function edit(overrides: Partial<EditGateInput>): EditGateInput {
  return {
    state: "initial",
    fileClass: "prod",
    relPath: "src/billing.ts",
    allowlist: [],
    skipRed: false,
    ...overrides,
  };
}

const pathOf: Record<TddFileClass, string> = {
  e2e_test: "e2e/checkout.spec.ts",
  test: "src/billing.test.ts",
  prod: "src/billing.ts",
  other: "README.md",
};

/**
 * The whole permission table: state × class × (skip-red, allowlist). The allowlist names the
 * prod file in the "declared" rows and another file in the "undeclared" rows.
 */
const permissions: [
  TddState,
  TddFileClass,
  boolean,
  "declared" | "undeclared",
  "allow" | "deny",
][] = [];
const expected: Record<
  TddState,
  Record<TddFileClass, (skip: boolean, declared: boolean) => boolean>
> = {
  initial: { e2e_test: () => true, other: () => true, test: () => false, prod: () => false },
  writing_tests: { e2e_test: () => true, other: () => true, test: () => true, prod: () => false },
  red: { e2e_test: () => true, other: () => true, test: () => false, prod: () => false },
  making_tests_pass: {
    e2e_test: () => true,
    other: () => true,
    test: (skip) => skip,
    prod: (_skip, declared) => declared,
  },
};
for (const state of ["initial", "writing_tests", "red", "making_tests_pass"] as const) {
  for (const fileClass of ["e2e_test", "test", "prod", "other"] as const) {
    for (const skip of [false, true]) {
      for (const declared of ["declared", "undeclared"] as const) {
        const allowed = expected[state][fileClass](skip, declared === "declared");
        permissions.push([state, fileClass, skip, declared, allowed ? "allow" : "deny"]);
      }
    }
  }
}

describe("decideEdit: the permission table", () => {
  it.each(permissions)(
    "%s × %s (skip-red %s, %s) → %s",
    (state, fileClass, skip, declared, want) => {
      const relPath = pathOf[fileClass];
      const allowlist = declared === "declared" ? [relPath] : ["src/other.ts"];
      const result = decideEdit({ state, fileClass, relPath, allowlist, skipRed: skip });
      expect(result.decision).toBe(want);
      expect(result.message.startsWith("tailtest tdd: ")).toBe(true);
      if (want === "deny") {
        expect(result.message).toContain(relPath);
        expect(result.message).toMatch(/^ {2}tailtest (red|green) /m);
        expect(result.warning).toBeUndefined();
      }
    },
  );

  it("the table has every state × class × skip-red × allowlist cell", () => {
    expect(permissions).toHaveLength(4 * 4 * 2 * 2);
    // initial 8, writing_tests 4 (prod), red 8, making_tests_pass 4 (tests without skip-red, undeclared prod)
    expect(permissions.filter((row) => row[4] === "deny")).toHaveLength(24);
  });
});

describe("decideEdit: messages", () => {
  it("initial: declare a Red first (exact command); prod also offers skip-red for refactors", () => {
    const test = decideEdit(edit({ fileClass: "test", relPath: "src/billing.test.ts" }));
    expect(test.message).toBe(
      `tailtest tdd: src/billing.test.ts is blocked: no TDD cycle is open; declare the behaviour you are about to test before writing the test.\nNext, declare a Red (the behaviour and the failure you expect):\n  ${RED}`,
    );
    const prod = decideEdit(edit({}));
    expect(prod.message).toContain(`\n  ${RED}\n`);
    expect(prod.message).toContain(
      'Only for a change that adds no behaviour (refactoring, lint-only, adding-coverage):\n  tailtest green --skip-red --reason refactoring --change "<what you will change>" --file src/billing.ts',
    );
  });

  it("writing_tests: production code waits for the failing test, then Green with this file", () => {
    const result = decideEdit(edit({ state: "writing_tests", relPath: "./src\\billing.ts" }));
    expect(result.message).toBe(
      'tailtest tdd: src/billing.ts is blocked: Red is declared, so only test files may change until the new test has failed.\nNext, finish the test and run it so it fails as expected; then declare the change:\n  tailtest green --change "<what you will change>" --file src/billing.ts',
    );
  });

  it("red: Green with the file being edited", () => {
    const result = decideEdit(edit({ state: "red" }));
    expect(result.message).toContain(
      'tailtest green --change "<what you will change>" --file src/billing.ts',
    );
    expect(result.message).toContain("Red is confirmed");
  });

  it("red: a test edit is told to declare Green for production files, or a new Red", () => {
    const result = decideEdit(edit({ state: "red", fileClass: "test", relPath: "t/a_test.go" }));
    expect(result.message).toContain("--file <production file>");
    expect(result.message).toContain(`To rewrite the test instead, declare a new Red:\n  ${RED}`);
  });

  it("making_tests_pass: a test edit without skip-red says skip-red is what allows it", () => {
    const result = decideEdit(
      edit({ state: "making_tests_pass", fileClass: "test", relPath: "tests/test_a.py" }),
    );
    expect(result.decision).toBe("deny");
    expect(result.message).toContain(
      "test files may change only when the Green was declared with --skip-red (refactoring, lint-only, adding-coverage); this one was not",
    );
    expect(result.message).toContain(RED);
    const allowed = decideEdit(
      edit({
        state: "making_tests_pass",
        fileClass: "test",
        relPath: "tests/test_a.py",
        skipRed: true,
      }),
    );
    expect(allowed).toEqual({
      decision: "allow",
      message:
        "tailtest tdd: allowed: this Green was declared with --skip-red, so test files such as tests/test_a.py may change.",
    });
  });

  it("making_tests_pass: an undeclared file lists the declared ones and a Green that adds it", () => {
    const result = decideEdit(
      edit({
        state: "making_tests_pass",
        relPath: "src/tax.ts",
        allowlist: ["./src/billing.ts", "src/my file.ts", "src/**/*.rs"],
      }),
    );
    expect(result.message).toBe(
      "tailtest tdd: src/tax.ts is blocked: it is not among the files declared for this Green (src/billing.ts, src/my file.ts, src/**/*.rs).\nNext, declare the change and every file it needs:\n  tailtest green --change \"<what you will change>\" --file src/billing.ts --file 'src/my file.ts' --file 'src/**/*.rs' --file src/tax.ts",
    );
  });

  it("making_tests_pass with an empty allowlist says none", () => {
    const result = decideEdit(edit({ state: "making_tests_pass" }));
    expect(result.message).toContain("declared for this Green (none)");
  });

  it("allowed edits say why", () => {
    expect(decideEdit(edit({ fileClass: "other", relPath: "docs/a.md" })).message).toBe(
      "tailtest tdd: allowed: docs/a.md is neither a test nor production code, which tdd mode does not gate.",
    );
    expect(decideEdit(edit({ fileClass: "e2e_test", relPath: "e2e/a.ts" })).message).toBe(
      "tailtest tdd: allowed: e2e/a.ts is an end-to-end test, which tdd mode does not gate.",
    );
  });

  it("messages are deterministic and capped", () => {
    const allowlist = Array.from({ length: 2000 }, (_, i) => `src/module-${i}/file.ts`);
    const result = decideEdit(edit({ state: "making_tests_pass", relPath: "x.ts", allowlist }));
    expect(result.message.length).toBeLessThanOrEqual(8000);
    expect(decideEdit(edit({ state: "making_tests_pass", relPath: "x.ts", allowlist }))).toEqual(
      result,
    );
  });
});

describe("allowlist matching", () => {
  it.each([
    [["src/billing.ts"], "src/billing.ts", true],
    [["./src/billing.ts"], "src/billing.ts", true],
    [["src/billing.ts"], "./src/billing.ts", true],
    [["src\\billing.ts"], "src/billing.ts", true],
    [["src/billing.ts"], "src\\billing.ts", true],
    [["src//lib/../billing.ts"], "src/billing.ts", true],
    [[" src/billing.ts "], "src/billing.ts", true],
    [["src/Billing.ts"], "src/billing.ts", false],
    [["SRC/billing.ts"], "src/billing.ts", false],
    [["billing.ts"], "src/billing.ts", false],
    [["src/billing.ts"], "lib/src/billing.ts", false],
    [["src/billing"], "src/billing.ts", false],
    [["src/billing"], "src/billing/a.ts", false],
    [["src/billing/"], "src/billing/a.ts", true],
    [["src/billing/"], "src/billing/deep/a.ts", true],
    [["src/*.ts"], "src/tax.ts", true],
    [["src/*.ts"], "src/a/tax.ts", false],
    [["src/*.ts"], "lib/src/tax.ts", false],
    [["./src/*.ts"], "src/tax.ts", true],
    [["src/**"], "src/a/b/c.ts", true],
    [["src/**/*.py"], "src/a/b.py", true],
    [["src/**/*.py"], "src/a/b.ts", false],
    [["**/billing.ts"], "packages/x/src/billing.ts", true],
    [["src/tax_?.py"], "src/tax_1.py", true],
    [["src/[ab].py"], "src/b.py", true],
    [["src/*.TS"], "src/tax.ts", false],
    [[], "src/billing.ts", false],
    [["../src/billing.ts"], "src/billing.ts", false],
    [["src/billing.ts"], "../src/billing.ts", false],
  ])("%j covers %j: %s", (allowlist, path, covers) => {
    expect(allowlistCovers(allowlist, path)).toBe(covers);
    const result = decideEdit(edit({ state: "making_tests_pass", relPath: path, allowlist }));
    expect(result.decision).toBe(covers ? "allow" : "deny");
  });
});

describe("protected paths", () => {
  const protectedPaths = [
    ".tailtest/config.json",
    ".tailtest/session.json",
    ".tailtest/tdd/log.jsonl",
    "./.tailtest/config.json",
    "packages/web/.tailtest/config.json",
    ".Tailtest/config.json",
    ".cursor/hooks/state/tailtest.json",
    ".claude/settings.json",
    ".claude/settings.local.json",
    "packages/api/.claude/settings.json",
    ".cursor/hooks.json",
    ".codex/hooks.json",
    ".codex/config.toml",
  ];

  it.each(protectedPaths)("%s is denied in every state and class", (relPath) => {
    expect(isProtectedPath(relPath)).toBe(true);
    for (const state of ["initial", "writing_tests", "red", "making_tests_pass"] as const) {
      for (const fileClass of ["e2e_test", "test", "prod", "other"] as const) {
        const result = decideEdit({
          state,
          fileClass,
          relPath,
          allowlist: [relPath, "**"],
          skipRed: true,
        });
        expect(result.decision).toBe("deny");
        expect(result.message).toContain("only the person can change modes or overrides");
      }
    }
  });

  it.each([
    ".claude/agents/reviewer.md",
    ".claude/commands/x.md",
    ".cursor/rules/a.mdc",
    ".codex/prompts/a.md",
    "src/tailtest/config.json",
    "docs/.tailtest.md",
  ])("%s is not protected", (relPath) => {
    expect(isProtectedPath(relPath)).toBe(false);
    expect(decideEdit(edit({ fileClass: "other", relPath })).decision).toBe("allow");
  });

  it("extra protected paths add to the defaults and cannot remove them", () => {
    const extra = ["tdd-*.log", "!.tailtest/config.json"];
    expect(isProtectedPath("tdd-abc.log", extra)).toBe(true);
    expect(isProtectedPath(".tailtest/config.json", extra)).toBe(true);
    const result = decideEdit(
      edit({ fileClass: "other", relPath: "tdd-abc.log", protectedPaths: extra }),
    );
    expect(result.decision).toBe("deny");
    expect(result.message).toBe(
      "tailtest tdd: tdd-abc.log is blocked: it is tailtest's own state, configuration or an agent hook config, which agents may not edit in any state; only the person can change modes or overrides.\nNext: leave it as it is. If tdd mode or an override must change, ask the person to do it.",
    );
  });
});

describe("the large-allowlist warning", () => {
  const six = ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts", "f.ts"];

  it(`goes with allowed edits when a Green declares more than ${ALLOWLIST_WARNING_THRESHOLD} files`, () => {
    const result = decideEdit(
      edit({ state: "making_tests_pass", relPath: "a.ts", allowlist: six }),
    );
    expect(result.decision).toBe("allow");
    expect(result.warning).toBe(
      "tailtest tdd: this Green declares 6 files (a.ts, b.ts, c.ts, d.ts, e.ts, f.ts); more than 5 is a big step. Make the failing test pass with as few files as you can, and split the rest into further Red→Green cycles.",
    );
    const test = decideEdit(
      edit({
        state: "making_tests_pass",
        fileClass: "test",
        relPath: "a.test.ts",
        allowlist: six,
        skipRed: true,
      }),
    );
    expect(test.warning).toContain("declares 6 files");
  });

  it.each([
    [["**"], "a pattern (**)"],
    [["src/**", "a.ts"], "a pattern (src/**)"],
    [["src/", "lib/*.ts"], "patterns (src/, lib/*.ts)"],
  ])("goes with allowed edits when a Green declares %j", (allowlist, named) => {
    const result = decideEdit(edit({ state: "making_tests_pass", relPath: "src/a.ts", allowlist }));
    expect(result.decision).toBe("allow");
    expect(result.warning).toBe(
      `tailtest tdd: this Green declares ${named}, not files: it can cover any number of them, which is a big step. Name each file the failing test needs, and split the rest into further Red→Green cycles.`,
    );
  });

  it("is absent at 5 files, on denials, on files that are not gated and outside Green", () => {
    const five = six.slice(0, 5);
    expect(
      decideEdit(edit({ state: "making_tests_pass", relPath: "a.ts", allowlist: five })).warning,
    ).toBeUndefined();
    expect(
      decideEdit(edit({ state: "making_tests_pass", relPath: "z.ts", allowlist: six })),
    ).not.toHaveProperty("warning");
    expect(
      decideEdit(edit({ state: "writing_tests", fileClass: "test", allowlist: six })),
    ).not.toHaveProperty("warning");
  });

  it("counts one spelling of a file once", () => {
    const duplicates = [...six.slice(0, 5), "./a.ts", "a.ts"];
    expect(
      decideEdit(edit({ state: "making_tests_pass", relPath: "a.ts", allowlist: duplicates }))
        .warning,
    ).toBeUndefined();
  });
});

describe("decideFiles", () => {
  it("allows when every file is allowed", () => {
    const result = decideFiles({
      state: "making_tests_pass",
      allowlist: ["src/a.ts", "src/b.ts"],
      skipRed: false,
      files: [
        { relPath: "src/a.ts", fileClass: "prod" },
        { relPath: "src/b.ts", fileClass: "prod" },
        { relPath: "README.md", fileClass: "other" },
      ],
    });
    expect(result.decision).toBe("allow");
    expect(result.message).toBe("tailtest tdd: allowed: all 3 files.");
    expect(result.files.map((file) => file.decision)).toEqual(["allow", "allow", "allow"]);
  });

  it("one file: the same decision as decideEdit", () => {
    const input = edit({ state: "writing_tests", fileClass: "test", relPath: "a.test.ts" });
    const single = decideFiles({ ...input, files: [{ relPath: "a.test.ts", fileClass: "test" }] });
    expect(single.decision).toBe("allow");
    expect(single.message).toBe(decideEdit(input).message);
  });

  it("denies when any file is denied, listing each, with one Green naming every missing file", () => {
    const result = decideFiles({
      state: "making_tests_pass",
      allowlist: ["src/a.ts"],
      skipRed: false,
      files: [
        { relPath: "src/a.ts", fileClass: "prod" },
        { relPath: "src/b.ts", fileClass: "prod" },
        { relPath: "src/c.ts", fileClass: "prod" },
        { relPath: "src/a.test.ts", fileClass: "test" },
        { relPath: "docs/x.md", fileClass: "other" },
      ],
    });
    expect(result.decision).toBe("deny");
    expect(result.files.map((file) => file.decision)).toEqual([
      "allow",
      "deny",
      "deny",
      "deny",
      "allow",
    ]);
    expect(result.message).toBe(
      [
        "tailtest tdd: this edit is blocked: 3 of 5 files may not change now.",
        "- src/b.ts: it is not among the files declared for this Green (src/a.ts)",
        "- src/c.ts: it is not among the files declared for this Green (src/a.ts)",
        "- src/a.test.ts: during Green, test files may change only when the Green was declared with --skip-red (refactoring, lint-only, adding-coverage); this one was not, so the failing test keeps its meaning while you make it pass",
        "Next, declare the change and every file it needs:",
        '  tailtest green --change "<what you will change>" --file src/a.ts --file src/b.ts --file src/c.ts',
        "Next, declare a Red (the behaviour and the failure you expect):",
        `  ${RED}`,
      ].join("\n"),
    );
  });

  it("a protected file in a patch blocks the whole patch", () => {
    const result = decideFiles({
      state: "writing_tests",
      allowlist: [],
      skipRed: false,
      files: [
        { relPath: "src/a.test.ts", fileClass: "test" },
        { relPath: ".codex/config.toml", fileClass: "other" },
      ],
    });
    expect(result.decision).toBe("deny");
    expect(result.message).toContain("- .codex/config.toml: it is tailtest's own state");
    expect(result.message).toContain("ask the person");
  });

  it("carries the large-allowlist warning when everything is allowed", () => {
    const allowlist = ["a", "b", "c", "d", "e", "f"].map((name) => `src/${name}.ts`);
    const result = decideFiles({
      state: "making_tests_pass",
      allowlist,
      skipRed: false,
      files: [{ relPath: "src/a.ts", fileClass: "prod" }],
    });
    expect(result.warning).toContain("declares 6 files");
  });
});

describe("commands", () => {
  it("RED_COMMAND is the documented Red", () => {
    expect(RED_COMMAND).toBe(RED);
  });

  it("greenCommand quotes what a shell would change", () => {
    expect(greenCommand(["src/a.ts", "it's here.ts", "src/*.ts"])).toBe(
      `tailtest green --change "<what you will change>" --file src/a.ts --file 'it'\\''s here.ts' --file 'src/*.ts'`,
    );
  });
});
