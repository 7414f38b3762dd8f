import { describe, expect, it } from "vitest";
import { findShellWrites } from "./shell.ts";

describe("findShellWrites", () => {
  it.each([
    {
      name: "the recorded Codex heredoc write",
      command:
        "mkdir -p $(dirname src/billing.py) && cat > src/billing.py <<'EOF'\ndef charge(amount):\n    return round(amount * 1.2, 2)\nEOF\n",
      written: ["src/billing.py"],
    },
    {
      name: "append and clobber redirects",
      command: "echo a >> a.py; echo b >| b.py; ls &> c.log",
      written: ["a.py", "b.py", "c.log"],
    },
    {
      name: "quoted targets",
      command: `printf x > "src/my file.ts"; echo y > 'lib/q.py'`,
      written: ["src/my file.ts", "lib/q.py"],
    },
    {
      name: "tee with options",
      command: "echo hi | tee -a out.txt other.py",
      written: ["out.txt", "other.py"],
    },
    {
      name: "sed -i: the script is not a file",
      command: "sed -i 's/a/b/' lib/x.py lib/y.py",
      written: ["lib/x.py", "lib/y.py"],
    },
    {
      name: "sed -i.bak -e script",
      command: "sed -i.bak -e 's/a/b/' -e 's/c/d/' z.py",
      written: ["z.py"],
    },
    { name: "sed --in-place", command: "sed --in-place=.orig 's/a/b/' w.go", written: ["w.go"] },
    { name: "perl -pi -e", command: "perl -pi -e 's/x/y/' q.pl", written: ["q.pl"] },
    { name: "cp into a file", command: "cp a.py b.py", written: ["b.py"] },
    {
      name: "mv into a folder",
      command: "mv x.py y.py src/",
      written: ["src/x.py", "src/y.py"],
      deleted: ["x.py", "y.py"],
    },
    { name: "rm", command: "rm -f old.py", written: [], deleted: ["old.py"] },
    {
      name: "apply_patch from the shell",
      command:
        "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n*** End Patch\nPATCH",
      written: ["src/new.ts", "src/b.ts"],
      deleted: ["src/a.ts"],
    },
    {
      name: "writes inside a subshell and a pipeline",
      command: "(cd /tmp && echo 1 > t.py) | cat",
      written: ["t.py"],
    },
  ])("$name", async ({ command, written, deleted = [] }) => {
    const writes = await findShellWrites(command);
    expect(writes.written).toEqual(written);
    expect(writes.deleted).toEqual(deleted);
    expect(writes.partial).toBe(false);
  });

  it.each([
    "echo 1 > /dev/null 2>&1",
    'echo x > "$HOME/out.py"',
    "cat src/a.py | grep x",
    "sed 's/a/b/' a.py > /dev/stdout",
    "cp only-one-arg",
    "tee",
  ])("finds no literal write in %j", async (command) => {
    expect((await findShellWrites(command)).written).toEqual([]);
  });

  it("reports a command that does not parse as partial, keeping what it found", async () => {
    const writes = await findShellWrites("echo a > a.py; echo 'unterminated");
    expect(writes.partial).toBe(true);
  });
});
