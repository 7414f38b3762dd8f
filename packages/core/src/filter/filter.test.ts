import { describe, expect, it } from "vitest";
import {
  GENERATED_HEADER_EXACT,
  GENERATED_HEADER_WORDS,
  buildIgnoreRules,
  classifyFile,
  isTestFile,
  walkSkipsDir,
  walkedFileIgnored,
} from "./filter.ts";
import { requiredLiterals } from "../util/literal-guard.ts";
import { goBuildNamesVersion, goModVersion } from "./go-build.ts";

const kindOf = (path: string, context = {}) => classifyFile(path, context).kind;

describe("classifyFile: source files", () => {
  it.each([
    ["src/billing.py", "python"],
    ["latest_news.py", "python"],
    ["contest.py", "python"],
    ["src/AUDIT.ts", "typescript"],
    ["src/infra/x.py", "python"],
    ["app/vendor_api.ts", "typescript"],
    ["src/coverage/x.ts", "typescript"],
    ["app/vendor/x.php", "php"],
    ["src/dist/x.js", "javascript"],
    ["src/build/steps.py", "python"],
    ["lib/attest.rb", "ruby"],
    ["src/main/java/com/x/Contest.java", "java"],
    ["src/main/java/com/x/AUDIT.java", "java"],
    // a route named example (fastify-cli's starter serves /example from it), not example code
    ["routes/example/index.js", "javascript"],
    ["src/routes/example/index.ts", "typescript"],
    ["notebooks/analysis.ipynb", "python"],
    ["web/App.vue", "javascript"],
    ["web/Button.svelte", "javascript"],
    ["src/cli.mts", "typescript"],
    ["src/lib.rs", "rust"],
    ["cmd/server/main.go", "go"],
    ["Sources/App/Model.swift", "swift"],
    ["app/src/main/kotlin/Main.kt", "kotlin"],
    ["src/Calc/Calculator.cs", "csharp"],
    ["src/middleware.ts", "typescript"],
    ["src/env/config.ts", "typescript"],
    // A module named test below a package's root: ow's `source/test.ts`.
    ["source/test.ts", "typescript"],
    ["src/lib/spec.js", "javascript"],
  ])("%s is %s source", (path, language) => {
    const verdict = classifyFile(path);
    expect(verdict).toMatchObject({ queue: true, kind: "source", language });
    expect(verdict.reason).toBe(`${language} source`);
  });

  it("covers at least the original's 22 extensions plus notebooks", () => {
    const extensions =
      ".py .pyx .ts .tsx .mts .cts .js .jsx .mjs .cjs .vue .svelte .php .go .rb .rs .java .cs .swift .kt .kts .ipynb".split(
        " ",
      );
    for (const ext of extensions) expect(classifyFile(`src/a${ext}`).queue, ext).toBe(true);
    expect(classifyFile("src/a.pyi")).toMatchObject({
      queue: false,
      kind: "type-only",
      language: "python",
    });
  });
});

