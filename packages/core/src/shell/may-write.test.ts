import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseShellWrites } from "./node/bash-parser.ts";
import { mayWriteFiles } from "./may-write.ts";

/** What the parser finds in a command: the answer mayWriteFiles must never hide. */
async function parserFinds(command: string): Promise<boolean> {
  const writes = await parseShellWrites(command);
  return writes.written.length > 0 || writes.deleted.length > 0;
}

describe("mayWriteFiles", () => {
  it.each([
    "git status --short",
    "git diff HEAD~1 -- src/",
    "ls -la src",
    "npm test",
    "npx vitest run",
    "python -m pytest -x tests/",
    "python3 -m pytest tests 2>&1 | tail -20",
    "pytest -q 2>/dev/null",
    "cat src/a.py && grep -n def src/a.py",
    "cargo test --quiet",
    "go test ./... >/dev/null 2>&1",
    "node scripts/build.js",
    "bash scripts/check.sh",
    "find . -name '*.py' | wc -l",
    "git log --format=%an | sort | uniq -c",
    "sort -n data.txt",
    "xxd calc.py",
  ])("%s: no word of it can write, so the grammar is not loaded", async (command) => {
    expect(mayWriteFiles(command)).toBe(false);
    expect(await parserFinds(command)).toBe(false);
  });

  it.each([
    "echo x > calc.py",
    "sort -o calc.py other.py",
    "uniq other.py calc.py",
    "xxd -r - calc.py",
    "tar -cf calc.py other.py",
    "strace -o calc.py true",
    "cat >> log.txt",
    "ls &> out.txt",
    "r\\m calc.py",
    '"rm" calc.py',
    "/usr/bin/rm -f calc.py",
    "git rm old.py",
    "git checkout -- calc.py",
    "sed -i 's/a/b/' calc.py",
    "python3 -c \"open('calc.py','w').write('x')\"",
    "python3 - <<'EOF'\nopen('calc.py', 'w')\nEOF",
    "echo \"open('a.py','w')\" | python3",
    "node -e \"require('fs').writeFileSync('a.js','')\"",
    "bash -c 'echo x > a.py'",
    "eval 'touch a.py'",
    "sudo env X=1 tee a.py",
  ])("%s: it may write: the parser decides", (command) => {
    expect(mayWriteFiles(command)).toBe(true);
  });

  it("never says no to a command in which the parser finds a write (generated commands)", async () => {
    const word = fc.constantFrom(
      "ls",
      "git",
      "status",
      "rm",
      "mv",
      "cp",
      "tee",
      "sed",
      "-i",
      "-c",
      "-e",
      "-m",
      "python3",
      "node",
      "bash",
      "sh",
      "echo",
      "cat",
      "x.py",
      "'x.py'",
      '"a b.ts"',
      "r\\m",
      "t'ee'",
      "|",
      "&&",
      ";",
      ">",
      ">>",
      "2>&1",
      ">/dev/null",
      "&>",
      "<<EOF\nx\nEOF\n",
      "<<<",
      '\'open("f.py","w")\'',
      "$(echo x)",
      "eval",
      "checkout",
      "--",
      "restore",
      "touch",
      "-",
      "perl",
      "-pi",
      "apply_patch",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 8 }), async (words) => {
        const command = words.join(" ");
        if (!mayWriteFiles(command)) expect(await parserFinds(command), command).toBe(false);
      }),
      { numRuns: 1500, seed: 4242 },
    );
  });
});
