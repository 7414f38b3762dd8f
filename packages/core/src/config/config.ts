import * as z from "zod/mini";
import { DepthSchema } from "./depth.ts";
import { LanguageSchema } from "../filter/languages.ts";
import { lazy } from "../util/lazy.ts";

/*
 * The schemas a hook reads on every call are zod/mini schemas (ADR 0010): a hook is a fresh
 * process per call, and a classic zod schema costs ~8× as much to build, which every process
 * paid for every schema it loaded. The API is zod's, as functions: `z.optional(s)` for
 * `s.optional()`, `z._default(s, v)` for `s.default(v)`, `.check(z.minimum(1))` for `.min(1)`;
 * descriptions go through `described` below.
 */

export const ModeSchema = z.enum(["follow", "tdd", "strict"]);
export type Mode = z.infer<typeof ModeSchema>;

/**
 * A field's description for the generated reference (docs/configuration.md), put in zod's
 * registry on the schema itself: `.check(z.describe(…))` clones the schema to carry it, and those
 * clones cost every hook process about a millisecond (ADR 0010).
 */
function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

const CommandSchema = described(
  z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  'argv, e.g. ["uv", "run", "pytest"]; never passed through a shell',
);

export const RunnerOverrideSchema = lazy(() =>
  z.object({
    command: described(z.optional(CommandSchema), "replaces the detected runner's command"),
    test_dir: described(
      z.optional(z.string().check(z.minLength(1))),
      "where new test files go, relative to the package",
    ),
  }),
);
export type RunnerOverride = z.infer<typeof RunnerOverrideSchema>;

const patterns = (description: string) =>
  described(z._default(z.array(z.string()), []), description);

export const FileClassesSchema = lazy(() =>
  z.object({
    test: patterns("extra gitignore-style patterns for test files"),
    production: patterns(
      "patterns that are always production code: queued for a test whatever the filter's rules say, gated in tdd mode",
    ),
    exempt: patterns(
      "patterns never queued for a test nor gated in tdd mode (docs, config, scripts)",
    ),
  }),
);

const patternList = (what: string) =>
  patterns(`gitignore-style patterns for ${what}; tried before the defaults`);

export const TddFileClassesSchema = lazy(() =>
  z.object({
    e2e_test: patternList("end-to-end tests (never gated)"),
    test: patternList("test files (editable while writing tests)"),
    prod: patternList("production code (editable only when declared for Green)"),
    other: patternList("files tdd mode never gates"),
  }),
);

/** A whole number from `min` to `max`, `fallback` when absent. */
const wholeNumber = (min: number, max: number, fallback: number, description: string) =>
  described(
    z._default(z.number().check(z.int(), z.minimum(min), z.maximum(max)), fallback),
    description,
  );

export const PlanReviewSchema = lazy(() =>
  z.object({
    enabled: described(
      z._default(z.boolean(), true),
      "tdd mode, Claude Code: refuse the first ExitPlanMode of each session with a TDD checklist and a review of the plan",
    ),
    command: described(
      z._default(CommandSchema, () => ["claude", "-p"]),
      "argv of the reviewer; the review prompt and the plan are added as one last argument",
    ),
    timeout_seconds: wholeNumber(
      5,
      600,
      60,
      "the review is killed after this long and the plan goes on without it",
    ),
  }),
);
export type PlanReviewConfig = z.infer<typeof PlanReviewSchema>;

/** A fresh object each time, so no parsed config shares (and can mutate) another's argv. */
const defaultPlanReview = (): PlanReviewConfig => ({
  enabled: true,
  command: ["claude", "-p"],
  timeout_seconds: 60,
});

export const TddConfigSchema = lazy(() =>
  z.object({
    file_classes: z._default(TddFileClassesSchema, () => ({
      e2e_test: [],
      test: [],
      prod: [],
      other: [],
    })),
    plan_review: described(
      z._default(PlanReviewSchema, defaultPlanReview),
      "Claude Code: review a plan once per session before ExitPlanMode is accepted",
    ),
  }),
);

export const SelectSchema = z.enum(["related", "named", "all"]);

export const StrictConfigSchema = lazy(() =>
  z.object({
    verify_command: described(
      z.optional(CommandSchema),
      "refactor mode's check before `tailtest refactor finish` and at the end of each turn (default: every detected runner's whole suite)",
    ),
    max_attempts: wholeNumber(
      1,
      5,
      2,
      "failed verifications of one claim before its edits are reverted for good and it is handed to the person",
    ),
  }),
);

/**
 * Each top-level field's schema, built when first asked for (ADR 0010, "A config built for the
 * fields it holds"): a config file names a few fields (`{"mode":"tdd"}`), and building the whole
 * schema to read it cost a gate ~50 zod instances. `ConfigSchema` is made of these same schemas,
 * so the reference generated from it and `validateConfig` read one definition.
 */