describe("classifyFile: test files are anchored per language", () => {
  it.each([
    "tests/test_billing.py",
    "test_billing.py",
    "billing_test.py",
    "conftest.py",
    "src/conftest.py",
    "src/calc.test.ts",
    "src/calc.spec.tsx",
    "src/calc.test.mjs",
    "src/__tests__/calc.ts",
    "src/types.test-d.ts",
    // jest's default testMatch, ava's and node --test's collect a bare test.js (vercel/arg).
    "test.js",
    "spec.ts",
    "test.mjs",
    "packages/args/test.js",
    "calc_test.ts",
    "pkg/calc_test.go",
    "src/test/java/com/x/CalcTest.java",
    "src/main/java/com/x/CalcTests.java",
    "src/main/java/com/x/CalcIT.java",
    "src/main/java/com/x/TestCalc.java",
    "app/src/main/kotlin/CalcTest.kt",
    "Calc.Tests/CalculatorTests.cs",
    "src/CalcTest.cs",
    "spec/calc_spec.rb",
    "lib/calc_spec.rb",
    "test/calc_test.rb",
    "spec/spec_helper.rb",
    "tests/CalcTest.php",
    "app/CalcTest.php",
    "tests/Pest.php",
    "Tests/AppTests/ModelTests.swift",
    "tests/integration.rs",
    "tests/helpers.py",
    "test/fixtures/data.js",
  ])("%s is a test file", (path) => {
    const verdict = classifyFile(path);
    expect(verdict.queue).toBe(false);
    expect(verdict.kind).toBe("test");
    expect(isTestFile(path)).toBe(true);
  });

  it.each([
    "latest_news.py",
    "contest.py",
    "src/AUDIT.ts",
    "src/testing_utils.py",
    "src/attestation.ts",
    "src/contest.go",
    "src/main/java/com/x/AUDIT.java",
    "src/main/java/com/x/Latest.java",
    "lib/specification.rb",
    "src/Testimonial.php",
    "src/protest.rs",
  ])("%s is not a test file", (path) => {
    expect(classifyFile(path).kind).not.toBe("test");
    expect(isTestFile(path)).toBe(false);
  });

  it("honours extra test patterns from config", () => {
    expect(
      classifyFile("src/checks/billing.check.ts", { extraTestPatterns: ["*.check.ts"] }),
    ).toMatchObject({
      kind: "test",
      reason: "a test file (config file_classes.test *.check.ts)",
      rule: "file_classes.test",
    });
    expect(classifyFile("src/checks/billing.check.ts").kind).toBe("source");
  });
});

describe("classifyFile: generated code", () => {
  it.each([
    "api/service.pb.go",
    "api/service.pb.gw.go",
    "internal/models_gen.go",
    "internal/zz_generated.deepcopy.go",
    "internal/mock_store.go",
    "internal/store_mock.go",
    "src/api.generated.ts",
    "src/schema.gen.ts",
    "src/queries.graphql.ts",
    "proto/user_pb2.py",
    "proto/user_pb2_grpc.py",
    "Forms/Main.Designer.cs",
  ])("%s is generated by name", (path) => {
    expect(classifyFile(path)).toMatchObject({ queue: false, kind: "generated" });
  });

  it.each([
    ["// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n", "api/x.go"],
    ["# @generated by tool\nx = 1\n", "src/x.py"],
    ["/* eslint-disable */\n// DO NOT EDIT: generated\nexport const x = 1;\n", "src/x.ts"],
    ["// <auto-generated>\nnamespace X {}\n", "src/X.cs"],
  ])("a header marker in the first lines marks generated code (%#)", (head, path) => {
    expect(classifyFile(path, { head })).toMatchObject({
      kind: "generated",
      reason: "generated code (header marker)",
    });
  });

  it("a marker far below the header does not count", () => {
    const head = `${"x = 1\n".repeat(20)}# DO NOT EDIT\n`;
    expect(classifyFile("src/x.py", { head }).kind).toBe("source");
  });

  it("an empty file is skipped", () => {
    expect(classifyFile("pkg/__init__.py", { head: "\n" })).toMatchObject({
      queue: false,
      reason: "empty file",
    });
  });
});

