import { isAbsolute, resolve } from "node:path";
import type { Host, StrictEventInput, StrictTest } from "../strict-events.ts";
import { isValidRed } from "../red.ts";
import { languageOfTestFile, parseTestId, resolveSlug, toStrictTest } from "../test-id.ts";
import { classifyTddFile, tddPatternsFromConfig } from "../../tdd/file-classes.ts";
import { toProjectPath, type Project } from "../../project/node/project.ts";
import { appendStrictEvents, appendStrictEventsFrom, readStrictState } from "./strict-store.ts";
import {
  runStrictTests,
  runnerForTestFile,
  runVerifyCommand,
  type VerifyOutcome,
} from "./strict-run.ts";
import { sweepChangedFiles } from "../../project/node/mtime-sweep.ts";

/**
 * `tailtest claim`, `tailtest refactor start|finish`: the agent's side of strict mode. A claim is
 * measured, never believed: the named test is run, the run is logged, and the claim is recorded
 * only if that run is a valid red for every claimed file.
 */

export interface StrictCliContext {
  project: Project;
  /** Where relative paths on the command line start. */
  cwd: string;
  now: () => Date;
  session?: string | undefined;
}

export type ClaimOutcome =
  { ok: true; claim: string; test: StrictTest; message: string } | { ok: false; message: string };

function stamp(context: StrictCliContext) {
  return {
    ts: context.now().toISOString(),
    ...(context.session === undefined ? {} : { session: context.session }),
    host: "cli" as Host,
  };
}

function projectPath(context: StrictCliContext, path: string): string | undefined {
  return toProjectPath(context.project, isAbsolute(path) ? path : resolve(context.cwd, path));
}

/** Every test file of the project with its source, for finding a `tailtest-id:` slug. */
function testSources(project: Project): Array<{ path: string; source: string }> {
  const patterns = tddPatternsFromConfig(project.config);
  return sweepChangedFiles(project, 0)
    .changed.filter(
      (path) =>
        classifyTddFile(path, patterns) === "test" && languageOfTestFile(path) !== undefined,
    )
    .map((path) => ({ path, source: project.view.readText(path) ?? "" }));
}

type Resolved = { ok: true; test: StrictTest } | { ok: false; message: string };

/** The test a claim names: `file::segments`, or an annotation slug found in the test files. */
export function resolveTest(context: StrictCliContext, text: string): Resolved {
  const parsed = parseTestId(text);
  if (parsed === undefined)
    return {
      ok: false,
      message: `"${text}" is not a test id: use <test file>::<name> (tests/test_x.py::test_y, src/x.test.ts::suite > case) or a tailtest-id slug`,
    };
  let file: string;
  let segments: string[];
  if ("slug" in parsed) {
    const found = resolveSlug(parsed.slug, testSources(context.project));
    if ("error" in found) return { ok: false, message: found.error };
    ({ file, segments } = found);
  } else {
    const rel = projectPath(context, parsed.file);
    if (rel === undefined) return { ok: false, message: `${parsed.file} is outside the project` };
    file = rel;
    segments = parsed.segments;
  }
  if (!context.project.view.exists(file))
    return { ok: false, message: `${file} does not exist: write the failing test first` };
  const patterns = tddPatternsFromConfig(context.project.config);
  if (classifyTddFile(file, patterns) !== "test")
    return {
      ok: false,
      message: file.endsWith(".rs")
        ? `${file} is not a test file: its inline #[cfg(test)] module is part of the source file, which strict mode gates as production code. Write the failing test as an integration test under tests/ (cargo runs each file there against the crate's public API) and claim that one`
        : `${file} is not a test file (see tailtest explain ${file})`,
    };
  const runner = runnerForTestFile(context.project, file);
  if ("reason" in runner) return { ok: false, message: runner.reason };
  const test = toStrictTest(
    { runner: runner.runner, file, segments },
    context.project.view.readText(file),
  );
  return { ok: true, test };
}

const RAN = { pass: "passed", fail: "failed", not_run: "did not run" } as const;

