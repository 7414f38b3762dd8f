import type { Language, RunnerId } from "@tailtest/core";

/** One runner fixture under fixtures/runners/: what detection must find there. */
export interface RunnerFixture {
  dir: string;
  runner: RunnerId;
  language: Language;
  /** The source file whose test tailtest looks for. */
  source: string;
  /** The test file that already exists for it (or the source itself for inline tests). */
  test: string;
  evidence: RegExp;
}

export const RUNNER_FIXTURES: readonly RunnerFixture[] = [
  {
    dir: "pytest-pyproject",
    runner: "pytest",
    language: "python",
    source: "calc.py",
    test: "tests/test_calc.py",
    evidence: /pyproject\.toml \[tool\.pytest\]/,
  },
  {
    dir: "pytest-setup-cfg",
    runner: "pytest",
    language: "python",
    source: "calc.py",
    test: "tests/test_calc.py",
    evidence: /setup\.cfg \[tool:pytest\]/,
  },
  {
    dir: "pytest-ini",
    runner: "pytest",
    language: "python",
    source: "calc.py",
    test: "tests/test_calc.py",
    evidence: /pytest\.ini/,
  },
  {
    dir: "pytest-tox",
    runner: "pytest",
    language: "python",
    source: "calc.py",
    test: "tests/test_calc.py",
    evidence: /tox\.ini/,
  },
  {
    dir: "pytest-requirements",
    runner: "pytest",
    language: "python",
    source: "calc.py",
    test: "tests/test_calc.py",
    evidence: /requirements-dev\.txt lists pytest/,
  },
  {
    dir: "unittest",
    runner: "unittest",
    language: "python",
    source: "calc.py",
    test: "tests/test_calc.py",
    evidence: /unittest fallback/,
  },
  {
    dir: "vitest",
    runner: "vitest",
    language: "typescript",
    source: "src/calc.ts",
    test: "src/calc.test.ts",
    evidence: /scripts\.test runs vitest/,
  },
  {
    dir: "jest",
    runner: "jest",
    language: "javascript",
    source: "src/calc.js",
    test: "src/calc.test.js",
    evidence: /scripts\.test runs jest/,
  },
  {
    dir: "mocha",
    runner: "mocha",
    language: "javascript",
    source: "src/calc.js",
    test: "test/calc.test.js",
    evidence: /scripts\.test runs mocha/,
  },
  {
    dir: "node-test",
    runner: "node-test",
    language: "javascript",
    source: "src/calc.js",
    test: "test/calc.test.js",
    evidence: /scripts\.test runs node-test/,
  },
  {
    dir: "bun",
    runner: "bun",
    language: "typescript",
    source: "src/calc.ts",
    test: "src/calc.test.ts",
    evidence: /scripts\.test runs bun/,
  },
  {
    dir: "deno",
    runner: "deno",
    language: "typescript",
    source: "calc.ts",
    test: "calc_test.ts",
    evidence: /deno\.json/,
  },
  {
    dir: "go",
    runner: "go",
    language: "go",
    source: "calc.go",
    test: "calc_test.go",
    evidence: /go\.mod/,
  },
  {
    dir: "cargo",
    runner: "cargo",
    language: "rust",
    source: "src/lib.rs",
    test: "src/lib.rs",
    evidence: /^Cargo\.toml$/,
  },
  {
    dir: "nextest",
    runner: "nextest",
    language: "rust",
    source: "src/lib.rs",
    test: "src/lib.rs",
    evidence: /nextest\.toml/,
  },
  {
    dir: "rspec",
    runner: "rspec",
    language: "ruby",
    source: "lib/calc.rb",
    test: "spec/calc_spec.rb",
    evidence: /Gemfile lists rspec/,
  },
  {
    dir: "minitest",
    runner: "minitest",
    language: "ruby",
    source: "lib/calc.rb",
    test: "test/calc_test.rb",
    evidence: /Gemfile lists minitest/,
  },
  {
    dir: "phpunit",
    runner: "phpunit",
    language: "php",
    source: "src/Calc.php",
    test: "tests/CalcTest.php",
    evidence: /phpunit\/phpunit/,
  },
  {
    dir: "pest",
    runner: "pest",
    language: "php",
    source: "src/Calc.php",
    test: "tests/Unit/CalcTest.php",
    evidence: /pestphp\/pest/,
  },
  {
    dir: "maven",
    runner: "maven",
    language: "java",
    source: "src/main/java/com/example/Calc.java",
    test: "src/test/java/com/example/CalcTest.java",
    evidence: /pom\.xml/,
  },
  {
    dir: "gradle",
    runner: "gradle",
    language: "java",
    source: "src/main/java/com/example/Calc.java",
    test: "src/test/java/com/example/CalcTest.java",
    evidence: /build\.gradle\.kts/,
  },
  {
    dir: "dotnet",
    runner: "dotnet",
    language: "csharp",
    source: "src/Calc/Calculator.cs",
    test: "tests/Calc.Tests/CalculatorTests.cs",
    evidence: /Calc\.sln/,
  },
];
