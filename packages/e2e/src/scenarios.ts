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
 * (4, sweep only) The same file written by a Python script: no shell-command parser can tell
 * what it writes, so only the end-of-turn sweep of changed files can find it.
 */
export const SWEEP_ONLY_WRITE: Scenario = {
  name: "sweep-only-write",
  prompt: "add a slugify helper in src/slug.py",
  moves: [
    shell(
      `python3 - <<'EOF'\nimport pathlib\npathlib.Path("src").mkdir(exist_ok=True)\npathlib.Path("src/slug.py").write_text(${JSON.stringify(SLUG_SOURCE)})\nEOF`,
    ),
    reply("done: src/slug.py"),
    write("tests/test_slug.py", SLUG_TEST),
    reply("done: added tests/test_slug.py"),
  ],
};
