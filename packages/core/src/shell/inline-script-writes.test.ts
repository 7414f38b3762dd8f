import { describe, expect, it } from "vitest";
import type { ScriptLanguage } from "./inline-interpreter.ts";
import { findScriptWrites, looksLikePath } from "./inline-script-writes.ts";

interface Case {
  name: string;
  script: string;
  written?: string[];
  deleted?: string[];
  operands?: string[];
}

const PYTHON: Case[] = [
  { name: "open 'w'", script: "open('src/a.py', 'w').write('x')", written: ["src/a.py"] },
  { name: "open 'a', double quotes", script: 'open("log.txt", "a")', written: ["log.txt"] },
  { name: "open 'x'", script: "open('new.py', 'x')", written: ["new.py"] },
  { name: "open 'r+'", script: "f = open('src/a.py', 'r+')", written: ["src/a.py"] },
  { name: "open 'wb'", script: "open('out.bin','wb')", written: ["out.bin"] },
  { name: "mode by keyword", script: "open('src/a.py', mode='w')", written: ["src/a.py"] },
  {
    name: "file and mode by keyword",
    script: "open(encoding='utf-8', mode='a', file='src/a.py')",
    written: ["src/a.py"],
  },
  {
    name: "with open … as",
    script: "with open('src/x.py', 'w') as f:\n    f.write('x = 1\\n')",
    written: ["src/x.py"],
  },
  {
    name: "a variable holding the path",
    script: "import os\np = 'src/v.py'\nwith open(p, 'w') as f:\n    f.write('')",
    written: ["src/v.py"],
  },
  {
    name: "pathlib write_text",
    script: "from pathlib import Path\nPath('src/app.py').write_text('...')",
    written: ["src/app.py"],
  },
  {
    name: "pathlib.Path(…).write_bytes",
    script: 'import pathlib; pathlib.Path("src/a.bin").write_bytes(b"")',
    written: ["src/a.bin"],
  },
  {
    name: "a Path joined with /",
    script: "from pathlib import Path\n(Path('src') / 'pkg' / 'm.py').write_text('')",
    written: ["src/pkg/m.py"],
  },
  {
    name: "a Path variable, open('w')",
    script: "p = Path('src', 'a.py')\nwith p.open('w') as f: f.write('')",
    written: ["src/a.py"],
  },
  {
    name: "os.path.join",
    script: "import os\nopen(os.path.join('src', 'a.py'), 'w')",
    written: ["src/a.py"],
  },
  { name: "touch", script: "Path('src/__init__.py').touch()", written: ["src/__init__.py"] },
  {
    name: "os.open with write flags",
    script: "os.open('src/a.py', os.O_WRONLY | os.O_CREAT)",
    written: ["src/a.py"],
  },
  { name: "io.open", script: "io.open('a.py', 'w', encoding='utf-8')", written: ["a.py"] },
  {
    name: "json.dump into open(…, 'w')",
    script: "import json; json.dump({}, open('config.json', 'w'))",
    written: ["config.json"],
  },
  {
    name: "shutil copy and move",
    script: "import shutil; shutil.copy('a.py', 'src/b.py'); shutil.move('c.py', 'd.py')",
    written: ["src/b.py", "d.py"],
    deleted: ["c.py"],
  },
  { name: "os.remove", script: "import os; os.remove('src/old.py')", deleted: ["src/old.py"] },
  { name: "Path.unlink", script: "Path('src/x.py').unlink()", deleted: ["src/x.py"] },
  {
    name: "os.rename",
    script: "os.rename('a.py', 'b.py')",
    written: ["b.py"],
    deleted: ["a.py"],
  },
  {
    name: "a Path's rename",
    script: "Path('a.py').rename('src/a.py')",
    written: ["src/a.py"],
    deleted: ["a.py"],
  },
  { name: "shutil.rmtree", script: "shutil.rmtree('build')", deleted: ["build"] },
  {
    name: "read then write the same file",
    script: "s = open('a.py').read()\nopen('a.py', 'w').write(s.replace('x', 'y'))",
    written: ["a.py"],
  },
  {
    name: "a target from sys.argv: every path literal and path operand",
    script: "import sys; t = open('tpl.txt').read(); open(sys.argv[1], 'w').write(t)",
    operands: ["src/out.py", "-v"],
    written: ["tpl.txt", "src/out.py"],
  },
  {
    name: "an f-string target: every path literal",
    script: "name = 'a'\nopen(f'src/{name}.py', 'w')\nopen('src/base.py').read()",
    written: ["src/base.py"],
  },
  { name: "/dev/null is no file", script: "open('/dev/null', 'w')" },
  {
    name: "a variable also assigned a computed value: every path literal",
    script: "p = 'src/a.py'\nif x:\n    p = p + '.bak'\nopen(p, 'w')",
    written: ["src/a.py"],
  },
  {
    name: "non-ASCII text before the target",
    script: "s = '😀 é'\nopen('src/é.py', 'w')",
    written: ["src/é.py"],
  },
  {
    name: "an unterminated string stops at its line",
    script: "print('oops\nopen('src/a.py', 'w')",
    written: ["src/a.py"],
  },
  {
    name: "raw and byte strings",
    script: "open(r'src/r.py', 'w'); open(rb'src/b.py', mode=r'a')",
    written: ["src/r.py", "src/b.py"],
  },
  // Negatives.
  { name: "a read", script: "print(open('src/a.py').read())" },
  { name: "a read, 'rb'", script: "open('src/a.py', 'rb').read()" },
  { name: "a read with open(…) as", script: "with open('src/a.py') as f: print(f.read())" },
  { name: "print", script: "print(1)" },
  { name: "a printed path", script: "print('src/a.py')" },
  { name: "a call inside a string", script: "print(\"open('src/a.py', 'w')\")" },
  {
    name: "a call inside a triple-quoted string",
    script: "doc = '''\nopen('src/a.py', 'w')\n'''\nprint(doc)",
  },
  { name: "a call in a comment", script: "# open('src/a.py', 'w')\nprint(2)" },
  { name: "str.replace is not Path.replace", script: "s = 'a.py'.replace('a', 'b')\nprint(s)" },
  {
    name: "a Path's stem is a string",
    script: "from pathlib import Path\nprint(Path('src/a_b.py').stem.replace('_', '-'))",
  },
  {
    name: "a Path variable's with_suffix(…).replace",
    script: "p = Path('src/a.py')\np.with_suffix('.bak').replace('src/a.py')",
    written: ["src/a.py"],
    deleted: [],
  },
  { name: "list.remove is not os.remove", script: "xs = ['a.py']\nxs.remove('a.py')" },
  { name: "Image.open reads", script: "from PIL import Image\nImage.open('logo.png')" },
  { name: "webbrowser.open", script: "import webbrowser; webbrowser.open('http://x/a.html')" },
  { name: "Path.open() reads", script: "Path('src/a.py').open().read()" },
  { name: "Path.exists", script: "print(Path('src/a.py').exists())" },
];