describe("classifyFile: non-source files by path segment, never substring", () => {
  it.each([
    ["node_modules/lodash/index.js", "dependency"],
    ["packages/web/node_modules/x/index.js", "dependency"],
    [".venv/lib/python3.11/site-packages/x.py", "dependency"],
    ["venv/lib/x.py", "dependency"],
    ["src/__pycache__/x.py", "cache"],
    [".next/server/page.js", "cache"],
    [".git/hooks/pre-commit.py", "tool-state"],
    [".tailtest/x.py", "tool-state"],
    ["dist/index.js", "build-output"],
    ["build/lib/x.py", "build-output"],
    ["coverage/lcov-report/prettify.js", "build-output"],
    ["target/debug/build/x.rs", "build-output"],
    ["vendor/github.com/x/y.go", "dependency"],
    ["vendor/autoload.php", "dependency"],
  ])("%s is %s", (path, kind) => {
    expect(kindOf(path)).toBe(kind);
  });

  it("anchors build folders at a package root in a monorepo", () => {
    expect(kindOf("packages/web/dist/index.js", { packageDirs: ["packages/web"] })).toBe(
      "build-output",
    );
    expect(kindOf("packages/web/src/dist/index.js", { packageDirs: ["packages/web"] })).toBe(
      "source",
    );
    // A fixture package inside a test folder: its committed dist/ is what the tests load.
    const fixture = { packageDirs: ["test/fixtures/single"] };
    expect(kindOf("test/fixtures/single/dist/index.js", fixture)).not.toBe("build-output");
  });

  it.each([
    ["package-lock.json", "lockfile"],
    ["pnpm-lock.yaml", "lockfile"],
    ["Cargo.lock", "lockfile"],
    ["go.sum", "lockfile"],
    ["README.md", "docs"],
    ["docs/guide.rst", "docs"],
    ["pyproject.toml", "config"],
    ["tsconfig.json", "config"],
    [".github/workflows/ci.yml", "config"],
    ["vite.config.ts", "config"],
    ["jest.config.js", "config"],
    [".eslintrc.cjs", "config"],
    ["setup.py", "config"],
    ["manage.py", "config"],
    ["Dockerfile", "config"],
    ["Makefile", "config"],
    ["public/logo.png", "asset"],
    ["src/styles.css", "asset"],
    ["scripts/deploy.sh", "unsupported"],
    ["LICENSE", "unsupported"],
  ])("%s is %s", (path, kind) => {
    expect(kindOf(path)).toBe(kind);
  });

  it("rejects paths outside the project", () => {
    expect(classifyFile("../other/x.py")).toMatchObject({ queue: false, kind: "outside" });
    expect(classifyFile("/etc/passwd.py")).toMatchObject({ queue: false, kind: "outside" });
  });
});

describe("classifyFile: .tailtest-ignore and .gitignore with gitignore semantics", () => {
  const rules = buildIgnoreRules({
    gitignore: "generated/\n*.log\n/local.py\n",
    tailtestIgnore:
      "# legacy code we do not test\nlegacy/*\n!legacy/keep.py\nsrc\n!generated/handwritten.py\n/scripts/*.py\n",
  });

  it.each([
    ["legacy/old.py", ".tailtest-ignore (legacy/*)"],
    ["generated/api.py", ".gitignore (generated/)"],
    ["local.py", ".gitignore (/local.py)"],
    ["src/app.py", ".tailtest-ignore (src)"],
    ["lib/src/app.py", ".tailtest-ignore (src)"],
    ["scripts/run.py", ".tailtest-ignore (/scripts/*.py)"],
  ])("%s is ignored by %s", (path, by) => {
    expect(classifyFile(path, { ignoreRules: rules })).toMatchObject({
      kind: "ignored",
      reason: `ignored by ${by}`,
    });
  });

  it("negation re-includes a file", () => {
    expect(classifyFile("legacy/keep.py", { ignoreRules: rules }).kind).toBe("source");
  });

  it("anchoring: /local.py matches only at the root", () => {
    expect(classifyFile("pkg/local.py", { ignoreRules: rules }).kind).toBe("source");
  });

  it("a file below an ignored directory cannot be re-included (git's rule)", () => {
    expect(classifyFile("generated/handwritten.py", { ignoreRules: rules }).kind).toBe("ignored");
  });

  it("the anchored pattern with a wildcard does not reach deeper folders", () => {
    expect(classifyFile("scripts/sub/run.py", { ignoreRules: rules }).rule).toBe("script-folder");
  });
});

