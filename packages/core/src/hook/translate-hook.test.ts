import { describe, expect, it } from "vitest";
import { isMcpWriteTool, mcpPaths, mcpWriteRequest, nonEmptyString } from "./translate-hook.ts";

describe("nonEmptyString", () => {
  it.each<[unknown, string | undefined]>([
    ["x", "x"],
    [" ", " "],
    ["", undefined],
    [undefined, undefined],
    [null, undefined],
    [0, undefined],
    [["x"], undefined],
  ])("%j → %j", (value, expected) => {
    expect(nonEmptyString(value)).toBe(expected);
  });
});

describe("MCP write tools", () => {
  it.each([
    ["mcp__filesystem__write_file", true],
    ["mcp__filesystem__edit_file", true],
    ["mcp__fs__create_directory", true],
    ["mcp__fs__move_file", true],
    ["mcp__git__rename", true],
    ["mcp__fs__delete_file", true],
    ["mcp__fs__removePath", true],
    ["mcp__code__applyPatch", true],
    ["mcp__fs__append", true],
    ["mcp__fs__search_and_replace", true],
    ["mcp__serena__insert_after_symbol", true],
    ["mcp__serena__replace_symbol_body", true],
    ["mcp__serena__create_text_file", true],
    ["mcp__fs__save", true],
    ["mcp__filesystem__read_file", false],
    ["mcp__filesystem__list_directory", false],
    // The server's name does not make a tool a write.
    ["mcp__write_server__read_file", false],
    ["Write", false],
    ["TodoWrite", false],
  ])("%s is a write: %s", (name, write) => {
    expect(isMcpWriteTool(name)).toBe(write);
  });

  it("takes every path-like string field, once, ignoring other types", () => {
    expect(
      mcpPaths({
        path: "a",
        file_path: "b",
        filePath: "c",
        paths: ["d", 1, "a", ""],
        source: "e",
        destination: "f",
        target: "g",
        content: "not a path",
      }),
    ).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    expect(mcpPaths({ path: 3, paths: [2] })).toEqual([]);
    // serena's and notebook tools' names for the same thing.
    expect(
      mcpPaths({ relative_path: "calc.py", notebook_path: "n.ipynb", name_path: "x" }),
    ).toEqual(["calc.py", "n.ipynb", "x"]);
  });
});

describe("mcpWriteRequest", () => {
  it("takes relative paths from the base, keeps absolute ones, reads JSON text", () => {
    expect(
      mcpWriteRequest("mcp__fs__write_file", { path: "a.py", target: "/x/b.py" }, "/p/", "a1"),
    ).toEqual({ kind: "EditRequested", paths: ["/p/a.py", "/x/b.py"], agentId: "a1" });
    expect(mcpWriteRequest("mcp__fs__write_file", '{"path":"a.py"}', undefined)).toEqual({
      kind: "EditRequested",
      paths: ["a.py"],
      agentId: undefined,
    });
  });

  it.each<[string, unknown]>([
    ["mcp__fs__read_file", { path: "a.py" }],
    ["mcp__fs__write_file", "{not json"],
    ["mcp__fs__write_file", ["a.py"]],
    ["mcp__fs__write_file", { content: "x" }],
  ])("%s with %j is no edit", (tool, input) => {
    expect(mcpWriteRequest(tool, input, "/p")).toBeUndefined();
  });
});
