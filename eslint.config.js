import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * `import { z } from "zod"` makes a bundle keep zod's whole namespace, every locale included
 * (~450 KB instead of ~85 KB, ~30 ms more per hook process); `import * as z` is tree-shaken.
 */
const zodNamespaceOnly = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
  message: 'use `import * as z from "zod"`: a named import keeps every zod locale in a bundle',
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
