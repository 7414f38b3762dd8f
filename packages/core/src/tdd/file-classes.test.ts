import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, validateConfig } from "../config/config.ts";
import {
  classifyTddFile,
  configLine,
  explainTddFile,
  normaliseTddPath,
  shapesCode,
  tddPatternsFromConfig,
  type TddFileClass,
} from "./file-classes.ts";

const table: [string, TddFileClass][] = [
  // JavaScript / TypeScript
  ["src/foo.spec.ts", "test"],
  ["src/components/Button.test.tsx", "test"],
  ["src/util.test.js", "test"],
  ["src/__tests__/util.ts", "test"],
  ["test/helpers.mjs", "test"],
  ["src/foo.ts", "prod"],
  ["lib/x.ts", "prod"],
  ["index.js", "prod"],
  ["src/App.vue", "prod"],
  ["src/types.d.ts", "other"],
  ["vitest.config.ts", "other"],
  ["package.json", "other"],
  ["node_modules/lib/index.test.js", "other"],
  ["dist/index.js", "other"],
  // Python (the original's unanchored `test_.*\.py$` made these two tests)
  ["src/latest_news.py", "prod"],
  ["app/contest_x.py", "prod"],
  ["tests/test_billing.py", "test"],
  ["src/test_billing.py", "test"],
  ["src/billing_test.py", "test"],
  ["conftest.py", "test"],
  ["src/pkg/conftest.py", "test"],
  ["main.py", "prod"],
  ["src/jobs/migrate.py", "prod"],
  // what the filter never asks a test for is not gated either
  ["scripts/migrate.py", "other"],
  ["examples/basic/app.py", "other"],
  ["myapp/migrations/0001_initial.py", "other"],
  ["src/Button.stories.tsx", "other"],
  ["bin/cli.js", "prod"],
  // test support is edited while writing tests, never production
  ["src/setupTests.ts", "test"],
  ["src/test-utils.tsx", "test"],
  ["src/mocks/handlers.ts", "test"],
  ["public/mockServiceWorker.js", "test"],
  ["setup.py", "other"],
  ["docs/conf.py", "other"],
  ["pyproject.toml", "other"],
  // Go
  ["pkg/billing/charge_test.go", "test"],
  ["pkg/billing/charge.go", "prod"],
  ["pkg/billing/testdata/input.go", "test"],
  // Every .go file of a folder but a _test.go is built into its package, and a C# project builds
  // every .cs under it: a generated-looking name adds production code all the same.
  ["api/service.pb.go", "prod"],
  ["pkg/calc/mul_gen.go", "prod"],
  ["pkg/calc/mock_mul.go", "prod"],
  ["pkg/calc/mul_mock.go", "prod"],
  ["pkg/calc/zz_generated.mul.go", "prod"],
  ["src/Calc.g.cs", "prod"],
  ["src/Form1.Designer.cs", "prod"],
  ["src/Calc.generated.cs", "prod"],
  ["src/api.generated.ts", "other"],
  ["src/api_pb2.py", "other"],
  // Rust
  ["tests/integration.rs", "test"],
  ["src/lib.rs", "prod"],
  ["build.rs", "other"],
  ["crates/calc/build.rs", "other"],
  // The thirty-second round: a module of the crate named build.rs, not its build script.
  ["src/build.rs", "prod"],
  ["crates/calc/src/ops/build.rs", "prod"],
  // Python: Sphinx's conf.py, and a package's own conf module (the thirty-second round).
  ["conf.py", "other"],
  ["docs/conf.py", "other"],
  ["doc/source/conf.py", "other"],
  ["mypkg/conf.py", "prod"],
  ["src/mypkg/conf.py", "prod"],
  // Java / Kotlin
  ["src/test/java/com/acme/BillingTest.java", "test"],
  ["src/test/java/com/acme/Fixtures.java", "test"],
  ["src/main/java/com/acme/Billing.java", "prod"],
  ["src/test/kotlin/BillingTest.kt", "test"],
  ["src/main/kotlin/Billing.kt", "prod"],
  // Ruby
  ["spec/models/user_spec.rb", "test"],
  ["spec/spec_helper.rb", "test"],
  ["test/models/user_test.rb", "test"],
  ["app/models/user.rb", "prod"],
  ["lib/tasks/billing.rb", "prod"],
  ["Gemfile", "other"],
  // PHP
  ["tests/Unit/BillingTest.php", "test"],
  ["tests/Feature/Http/LoginTest.php", "test"],
  ["src/Billing.php", "prod"],
  ["app/Models/User.php", "prod"],
  // end-to-end
  ["e2e/login.spec.ts", "e2e_test"],
  ["tests/e2e/test_checkout.py", "e2e_test"],
  ["tests/e2e/conftest.py", "e2e_test"],
  ["packages/web/e2e/home.spec.ts", "e2e_test"],
  ["cypress/e2e/login.cy.ts", "e2e_test"],
  ["src/components/Button.cy.tsx", "e2e_test"],
  ["playwright/checkout.spec.ts", "e2e_test"],
  ["test/app.e2e-spec.ts", "e2e_test"],
  ["src/checkout.e2e.ts", "e2e_test"],
  ["playwright.config.ts", "other"],
  ["cypress.config.ts", "other"],
  // other
  ["scripts/x.sh", "other"],
  // Languages tailtest runs no tests for: production all the same, tests by name or folder.
  ["src/main/scala/Calc.scala", "prod"],
  ["src/Calc.astro", "prod"],
  ["native/calc.c", "prod"],
  ["include/calc.h", "prod"],
  ["lib/calc.ex", "prod"],
  ["tool/run.pyw", "prod"],
  ["src/test/scala/CalcSpec.scala", "test"],
  ["test/calc_test.exs", "test"],
  ["spec/calc_spec.lua", "test"],
  ["docs/page.mdx", "other"],
  // A file without an extension in a source folder shadows the module of its name.
  ["src/calc", "prod"],
  ["packages/ui/src/button", "prod"],
  ["src/.eslintrc", "other"],
  ["LICENSE", "other"],
  ["bin/cli", "other"],
  ["src/__tests__/fixture", "test"],
  ["README.md", "other"],
  ["docs/guide/intro.md", "other"],
  ["assets/logo.png", "other"],
  [".github/workflows/ci.yml", "other"],
  ["Dockerfile", "other"],
  ["pnpm-lock.yaml", "other"],
  [".tailtest/config.json", "other"],
];

