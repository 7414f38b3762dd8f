import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recogniseTestCommand } from "../../tdd/test-commands.ts";
import { findShellWrites, listSimpleCommands, readReleasable } from "./bash-parser.ts";

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
    { name: "unlink", command: "unlink calc.py", written: [], deleted: ["calc.py"] },
    {
      name: "touch and truncate",
      command: "touch a.py && truncate -s 0 b.py",
      written: ["a.py", "b.py"],
    },
    { name: "git rm", command: "git rm -q calc.py", written: [], deleted: ["calc.py"] },
    { name: "git mv", command: "git mv a.py b.py", written: ["b.py"], deleted: ["a.py"] },
    {
      name: "git checkout -- files",
      command: "git checkout -- calc.py .tailtest/config.json",
      written: ["calc.py", ".tailtest/config.json"],
    },
    {
      // Without `--` a word may be a tree or a path (git tries both): each is read as a path,
      // and a branch name is no project file.
      name: "git checkout <tree> <file>",
      command: "git checkout HEAD~1 calc.py",
      written: ["HEAD~1", "calc.py"],
    },
    {
      name: "git checkout <path-or-branch>",
      command: "git checkout calc.py",
      written: ["calc.py"],
    },
    { name: "git restore", command: "git restore --staged calc.py", written: ["calc.py"] },
    // Forms that once passed the gate: each literal target is read.
    { name: "cp into a folder (settled at the gate)", command: "cp x.py src", written: ["src"] },
    { name: "cp -t folder", command: "cp -t src a.py b.py", written: ["src/a.py", "src/b.py"] },
    { name: "rsync of a folder's contents", command: "rsync -a /tmp/rs/ src/", written: ["src/"] },
    { name: "cp -r of a folder's contents", command: "cp -r /tmp/rs/. src", written: ["src"] },
    { name: "rsync of a folder into one", command: "rsync -a /tmp/rs src/", written: ["src/rs"] },
    {
      name: "mv --target-directory=",
      command: "mv --target-directory=src a.py",
      written: ["src/a.py"],
      deleted: ["a.py"],
    },
    { name: "dd of=", command: "dd if=x.py of=calc.py status=none", written: ["calc.py"] },
    { name: "a read-write redirect 1<>", command: "echo x 1<>calc.py", written: ["calc.py"] },
    { name: "exec 3<>", command: "exec 3<>calc.py", written: ["calc.py"] },
    { name: ">& a file (bash's &>)", command: "echo x >& calc.py", written: ["calc.py"] },
    { name: ">&2 is no file", command: "echo x >&2", written: [] },
    { name: "an ANSI-C target", command: "echo x > $'\\x63alc.py'", written: ["calc.py"] },
    {
      name: "an ANSI-C command name",
      command: "$'\\x72m' calc.py",
      written: [],
      deleted: ["calc.py"],
    },
    {
      name: "a glob (expanded at the gate)",
      command: "rm -rf .tail*",
      written: [],
      deleted: [".tail*"],
    },
    {
      name: "env VAR= wrapper",
      command: "env A=1 -u B rm calc.py",
      written: [],
      deleted: ["calc.py"],
    },
    { name: "env -S", command: "env -S 'rm calc.py'", written: [], deleted: ["calc.py"] },
    { name: "command wrapper", command: "command rm calc.py", written: [], deleted: ["calc.py"] },
    { name: "command -v only looks up", command: "command -v rm", written: [] },
    {
      name: "timeout wrapper",
      command: "timeout -s KILL 5 sed -i s/a/b/ calc.py",
      written: ["calc.py"],
    },
    { name: "nohup wrapper", command: "nohup cp x.py calc.py &", written: ["calc.py"] },
    {
      name: "nested wrappers",
      command: "nice -n 5 env X=1 timeout 9 tee calc.py",
      written: ["calc.py"],
    },
    {
      name: "xargs with stdin items",
      command: "echo calc.py | xargs rm -f",
      written: [],
      deleted: ["calc.py"],
    },
    {
      name: "xargs with its own operands",
      command: "xargs -0 rm calc.py < /dev/null",
      written: [],
      deleted: ["calc.py"],
    },
    {
      name: "find -exec",
      command: "find . -name 'calc.py' -exec sed -i s/a/b/ {} \\;",
      written: ["./**/calc.py"],
    },
    { name: "find -delete", command: "find src -delete", written: [], deleted: ["src/**/*"] },
    {
      name: "awk redirections and system()",
      command: `awk '{ print > "calc.py"; print >> "b.py"; system("rm c.py") }' in.txt`,
      written: ["calc.py", "b.py"],
      deleted: ["c.py"],
    },
    { name: "gawk -i inplace", command: "gawk -i inplace '{print}' calc.py", written: ["calc.py"] },
    { name: "curl -o", command: "curl -sSL -o calc.py https://x.test/a", written: ["calc.py"] },
    { name: "curl -O", command: "curl -O https://x.test/lib/calc.py?x=1", written: ["calc.py"] },
    { name: "wget", command: "wget -q https://x.test/calc.py -P src", written: ["src/calc.py"] },
    { name: "ed", command: "printf ',s/a/b/\\nw\\n' | ed -s calc.py", written: ["calc.py"] },
    { name: "vim -es", command: "vim -es -c '%s/a/b/' -c wq calc.py", written: ["calc.py"] },
    { name: "git -C", command: "git -C sub checkout -- calc.py", written: ["sub/calc.py"] },
    { name: "git -c", command: "git -c core.pager=cat restore calc.py", written: ["calc.py"] },
    {
      name: "git -c alias.x='!…'",
      command: "git -c alias.x='!rm calc.py' x",
      written: [],
      deleted: ["calc.py"],
    },
    { name: "git restore of a folder", command: "git restore src", written: ["src"] },
    {
      name: "git checkout-index",
      command: "git checkout-index -f -- calc.py",
      written: ["calc.py"],
    },
    { name: "git checkout-index -a", command: "git checkout-index -a -f", written: ["."] },
    { name: "patch a file", command: "patch calc.py < fix.patch", written: ["calc.py"] },
    // Programs that write the file an option or an operand names.
    { name: "sort -o", command: "sort -o calc.py other.py", written: ["calc.py"] },
    { name: "sort -o glued", command: "sort -ocalc.py other.py", written: ["calc.py"] },
    { name: "shuf --output=", command: "shuf --output=calc.py x", written: ["calc.py"] },
    { name: "iconv -o", command: "iconv -f utf-8 -t ascii -o calc.py x", written: ["calc.py"] },
    { name: "uniq in out", command: "uniq other.py calc.py", written: ["calc.py"] },
    { name: "uniq to stdout", command: "uniq -c other.py", written: [] },
    { name: "uniq -f N in", command: "uniq -f 2 other.py", written: [] },
    { name: "xxd -r in out", command: "xxd -r - calc.py", written: ["calc.py"] },
    { name: "tar -cf over it", command: "tar -cf calc.py other.py", written: ["calc.py"] },
    { name: "tar czf (old form)", command: "tar czf calc.py other.py", written: ["calc.py"] },
    {
      name: "tar --create --file=",
      command: "tar --create --file=calc.py other.py",
      written: ["calc.py"],
    },
    { name: "tar -tf only lists", command: "tar -tf a.tar", written: [] },
    {
      name: "strace -o, and the command it traces",
      command: "strace -f -o calc.py rm src/util.py",
      written: ["calc.py"],
      deleted: ["src/util.py"],
    },
    // Wrappers that run a command of their words.
    {
      name: "flock file cmd",
      command: "flock /tmp/l rm calc.py",
      written: [],
      deleted: ["calc.py"],
    },
    {
      name: "flock file -c 'cmd'",
      command: "flock -w 5 /tmp/l -c 'echo x > calc.py'",
      written: ["calc.py"],
    },
    {
      name: "script -qc 'cmd'",
      command: "script -qc 'echo x > calc.py' /dev/null",
      written: ["calc.py"],
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

describe("findShellWrites: inline interpreter scripts", () => {
  it.each([
    {
      name: "python3 -c, double-quoted",
      command: `python3 -c "open('src/app.py','w').write('x')"`,
      written: ["src/app.py"],
    },
    {
      name: "python -c, single-quoted, pathlib",
      command: `python -c 'import pathlib; pathlib.Path("src/a.py").write_text("")'`,
      written: ["src/a.py"],
    },
    {
      name: "python3 -c with escaped double quotes",
      command: `python3 -c "open(\\"src/q.py\\", \\"a\\")"`,
      written: ["src/q.py"],
    },
    {
      name: "python3 -c, concatenated quoting",
      command: `python3 -c 'open("src/'"c.py"'", "w")'`,
      written: ["src/c.py"],
    },
    {
      name: "python3 -c, ANSI-C quoting with newlines",
      command: String.raw`python3 -c $'import os\nopen(\'src/n.py\', \'w\')'`,
      written: ["src/n.py"],
    },
    {
      name: "node -e",
      command: `node -e "require('fs').writeFileSync('src/a.ts','')"`,
      written: ["src/a.ts"],
    },
    {
      name: "node --eval and node -p",
      command: `node --eval "require('fs').rmSync('src/old.ts')" && node -p "require('fs').writeFileSync('src/p.ts','')"`,
      written: ["src/p.ts"],
      deleted: ["src/old.ts"],
    },
    { name: "bun -e", command: `bun -e "await Bun.write('src/b.ts', 'x')"`, written: ["src/b.ts"] },
    {
      name: "deno eval",
      command: `deno eval "await Deno.writeTextFile('src/d.ts', 'x')"`,
      written: ["src/d.ts"],
    },
    {
      name: "perl -e",
      command: `perl -e 'open(F, ">src/a.pl"); print F "x"; close F'`,
      written: ["src/a.pl"],
    },
    { name: "ruby -e", command: `ruby -e 'File.write("lib/a.rb", "")'`, written: ["lib/a.rb"] },
    {
      name: "python3 - <<'EOF' heredoc",
      command:
        "python3 - <<'EOF'\nfrom pathlib import Path\nPath('src/app.py').write_text('...')\nEOF",
      written: ["src/app.py"],
    },
    {
      name: "python3 <<EOF unquoted heredoc, then another command",
      command: "python3 <<EOF\nwith open('src/x.py', 'w') as f:\n    f.write('x')\nEOF\necho done",
      written: ["src/x.py"],
    },
    {
      name: "a <<- heredoc with tabs, output redirected",
      command: "python3 <<-PY > out.txt\n\tprint(1)\n\topen('src/t.py', 'w')\n\tPY",
      written: ["src/t.py", "out.txt"],
    },
    {
      name: "a heredoc after && and a redirect",
      command: "cd api && python3 <<'EOF' 2>&1\nimport os\nos.remove('src/c.py')\nEOF",
      written: [],
      deleted: ["src/c.py"],
    },
    {
      name: "a heredoc wins over a pipe",
      command: "echo 'print(1)' | python3 - <<'EOF'\nopen('src/w.py', 'w')\nEOF",
      written: ["src/w.py"],
    },
    {
      name: "cd … && cat <<'EOF' | node",
      command: "cd web && cat <<'EOF' | node\nrequire('fs').writeFileSync('src/w.ts', '')\nEOF",
      written: ["src/w.ts"],
    },
    {
      name: "node <<'JS' heredoc",
      command: "node <<'JS'\nconst fs = require('fs');\nfs.writeFileSync('src/n.ts', '');\nJS",
      written: ["src/n.ts"],
    },
    {
      name: "a here-string",
      command: `python3 <<< "open('src/x.py','w')"`,
      written: ["src/x.py"],
    },
    {
      name: "a single-quoted here-string to ruby",
      command: `ruby <<< 'File.write("lib/h.rb", "")'`,
      written: ["lib/h.rb"],
    },
    {
      name: "cat <<'EOF' | python3",
      command: "cat <<'EOF' | python3\nopen('src/c.py','w')\nEOF",
      written: ["src/c.py"],
    },
    {
      name: "echo … | python3",
      command: `echo "open('src/e.py','w')" | python3 -`,
      written: ["src/e.py"],
    },
    {
      name: "printf … | node",
      command: `printf '%s' "require('fs').writeFileSync('src/f.ts','')" | node`,
      written: ["src/f.ts"],
    },
    {
      name: "uv run python -c",
      command: `uv run python -c "open('src/u.py','w')"`,
      written: ["src/u.py"],
    },
    {
      name: "npx node -e",
      command: `npx node -e "require('fs').writeFileSync('src/x.ts','')"`,
      written: ["src/x.ts"],
    },
    {
      name: "env X=1 python3 -c",
      command: `env X=1 python3 -c "open('src/e.py','a')"`,
      written: ["src/e.py"],
    },
    {
      name: "a leading assignment and a path to the interpreter",
      command: `PYTHONPATH=. .venv/bin/python -c "open('src/v.py','w')"`,
      written: ["src/v.py"],
    },
    {
      name: "a target from sys.argv: the path operand",
      command: `python3 -c "import sys; open(sys.argv[1], 'w').write('x')" src/z.py`,
      written: ["src/z.py"],
    },
    {
      name: "sh -c around python3 -c",
      command: `sh -c "python3 -c \\"open('src/s.py','w')\\""`,
      written: ["src/s.py"],
    },
    {
      name: "bash -lc around node -e, single-quoted",
      command: `bash -lc 'node -e "require(\\"fs\\").writeFileSync(\\"src/l.ts\\", \\"\\")"'`,
      written: ["src/l.ts"],
    },
    {
      name: "bash -c with a redirect",
      command: `cd web && bash -c "echo x > src/b.py; rm -f src/c.py"`,
      written: ["src/b.py"],
      deleted: ["src/c.py"],
    },
    {
      name: "bash reading a heredoc",
      command: "bash <<'SH'\necho x > src/h.py\nSH",
      written: ["src/h.py"],
    },
    { name: "eval", command: `eval "echo x > src/v.py"`, written: ["src/v.py"] },
    {
      name: "a shell command a script runs",
      command: `python3 -c "import subprocess; subprocess.run(['sed', '-i', 's/a/b/', 'src/s.py'])"`,
      written: ["src/s.py"],
    },
    {
      name: "node's execSync",
      command: `node -e "require('child_process').execSync('echo x > src/x.ts')"`,
      written: ["src/x.ts"],
    },
    {
      name: "timeout and a command substitution",
      command: `echo $(timeout 5 python3 -c "open('src/t.py','w')")`,
      written: ["src/t.py"],
    },
  ])("$name", async ({ command, written, deleted = [] }) => {
    const writes = await findShellWrites(command);
    expect(writes.written).toEqual(written);
    expect(writes.deleted).toEqual(deleted);
    expect(writes.partial).toBe(false);
  });

  it.each([
    `python3 -c "print(open('src/a.py').read())"`,
    `python -c "print(1)"`,
    `node -e "console.log('src/a.ts')"`,
    `node -p "require('./package.json').version"`,
    `python -m pytest tests/x.py`,
    `python3 -m json.tool < data.json`,
    `node script.js src/a.ts`,
    `python3 scripts/gen.py src/a.py`,
    `python3 scripts/gen.py <<'EOF'\nopen('src/a.py', 'w')\nEOF`,
    `python3 -c "import sys; print(sys.stdin.read())" <<'EOF'\nopen('src/a.py', 'w')\nEOF`,
    `cat src/a.py | python3 -c "import sys; print(len(sys.stdin.read()))"`,
    `echo "open('src/a.py','w')"`,
    `cat <<'EOF'\nopen('src/a.py', 'w')\nEOF`,
    `perl -ne 'print if /open/' src/a.pl`,
    `ruby -e 'puts File.read("lib/a.rb")'`,
    `bash scripts/build.sh`,
    `bash -c "cat src/a.py"`,
    `python3 -c "$SCRIPT"`,
  ])("finds no write in %j", async (command) => {
    const writes = await findShellWrites(command);
    expect(writes.written).toEqual([]);
    expect(writes.deleted).toEqual([]);
  });

  it("perl -pi -e edits its files and its script writes nothing more", async () => {
    const writes = await findShellWrites(`perl -pi -e 's/open/close/' src/a.pl`);
    expect(writes.written).toEqual(["src/a.pl"]);
  });
});

describe("listSimpleCommands", () => {
  it.each([
    {
      name: "cd carries over && to the next command",
      command: "cd web && npm test",
      expected: [
        { argv: ["cd", "web"], cwd: undefined },
        { argv: ["npm", "test"], cwd: "web" },
      ],
    },
    {
      name: "cd carries over ; and newlines, and joins",
      command: "cd packages; cd api\npytest -q",
      expected: [
        { argv: ["cd", "packages"], cwd: undefined },
        { argv: ["cd", "api"], cwd: "packages" },
        { argv: ["pytest", "-q"], cwd: "packages/api" },
      ],
    },
    {
      name: "cd .. and ./ are resolved",
      command: "cd a/b && cd ../c && cd ./d && go test ./... && cd ../../.. && ls",
      expected: [
        { argv: ["cd", "a/b"], cwd: undefined },
        { argv: ["cd", "../c"], cwd: "a/b" },
        { argv: ["cd", "./d"], cwd: "a/c" },
        { argv: ["go", "test", "./..."], cwd: "a/c/d" },
        { argv: ["cd", "../../.."], cwd: "a/c/d" },
        { argv: ["ls"], cwd: "." },
      ],
    },
    {
      name: "a cd inside a subshell stays there",
      command: "(cd web && npm test) && cargo test",
      expected: [
        { argv: ["cd", "web"], cwd: undefined },
        { argv: ["npm", "test"], cwd: "web" },
        { argv: ["cargo", "test"], cwd: undefined },
      ],
    },
    {
      name: "each pipeline stage is a subshell",
      command: "cd a | cat; pytest 2>&1 | tail -5",
      expected: [
        { argv: ["cd", "a"], cwd: undefined },
        { argv: ["cat"], cwd: undefined },
        { argv: ["pytest"], cwd: undefined },
        { argv: ["tail", "-5"], cwd: undefined },
      ],
    },
    {
      name: "a command substitution runs first, in a subshell",
      command: "echo $(cd y && npm test) && vitest run",
      expected: [
        { argv: ["cd", "y"], cwd: undefined },
        { argv: ["npm", "test"], cwd: "y" },
        { argv: ["echo", "$(cd y && npm test)"], cwd: undefined },
        { argv: ["vitest", "run"], cwd: undefined },
      ],
    },
    {
      name: "quotes are removed; non-literal words keep their raw text; assignments are not argv",
      command: `CI=1 npx vitest run "src/a b.test.ts" 'x' $FILE "$DIR/y" > out.log`,
      expected: [
        {
          argv: ["npx", "vitest", "run", "src/a b.test.ts", "x", "$FILE", '"$DIR/y"'],
          cwd: undefined,
        },
      ],
    },
    {
      name: "a cd to a non-literal target gives its raw text; a bare cd gives ~",
      command: 'cd "$ROOT" && jest; cd; ls; cd /tmp/x && ls',
      expected: [
        { argv: ["cd", '"$ROOT"'], cwd: undefined },
        { argv: ["jest"], cwd: '"$ROOT"' },
        { argv: ["cd"], cwd: '"$ROOT"' },
        { argv: ["ls"], cwd: "~" },
        { argv: ["cd", "/tmp/x"], cwd: "~" },
        { argv: ["ls"], cwd: "/tmp/x" },
      ],
    },
    {
      name: "cd options are skipped",
      command: "cd -P web && make test",
      expected: [
        { argv: ["cd", "-P", "web"], cwd: undefined },
        { argv: ["make", "test"], cwd: "web" },
      ],
    },
    {
      name: "bash -lc is listed, then what it runs",
      command: "cd api && bash -lc 'cd src && pytest'",
      expected: [
        { argv: ["cd", "api"], cwd: undefined },
        { argv: ["bash", "-lc", "cd src && pytest"], cwd: "api" },
        { argv: ["cd", "src"], cwd: "api" },
        { argv: ["pytest"], cwd: "api/src" },
      ],
    },
    {
      name: "function bodies are not run; if/for bodies are",
      command: "t() { cd z && npm test; }; if true; then cd q; fi; for x in 1; do go test; done",
      expected: [
        { argv: ["true"], cwd: undefined },
        { argv: ["cd", "q"], cwd: undefined },
        { argv: ["go", "test"], cwd: "q" },
      ],
    },
  ])("$name", async ({ command, expected }) => {
    expect(await listSimpleCommands(command)).toEqual(expected);
  });

  it("lists nothing for an empty line or a comment", async () => {
    expect(await listSimpleCommands("")).toEqual([]);
    expect(await listSimpleCommands("# npm test")).toEqual([]);
  });

  it.each([
    ["cd web && npm test", "web", true, "jest"],
    ["npm run lint && cd web && npm test -- src/a.test.ts", "web", true, "jest"],
    ["cd web; npm run lint", "web", false, undefined],
    ["echo pytest && grep test src/a.py", undefined, false, undefined],
    ["cat test_x.py | head", undefined, false, undefined],
    ["(cd api && uv run pytest -q) 2>&1 | tail -20", undefined, true, "pytest"],
  ] as const)("with recogniseTestCommand: %j", async (command, folder, isTest, runnerId) => {
    const commands = await listSimpleCommands(command);
    const scripts: Record<string, Record<string, string>> = {
      web: { test: "jest", lint: "eslint ." },
    };
    // The caller picks the package.json of the folder the last command runs in.
    const cwd = commands.at(-1)?.cwd;
    expect(cwd).toBe(folder);
    const result = recogniseTestCommand(
      commands.map((c) => c.argv),
      { packageScripts: cwd === undefined ? undefined : scripts[cwd], runners: [] },
    );
    expect(result.isTest).toBe(isTest);
    expect(result.runner).toBe(runnerId);
  });
});

describe("command words that name an object's inherited members", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])(
    "%s writes nothing itself and its redirect is still seen",
    async (word) => {
      const writes = await findShellWrites(`${word} a b > out.txt`);
      expect(writes.written).toEqual(["out.txt"]);
      expect(writes.deleted).toEqual([]);
    },
  );
});