const CONFIG_FIELDS = {
  depth: () =>
    described(z._default(DepthSchema, "standard"), "how many scenarios each test covers"),
  mode: () =>
    described(z._default(ModeSchema, "follow"), "follow, tdd (Red→Green→Refactor) or strict"),
  ramp_up_limit: () =>
    wholeNumber(
      0,
      15,
      0,
      "follow mode: files the first session's coverage scan queues (untested files ranked by recent commits, path and size; package __init__.py files without a def or class and barrels left out); 0 turns the scan off",
    ),
  impact_tracing: () =>
    described(
      z._default(z.boolean(), false),
      "follow mode: the queued note names the files that import the edited one (Python, JS/TS; static parse, graph kept in .tailtest/graph/); tdd and strict modes queue nothing and skip it",
    ),
  impact_depth: () =>
    wholeNumber(1, 5, 2, "how many import hops impact tracing follows (1: direct importers only)"),
  api_validation: () =>
    described(
      z._default(z.boolean(), false),
      "follow mode: the queued note lists the public names an edited file declares (re-exports included), and a test that imports a name its source does not define is flagged (static parse, never imports the code); not in tdd or strict mode, where a Red test imports what does not exist yet",
    ),
  style_sampling: () =>
    described(
      z._default(z.boolean(), false),
      "at session start, show the first lines of the newest tests per runner and the helper modules they import",
    ),
  analysis_budget_ms: () =>
    wholeNumber(
      50,
      10000,
      500,
      "time box of the analyses' project scans in one hook (session start; an edit gets a fifth); a scan cut short says so and goes on later",
    ),
  runners: () =>
    described(
      z._default(z.partialRecord(LanguageSchema, RunnerOverrideSchema), () => ({})),
      "per-language runner overrides",
    ),
  test_timeout_seconds: () =>
    wholeNumber(
      1,
      3600,
      300,
      "a test run is killed after this long; at the end of a turn, sooner when earlier runs timed all its test files: at 10× their time, at least 60 s",
    ),
  select: () =>
    described(
      z._default(SelectSchema, "related"),
      "which tests the end of a turn runs for a changed file: related (the tests named after it, its test family or folder, the tests that import it directly or through the project's modules, a changed test itself, the tests a changed conftest or helper reaches), named (only the test named after it) or all (every suite of the runners involved)",
    ),
  verify_budget_seconds: () =>
    wholeNumber(
      5,
      3600,
      120,
      "estimated time (from earlier runs in .tailtest/runs.json) the end of a turn may spend on related tests; the most specific run first, and the answer names what was left out and the command that runs it",
    ),
  stop_loop_budget: () =>
    wholeNumber(
      0,
      20,
      3,
      "how many times in a row the end of a turn may send the agent back to work",
    ),
  notify: () =>
    described(
      z._default(z.enum(["always", "failures", "never"]), "always"),
      'the person\'s one line at the end of a verified turn (e.g. "tailtest: 3 edited files, 41 tests passed (2.1 s)"): always, only when something did not pass (failures: a red, flaky or missing test, a run that could not start or finish; a failure tdd or strict mode expects, such as the declared Red, is named as an expected failure and does not count), or never; a turn with nothing to verify is silent',
    ),
  file_classes: () =>
    z._default(FileClassesSchema, () => ({ test: [], production: [], exempt: [] })),
  tdd: () =>
    z._default(TddConfigSchema, () => ({
      file_classes: { e2e_test: [], test: [], prod: [], other: [] },
      plan_review: defaultPlanReview(),
    })),
  strict: () =>
    described(
      z._default(StrictConfigSchema, () => ({ max_attempts: 2 })),
      "strict mode: every production edit advances a claimed failing test",
    ),
};

type ConfigFields = { [K in keyof typeof CONFIG_FIELDS]: ReturnType<(typeof CONFIG_FIELDS)[K]> };
const CONFIG_KEYS = Object.keys(CONFIG_FIELDS) as (keyof ConfigFields)[];
const builtFields: Partial<ConfigFields> = {};

/** One field's schema, built once (the same object `ConfigSchema`'s shape holds). */
function configField<K extends keyof ConfigFields>(key: K): ConfigFields[K] {
  return (builtFields[key] ??= CONFIG_FIELDS[key]() as ConfigFields[K]);
}

export const ConfigSchema = lazy(() =>
  z.object(Object.fromEntries(CONFIG_KEYS.map((key) => [key, configField(key)])) as ConfigFields),
);
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/**
 * What `ConfigSchema.parse({})` returns, written out (config.test.ts checks they are equal): a
 * hook in a project without a config file answers on it without building the config schema
 * (ADR 0010, "Where a queued edit stands").
 */