describe("classifyTddFile", () => {
  it.each(table)("%s → %s", (path, expected) => {
    expect(classifyTddFile(path)).toBe(expected);
  });

  it.each([
    ["./src/foo.spec.ts", "test"],
    ["src\\foo.spec.ts", "test"],
    ["src//lib/../foo.ts", "prod"],
    ["../elsewhere/src/foo.ts", "other"],
    ["/abs/src/foo.ts", "other"],
    ["C:\\repo\\src\\foo.ts", "other"],
    ["", "other"],
  ] as const)("normalises %j → %s", (path, expected) => {
    expect(classifyTddFile(path)).toBe(expected);
  });

  it("says why", () => {
    expect(explainTddFile("src/latest_news.py")).toEqual({
      fileClass: "prod",
      reason: "python source",
    });
    expect(explainTddFile("tests/e2e/test_x.py")).toEqual({
      fileClass: "e2e_test",
      reason: "an end-to-end test (e2e/)",
    });
    expect(explainTddFile("../x.py").reason).toBe("outside the project");
    expect(explainTddFile("pkg/calc/mul_gen.go")).toEqual({
      fileClass: "prod",
      reason: "go source named like generated code, built into its package all the same",
    });
  });
});

describe("configured patterns", () => {
  it("scripts/x.sh is other unless configured", () => {
    expect(classifyTddFile("scripts/x.sh")).toBe("other");
    expect(classifyTddFile("scripts/x.sh", { prod: ["scripts/*.sh"] })).toBe("prod");
  });

  it("are tried before the defaults, in the order e2e_test, test, prod, other", () => {
    expect(classifyTddFile("src/foo.ts", { other: ["src/foo.ts"] })).toBe("other");
    expect(classifyTddFile("src/foo.spec.ts", { prod: ["*.spec.ts"] })).toBe("prod");
    expect(classifyTddFile("checks/a.check.ts", { test: ["*.check.ts"] })).toBe("test");
    expect(classifyTddFile("src/a.ts", { test: ["src/"], prod: ["src/"] })).toBe("test");
    expect(classifyTddFile("src/a.ts", { e2e_test: ["src/a.ts"], test: ["src/"] })).toBe(
      "e2e_test",
    );
    expect(classifyTddFile("src/a.ts", { prod: ["src/"], other: ["src/"] })).toBe("prod");
  });

  it("use gitignore syntax: anchoring, folders, negation", () => {
    // As in git, a file inside an excluded folder cannot be re-included: `/legacy/*`, not `/legacy/`.
    const patterns = { other: ["/legacy/*", "!/legacy/keep.ts"] };
    expect(classifyTddFile("legacy/a.ts", patterns)).toBe("other");
    expect(classifyTddFile("legacy/keep.ts", patterns)).toBe("prod");
    expect(classifyTddFile("src/legacy/a.ts", patterns)).toBe("prod");
  });

  it("name the pattern that matched", () => {
    expect(explainTddFile("lib/a.rb", { prod: ["", "lib/**"] })).toEqual({
      fileClass: "prod",
      reason: "config tdd.file_classes.prod (lib/**)",
    });
  });
});

