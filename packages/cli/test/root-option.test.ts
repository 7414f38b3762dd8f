import { join } from "node:path";
import { REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

/** Every command that takes --root, with what else it needs to get as far as the root. */
const COMMANDS: readonly (readonly string[])[] = [
  ["explain", "src/a.py"],
  ["run"],
  ["doctor"],
  ["status"],
  ["history"],
  ["report"],
  ["watch"],
  ["red", "--test", "tests/test_a.py", "--expects", "it fails"],
  ["green", "--change", "make it pass", "--file", "src/a.py"],
  ["tdd", "status"],
  ["claim", "tests/test_a.py::test_x", "src/a.py"],
  ["refactor", "start"],
  ["strict", "status"],
  ["export"],
];

describe("--root that is not a folder", () => {
  it.each(COMMANDS.map((argv) => [argv.join(" "), argv] as const))(
    "tailtest %s: one line, exit code 2, nothing written",
    async (_name, argv) => {
      const result = await runBin(BIN, [...argv, "--root", "no/such/folder"]);
      expect(result).toEqual({
        stdout: "",
        stderr: "tailtest: --root no/such/folder: not a folder",
        exitCode: 2,
      });
    },
  );
});