const JAVASCRIPT: Case[] = [
  {
    name: "require('fs').writeFileSync",
    script: "require('fs').writeFileSync('src/a.ts', '')",
    written: ["src/a.ts"],
  },
  {
    name: "fs.appendFile",
    script: "const fs = require('fs'); fs.appendFile('log.txt', 'x', () => {})",
    written: ["log.txt"],
  },
  {
    name: "a destructured writeFileSync",
    script: "const { writeFileSync } = require('node:fs');\nwriteFileSync(\"src/b.ts\", '')",
    written: ["src/b.ts"],
  },
  {
    name: "fs.promises.writeFile",
    script: "await require('fs').promises.writeFile(`src/c.ts`, 'x')",
    written: ["src/c.ts"],
  },
  {
    name: "fs/promises as fsp",
    script:
      "import fsp from 'fs/promises'; await fsp.rm('dist/x.js'); await fsp.rename('a.ts', 'b.ts')",
    written: ["b.ts"],
    deleted: ["dist/x.js", "a.ts"],
  },
  {
    name: "createWriteStream",
    script: "fs.createWriteStream('out.log', { flags: 'a' })",
    written: ["out.log"],
  },
  { name: "copyFileSync", script: "fs.copyFileSync('a.ts', 'src/b.ts')", written: ["src/b.ts"] },
  { name: "openSync 'w'", script: "fs.openSync('src/a.ts', 'w')", written: ["src/a.ts"] },
  { name: "unlinkSync", script: "fs.unlinkSync('src/old.ts')", deleted: ["src/old.ts"] },
  {
    name: "path.join target",
    script: "const path = require('path');\nfs.writeFileSync(path.join('src', 'a.ts'), '')",
    written: ["src/a.ts"],
  },
  {
    name: "a const path",
    script: "const target = 'src/k.ts';\nfs.writeFileSync(target, '// k')",
    written: ["src/k.ts"],
  },
  { name: "Bun.write", script: "await Bun.write('src/b.ts', 'x')", written: ["src/b.ts"] },
  {
    name: "Bun.write(Bun.file(…))",
    script: "await Bun.write(Bun.file('src/f.ts'), 'x')",
    written: ["src/f.ts"],
  },
  {
    name: "Deno.writeTextFile and Deno.remove",
    script: "await Deno.writeTextFile('src/d.ts', 'x'); await Deno.remove('src/e.ts')",
    written: ["src/d.ts"],
    deleted: ["src/e.ts"],
  },
  {
    name: "a template target: every path literal, module names left out",
    script:
      "const fs = require('fs/promises');\nfor (const n of ['a.ts', 'b.ts']) fs.writeFile(`src/${n}`, '')",
    written: ["a.ts", "b.ts"],
  },
  // Negatives.
  { name: "console.log of a path", script: "console.log('src/a.ts')" },
  { name: "readFileSync", script: "console.log(require('fs').readFileSync('src/a.ts', 'utf8'))" },
  { name: "openSync 'r'", script: "fs.openSync('src/a.ts', 'r')" },
  { name: "a call in a comment", script: "// fs.writeFileSync('src/a.ts', '')\n1" },
  { name: "a call in a block comment", script: "/* fs.rmSync('src/a.ts') */ 1" },
  { name: "a call in a string", script: "console.log(\"fs.writeFileSync('src/a.ts')\")" },
  { name: "process.stdout.write", script: "process.stdout.write('src/a.ts')" },
  { name: "Object.create", script: "Object.create(null)" },
  { name: "el.remove()", script: "document.querySelector('a.b').remove()" },
  { name: "fs.writeSync to a descriptor", script: "fs.writeSync(1, 'src/a.ts')" },
  {
    name: "require of a relative module",
    script: "console.log(require('./package.json').version)",
  },
];

