import * as z from "zod";
import { DepthSchema } from "./depth.ts";
import { LanguageSchema } from "./languages.ts";

export const ModeSchema = z.enum(["follow", "tdd", "strict"]);
export type Mode = z.infer<typeof ModeSchema>;

const CommandSchema = z
  .array(z.string().min(1))
  .min(1)
  .describe('argv, e.g. ["uv", "run", "pytest"]; never passed through a shell');

export const RunnerOverrideSchema = z.object({
  command: CommandSchema.optional().describe("replaces the detected runner's command"),
  test_dir: z
    .string()
    .min(1)
    .optional()
    .describe("where new test files go, relative to the package"),
});
export type RunnerOverride = z.infer<typeof RunnerOverrideSchema>;

export const FileClassesSchema = z.object({
  test: z.array(z.string()).default([]).describe("extra gitignore-style patterns for test files"),
  production: z
    .array(z.string())
    .default([])
    .describe("patterns that are always production code (tdd mode gates them)"),
  exempt: z
    .array(z.string())
    .default([])
    .describe("patterns tdd mode never gates (docs, config, scripts)"),
});

const patternList = (what: string) =>
  z
    .array(z.string())
    .default([])
    .describe(`gitignore-style patterns for ${what}; tried before the defaults`);

export const TddFileClassesSchema = z.object({
  e2e_test: patternList("end-to-end tests (never gated)"),
  test: patternList("test files (editable while writing tests)"),
  prod: patternList("production code (editable only when declared for Green)"),
  other: patternList("files tdd mode never gates"),
});

export const PlanReviewSchema = z.object({
  enabled: z
    .boolean()
    .default(true)
    .describe(
      "tdd mode, Claude Code: refuse the first ExitPlanMode of each session with a TDD checklist and a review of the plan",
    ),
  command: CommandSchema.default(() => ["claude", "-p"]).describe(
    "argv of the reviewer; the review prompt and the plan are added as one last argument",
  ),
  timeout_seconds: z
    .number()
    .int()
    .min(5)
    .max(600)
    .default(60)
    .describe("the review is killed after this long and the plan goes on without it"),
});
export type PlanReviewConfig = z.infer<typeof PlanReviewSchema>;

/** A fresh object each time, so no parsed config shares (and can mutate) another's argv. */
const defaultPlanReview = (): PlanReviewConfig => ({
  enabled: true,
  command: ["claude", "-p"],
  timeout_seconds: 60,
});

export const TddConfigSchema = z.object({
  file_classes: TddFileClassesSchema.default({ e2e_test: [], test: [], prod: [], other: [] }),
  plan_review: PlanReviewSchema.default(defaultPlanReview).describe(
    "Claude Code: review a plan once per session before ExitPlanMode is accepted",
  ),
});

export const StrictConfigSchema = z.object({
  verify_command: CommandSchema.optional().describe(
    "refactor mode's check before `tailtest refactor finish` and at the end of each turn (default: every detected runner's whole suite)",
  ),
  max_attempts: z
    .number()
    .int()
    .min(1)
    .max(5)
    .default(2)
    .describe(
      "failed verifications of one claim before its edits are reverted for good and it is handed to the person",
    ),
});
export type StrictConfig = z.infer<typeof StrictConfigSchema>;

export const ConfigSchema = z.object({
  depth: DepthSchema.default("standard").describe("how many scenarios each test covers"),
  mode: ModeSchema.default("follow").describe("follow, tdd (Red→Green→Refactor) or strict"),
  ramp_up_limit: z
    .number()
    .int()
    .min(0)
    .max(15)
    .default(0)
    .describe(
      "files the first session's coverage scan queues (untested files ranked by recent commits, path and size); 0 turns the scan off",
    ),
  impact_tracing: z
    .boolean()
    .default(false)
    .describe(
      "name the files that import an edited one (Python, JS/TS; static parse, graph kept in .tailtest/import-graph.json)",
    ),
  impact_depth: z
    .number()
    .int()
    .min(1)
    .max(5)
    .default(2)
    .describe("how many import hops impact tracing follows (1: direct importers only)"),
  api_validation: z
    .boolean()
    .default(false)
    .describe(
      "list the public names an edited file declares, and flag a test that imports a name its source does not define (static parse, never imports the code)",
    ),
  style_sampling: z
    .boolean()
    .default(false)
    .describe(
      "at session start, show the first lines of the newest tests per runner and the helper modules they import",
    ),
  analysis_budget_ms: z
    .number()
    .int()
    .min(50)
    .max(10000)
    .default(500)
    .describe(
      "time box of the analyses' project scans in one hook (session start; an edit gets a fifth); a scan cut short says so and goes on later",
    ),
  runners: z
    .partialRecord(LanguageSchema, RunnerOverrideSchema)
    .default({})
    .describe("per-language runner overrides"),
  test_timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(300)
    .describe("a test run is killed after this long"),
  stop_loop_budget: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(3)
    .describe("how many times in a row the end of a turn may send the agent back to work"),
  file_classes: FileClassesSchema.default({ test: [], production: [], exempt: [] }),
  tdd: TddConfigSchema.default(() => ({
    file_classes: { e2e_test: [], test: [], prod: [], other: [] },
    plan_review: defaultPlanReview(),
  })),
  strict: StrictConfigSchema.default({ max_attempts: 2 }).describe(
    "strict mode: every production edit advances a claimed failing test",
  ),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});

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
    const parsed = ConfigSchema.safeParse(input);
    if (parsed.success) {
      return errors.length === 0
        ? { ok: true, config: parsed.data, warnings }
        : { ok: false, config: parsed.data, errors, warnings };
    }
    const issue = parsed.error.issues[0];
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
  const known = new Set(Object.keys(ConfigSchema.shape));
  return Object.keys(input).filter((key) => !known.has(key));
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
