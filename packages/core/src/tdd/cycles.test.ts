import { describe, expect, it } from "vitest";
import { listTddCycles, TddCycleSchema } from "./cycles.ts";
import type { TddEntry } from "./tdd-log.ts";

let clock = 0;
const at = () => `2026-01-01T00:00:${String(clock++).padStart(2, "0")}Z`;
const red = (test: string): TddEntry => ({ kind: "red", test, expects: `${test} fails`, at: at() });
const green = (change: string, skip?: "refactoring"): TddEntry => ({
  kind: "green",
  change,
  files: ["src/a.py"],
  at: at(),
  ...(skip === undefined ? {} : { skip_red: { reason: skip } }),
});
const run = (outcome: "passed" | "failed", real = true): TddEntry => ({
  kind: "test",
  command: "pytest",
  outcome,
  at: at(),
  ...(real ? {} : { real_failure: false }),
});

describe("listTddCycles", () => {
  it("follows a cycle from Red through its confirmation and Green to the passing run", () => {
    clock = 0;
    const cycles = listTddCycles([red("t1"), run("failed"), green("add a"), run("passed")]);
    expect(cycles).toEqual([
      {
        red: { test: "t1", expects: "t1 fails", at: "2026-01-01T00:00:00Z" },
        red_confirmed_at: "2026-01-01T00:00:01Z",
        green: { change: "add a", files: ["src/a.py"], at: "2026-01-01T00:00:02Z" },
        completed_at: "2026-01-01T00:00:03Z",
        outcome: "complete",
      },
    ]);
    for (const cycle of cycles) expect(TddCycleSchema.parse(cycle)).toEqual(cycle);
  });

  it("does not count a load error as the Red, nor a Green the machine refused", () => {
    clock = 0;
    const cycles = listTddCycles([
      red("t1"),
      run("failed", false),
      green("too early"),
      run("passed"),
    ]);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ outcome: "open" });
    expect(cycles[0]?.red_confirmed_at).toBeUndefined();
    expect(cycles[0]?.green).toBeUndefined();
  });

  it("marks a cycle replaced by a new Red, and counts a skip-red Green as its own cycle", () => {
    clock = 0;
    const cycles = listTddCycles([
      red("t1"),
      red("t2"),
      run("failed"),
      green("fix t2"),
      run("passed"),
      green("rename", "refactoring"),
      run("passed"),
      red("t3"),
    ]);
    expect(cycles.map((cycle) => [cycle.red?.test, cycle.green?.change, cycle.outcome])).toEqual([
      ["t1", undefined, "replaced"],
      ["t2", "fix t2", "complete"],
      [undefined, "rename", "complete"],
      ["t3", undefined, "open"],
    ]);
    expect(cycles[2]?.green?.skip_red).toBe("refactoring");
  });

  it("has no cycles for an empty log or runs alone", () => {
    expect(listTddCycles([])).toEqual([]);
    expect(listTddCycles([run("passed"), run("failed")])).toEqual([]);
  });
});