describe("classifyFile: what no one writes a unit test for", () => {
  it.each([
    // Python
    ["blog/tests.py", "test", "test-name"],
    ["blog/migrations/0001_initial.py", "migration", "migration-folder"],
    ["alembic/versions/1a2b3c_add_users.py", "migration", "migration-folder"],
    ["migrations/env.py", "migration", "migration-folder"],
    ["mysite/settings.py", "config", "settings"],
    ["mysite/settings/prod.py", "config", "settings"],
    ["gunicorn.conf.py", "config", "config-name"],
    ["manage.py", "config", "boilerplate"],
    ["mysite/asgi.py", "config", "boilerplate"],
    ["noxfile.py", "config", "config-name"],
    ["fabfile.py", "config", "config-name"],
    ["tasks.py", "script", "script-name"],
    ["hooks/post_gen_project.py", "script", "script-name"],
    ["src/pip/_vendor/requests/api.py", "dependency", "dependency-folder"],
    ["src/pkg/vendor/six.py", "dependency", "dependency-folder"],
    ["third_party/lib/x.py", "dependency", "dependency-folder"],
    ["api/gen/user_pb2_grpc.py", "generated", "generated-name"],
    ["src/app/__generated__/client.ts", "generated", "generated-folder"],
    ["tracdb/testutils.py", "test-support", "test-support"],
    // JS / TS test support
    ["cypress/support/commands.ts", "test-support", "e2e-folder"],
    ["e2e/pages/login-page.ts", "test-support", "e2e-folder"],
    ["playwright/fixtures.ts", "test-support", "e2e-folder"],
    ["src/components/Button.cy.tsx", "test", "test-name"],
    ["src/test-utils.tsx", "test-support", "test-support"],
    ["src/setupTests.ts", "test-support", "test-support"],
    ["vitest.setup.ts", "test-support", "test-support"],
    ["jest.setup.js", "test-support", "test-support"],
    ["src/__mocks__/api.ts", "test", "test-folder"],
    ["src/__fixtures__/user.ts", "test", "test-folder"],
    ["public/mockServiceWorker.js", "test-support", "test-support"],
    ["src/mocks/handlers.ts", "test-support", "test-support"],
    // stories, benchmarks, tool configuration
    ["src/Button.stories.tsx", "story", "story"],
    ["src/parse.bench.ts", "benchmark", "benchmark"],
    ["benchmarks/parse.js", "benchmark", "benchmark-folder"],
    ["bench/run.mjs", "benchmark", "benchmark-folder"],
    ["vitest.workspace.ts", "config", "config-name"],
    [".storybook/preview.tsx", "config", "tool-folder"],
    ["docs/.vitepress/config.ts", "config", "tool-folder"],
    ["gatsby-node.ts", "config", "config-name"],
    ["knexfile.js", "config", "config-name"],
    ["packages/web/vite.config.mts", "config", "config-name"],
    // migrations, Yarn, build output, minified
    ["src/migrations/1612345678901-Init.ts", "migration", "migration-folder"],
    ["db/1612345678901-add-users.ts", "migration", "migration-name"],
    [".pnp.cjs", "config", "config-name"],
    [".pnp.loader.mjs", "config", "config-name"],
    [".yarn/releases/yarn-4.1.0.cjs", "dependency", "dependency-folder"],
    ["static/js/jquery.min.js", "build-output", "minified"],
    ["apps/web/.output/server/index.mjs", "build-output", "build-output-folder"],
    ["apps/web/.next/server/page.js", "cache", "cache-folder"],
    ["storybook-static/main.js", "build-output", "build-output-folder"],
    ["packages/web/dist/index.js", "build-output", "build-output-folder"],
    // any language: examples, scripts, type declarations
    ["examples/basic/app.py", "example", "example-folder"],
    ["packages/core/example/index.ts", "example", "example-folder"],
    ["scripts/release.mjs", "script", "script-folder"],
    ["packages/web/scripts/build.ts", "script", "script-folder"],
    ["tools/gen.py", "script", "script-folder"],
    ["packages/create-app/template-react/src/App.tsx", "example", "template-folder"],
    ["src/types.d.ts", "type-only", "type-declarations"],
    ["src/user.dto.ts", "type-only", "declaration-name"],
  ])("%s is skipped (%s, %s)", (path, kind, rule) => {
    const verdict = classifyFile(path);
    expect(verdict).toMatchObject({ queue: false, kind, rule });
    expect(verdict.reason).not.toBe("");
  });

  it.each([
    "src/features/tasks/list.ts",
    "src/tools/search.ts",
    "app/tasks.py",
    "src/codegen/emitter.ts",
    "src/templates/blog-post.js",
    "src/build/steps.py",
    "src/dist/x.js",
    "docs/views.py",
    "src/perf/metrics.ts",
    "bin/cli.ts",
    "src/version-check.ts",
  ])("%s is source", (path) => {
    expect(classifyFile(path)).toMatchObject({ queue: true, rule: "source" });
  });
});

