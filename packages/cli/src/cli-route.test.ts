import { describe, expect, it } from "vitest";
import { cliRoute } from "./cli-route.ts";

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