export const DEFAULT_CONFIG: Config = {
  depth: "standard",
  mode: "follow",
  ramp_up_limit: 0,
  impact_tracing: false,
  impact_depth: 2,
  api_validation: false,
  style_sampling: false,
  analysis_budget_ms: 500,
  runners: {},
  test_timeout_seconds: 300,
  select: "related",
  verify_budget_seconds: 120,
  stop_loop_budget: 3,
  notify: "always",
  file_classes: { test: [], production: [], exempt: [] },
  tdd: {
    file_classes: { e2e_test: [], test: [], prod: [], other: [] },
    plan_review: defaultPlanReview(),
  },
  strict: { max_attempts: 2 },
};

export type ConfigResult =
  | { ok: true; config: Config; warnings: string[] }
  | { ok: false; config: Config; errors: string[]; warnings: string[] };

const CONFIG_PATH = ".tailtest/config.json";
const MAX_REPAIR_PASSES = 16;

/**
 * Validates a parsed config.json. A bad field never discards the good ones: it is reported in
 * one line (field, value, accepted values) and replaced by its default.
 */
export function validateConfig(json: unknown): ConfigResult {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    return {
      ok: false,
      config: DEFAULT_CONFIG,
      errors: [`tailtest: ${CONFIG_PATH} must hold a JSON object; using defaults.`],
      warnings: [],
    };
  }
  const input: Record<string, unknown> = { ...(json as Record<string, unknown>) };
  const warnings = unknownKeys(input).map(
    (key) => `tailtest: ${CONFIG_PATH} has an unknown field "${key}"; it is ignored.`,
  );
  for (const key of unknownKeys(input)) delete input[key];

  const errors: string[] = [];
  for (let pass = 0; pass < MAX_REPAIR_PASSES; pass += 1) {
    const parsed = parseFields(input);
    if (parsed.success) {
      return errors.length === 0
        ? { ok: true, config: parsed.data, warnings }
        : { ok: false, config: parsed.data, errors, warnings };
    }
    const issue = parsed.issue;
    const field = issue?.path[0];
    if (issue === undefined || typeof field !== "string") break;
    errors.push(describeIssue(issue, input));
    delete input[field];
  }
  return { ok: false, config: DEFAULT_CONFIG, errors, warnings };
}

/** Parses config.json text; a syntax error is one line and the hooks run on defaults. */
export function parseConfigText(text: string): ConfigResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : "invalid JSON";
    return {
      ok: false,
      config: DEFAULT_CONFIG,
      errors: [`tailtest: ${CONFIG_PATH} is not valid JSON (${reason}); using defaults.`],
      warnings: [],
    };
  }
  return validateConfig(json);
}

function unknownKeys(input: Record<string, unknown>): string[] {
  return Object.keys(input).filter((key) => !Object.hasOwn(CONFIG_FIELDS, key));
}

type FieldsParse =
  { success: true; data: Config } | { success: false; issue: z.core.$ZodIssue | undefined };

/**
 * What `ConfigSchema.safeParse(input)` gives (its data, or its first issue), each field parsed
 * by its own schema and only the fields the input holds: zod's object parses each field alone,
 * in the shape's order, and an absent one takes its default (a fresh copy of DEFAULT_CONFIG's,
 * which config.test.ts holds to the schema's). `config.test.ts` holds the two to each other.
 */
function parseFields(input: Record<string, unknown>): FieldsParse {
  const data: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const value = input[key];
    if (value === undefined) {
      data[key] = copyJson(DEFAULT_CONFIG[key]);
      continue;
    }
    const parsed = z.safeParse(configField(key), value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        success: false,
        issue: issue === undefined ? undefined : { ...issue, path: [key, ...issue.path] },
      };
    }
    data[key] = parsed.data;
  }
  return { success: true, data: data as Config };
}

/** A copy of a JSON value (a default's arrays and objects are each config's own). */
function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyJson(v)])) as T;
}

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  const field = issue.path.map(String).join(".");
  const top = String(issue.path[0]);
  const shown = JSON.stringify(valueAt(input, issue.path)) ?? "undefined";
  const fallback = JSON.stringify((DEFAULT_CONFIG as Record<string, unknown>)[top]);
  return `tailtest: ${CONFIG_PATH}: "${field}" is ${shown}; expected ${expectation(issue)}. Using the default for "${top}" (${fallback}).`;
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_value":
      return `one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_type":
      return /^[aeiou]/.test(issue.expected) ? `an ${issue.expected}` : `a ${issue.expected}`;
    case "too_small":
      return `at least ${String(issue.minimum)}`;
    case "too_big":
      return `at most ${String(issue.maximum)}`;
    case "invalid_key":
      return `a key that is one of ${LanguageSchema.options.join(", ")}`;
    case "unrecognized_keys":
      return `only known fields (not ${issue.keys.join(", ")})`;
    default:
      return issue.message.toLowerCase();
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