describe("classifyFile: by the file's first bytes", () => {
  const decide = (path: string, head: string, headComplete = true) =>
    classifyFile(path, { head, headComplete });

  it.each([
    ["src/index.ts", 'export * from "./a";\nexport { b } from "./b";\n', "re-export"],
    ["src/index.ts", 'export type { A } from "./a";\nexport * from "./b";\n', "re-export"],
    ["index.js", "'use strict';\n\nmodule.exports = require('./lib/app');\n", "re-export"],
    ["bin/cli.js", "#!/usr/bin/env node\nimport '../dist/cli.mjs'\n", "re-export"],
    ["bin/cli.js", "#!/usr/bin/env node\nrequire('../lib/cli').run();\n", "re-export"],
    [
      "pkg/__init__.py",
      '"""The package."""\nfrom .a import A\nfrom .b import *\n\n__all__ = ["A"]\n',
      "re-export",
    ],
    [
      "src/types.ts",
      "import type { X } from './x';\n\nexport interface User {\n  id: string;\n  x: X;\n}\n\nexport type Id =\n  | 'a'\n  | 'b';\n",
      "type-only",
    ],
    [
      "src/global.ts",
      "declare global {\n  interface Window { app: unknown }\n}\nexport {};\n",
      "type-only",
    ],
    [
      "pkg/protocols.py",
      "from typing import Protocol\n\n\nclass Reader(Protocol):\n    def read(self, n: int) -> bytes: ...\n",
      "type-only",
    ],
    ["pkg/install/__init__.py", '"""Installing packages."""\n', "empty"],
    [
      "src/Logo.tsx",
      'export const Logo = (props) => (\n  <svg {...props}><path d="M0 0h24v24H0z" /></svg>\n);\n',
      "icon-component",
    ],
    [
      "src/x.ts",
      "// Code generated by protoc-gen-ts_proto. DO NOT EDIT.\nexport const x = 1;\n",
      "generated-header",
    ],
    [
      "src/client/index.ts",
      "// This file is auto-generated by @hey-api/openapi-ts\nexport const c = 1;\n",
      "generated-header",
    ],
    [
      "pkg/meta.py",
      "# file generated by setuptools-scm\n# don't change, don't track in version control\n__version__ = version = '1.2.3'\n",
      "generated-header",
    ],
    // The header words are matched in any case (a lower-cased pre-check guards the regex).
    [
      "src/Api.cs",
      "// THIS FILE WAS AUTO-GENERATED BY NSwag\nnamespace X {}\n",
      "generated-header",
    ],
    [
      "src/schema.ts",
      "/* Do Not Edit This File Manually */\nexport const s = 1;\n",
      "generated-header",
    ],
    ["pkg/_version.py", "__version__ = '1.2.3'\n", "version-module"],
    ["pkg/__main__.py", "from .cli import main\n\nmain()\n", "module-entry"],
    ["assets/index-D8aKx2Vt.js", "import{a as b}from'./x.js';\n", "hashed-name"],
    [
      "src/vendor.js",
      "/*! For license information please see vendor.js.LICENSE.txt */\n(()=>{})();\n",
      "bundle",
    ],
    ["src/out.js", "var a = 1;\n//# sourceMappingURL=out.js.map\n", "bundle"],
    ["lib/packed.js", `${"var a=1;".repeat(200)}\n`, "minified"],
    [
      "app/alembic/env.py",
      "from alembic import context\n\ncontext.configure()\n",
      "migration-folder",
    ],
  ])("%s: %j is skipped by %s", (path, head, rule) => {
    expect(decide(path, head)).toMatchObject({ queue: false, rule });
  });

  it.each([
    [
      "bin/cli.ts",
      "#!/usr/bin/env node\nimport { run } from '../src/run';\n\nconst code = run(process.argv.slice(2));\nif (code !== 0) process.exitCode = code;\n",
    ],
    [
      "src/ids.ts",
      "// Returns the generated id for a new user; do not edit ids by hand.\nexport function nextId(n: number) {\n  return n + 1;\n}\n",
    ],
    [
      "pkg/report.py",
      "# This module renders the auto generated reports for the UI.\ndef render(r):\n    return str(r)\n",
    ],
    [
      "pkg/__main__.py",
      "import sys\n\n\ndef main(argv):\n    return len(argv)\n\n\nsys.exit(main(sys.argv))\n",
    ],
    [
      "src/icons.tsx",
      "export function Icon({ on }) {\n  if (on) return <svg />;\n  return null;\n}\n",
    ],
    [
      "src/data.ts",
      `export const table = "${"x".repeat(1500)}";\nexport function pick(i: number) {\n  return table[i];\n}\n`,
    ],
    ["src/enum.ts", "export enum Color {\n  Red,\n  Green,\n}\n"],
    ["src/index.ts", "export * from './a';\nexport const version = '1.0';\n"],
  ])("%s with real code is queued", (path, head) => {
    expect(decide(path, head)).toMatchObject({ queue: true, rule: "source" });
  });

  it("a cut head decides nothing by module shape: more code may follow", () => {
    const head = "export interface A {\n  id: string;\n}\n";
    expect(decide("src/big.ts", head, false).queue).toBe(true);
    expect(decide("src/big.ts", head, true).rule).toBe("type-only");
  });
});