describe("tddPatternsFromConfig", () => {
  it("is empty for the default config", () => {
    expect(tddPatternsFromConfig(DEFAULT_CONFIG)).toEqual({
      e2e_test: [],
      test: [],
      prod: [],
      other: [],
    });
  });

  it("puts tdd.file_classes first and adds the top-level file_classes lists", () => {
    const { config } = validateConfig({
      file_classes: { test: ["*.check.ts"], production: ["dist/*.js"], exempt: ["tools/"] },
      tdd: { file_classes: { e2e_test: ["smoke/"], test: ["t/"], prod: ["p/"], other: ["o/"] } },
    });
    const patterns = tddPatternsFromConfig(config);
    expect(patterns).toEqual({
      e2e_test: ["smoke/"],
      test: ["t/", "*.check.ts"],
      prod: ["p/", "dist/*.js"],
      other: ["o/", "tools/"],
    });
    expect(classifyTddFile("dist/cli.js")).toBe("other");
    expect(classifyTddFile("dist/cli.js", patterns)).toBe("prod");
    expect(classifyTddFile("tools/gen.ts", patterns)).toBe("other");
    expect(classifyTddFile("smoke/home.ts", patterns)).toBe("e2e_test");
  });
});

describe("normaliseTddPath", () => {
  it.each([
    ["./src/a.ts", "src/a.ts"],
    ["././src//a.ts", "src/a.ts"],
    ["src\\a.ts", "src/a.ts"],
    ["src/./b/../a.ts", "src/a.ts"],
    ["src/", "src"],
    ["Src/A.ts", "Src/A.ts"],
    ["..", undefined],
    ["a/../../b", undefined],
    ["/etc/passwd", undefined],
    [".", undefined],
  ])("%j → %j", (input, expected) => {
    expect(normaliseTddPath(input)).toBe(expected);
  });
});

describe("shapesCode: configs said at the Stop of a gating mode", () => {
  it.each([
    ["vite.config.ts", true],
    ["packages/web/vitest.config.mts", true],
    ["babel.config.js", true],
    [".babelrc", true],
    // The thirty-fifth round: babel-jest loads babel.config.json's plugins.
    ["babel.config.json", true],
    ["jest.config.json", true],
    ["tsconfig.build.json", false],
    ["jest.config.cjs", true],
    ["webpack.config.js", true],
    ["tsconfig.json", false],
    ["package.json", false],
    ["src/vite.ts", false],
    // The thirty-second round: Cargo's build script and config.
    ["build.rs", true],
    ["crates/calc/build.rs", true],
    [".cargo/config.toml", true],
    ["crates/calc/.cargo/config", true],
    ["src/build.rs", false],
  ])("%s → %s", (path, expected) => {
    expect(shapesCode(path)).toBe(expected);
    // Never refused as production: an honest config change goes through, and is said.
    if (expected) expect(classifyTddFile(path)).not.toBe("prod");
  });

  it("names them in one line, or says nothing", () => {
    expect(configLine("tdd", ["src/calc.ts", "README.md"])).toEqual([]);
    expect(configLine("strict", ["vite.config.ts", "src/calc.ts"])).toEqual([
      expect.stringMatching(
        /^tailtest strict: vite\.config\.ts changed this turn: a build or test config can rewrite/,
      ),
    ]);
  });
});