const PERL: Case[] = [
  { name: "open >", script: 'open(F, ">src/a.pl"); print F "x"; close F', written: ["src/a.pl"] },
  {
    name: "open >> with a blank",
    script: "open F, '>> log/a.txt' or die;",
    written: ["log/a.txt"],
  },
  {
    name: "three-argument open",
    script: "open(my $fh, '>', 'lib/A.pm') or die $!;",
    written: ["lib/A.pm"],
  },
  {
    name: "three-argument open with a layer",
    script: "open my $fh, '>:encoding(UTF-8)', \"out.txt\" or die;",
    written: ["out.txt"],
  },
  { name: "open +<", script: 'open(F, "+<data.txt")', written: ["data.txt"] },
  { name: "unlink, no parentheses", script: "unlink 'a.pl', 'b.pl';", deleted: ["a.pl", "b.pl"] },
  {
    name: "rename and File::Copy",
    script: "use File::Copy; rename('a.pl', 'b.pl'); copy('c.pl', 'd.pl');",
    written: ["b.pl", "d.pl"],
    deleted: ["a.pl"],
  },
  {
    name: "an interpolated target: every path literal",
    script: 'my $n = "x"; my $tpl = "tpl/base.pl"; open(F, ">src/$n.pl");',
    written: ["tpl/base.pl"],
  },
  { name: "a read", script: "open(F, '<src/a.pl'); print <F>;" },
  { name: "a two-argument read", script: 'open(F, "src/a.pl") or die;' },
  { name: "a substitution", script: "s/open/close/g" },
  { name: "a pipe", script: "open(P, '-|', 'ls') or die;" },
  { name: "print", script: 'print "src/a.pl\\n";' },
];

