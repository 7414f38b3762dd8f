import { describe, expect, it } from "vitest";
import { inlineScriptOf, unwrapCommand, type Argv } from "./inline-interpreter.ts";

describe("inlineScriptOf", () => {
  it.each<{ argv: Argv; expected: ReturnType<typeof inlineScriptOf> }>([
    {
      argv: ["python3", "-c", "X"],
      expected: { language: "python", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["python3", "-cX", "a.py"],
      expected: { language: "python", code: "X", stdin: false, operands: ["a.py"] },
    },
    {
      argv: ["python", "-u", "-W", "ignore", "-c", "X", "src/a.py", "-v"],
      expected: { language: "python", code: "X", stdin: false, operands: ["src/a.py", "-v"] },
    },
    {
      argv: ["/usr/bin/python3.12", "-Ic", "X"],
      expected: { language: "python", code: "X", stdin: false, operands: [] },
    },
    { argv: ["python3"], expected: { language: "python", stdin: true, operands: [] } },
    {
      argv: ["python3", "-", "out.py"],
      expected: { language: "python", stdin: true, operands: ["out.py"] },
    },
    {
      argv: ["node", "-e", "X", "a"],
      expected: { language: "javascript", code: "X", stdin: false, operands: ["a"] },
    },
    {
      argv: ["node", "-pe", "X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["node", "--eval=X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["node", "-r", "ts-node/register", "--input-type", "module", "--print", "X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
    { argv: ["node"], expected: { language: "javascript", stdin: true, operands: [] } },
    {
      argv: ["bun", "-e", "X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["deno", "eval", "--ext", "ts", "X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["deno", "run", "-A", "-"],
      expected: { language: "javascript", stdin: true, operands: [] },
    },
    {
      argv: ["perl", "-e", "a", "-e", "b", "f.txt"],
      expected: { language: "perl", code: "a\nb", stdin: false, operands: ["f.txt"] },
    },
    {
      argv: ["perl", "-i.bak", "-MFile::Copy", "-lne", "X", "f.pl"],
      expected: { language: "perl", code: "X", stdin: false, operands: ["f.pl"] },
    },
    {
      argv: ["perl", "-e'print 1'"],
      expected: { language: "perl", code: "'print 1'", stdin: false, operands: [] },
    },
    {
      argv: ["ruby", "-rjson", "-r", "fileutils", "-e", "X"],
      expected: { language: "ruby", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["bash", "-lc", "X"],
      expected: { language: "shell", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["sh", "-o", "pipefail", "-ce", "X"],
      expected: { language: "shell", code: "X", stdin: false, operands: [] },
    },
    { argv: ["bash", "-s"], expected: { language: "shell", stdin: true, operands: [] } },
    {
      argv: ["eval", "echo", "x", ">", "a.py"],
      expected: { language: "shell", code: "echo x > a.py", stdin: false, operands: [] },
    },
    {
      argv: ["env", "-u", "HOME", "X=1", "uv", "run", "--with", "rich", "python", "-c", "X"],
      expected: { language: "python", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["timeout", "-s", "KILL", "60", "npx", "-y", "tsx", "-e", "X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["poetry", "run", ".venv/bin/python", "-c", "X"],
      expected: { language: "python", code: "X", stdin: false, operands: [] },
    },
    {
      argv: ["pnpm", "exec", "node", "-e", "X"],
      expected: { language: "javascript", code: "X", stdin: false, operands: [] },
    },
  ])("$argv", ({ argv, expected }) => {
    expect(inlineScriptOf(argv)).toEqual(expected);
  });

  it.each<Argv>([
    ["python", "-m", "pytest", "tests/x.py"],
    ["python3", "manage.py", "shell", "-c", "X"],
    ["node", "script.js"],
    ["node", "--", "script.js"],
    ["bun", "run", "build.ts"],
    ["bun", "test"],
    ["deno", "run", "main.ts"],
    ["deno", "test"],
    ["perl", "script.pl"],
    ["ruby", "-w", "app.rb"],
    ["bash", "script.sh"],
    ["uv", "run", "pytest"],
    ["npx", "vitest", "run"],
    ["ls", "-la"],
    ["python3", "-c", undefined],
    [undefined, "-c", "X"],
    ["env", undefined, "python3", "-c", "X"],
    ["eval", undefined],
    ["python3", "-c"],
  ])("no inline script in %j", (...argv) => {
    expect(inlineScriptOf(argv)).toBeUndefined();
  });
});

describe("unwrapCommand", () => {
  it.each<{ argv: Argv; inner: Argv }>([
    { argv: ["env", "A=1", "B=2", "node", "x"], inner: ["node", "x"] },
    { argv: ["nice", "-n", "10", "time", "pytest"], inner: ["pytest"] },
    { argv: ["sudo", "-u", "bob", "--", "tee", "a"], inner: ["tee", "a"] },
    { argv: ["uv", "run", "--python", "3.12", "python"], inner: ["python"] },
    { argv: ["conda", "run", "-n", "base", "python"], inner: ["python"] },
    { argv: ["bun", "x", "tsx", "-e", "X"], inner: ["tsx", "-e", "X"] },
    { argv: ["uv", "pip", "install", "x"], inner: ["uv", "pip", "install", "x"] },
    { argv: ["timeout", "60"], inner: ["timeout", "60"] },
    { argv: ["env"], inner: ["env"] },
    { argv: ["flock", "-w", "5", "/tmp/l", "rm", "x"], inner: ["rm", "x"] },
    { argv: ["flock", "/tmp/l", "-c", "echo x > y"], inner: ["sh", "-c", "echo x > y"] },
    { argv: ["script", "-qc", "rm x", "/dev/null"], inner: ["sh", "-c", "rm x"] },
    { argv: ["strace", "-f", "-o", "log", "rm", "x"], inner: ["rm", "x"] },
    { argv: ["flock", "/tmp/l"], inner: ["flock", "/tmp/l"] },
  ])("$argv → $inner", ({ argv, inner }) => {
    expect(unwrapCommand(argv)).toEqual(inner);
  });
});

describe("command words that name an object's inherited members", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])(
    "%s is an unknown program, never a crash",
    (word) => {
      expect(unwrapCommand([word, "run", "python3", "-c", "x"])).toEqual([
        word,
        "run",
        "python3",
        "-c",
        "x",
      ]);
      expect(inlineScriptOf([word, "-c", "x"])).toBeUndefined();
    },
  );
});
