import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requiredLiterals } from "../../core/src/util/literal-guard.ts";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { primedGuardEntries } from "../../../tsup.config.base.ts";

/*
 * The command's bundles hand each guarded module's regex guards, read at build time, to
 * `primeGuards` (tsup.config.base.ts `primedGuards`, ADR 0010): a call then reads no pattern
 * source it was built with. Each guard must be the one `requiredLiterals` reads off its pattern.
 */

const CORE_SRC = join(REPO_ROOT, "packages/core/src");

/** Core's modules that use the literal guard, as the build's plugin picks them. */
function guardedModules(): string[] {
  return readdirSync(CORE_SRC, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .filter((file) => !file.endsWith("literal-guard.ts"))
    .filter((file) =>
      /from "[^"]*literal-guard\.ts"/.test(readFileSync(join(CORE_SRC, file), "utf8")),
    );
}

describe("guards read at build time", () => {
  const entries = guardedModules().flatMap((file) =>
    primedGuardEntries(readFileSync(join(CORE_SRC, file), "utf8"), file),
  );

  it("are requiredLiterals' own answers, keyed by flags and source", () => {
    // The filter's name tables, the depth score's words, the suite's folders, git's config.
    expect(entries.length).toBeGreaterThan(50);
    for (const [key, literals] of entries) {
      const slash = key.indexOf("/");
      const pattern = new RegExp(key.slice(slash + 1), key.slice(0, slash));
      expect(`${pattern.flags}/${pattern.source}`).toBe(key);
      expect(literals).toEqual(requiredLiterals(pattern) ?? null);
    }
  });

  it("are in the explain bundle", () => {
    const bundle = readFileSync(join(REPO_ROOT, "packages/cli/dist/tailtest-explain.cjs"), "utf8");
    // A key the minifier prints as JSON would (no quote in it, ASCII).
    const plain = entries.filter(([key]) => !/["'\u007f-\uffff]/.test(key));
    expect(plain.length).toBeGreaterThan(50);
    for (const [key] of plain) expect(bundle).toContain(JSON.stringify(key));
  });

  it("find a regex literal wherever the module has one, and nothing else", () => {
    const source = [
      "const a = /_test\\.go$/;",
      "const b = 4 / 2 / 1;",
      'const c = "/not/a/regex/";',
      "const d = [/generated|do not edit/i];",
    ].join("\n");
    expect(primedGuardEntries(source)).toEqual([
      ["/_test\\.go$", ["_test.go"]],
      ["i/generated|do not edit", ["generated", "do not edit"]],
    ]);
  });
});
