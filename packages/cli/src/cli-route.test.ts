import { describe, expect, it } from "vitest";
import { cliBundle, cliRoute } from "./cli-route.ts";

describe("cliRoute: which code cache a tailtest call uses", () => {
  it.each<[string[], string]>([
    [[], "help"],
    [["--help"], "help"],
    [["--version"], "help"],
    [["status"], "status"],
    [["status", "--json"], "status"],
    [["--root", "x"], "other"],
    [["explain", "calc.py"], "explain"],
    [["tdd", "status"], "tdd"],
    [["strict", "status", "--json"], "strict"],
    [["run", "a.py"], "run"],
    [["run", "--dry-run", "a.py"], "run-dry"],
    [["--dry-run", "run"], "run-dry"],
    [["frobnicate"], "other"],
    [["__proto__"], "other"],
  ])("%j → %s", (argv, route) => {
    expect(cliRoute(argv)).toBe(route);
  });
});

describe("cliBundle: which bundle a tailtest call evaluates", () => {
  it.each<[string[], string]>([
    [["status"], "tailtest-status.cjs"],
    [["status", "--json"], "tailtest-status.cjs"],
    [["explain", "calc.py"], "tailtest-explain.cjs"],
    // Options before the command are the whole program's: its own --help, its usage errors.
    [["--help", "status"], "tailtest-main.cjs"],
    [["-v", "explain"], "tailtest-main.cjs"],
    [["tdd", "status"], "tailtest-main.cjs"],
    [["run", "a.py"], "tailtest-main.cjs"],
    [[], "tailtest-main.cjs"],
    [["__proto__"], "tailtest-main.cjs"],
  ])("%j → %s", (argv, bundle) => {
    expect(cliBundle(argv)).toBe(bundle);
  });
});
