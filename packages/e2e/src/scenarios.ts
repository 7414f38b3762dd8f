import { reply, shell, write, type Scenario } from "./scenario.ts";

/**
 * The scenarios both CLIs run, on the pytest fixture (modules at the root, tests in tests/).
 * The module and its test are the README demo's: the buggy charge() adds 2% instead of 20%.
 */
export const BILLING_BUGGY =
  'def charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * 1.02, 2)\n';
export const BILLING_FIXED =
  'def charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * 1.2, 2)\n';
export const BILLING_TEST =
  "from billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 12.0\n\n\ndef test_charge_zero():\n    assert charge(0) == 0\n";

/** The first words of tailtest's reason for blocking a stop (core/verify-note.ts). */
export const BLOCK_REASON = "tailtest: the tests for this turn's edits are not green yet.";

/** The first words of tailtest's SessionStart note on the pytest fixture (core/notes.ts). */
export const SESSION_NOTE = "tailtest: session started. Runners: python: pytest (tests in tests/).";

/** (1) An edit is queued, and tailtest's note reaches the model's next request. */
export const QUEUED: Scenario = {
  name: "queued",
  prompt: "add a billing module with a charge function, with its test",
  moves: [
    write("billing.py", BILLING_FIXED),
    write("tests/test_billing.py", BILLING_TEST),
    reply("done: billing.py and its test"),
  ],
};

/** (2) The turn ends with the new file untested: blocked, the model writes the test, green. */
export const MISSING_TEST: Scenario = {
  name: "missing-test",
  prompt: "add a billing module with a charge function",
  moves: [
    write("billing.py", BILLING_FIXED),
    reply("done: billing.py"),
    write("tests/test_billing.py", BILLING_TEST),
    reply("done: added tests/test_billing.py"),
  ],
};

/** (3) A red test: the failure reaches the model, the scripted fix goes green. */
export const RED_TEST: Scenario = {
  name: "red-test",
  prompt: "add a billing module with a charge function, with its test",
  moves: [
    write("billing.py", BILLING_BUGGY),
    write("tests/test_billing.py", BILLING_TEST),
    reply("done: billing.py and its test"),
    write("billing.py", BILLING_FIXED),
    reply("fixed: the VAT factor was 1.02, it is 1.2"),
  ],
};

export const SLUG_SOURCE = 'def slugify(text):\n    return "-".join(text.lower().split())\n';
export const SLUG_TEST =
  'from src.slug import slugify\n\n\ndef test_slugify_joins_words():\n    assert slugify("Hello World") == "hello-world"\n';

/** (4) Codex: a file written by a shell command (no edit tool) is caught at the end of the turn. */
export const SHELL_WRITE: Scenario = {
  name: "shell-write",
  prompt: "add a slugify helper in src/slug.py",
  moves: [
    shell(`mkdir -p src && cat > src/slug.py <<'EOF'\n${SLUG_SOURCE}EOF`),
    reply("done: src/slug.py"),
    write("tests/test_slug.py", SLUG_TEST),
    reply("done: added tests/test_slug.py"),
  ],
};

/**
 * (4, sweep only) The same file written by a Python script that computes its name: no parser
 * can tell what it writes, so only the end-of-turn sweep of changed files can find it.
 */
export const SWEEP_ONLY_WRITE: Scenario = {
  name: "sweep-only-write",
  prompt: "add a slugify helper in src/slug.py",
  moves: [
    shell(
      // The name is decoded at run time ("src/slug.py" in base64): nothing in the command or the
      // script names the file, so no parser can know it before or after the command runs.
      `python3 - <<'EOF'\nimport base64, pathlib\ntarget = pathlib.Path(base64.b64decode("c3JjL3NsdWcucHk=").decode())\ntarget.parent.mkdir(exist_ok=True)\ntarget.write_text(${JSON.stringify(SLUG_SOURCE)})\nEOF`,
    ),
    reply("done: src/slug.py"),
    write("tests/test_slug.py", SLUG_TEST),
    reply("done: added tests/test_slug.py"),
  ],
};

/** The billing module after the refactor step: the same behaviour, a named constant. */
export const BILLING_REFACTORED =
  'VAT = 1.2\n\n\ndef charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * VAT, 2)\n';

/** The project config of the tdd scenario: tdd mode, plan review off (no ExitPlanMode here). */
export const TDD_CONFIG = `${JSON.stringify({ mode: "tdd", tdd: { plan_review: { enabled: false } } }, null, 2)}\n`;

/** The first words of the gate's refusal of billing.py with no cycle open (core tdd/tdd-gate.ts). */
export const TDD_DENIED = "tailtest tdd: billing.py is blocked: no TDD cycle is open";