/** Runs the test, logs the run, and records the claim if the run is a valid red. */
export async function claimTest(
  context: StrictCliContext,
  testText: string,
  files: readonly string[],
): Promise<ClaimOutcome> {
  if (files.length === 0)
    return {
      ok: false,
      message: "name the production files the claim covers: tailtest claim <test_id> <file…>",
    };
  const patterns = tddPatternsFromConfig(context.project.config);
  const targets: string[] = [];
  for (const file of files) {
    const rel = projectPath(context, file);
    if (rel === undefined) return { ok: false, message: `${file} is outside the project` };
    const fileClass = classifyTddFile(rel, patterns);
    if (fileClass !== "prod")
      return {
        ok: false,
        message: `${rel} is not production code (${fileClass === "other" || fileClass === "e2e_test" ? "strict mode does not gate it" : "test files are always editable"}): claim only the production files the test drives`,
      };
    if (!targets.includes(rel)) targets.push(rel);
  }
  const resolved = resolveTest(context, testText);
  if (!resolved.ok) return resolved;
  const run = await runStrictTests(context.project, [resolved.test], {
    purpose: "claim",
    now: context.now,
    session: context.session,
    host: "cli",
  });
  const red = run.events[0];
  if (red === undefined) return { ok: false, message: `${resolved.test.id} could not be run` };
  const refusals = targets
    .map((target) => ({ target, verdict: isValidRed(red, target) }))
    .filter((entry) => !entry.verdict.valid);
  if (refusals.length > 0) {
    await appendStrictEvents(context.project.root, [red]);
    const why = refusals
      .map((entry) => `${entry.target}: ${entry.verdict.valid ? "" : entry.verdict.why}`)
      .join("; ");
    const detail = red.message === undefined ? "" : ` (${red.message})`;
    return {
      ok: false,
      message: `no claim: ${red.test_id} ran and ${RAN[red.status]}${detail}, which is not a red for ${why}. Make the test fail on an assertion (or on the claimed file missing), then claim again.`,
    };
  }
  // The claim's number is drawn under the log's lock: two claims at once get two numbers.
  const claim = await appendStrictEventsFrom(context.project.root, ({ snapshot }) => {
    const drawn = `c${snapshot.state.claims.size + 1}`;
    const events: StrictEventInput[] = [
      red,
      ...targets.map((target) => ({
        type: "edit_claim" as const,
        ...stamp(context),
        claim: drawn,
        test_id: red.test_id,
        edit_target: target,
      })),
    ];
    return { events, result: drawn };
  });
  const why =
    red.fail_reason === "collection" ? "a claimed file or name is missing" : "an assertion failure";
  return {
    ok: true,
    claim,
    test: red.test,
    message: `claimed ${red.test_id} → ${targets.join(", ")} (claim ${claim}; red: ${why}). Edit those files now; at the end of the turn tailtest runs the test, and reverts the edits if it still fails.`,
  };
}

export interface RefactorOutcome {
  ok: boolean;
  message: string;
  verify?: VerifyOutcome;
}

/** `tailtest refactor start`: lifts the per-edit gate until `finish`. */
export async function startRefactor(context: StrictCliContext): Promise<RefactorOutcome> {
  const { state } = readStrictState(context.project.root).snapshot;
  if (state.mode === "refactor")
    return { ok: true, message: "already in refactor mode: finish with tailtest refactor finish" };
  await appendStrictEvents(context.project.root, [
    { type: "mode_changed", ...stamp(context), mode: "refactor", by: "refactor-start" },
  ]);
  return {
    ok: true,
    message:
      "refactor mode: production edits need no claim now. Every turn must end with the verify command passing (the full test run unless strict.verify_command says otherwise); tailtest refactor finish runs it and returns to strict mode.",
  };
}

/** `tailtest refactor finish`: back to strict mode, only if the verify command passes. */
export async function finishRefactor(context: StrictCliContext): Promise<RefactorOutcome> {
  const { state } = readStrictState(context.project.root).snapshot;
  if (state.mode !== "refactor")
    return { ok: false, message: "not in refactor mode (start it with tailtest refactor start)" };
  const verify = await runVerifyCommand(context.project);
  const result: StrictEventInput = {
    type: "verify_result",
    ...stamp(context),
    scope: "refactor",
    status: verify.status,
    command: verify.command,
    duration_ms: verify.duration_ms,
    reason: verify.reason,
  };
  if (verify.status === "fail") {
    await appendStrictEvents(context.project.root, [result]);
    return {
      ok: false,
      verify,
      message: `still in refactor mode: the verify command failed (${verify.reason}). Fix it or revert the change, then run tailtest refactor finish again.${verify.failures === undefined ? "" : `\n${verify.failures}`}`,
    };
  }
  await appendStrictEvents(context.project.root, [
    result,
    { type: "mode_changed", ...stamp(context), mode: "strict", by: "refactor-finish" },
  ]);
  return { ok: true, verify, message: `back to strict mode: ${verify.reason}.` };
}