describe("a command nested deeper than any real one", () => {
  it("is refused with one plain error before any recursive walk can run out of stack", async () => {
    const deep = `${"(".repeat(5_000)}echo x > calc.py${")".repeat(5_000)}`;
    await expect(findShellWrites(deep)).rejects.toThrow(
      "the command nests deeper than 400 levels, too deep to read",
    );
    await expect(listSimpleCommands(deep)).rejects.toThrow(/too deep to read/);
    // A hundred subshells deep is still read.
    const nested = `${"( ".repeat(100)}echo x > calc.py${" )".repeat(100)}`;
    expect((await findShellWrites(nested)).written).toEqual(["calc.py"]);
  });
});

describe("readReleasable: the grammar's bytes, handed back once loaded", () => {
  it("reads a file whole, then gives its memory back through every view of it", () => {
    const dir = mkdtempSync(join(tmpdir(), "tailtest-releasable-"));
    try {
      const file = join(dir, "grammar.wasm");
      const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
      writeFileSync(file, content);
      const read = readReleasable(file);
      expect(Buffer.from(read.bytes).equals(content)).toBe(true);
      const kept = read.bytes;
      read.release();
      // What a loader kept of the bytes is empty too: the memory went back, not a copy of it.
      expect(kept.byteLength).toBe(0);
      expect(kept.buffer.byteLength).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads the bash grammar from such bytes, and the parser still answers", async () => {
    expect(await findShellWrites("echo 'x = 1' > calc.py")).toEqual({
      written: ["calc.py"],
      deleted: [],
      into: [],
      partial: false,
    });
  });
});
