import {
  type GreenEntry,
  type RedEntry,
  SkipRedReasonSchema,
  type SkipRedReason,
  type TddEntry,
} from "./tdd-log.ts";
import {
  deriveTddState,
  greenOverride,
  greenRefusal,
  leavesProject,
  normaliseAllowlist,
  redOverride,
} from "./tdd-state.ts";
import { isPlainShellWord } from "../util/shell-word.ts";

/**
 * `tailtest red` and `tailtest green`: the only way an agent moves the machine by hand. Each
 * returns the entry to append, or a refusal the agent can act on: one line ending in the exact
 * command to run next, with what it already gave filled in and `<…>` where something is missing.
 */

export type Declared<E> = { ok: true; entry: E } | { ok: false; message: string };

export interface RedInput {
  test: string;
  expects: string;
}

export interface GreenInput {
  change: string;
  files: readonly string[];
  skipRed?: boolean;
  /** Required with skipRed; a string because it comes straight from the command line. */
  reason?: string;
}

const VALID_REASONS = SkipRedReasonSchema.options.join(", ");
const REASON_PLACEHOLDER = `<${SkipRedReasonSchema.options.join("|")}>`;

/** A value on one line: each line trimmed, blank lines dropped, the rest joined by a space. */
export function oneLine(value: string): string {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
}

/** A double-quoted shell word: `"`, `\`, `$` and backquotes escaped. */
export function shellQuote(value: string): string {
  return `"${value.replace(/["\\$`]/g, "\\$&")}"`;
}

/** A path as a shell word: bare when it is plainly safe, else double-quoted. */
function shellPath(path: string): string {
  return isPlainShellWord(path) ? path : shellQuote(path);
}

function quotedOr(value: string | undefined, placeholder: string): string {
  return value === undefined || value === "" ? `"${placeholder}"` : shellQuote(value);
}

/** The `tailtest red` command with what is known filled in. */
export function redCommandFor(known: { test?: string; expects?: string } = {}): string {
  return `tailtest red --test ${quotedOr(known.test, "<test file>")} --expects ${quotedOr(
    known.expects,
    "<test name> fails because <reason>",
  )}`;
}

/** The `tailtest green` command with what is known filled in. */
export function greenCommandFor(
  known: { change?: string; files?: readonly string[]; reason?: string; skipRed?: boolean } = {},
): string {
  const files = known.files === undefined || known.files.length === 0 ? undefined : known.files;
  const fileArgs = (files ?? ["<path/to/file>"])
    .map((file) => `--file ${files === undefined ? file : shellPath(file)}`)
    .join(" ");
  const skip =
    known.skipRed === true ? `--skip-red --reason ${known.reason ?? REASON_PLACEHOLDER} ` : "";
  return `tailtest green ${skip}--change ${quotedOr(known.change, "<what you will change>")} ${fileArgs}`;
}

export function declareRed(
  entries: readonly TddEntry[],
  input: RedInput,
  at: string,
): Declared<RedEntry> {
  const test = oneLine(input.test);
  const expects = oneLine(input.expects);
  if (test === "") {
    return refuse(
      `--test is empty: name the test you are about to make fail. Run: ${redCommandFor({ expects })}`,
    );
  }
  if (expects === "") {
    return refuse(
      `--expects is empty: say which test fails and why. Run: ${redCommandFor({ test })}`,
    );
  }
  const from = redOverride(deriveTddState(entries).state);
  return {
    ok: true,
    entry: {
      kind: "red",
      test,
      expects,
      at,
      ...(from === undefined ? {} : { override_from: from }),
    },
  };
}

function refuse<E>(message: string): Declared<E> {
  return { ok: false, message };
}

/** The skip-red reason, or why it is refused. */
function checkReason(
  input: GreenInput,
  known: { change: string; files: string[] },
): { reason: SkipRedReason | undefined } | { message: string } {
  const raw = input.reason?.trim() ?? "";
  const parsed = SkipRedReasonSchema.safeParse(raw);
  if (raw !== "" && !parsed.success) {
    return {
      message: `Invalid --reason ${shellQuote(raw)}. Valid reasons: ${VALID_REASONS}. Run: ${greenCommandFor({ ...known, skipRed: true })}`,
    };
  }
  const reason = parsed.success ? parsed.data : undefined;
  if (input.skipRed === true && reason === undefined) {
    return {
      message: `--skip-red requires --reason. Valid reasons: ${VALID_REASONS}. Run: ${greenCommandFor({ ...known, skipRed: true })}`,
    };
  }
  if (input.skipRed !== true && reason !== undefined) {
    return {
      message: `--reason is only read with --skip-red. Run: ${greenCommandFor({ ...known, skipRed: true, reason })}`,
    };
  }
  return { reason };
}

export function declareGreen(
  entries: readonly TddEntry[],
  input: GreenInput,
  at: string,
): Declared<GreenEntry> {
  const change = oneLine(input.change);
  const files = normaliseAllowlist(input.files.map(oneLine));
  const skipRed = input.skipRed === true;
  const known = {
    change,
    files,
    skipRed,
    ...(input.reason === undefined ? {} : { reason: input.reason }),
  };
  if (change === "") {
    return refuse(`--change is empty: say what you will change. Run: ${greenCommandFor(known)}`);
  }
  if (files.length === 0) {
    return refuse(
      `--file is missing: list every file this change edits. Run: ${greenCommandFor(known)}`,
    );
  }
  const outside = files.find(leavesProject);
  if (outside !== undefined) {
    const inside = files.filter((file) => !leavesProject(file));
    return refuse(
      `--file ${shellPath(outside)} is not inside the project: give every file relative to the project root. Run: ${greenCommandFor({ ...known, files: inside })}`,
    );
  }
  const reason = checkReason(input, { change, files });
  if ("message" in reason) return refuse(reason.message);

  const view = deriveTddState(entries);
  switch (greenRefusal(view.state, skipRed)) {
    case "not-failed-yet": {
      const test = view.declaration?.kind === "red" ? ` (${view.declaration.test})` : "";
      return refuse(
        `Run your failing test(s) before logging Green. Your Red${test} has not been seen failing yet: run it, then: ${greenCommandFor({ change, files })}`,
      );
    }
    case "no-red": {
      const why = view.regression
        ? "A test failed after your last cycle finished: declare it as a new Red"
        : "Write a failing test first";
      return refuse(`Cannot log Green without a preceding Red cycle. ${why}: ${redCommandFor()}`);
    }
    case undefined:
      break;
  }
  const from = greenOverride(view.state, skipRed);
  return {
    ok: true,
    entry: {
      kind: "green",
      change,
      files,
      at,
      ...(reason.reason === undefined ? {} : { skip_red: { reason: reason.reason } }),
      ...(from === undefined ? {} : { override_from: from }),
    },
  };
}