const RUBY: Case[] = [
  { name: "File.write", script: 'File.write("lib/a.rb", "")', written: ["lib/a.rb"] },
  {
    name: "File.write, no parentheses",
    script: "File.write 'lib/c.rb', 'x'",
    written: ["lib/c.rb"],
  },
  {
    name: "File.open 'w' with a block",
    script: 'File.open("lib/b.rb", "w") { |f| f.puts 1 }',
    written: ["lib/b.rb"],
  },
  { name: "File.open mode:", script: "File.open('x.rb', mode: 'a')", written: ["x.rb"] },
  {
    name: "File.open with File:: flags",
    script: "File.open('x.rb', File::WRONLY | File::CREAT)",
    written: ["x.rb"],
  },
  {
    name: "File.join",
    script: "File.write(File.join('lib', 'j.rb'), '')",
    written: ["lib/j.rb"],
  },
  {
    name: "FileUtils",
    script: "require 'fileutils'\nFileUtils.mv('a.rb', 'b.rb')\nFileUtils.rm_f(['c.rb', 'd.rb'])",
    written: ["b.rb"],
    deleted: ["a.rb", "c.rb", "d.rb"],
  },
  { name: "File.delete", script: "File.delete('lib/old.rb')", deleted: ["lib/old.rb"] },
  {
    name: "Pathname#write",
    script: "require 'pathname'; Pathname.new('lib/p.rb').write('x')",
    written: ["lib/p.rb"],
  },
  { name: "a read", script: 'puts File.read("lib/a.rb")' },
  { name: "File.open to read", script: "File.open('lib/a.rb') { |f| puts f.read }" },
  { name: "a hash delete", script: "h = {}; h.delete('lib/a.rb')" },
  { name: "puts", script: 'puts "lib/a.rb"' },
];

describe.each<[ScriptLanguage, Case[]]>([
  ["python", PYTHON],
  ["javascript", JAVASCRIPT],
  ["perl", PERL],
  ["ruby", RUBY],
])("findScriptWrites %s", (language, cases) => {
  it.each(cases)("$name", ({ script, written = [], deleted = [], operands }) => {
    const found = findScriptWrites(language, script, operands);
    expect({ written: found.written, deleted: found.deleted }).toEqual({ written, deleted });
  });
});

describe("findScriptWrites: shell commands a script runs", () => {
  it.each<[ScriptLanguage, string, string[]]>([
    ["python", "import os; os.system('echo x > src/a.py')", ["echo x > src/a.py"]],
    [
      "python",
      "import subprocess\nsubprocess.run(['sed', '-i', 's/a b/c/', 'src/a.py'], check=True)",
      ["sed -i 's/a b/c/' src/a.py"],
    ],
    [
      "python",
      "cmd = 'rm -f src/old.py'\nsubprocess.check_call(cmd, shell=True)",
      ["rm -f src/old.py"],
    ],
    ["python", "import platform; platform.system(); app.run('x > y')", []],
    ["python", "subprocess.run(args)", []],
    [
      "javascript",
      "require('child_process').execSync(\"echo x > src/a.ts\", { stdio: 'inherit' })",
      ["echo x > src/a.ts"],
    ],
    [
      "javascript",
      "const { spawnSync } = require('child_process'); spawnSync('cp', ['a.ts', \"it's.ts\"])",
      ["cp a.ts 'it'\\''s.ts'"],
    ],
    ["javascript", "/x > y/.exec('a > b.ts')", []],
    ["perl", "system('touch', 'src/a.pl');", ["touch src/a.pl"]],
    ["perl", 'system "echo 1 > out.txt";', ["echo 1 > out.txt"]],
    ["ruby", 'system("mv a.rb lib/")', ["mv a.rb lib/"]],
    ["ruby", "h.system('x')", []],
  ])("%s: %j", (language, script, commands) => {
    expect(findScriptWrites(language, script).commands).toEqual(commands);
  });
});

describe("looksLikePath", () => {
  it.each([
    "src/a.py",
    "/abs/path/x.ts",
    "./rel",
    "a.py",
    "lib/A.pm",
    "./.env",
    "bin/run",
    "Dockerfile.dev",
  ])("%j is a path", (value) => {
    expect(looksLikePath(value)).toBe(true);
  });

  it.each([
    "",
    "w",
    "utf-8",
    "fs",
    "node:fs",
    "https://x.dev/a.js",
    "-v",
    "1.5",
    "v1.2.3",
    "src/",
    ".py",
    ".env",
    "hello world.txt",
    "application/json",
    "src/{name}.py",
    "%Y-%m.log",
    "*.py",
  ])("%j is not", (value) => {
    expect(looksLikePath(value)).toBe(false);
  });
});