describe("classifyFile: the project's own rules override every built-in one", () => {
  const rules = buildIgnoreRules({ tailtestIgnore: "src/legacy/\n!scripts/deploy.py\n" });

  it("file_classes.production queues a file a built-in rule would skip", () => {
    expect(classifyFile("scripts/deploy.py", { productionPatterns: ["scripts/**"] })).toMatchObject(
      {
        queue: true,
        rule: "file_classes.production",
        reason: "python source (config file_classes.production scripts/**)",
      },
    );
    const head = "export interface A { id: string }\n";
    expect(
      classifyFile("src/types.ts", { head, headComplete: true, productionPatterns: ["src/"] }),
    ).toMatchObject({ queue: true, rule: "file_classes.production" });
  });

  it("file_classes.exempt skips a file a built-in rule would queue", () => {
    expect(classifyFile("src/app.ts", { exemptPatterns: ["src/app.ts"] })).toMatchObject({
      queue: false,
      kind: "ignored",
      rule: "file_classes.exempt",
      reason: "exempt (config file_classes.exempt src/app.ts)",
    });
  });

  it("a .tailtest-ignore negation queues a file a built-in rule would skip", () => {
    expect(classifyFile("scripts/deploy.py", { ignoreRules: rules })).toMatchObject({
      queue: true,
      rule: "tailtest-ignore",
    });
    expect(classifyFile("scripts/other.py", { ignoreRules: rules }).rule).toBe("script-folder");
    expect(classifyFile("src/legacy/a.py", { ignoreRules: rules })).toMatchObject({
      queue: false,
      rule: "tailtest-ignore",
    });
  });

  it("test patterns and exemptions win over production patterns", () => {
    const context = { extraTestPatterns: ["*.check.ts"], productionPatterns: ["src/"] };
    expect(classifyFile("src/a.check.ts", context).rule).toBe("file_classes.test");
    expect(
      classifyFile("src/a.ts", { exemptPatterns: ["src/a.ts"], productionPatterns: ["src/"] }).rule,
    ).toBe("file_classes.exempt");
  });
});

