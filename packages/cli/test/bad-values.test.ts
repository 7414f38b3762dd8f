import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeProject, REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
const INSTALLERS = ["claude-code", "codex", "cursor"].map((agent) => ({
  name: `tailtest-${agent}`,
  bin: join(REPO_ROOT, "adapters", agent, "dist/cli.js"),
}));

let project: TempProject;
beforeEach(() => {
  project = makeProject({ "src/a.py": "x = 1\n" });
});
afterEach(() => project.cleanup());

/** Every file and folder under the project, so a refusal can be seen to have written nothing. */
function tree(root: string, dir = ""): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      return entry.isDirectory() ? [`${rel}/`, ...tree(root, rel)] : [rel];
    })
    .sort();
}

/** A bad value for each command that takes one, and the start of the one line it gets. */
const BAD: readonly [string[], string][] = [
  [["run", "--timeout", "x"], "tailtest: --timeout must be a positive number of seconds (got x)"],
  [["run", "--timeout", "-1"], "tailtest: --timeout must be a positive number of seconds"],
  [["history", "--limit", "0"], "tailtest: --limit must be a whole number of at least 1 (got 0)"],
  [["history", "--limit", "many"], "tailtest: --limit must be a whole number of at least 1"],
  [["watch", "--debounce", "soon"], "tailtest: --debounce must be a whole number of milliseconds"],
  [["refactor", "sideways"], 'tailtest: refactor takes start or finish, not "sideways"'],
  [["report", "--out", "no/such/dir/r.html"], "tailtest: --out no/such/dir/r.html: the folder"],
  [["red", "--test", "tests/test_a.py"], "error: required option '--expects <text>'"],
  [["status", "--bogus"], "error: unknown option '--bogus'"],
  [["frobnicate"], "error: unknown command 'frobnicate'"],
  [["explain"], "error: missing required argument 'files'"],
  [["claim"], "error: missing required argument 'test_id'"],
];

describe("bad values: exit 2, one line on stderr, nothing written", () => {
  it.each(BAD.map(([argv, line]) => [argv.join(" "), argv, line] as const))(
    "tailtest %s",
    async (_name, argv, line) => {
      const before = tree(project.root);
      const result = await runBin(BIN, argv, { cwd: project.root });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.split("\n")).toHaveLength(1);
      expect(result.stderr.startsWith(line), result.stderr).toBe(true);
      expect(tree(project.root)).toEqual(before);
    },
  );

  it.each(
    INSTALLERS.flatMap(({ name, bin }) =>
      [["init"], ["init", "--mode", "tdd"], ["uninstall"], ["opt-out"], ["opt-in"]].map(
        (argv) => [`${name} ${argv.join(" ")}`, name, bin, argv] as const,
      ),
    ),
  )("%s --root <a typo> refuses instead of making the folder", async (_n, name, bin, argv) => {
    const before = tree(project.root);
    const result = await runBin(bin, [...argv, "--root", "ap"], { cwd: project.root });
    expect(result).toEqual({ stdout: "", stderr: `${name}: --root ap: not a folder`, exitCode: 2 });
    expect(existsSync(join(project.root, "ap"))).toBe(false);
    expect(tree(project.root)).toEqual(before);
  });

  it.each(INSTALLERS.map(({ name, bin }) => [name, bin] as const))(
    "%s: a usage error is one line too",
    async (_name, bin) => {
      const result = await runBin(bin, ["init", "--mode", "lax"], { cwd: project.root });
      expect(result.exitCode).toBe(2);
      expect(result.stderr.split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("Allowed choices are follow, tdd, strict");
    },
  );
});

describe("--out makes only its own file's missing folder, and says so", () => {
  it("report --out <new folder>/<file>: the folder is made, with a note; nothing else", async () => {
    const before = tree(project.root);
    const result = await runBin(BIN, ["report", "--out", "reports/r.html"], { cwd: project.root });
    expect(result).toEqual({
      stdout: "wrote reports/r.html",
      stderr: "tailtest: created the folder reports for the report",
      exitCode: 0,
    });
    expect(tree(project.root)).toEqual([...before, "reports/", "reports/r.html"].sort());
  });
});