/**
 * (5) tdd mode: Red → Green → Refactor through the real CLI. Production code first is refused;
 * the Red is declared, the test written and run (tailtest runs it again itself: it fails on the
 * missing module, a real Red); the Green is declared, the code written, the test passes; a
 * skip-red refactor changes the code with the tests green.
 */
export const TDD_CYCLE: Scenario = {
  name: "tdd-cycle",
  prompt: "add a billing module with a charge function, test first",
  moves: [
    write("billing.py", BILLING_FIXED),
    shell(
      `npx tailtest red --test tests/test_billing.py --expects "test_charge_adds_vat fails: there is no billing module yet"`,
    ),
    write("tests/test_billing.py", BILLING_TEST),
    shell("python3 -m pytest -q tests/test_billing.py"),
    shell(`npx tailtest green --change "add charge() with 20% VAT" --file billing.py`),
    write("billing.py", BILLING_FIXED),
    shell("python3 -m pytest -q tests/test_billing.py"),
    shell(
      `npx tailtest green --skip-red --reason refactoring --change "name the VAT factor" --file billing.py`,
    ),
    write("billing.py", BILLING_REFACTORED),
    shell("python3 -m pytest -q tests/test_billing.py"),
    reply("done: billing.py, test first"),
  ],
};

/** The project config of the strict scenarios: the person switches strict mode on. */
export const STRICT_CONFIG = `${JSON.stringify({ mode: "strict" }, null, 2)}\n`;

/** The first words of the gate's refusal of a production file no claim names (core strict/strict-gate.ts). */
export function strictDenied(path: string): string {
  return `tailtest strict: ${path} is production code and no open claim names it`;
}

/** The claim of the pytest scenarios, as the agent types it in a project that installed tailtest. */
export const STRICT_CLAIM =
  "npx tailtest claim tests/test_billing.py::test_charge_adds_vat billing.py";

/**
 * (6) strict mode, the way it is meant to go: production code first is refused; the failing test
 * is written (it imports a billing module that does not exist yet), the claim runs it (a
 * greenfield red), billing.py is written, and the end of the turn runs the test: green.
 */
export const STRICT_GREEN: Scenario = {
  name: "strict-green",
  prompt: "add a billing module with a charge function, test first",
  moves: [
    write("billing.py", BILLING_FIXED),
    write("tests/test_billing.py", BILLING_TEST),
    shell(STRICT_CLAIM),
    write("billing.py", BILLING_FIXED),
    reply("done: billing.py, claimed and green"),
  ],
};

/** Two edits that leave test_charge_adds_vat red (charge(10) is 11.0, then 12.5). */
export const BILLING_WRONG_1 =
  'def charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * 1.1, 2)\n';
export const BILLING_WRONG_2 =
  'def charge(amount):\n    """Amount plus 20% VAT, in cents precision."""\n    return round(amount * 1.25, 2)\n';

/**
 * (6) strict mode, a claim that never goes green. billing.py holds the buggy charge() when the
 * session starts (the person wrote it); the test fails on its assertion and is claimed; the edit
 * leaves it red, so the end of the turn reverts billing.py and blocks; the second edit is red too,
 * so the second stop reverts again and hands the claim to the person without blocking.
 */
export const STRICT_REVERTED: Scenario = {
  name: "strict-reverted",
  prompt: "fix the VAT in billing.charge, test first",
  moves: [
    write("tests/test_billing.py", BILLING_TEST),
    shell(STRICT_CLAIM),
    write("billing.py", BILLING_WRONG_1),
    reply("done: billing.py fixed"),
    write("billing.py", BILLING_WRONG_2),
    reply("done: billing.py fixed, second try"),
    // The escalation sends the agent back once, only to tell the person.
    reply("stopping: tailtest reverted billing.py twice and test_charge_adds_vat still fails"),
  ],
};

/** The vitest scenario's test: it imports a module that does not exist yet. */
export const VITEST_BILLING_TEST = `import { describe, expect, it } from "vitest";
import { charge } from "./billing";

describe("charge", () => {
  it("adds VAT", () => {
    expect(charge(10)).toBe(12);
  });
});
`;
export const VITEST_BILLING =
  "export function charge(amount: number): number {\n  return Math.round(amount * 120) / 100;\n}\n";

/** (6) strict mode on the vitest fixture: the same red → claim → edit → green, in TypeScript. */
export const STRICT_GREEN_VITEST: Scenario = {
  name: "strict-green-vitest",
  prompt: "add a billing module with a charge function, test first",
  moves: [
    write("src/billing.ts", VITEST_BILLING),
    write("src/billing.test.ts", VITEST_BILLING_TEST),
    shell("npx tailtest claim 'src/billing.test.ts::charge > adds VAT' src/billing.ts"),
    write("src/billing.ts", VITEST_BILLING),
    reply("done: src/billing.ts, claimed and green"),
  ],
};