describe("the generated-header regexes are guarded by their own literals", () => {
  // quickTest runs them only on a header holding one of these: a change that leaves a branch
  // without a literal (so the regex would run, and compile, on every header) fails here.
  it.each([
    [GENERATED_HEADER_EXACT, ["@generated", "DO NOT EDIT", "<auto-generated"]],
    [
      GENERATED_HEADER_WORDS,
      [
        "generated",
        "automatically generated",
        "generated automatically",
        "code generated",
        "generated by ",
        "generated",
        "automatically generated",
        "generated by",
        "do not edit ",
        "don't change, don't track in version control",
      ],
    ],
  ])("%s needs one of %j", (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
  });
});

describe("buildIgnoreRules: whether only folders are ignored", () => {
  it.each<[string | undefined, string | undefined, boolean]>([
    ["node_modules/\n", undefined, true],
    ["node_modules/\n# a comment\n\n/dist/\n", "build/\n", true],
    [undefined, undefined, true],
    ["node_modules/\n*.pyc\n", undefined, false],
    ["node_modules/\n", "!keep/", false],
    [".env\n", undefined, false],
  ])("%j and %j → %s", (gitignore, tailtestIgnore, foldersOnly) => {
    expect(buildIgnoreRules({ gitignore, tailtestIgnore }).foldersOnly).toBe(foldersOnly);
  });
});

describe("walkedFileIgnored: a walk's files, the matcher's answers not kept", () => {
  it("answers as the matcher does, past each copy's batch of files", () => {
    const rules = buildIgnoreRules({
      gitignore: "*.log\n/local.py\n",
      tailtestIgnore: "src/gen_*.py\n",
    });
    const ignored = walkedFileIgnored(rules);
    const paths = Array.from(
      { length: 5000 },
      (_, i) =>
        ["src/app.py", "x.log", "local.py", "lib/local.py", "src/gen_a.py", `m${i}.py`][i % 6] ??
        "",
    );
    for (const path of paths) expect(ignored(path), path).toBe(rules.matcher.ignores(path));
    expect(paths.filter(ignored)).toHaveLength(2500);
  });

  it("asks nothing when only folders are ignored: the walk never enters them", () => {
    const rules = buildIgnoreRules({ gitignore: "node_modules/\nbuild/\n" });
    expect(rules.foldersOnly).toBe(true);
    expect(walkedFileIgnored(rules)("src/app.py")).toBe(false);
    expect(walkedFileIgnored(undefined)("x.log")).toBe(false);
  });
});

describe("walkSkipsDir", () => {
  it.each([
    ["bin", false],
    ["obj", true],
    ["dist", true],
    ["node_modules", true],
    ["src/bin", false],
    ["packages/cli/node_modules", true],
  ])("%s: skipped %s", (dir, skipped) => {
    expect(walkSkipsDir(dir)).toBe(skipped);
  });

  it("still leaves out a root bin/ the ignore rules exclude", () => {
    expect(walkSkipsDir("bin", buildIgnoreRules({ gitignore: "bin/\n" }))).toBe(true);
    expect(walkSkipsDir("bin", buildIgnoreRules({ gitignore: "dist/\n" }))).toBe(false);
  });
});

