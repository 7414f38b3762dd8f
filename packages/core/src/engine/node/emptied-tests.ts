import { git } from "../../project/node/mtime-sweep.ts";
import type { ParsedRun } from "../results.ts";

/**
 * A test declaration in JavaScript or TypeScript: `it(`, `test(`, `describe(`, `it.each(`…,
 * not a property named `test:` of a table of cases.
 */
const DECLARES_TESTS = /\b(?:it|test|describe|suite|bench)\s*(?:\.\s*\w+\s*)*\(/;

/**
 * A test file that declares no test passes (`ParsedRun.empty`: a table of cases named like a
 * spec) unless its committed version declared tests: then this turn took every test out of it,
 * which the project's own run (vitest fails a file with no test unless told otherwise) reports
 * red, and so does tailtest. Outside git, or for a file git does not hold, it stays a pass.
 */
export function emptiedTests(root: string, parsed: ParsedRun): ParsedRun {
  if (parsed.empty === undefined || parsed.empty.length === 0) return parsed;
  const empty: string[] = [];
  const errors = [...parsed.errors];
  for (const file of parsed.empty) {
    const committed = git(root, ["show", `HEAD:./${file}`]);
    if (committed === undefined || !DECLARES_TESTS.test(committed)) empty.push(file);
    else
      errors.push({
        file,
        kind: "collection",
        message:
          "No test suite found in this file, where its committed version declared tests: every test was taken out of it",
      });
  }
  const rest: ParsedRun = { tests: parsed.tests, errors };
  return empty.length === 0 ? rest : { ...rest, empty };
}
