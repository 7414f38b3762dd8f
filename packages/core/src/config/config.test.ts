import { describe, expect, it } from "vitest";
import { ConfigSchema, DEFAULT_CONFIG, parseConfigText, validateConfig } from "./config.ts";

describe("validateConfig", () => {
  it("has the written-out default the schema gives an empty object, key for key", () => {
    // DEFAULT_CONFIG is a literal so a hook without a config file never builds the schema.
    expect(DEFAULT_CONFIG).toStrictEqual(ConfigSchema.parse({}));
  });

  it("fills every default from an empty object", () => {
    expect(validateConfig({})).toEqual({ ok: true, config: DEFAULT_CONFIG, warnings: [] });
    expect(DEFAULT_CONFIG).toMatchObject({
      depth: "standard",
      mode: "follow",
      ramp_up_limit: 0,
      impact_tracing: false,
      impact_depth: 2,
      api_validation: false,
      style_sampling: false,
      analysis_budget_ms: 500,
      test_timeout_seconds: 300,
      stop_loop_budget: 3,
    });
  });

  it("accepts every documented field", () => {
    const result = validateConfig({
      depth: "adversarial",
      mode: "strict",
      ramp_up_limit: 7,
      impact_tracing: true,
      impact_depth: 3,
      api_validation: true,
      style_sampling: true,
      analysis_budget_ms: 2000,
      runners: { python: { command: ["uv", "run", "pytest"], test_dir: "checks" } },
      test_timeout_seconds: 60,
      stop_loop_budget: 5,
      file_classes: { test: ["*.check.ts"], production: ["src/**"], exempt: ["scripts/**"] },
    });
    expect(result.ok).toBe(true);
    expect(result.config.runners.python?.command).toEqual(["uv", "run", "pytest"]);
  });

  it.each([
    [
      { depth: "deep" },
      'tailtest: .tailtest/config.json: "depth" is "deep"; expected one of simple, standard, thorough, adversarial. Using the default for "depth" ("standard").',
    ],
    [
      { mode: "tdd-ish" },
      'tailtest: .tailtest/config.json: "mode" is "tdd-ish"; expected one of follow, tdd, strict. Using the default for "mode" ("follow").',
    ],
    [
      { ramp_up_limit: 99 },
      'tailtest: .tailtest/config.json: "ramp_up_limit" is 99; expected at most 15. Using the default for "ramp_up_limit" (0).',
    ],
    [
      { ramp_up_limit: -1 },
      'tailtest: .tailtest/config.json: "ramp_up_limit" is -1; expected at least 0. Using the default for "ramp_up_limit" (0).',
    ],
    [
      { impact_depth: 9 },
      'tailtest: .tailtest/config.json: "impact_depth" is 9; expected at most 5. Using the default for "impact_depth" (2).',
    ],
    [
      { analysis_budget_ms: 10 },
      'tailtest: .tailtest/config.json: "analysis_budget_ms" is 10; expected at least 50. Using the default for "analysis_budget_ms" (500).',
    ],
    [
      { style_sampling: 1 },
      'tailtest: .tailtest/config.json: "style_sampling" is 1; expected a boolean. Using the default for "style_sampling" (false).',
    ],
    [
      { impact_tracing: "yes" },
      'tailtest: .tailtest/config.json: "impact_tracing" is "yes"; expected a boolean. Using the default for "impact_tracing" (false).',
    ],
    [
      { runners: { python: { command: "pytest -q" } } },
      'tailtest: .tailtest/config.json: "runners.python.command" is "pytest -q"; expected an array. Using the default for "runners" ({}).',
    ],
  ])("a bad value gives one line naming the field and the accepted values: %j", (input, line) => {
    const result = validateConfig(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([line]);
    expect(line).not.toContain("\n");
  });

  it("keeps the good fields when one is bad", () => {
    const result = validateConfig({ depth: "thorough", mode: "nope", stop_loop_budget: 1 });
    expect(result.config).toMatchObject({ depth: "thorough", mode: "follow", stop_loop_budget: 1 });
  });

  it("reports every bad field, each once", () => {
    const result = validateConfig({ depth: 1, mode: 2, ramp_up_limit: "x" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.map((e) => /"(\w+)" is/.exec(e)?.[1])).toEqual([
        "depth",
        "mode",
        "ramp_up_limit",
      ]);
    expect(result.config).toEqual(DEFAULT_CONFIG);
  });

  it("warns about unknown fields instead of failing", () => {
    const result = validateConfig({ dept: "thorough" });
    expect(result).toMatchObject({
      ok: true,
      warnings: ['tailtest: .tailtest/config.json has an unknown field "dept"; it is ignored.'],
    });
  });

  it.each([[null], [[]], ["standard"], [3]])("a non-object (%j) runs on defaults", (input) => {
    expect(validateConfig(input)).toMatchObject({ ok: false, config: DEFAULT_CONFIG });
  });

  it("a JSON syntax error is one line", () => {
    const result = parseConfigText('{"depth": ');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toMatch(
        /^tailtest: \.tailtest\/config\.json is not valid JSON \(.+\); using defaults\.$/,
      );
    }
  });
});

const TDD_DEFAULT_JSON =
  '{"file_classes":{"e2e_test":[],"test":[],"prod":[],"other":[]},' +
  '"plan_review":{"enabled":true,"command":["claude","-p"],"timeout_seconds":60}}';

describe("the tdd section", () => {
  it("defaults every file-class list to empty and the plan review to claude -p", () => {
    expect(DEFAULT_CONFIG.tdd).toEqual({
      file_classes: { e2e_test: [], test: [], prod: [], other: [] },
      plan_review: { enabled: true, command: ["claude", "-p"], timeout_seconds: 60 },
    });
    expect(validateConfig({ tdd: {} }).config.tdd).toEqual(DEFAULT_CONFIG.tdd);
    expect(validateConfig({ tdd: { file_classes: { prod: ["lib/**"] } } })).toEqual({
      ok: true,
      config: {
        ...DEFAULT_CONFIG,
        tdd: {
          ...DEFAULT_CONFIG.tdd,
          file_classes: { e2e_test: [], test: [], prod: ["lib/**"], other: [] },
        },
      },
      warnings: [],
    });
  });

  it("fills the plan review's missing fields from the defaults", () => {
    expect(validateConfig({ tdd: { plan_review: { enabled: false } } }).config.tdd).toEqual({
      ...DEFAULT_CONFIG.tdd,
      plan_review: { enabled: false, command: ["claude", "-p"], timeout_seconds: 60 },
    });
    expect(
      validateConfig({
        tdd: { plan_review: { command: ["codex", "exec"], timeout_seconds: 120 } },
      }).config.tdd.plan_review,
    ).toEqual({ enabled: true, command: ["codex", "exec"], timeout_seconds: 120 });
  });

  it("gives each parsed config its own default review command", () => {
    validateConfig({}).config.tdd.plan_review.command.push("--changed");
    expect(validateConfig({}).config.tdd.plan_review.command).toEqual(["claude", "-p"]);
  });

  it("accepts all four lists", () => {
    const file_classes = {
      e2e_test: ["smoke/"],
      test: ["*.check.ts"],
      prod: ["scripts/*.sh"],
      other: ["tools/"],
    };
    expect(validateConfig({ tdd: { file_classes } })).toMatchObject({
      ok: true,
      config: { tdd: { file_classes } },
    });
  });

  it.each([
    [
      { tdd: { file_classes: { test: "*.check.ts" } } },
      `tailtest: .tailtest/config.json: "tdd.file_classes.test" is "*.check.ts"; expected an array. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
    [
      { tdd: { file_classes: { prod: [1] } } },
      `tailtest: .tailtest/config.json: "tdd.file_classes.prod.0" is 1; expected a string. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
    [
      { tdd: [] },
      `tailtest: .tailtest/config.json: "tdd" is []; expected an object. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
    [
      { tdd: { plan_review: { command: [] } } },
      `tailtest: .tailtest/config.json: "tdd.plan_review.command" is []; expected at least 1. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
    [
      { tdd: { plan_review: { timeout_seconds: 4 } } },
      `tailtest: .tailtest/config.json: "tdd.plan_review.timeout_seconds" is 4; expected at least 5. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
    [
      { tdd: { plan_review: { timeout_seconds: 601 } } },
      `tailtest: .tailtest/config.json: "tdd.plan_review.timeout_seconds" is 601; expected at most 600. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
    [
      { tdd: { plan_review: { enabled: "no" } } },
      `tailtest: .tailtest/config.json: "tdd.plan_review.enabled" is "no"; expected a boolean. Using the default for "tdd" (${TDD_DEFAULT_JSON}).`,
    ],
  ])("a bad value is one line and the rest still applies: %j", (input, line) => {
    const result = validateConfig({ ...input, depth: "thorough" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([line]);
    expect(result.config.depth).toBe("thorough");
    expect(result.config.tdd).toEqual(DEFAULT_CONFIG.tdd);
  });
});

describe("validateConfig parses only the fields a config holds", () => {
  /** The whole schema, as validateConfig parsed before: the answer the fields must give. */
  function viaWholeSchema(json: Record<string, unknown>) {
    const input = { ...json };
    for (const key of Object.keys(input)) if (!(key in ConfigSchema.shape)) delete input[key];
    const errors: string[] = [];
    for (let pass = 0; pass < 16; pass += 1) {
      const parsed = ConfigSchema.safeParse(input);
      if (parsed.success) return { config: parsed.data, errors };
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      if (issue === undefined || typeof field !== "string") break;
      // The message validateConfig writes names the path and the expectation: compare those.
      errors.push(`${issue.path.join(".")} ${issue.code} ${issue.message}`);
      delete input[field];
    }
    return { config: DEFAULT_CONFIG, errors };
  }

  const CONFIGS: Record<string, unknown>[] = [
    {},
    { mode: "tdd" },
    { mode: "strict", depth: "thorough" },
    { mode: "nope" },
    { depth: 1, mode: 2, ramp_up_limit: "x", impact_depth: 9, notify: "sometimes" },
    { runners: { python: { command: ["uv", "run", "pytest"] } } },
    { runners: { cobol: { command: ["x"] } } },
    { runners: { python: { command: [] } }, strict: { max_attempts: 0 } },
    { tdd: { file_classes: { prod: ["lib/**"], test: [1] } } },
    { tdd: { plan_review: { enabled: "yes" } }, file_classes: { exempt: "docs/" } },
    { tdd: null, strict: [], select: "named", verify_budget_seconds: 4 },
    { analysis_budget_ms: 10_000, test_timeout_seconds: 3600.5, stop_loop_budget: -1 },
    { mode: undefined, depth: "adversarial", unknown_field: true },
  ];

  it.each(CONFIGS.map((config) => [JSON.stringify(config), config]))(
    "%s: the whole schema's config and errors",
    (_name, config) => {
      const result = validateConfig(config);
      const expected = viaWholeSchema(config);
      expect(result.config).toStrictEqual(expected.config);
      const errors = result.ok ? [] : result.errors;
      expect(errors).toHaveLength(expected.errors.length);
      for (const [index, line] of expected.errors.entries()) {
        const [path] = line.split(" ");
        expect(errors[index]).toContain(`"${path}" is `);
      }
    },
  );
});
