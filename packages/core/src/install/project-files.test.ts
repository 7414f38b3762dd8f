import { describe, expect, it } from "vitest";
import {
  addGitignoreEntry,
  addStateIgnore,
  detectIndent,
  parseJsonObject,
  setConfigMode,
} from "./project-files.ts";

describe("parseJsonObject", () => {
  it("reads nothing as an empty object and refuses arrays and broken text in one line", () => {
    expect(parseJsonObject(undefined)).toEqual({ ok: true, value: {} });
    expect(parseJsonObject("  \n")).toEqual({ ok: true, value: {} });
    expect(parseJsonObject("[1]")).toEqual({ ok: false, error: "is not a JSON object" });
    const broken = parseJsonObject("{,}");
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).not.toContain("\n");
  });
});

describe("addGitignoreEntry", () => {
  it.each([
    { before: undefined, after: ".tailtest/\n" },
    { before: "", after: ".tailtest/\n" },
    { before: "node_modules/\n", after: "node_modules/\n.tailtest/\n" },
    { before: "node_modules/", after: "node_modules/\n.tailtest/\n" },
    { before: "dist\r\n", after: "dist\r\n.tailtest/\r\n" },
    { before: "# .tailtest/\n", after: "# .tailtest/\n.tailtest/\n" },
    { before: ".tailtest/config.json\n", after: ".tailtest/config.json\n.tailtest/\n" },
    { before: ".tailtest/\n", after: undefined },
    { before: "a\n.tailtest\nb\n", after: undefined },
    { before: "/.tailtest/\n", after: undefined },
    { before: "  .tailtest/*  \r\n", after: undefined },
  ])("$before → $after", ({ before, after }) => {
    expect(addGitignoreEntry(before)).toBe(after);
  });

  it("takes another folder entry, covered the same ways", () => {
    const entry = ".cursor/hooks/state/";
    expect(addGitignoreEntry("dist\n", entry)).toBe("dist\n.cursor/hooks/state/\n");
    expect(addGitignoreEntry("/.cursor/hooks/state\n", entry)).toBeUndefined();
  });
});

describe("setConfigMode", () => {
  it.each([
    { before: undefined, mode: "tdd", after: '{\n  "mode": "tdd"\n}\n' },
    { before: "", mode: "strict", after: '{\n  "mode": "strict"\n}\n' },
    {
      before: '{"depth":"simple","runners":{}}',
      mode: "tdd",
      after: '{\n  "depth": "simple",\n  "runners": {},\n  "mode": "tdd"\n}\n',
    },
    {
      before: '{\n    "mode": "follow",\n    "depth": "simple"\n}\n',
      mode: "strict",
      after: '{\n    "mode": "strict",\n    "depth": "simple"\n}\n',
    },
  ] as const)("$before + $mode", ({ before, mode, after }) => {
    expect(setConfigMode(before, mode)).toEqual({
      ok: true,
      value: { text: after, changed: true },
    });
  });

  it("leaves a config that already has the mode untouched", () => {
    const text = '{ "mode": "tdd" }';
    expect(setConfigMode(text, "tdd")).toEqual({ ok: true, value: { text, changed: false } });
  });

  it("refuses a config that is not JSON", () => {
    expect(setConfigMode("{mode: tdd}", "tdd").ok).toBe(false);
  });
});

describe("detectIndent", () => {
  it.each([
    { text: undefined, indent: "  " },
    { text: "{}", indent: "  " },
    { text: '{\n    "a": 1\n}', indent: "    " },
    { text: '{\n\t"a": 1\n}', indent: "\t" },
    { text: '{\n  "a": [\n    1\n  ]\n}', indent: "  " },
  ])("$text → $indent", ({ text, indent }) => {
    expect(detectIndent(text)).toBe(indent);
  });
});

describe("addStateIgnore", () => {
  const STATE = ".tailtest/*\n!.tailtest/config.json\n";
  it.each([
    { before: undefined, after: STATE, migrated: false },
    { before: "", after: STATE, migrated: false },
    { before: "node_modules/", after: `node_modules/\n${STATE}`, migrated: false },
    { before: "dist/\r\n", after: `dist/\r\n${STATE.replaceAll("\n", "\r\n")}`, migrated: false },
    // What init wrote before: replaced where it stands, every copy of it.
    { before: "a\n.tailtest/\nb\n", after: `a\n${STATE}b\n`, migrated: true },
    { before: "/.tailtest\n.tailtest/**\n", after: STATE, migrated: true },
    { before: ".tailtest/*\n", after: STATE, migrated: false },
    {
      before: "/.tailtest/*\nx\n",
      after: "/.tailtest/*\nx\n!.tailtest/config.json\n",
      migrated: false,
    },
    { before: "# .tailtest/\n", after: `# .tailtest/\n${STATE}`, migrated: false },
  ])("$before → $after", ({ before, after, migrated }) => {
    expect(addStateIgnore(before)).toEqual({ text: after, migrated });
  });

  it.each([STATE, `x\n${STATE}y\n`, "/.tailtest/*\n!/.tailtest/config.json\n"])(
    "leaves %j alone",
    (text) => {
      expect(addStateIgnore(text)).toBeUndefined();
    },
  );
});