describe("classifyFile: Go files a build constraint leaves out of every build", () => {
  const license = "// Copyright 2014 The Authors.\n//\n// Licensed under the Apache License.\n\n";
  const decide = (path: string, head: string) =>
    classifyFile(path, { head, headComplete: true }).rule;

  it.each([
    ["gen.go", "//go:build ignore\n\npackage main\n\nfunc main() {}\n"],
    ["btree_mem.go", `${license}// +build ignore\n\npackage main\n\nfunc main() {}\n`],
    ["tables/gen.go", `${license}//go:build ignore && linux\n\npackage main\n`],
    ["tables/gen.go", "//go:build ignore\n// +build ignore\n\npackage main\n"],
    ["gen.go", "// +build linux\n// +build ignore\n\npackage main\n"],
  ])("%s behind `ignore` is a program for go run, not queued", (path, head) => {
    expect(decide(path, head)).toBe("go-build-ignore");
  });

  it.each([
    ["btree_generic.go", `${license}//go:build go1.18\n// +build go1.18\n\npackage btree\n`],
    ["btree.go", `${license}//go:build !go1.18\n// +build !go1.18\n\npackage btree\n`],
    ["sys_linux.go", "//go:build linux && !cgo\n\npackage sys\n"],
    ["gen.go", "//go:build ignore || tools\n\npackage main\n"],
    ["gen.go", "//go:build !ignore\n\npackage main\n"],
    ["gen.go", "// +build ignore linux\n\npackage main\n"],
    // Past the package clause a comment is no constraint.
    ["x.go", "package x\n\n//go:build ignore\nfunc f() int { return 1 }\n"],
  ])("%s with a constraint some build satisfies stays source", (path, head) => {
    expect(decide(path, head)).toBe("source");
  });

  const inModule = (path: string, head: string, goVersion: string) =>
    classifyFile(path, { head, headComplete: true, goVersion });

  it.each([
    ["btree.go", `${license}//go:build !go1.18\n// +build !go1.18\n\npackage btree\n`, "1.18"],
    ["btree.go", `${license}// +build !go1.18\n\npackage btree\n`, "1.21.3"],
    ["old.go", "//go:build !go1.16 && linux\n\npackage x\n", "1.19"],
    ["gen.go", "//go:build ignore\n\npackage main\n", "1.18"],
  ])("%s: a constraint no toolchain the go %s module accepts satisfies", (path, head, go) => {
    const verdict = inModule(path, head, go);
    expect(verdict.queue).toBe(false);
    expect(verdict.rule).toBe(head.includes("ignore") ? "go-build-ignore" : "go-build-version");
  });

  it("names the module's go line in the reason", () => {
    expect(inModule("btree.go", "//go:build !go1.18\n\npackage btree\n", "1.18").reason).toBe(
      "left out of every build by its Go version constraint (the module says go 1.18): no toolchain the module accepts compiles it, so no test covers it",
    );
  });

  it.each([
    ["btree_generic.go", "//go:build go1.18\n\npackage btree\n", "1.18"],
    ["new.go", "//go:build go1.21\n\npackage x\n", "1.18"],
    ["old.go", "//go:build !go1.21\n\npackage x\n", "1.18"],
    ["old.go", "//go:build !go1.18 || linux\n\npackage x\n", "1.18"],
    ["old.go", "//go:build !go1.18x\n\npackage x\n", "1.18"],
  ])("%s: a constraint some allowed toolchain satisfies stays source (go %s)", (path, head, go) => {
    expect(inModule(path, head, go).rule).toBe("source");
  });
});

describe("goModVersion and goBuildNamesVersion", () => {
  it.each([
    ["module example.com/m\n\ngo 1.18\n", "1.18"],
    ["module example.com/m\n\ngo 1.21.3 // toolchain floor\n\nrequire x v1\n", "1.21.3"],
    ["module example.com/m\n", undefined],
  ])("%j has go line %s", (text, version) => {
    expect(goModVersion(text)).toBe(version);
  });

  it.each([
    ["//go:build !go1.18\n\npackage x\n", true],
    ["// +build go1.9\n\npackage x\n", true],
    ["//go:build linux\n\npackage x\n", false],
    ['package x\n\nvar v = "go1.18"\n', false],
  ])("%j names a Go version: %s", (head, names) => {
    expect(goBuildNamesVersion(head)).toBe(names);
  });
});
