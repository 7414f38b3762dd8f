import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { existsSync, readFileSync } from "node:fs";
import { join, normalize, dirname } from "node:path";
import { isExemptImporter, listedIn, surfaceOf } from "./scripts/feature-surfaces.mjs";

/**
 * `import { z } from "zod"` makes a bundle keep zod's whole namespace, every locale included
 * (~450 KB instead of ~85 KB, ~30 ms more per hook process); `import * as z` is tree-shaken.
 */
const zodNamespaceOnly = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
  message: 'use `import * as z from "zod"`: a named import keeps every zod locale in a bundle',
};

const CORE_SRC = join(import.meta.dirname, "packages/core/src");
const surfaces = new Map();
/** A folder's surface: what its index lists (scripts/feature-surfaces.mjs), or undefined. */
function surface(path) {
  if (!surfaces.has(path)) {
    const file = join(CORE_SRC, path);
    surfaces.set(path, existsSync(file) ? listedIn(path, readFileSync(file, "utf8")) : undefined);
  }
  return surfaces.get(path);
}

/**
 * Core's feature folders have a public surface each, `<feature>/index.ts` and
 * `<feature>/node/index.ts`: another folder may import only what they list (the import still
 * names the file: docs/architecture.md says why). Tests and the package's own surfaces
 * (`src/index.ts`, `entries/`) are not checked.
 */
const featureSurface = {
  meta: {
    type: "problem",
    docs: { description: "import from another core feature folder only what its index lists" },
    schema: [],
  },
  create(context) {
    const file = context.filename.replaceAll("\\", "/");
    const at = file.indexOf("/packages/core/src/");
    if (at === -1) return {};
    const importer = file.slice(at + "/packages/core/src/".length);
    if (isExemptImporter(importer) || importer.endsWith("/index.ts")) return {};
    const check = (node, names) => {
      const source = node.source?.value;
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const target = normalize(join(dirname(importer), source));
      const index = surfaceOf(importer, target);
      if (index === undefined) return;
      if (target === index) {
        context.report({
          node: node.source,
          message: `import the file itself, not ${index}: a barrel grows the bundles (docs/architecture.md)`,
        });
        return;
      }
      const listed = surface(index)?.get(target);
      const missing = listed === "*" ? [] : names.filter((name) => !listed?.has(name));
      if (missing.length === 0) return;
      context.report({
        node: node.source,
        message: `${index} does not list ${missing.join(", ")} of ${target}: a new use across folders is added there (node scripts/feature-surfaces.mjs)`,
      });
    };
    return {
      ImportDeclaration(node) {
        const names = node.specifiers
          .filter((spec) => spec.type === "ImportSpecifier")
          .map((spec) => spec.imported.name ?? spec.imported.value);
        const whole = node.specifiers.some((spec) => spec.type !== "ImportSpecifier");
        check(node, whole ? ["*"] : names);
      },
      ImportExpression(node) {
        if (node.source.type === "Literal") check({ source: node.source }, ["*"]);
      },
    };
  },
};

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "fixtures/**", "**/.turbo/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    // The type-checked rules need the type information the project service gives .ts files.
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The stores' read and write functions are async by contract, whatever their body does
      // today: callers await them, and a throw inside one reaches them as a rejection.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true },
      ],
      "@typescript-eslint/no-floating-promises": "error",
      complexity: ["error", 20],
      "max-depth": ["error", 5],
      "no-nested-ternary": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-restricted-syntax": ["error", zodNamespaceOnly],
    },
  },
  {
    // Tests read JSON the hook printed (`JSON.parse` is `any`) and assert on its fields: a wrong
    // shape fails the assertion, so typing each parse adds casts and catches nothing. They also
    // hand methods to `expect(...)` and fakes, which never call them unbound.
    files: ["**/*.test.ts", "**/test/**/*.ts", "packages/test-utils/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // The core decides; only a feature's node/ edge may touch the file system, processes or the
    // environment.
    files: ["packages/core/src/**/*.ts"],
    ignores: ["packages/core/src/**/node/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(node:)?(fs|fs/promises|child_process|os|process|worker_threads|net|http)$",
              message: "core is pure: do I/O in the feature's node/ folder",
            },
            {
              regex: "^(execa|chokidar|fast-glob|proper-lockfile)$",
              message: "core is pure: do I/O in the feature's node/ folder",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "core is pure: pass values in" },
      ],
    },
  },
  {
    files: ["packages/core/src/**/*.ts"],
    plugins: { tailtest: { rules: { "feature-surface": featureSurface } } },
    rules: { "tailtest/feature-surface": "error" },
  },
  {
    // Adapters translate for one agent each: a platform fact two of them need belongs in core.
    files: ["adapters/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex:
                "^@tailtest/(claude-code|codex|cursor)(/|$)|^(\\.\\./)+(claude-code|codex|cursor)/",
              message: "no adapter imports another: move what they share into @tailtest/core",
            },
          ],
        },
      ],
    },
  },
  {
    // CommonJS files the hook bundles alias modules to (scripts/hook-shims/).
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { module: "writable", require: "readonly", process: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
