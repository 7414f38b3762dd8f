import { describe, expect, it } from "vitest";
import {
  DB_CALL,
  HTTP_CALL,
  decideDepth,
  depthForScore,
  scenarioCount,
  scoreComplexity,
  stripCommentsAndStrings,
} from "./complexity.ts";
import type { ComplexitySignal } from "./complexity.ts";
import type { Depth } from "./depth.ts";
import type { Language } from "../filter/languages.ts";
import { requiredLiterals } from "../util/literal-guard.ts";

function pointsOf(signals: readonly ComplexitySignal[], kind: ComplexitySignal["kind"]): number {
  return signals
    .filter((signal) => signal.kind === kind)
    .reduce((total, signal) => total + signal.points, 0);
}

function points(
  kind: ComplexitySignal["kind"],
  content: string,
  language: Language,
  relPath = "src/plain.x",
): number {
  return pointsOf(scoreComplexity(relPath, content, language).signals, kind);
}

const BILLING_PY = `"""Charge a customer and record the invoice."""
import requests

from .models import Invoice


class BillingService:
    def charge(self, customer, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        response = requests.post(
            "https://api.example.com/charges",
            json={"customer": customer.id, "amount": amount},
        )
        if response.status_code != 200:
            raise RuntimeError(response.text)
        invoice = Invoice(customer=customer, amount=amount)
        invoice.save()
        return invoice
`;

describe("decideDepth: the worked example", () => {
  it("reproduces the original note for billing.py verbatim", () => {
    const decision = decideDepth("simple", "billing.py", BILLING_PY, "python");
    expect(decision).toEqual({
      inputs: expect.objectContaining({ pathTerms: ["billing"], branches: 2 }) as unknown,
      depth: "thorough",
      score: 12,
      signals: [
        { kind: "path", points: 4, label: "billing" },
        { kind: "http", points: 3, label: "HTTP" },
        { kind: "db", points: 3, label: "DB" },
        { kind: "branches", points: 2, label: "branches" },
      ],
      scenarios: 12,
      override: true,
      note: "Complexity: thorough (billing: +4 billing +3 HTTP +3 DB +2 branches = 12 scenarios). Generate ~12 scenarios.",
    });
  });

  it("names the file by its stem, not its directory", () => {
    expect(decideDepth("simple", "app/services/billing.py", BILLING_PY, "python").note).toContain(
      "(billing: +4 billing",
    );
  });
});

describe("path signals", () => {
  it("scores the project-relative path only, so the project's root folder name cannot add points", () => {
    // The caller passes "src/util.py", never "/home/me/author-tools/src/util.py".
    expect(scoreComplexity("src/util.py", "", "python").signals).toEqual([]);
    expect(scoreComplexity("src/auth/util.py", "", "python").signals).toEqual([
      { kind: "path", points: 4, label: "auth" },
    ]);
  });

  it.each([
    ["src/Billing/Charge.py", [{ kind: "path", points: 4, label: "billing" }]],
    ["src/checkout_payment.py", [{ kind: "path", points: 4, label: "payment" }]],
    ["src/tools/purge_cache.py", [{ kind: "path", points: 3, label: "purge" }]],
    ["src/admin/upload.py", [{ kind: "path", points: 3, label: "admin" }]],
    [
      "src/admin/subscription.py",
      [
        { kind: "path", points: 4, label: "subscription" },
        { kind: "path", points: 3, label: "admin" },
      ],
    ],
  ])("%s → %j", (relPath, expected) => {
    expect(scoreComplexity(relPath, "", "python").signals).toEqual(expected);
  });
});

describe("comments and strings are ignored", () => {
  it.each<[string, string, Language]>([
    ["a python comment", "# requests.get(url)\nx = 1\n", "python"],
    ["a python string", 'x = "fetch(url)"\n', "python"],
    ["a python docstring", '"""Calls requests.get( on each url."""\n', "python"],
    ["a JS string", 'const s = "fetch(url)";\n', "javascript"],
    ["a JS template literal", "const s = `axios and fetch(url)`;\n", "typescript"],
    ["a JS block comment", "/* fetch(url) */\nconst x = 1;\n", "javascript"],
    ["a PHP hash comment", "<?php\n# curl_exec($ch)\n$x = 1;\n", "php"],
    ["a Go raw string", "var s = `http.Get(url)`\n", "go"],
    ["a Ruby comment", "# Net::HTTP.get(uri)\nx = 1\n", "ruby"],
  ])("%s does not add HTTP", (_name, content, language) => {
    expect(points("http", content, language)).toBe(0);
  });

  it.each<[string, string, Language]>([
    ["a python call", "requests.get(url)\n", "python"],
    ["a JS call next to a string", 'const r = await fetch("/api");\n', "javascript"],
    ["a PHP call after a comment", "<?php\n// call it\ncurl_exec($ch);\n", "php"],
  ])("%s adds HTTP", (_name, content, language) => {
    expect(points("http", content, language)).toBe(3);
  });

  it("does not count a branch in a line comment", () => {
    expect(points("branches", "// if (x) { y(); }\nconst z = 1;\n", "javascript")).toBe(0);
    expect(points("branches", "if (x) { y(); }\n", "javascript")).toBe(1);
  });
});

describe("DB signal", () => {
  it.each<[string, string, Language, number]>([
    ["SQL in a python string", 'sql = "SELECT id, name FROM users WHERE id = %s"\n', "python", 3],
    ["SQL in a triple-quoted string", 'sql = """\n  select *\n  from orders\n"""\n', "python", 3],
    ["INSERT in a JS string", "const q = 'INSERT INTO logs (msg) VALUES ($1)';\n", "javascript", 3],
    ["UPDATE in a Go raw string", "const q = `UPDATE users SET name = $1`\n", "go", 3],
    ["DELETE in a Java string", 'String q = "DELETE FROM sessions";\n', "java", 3],
    ["CREATE TABLE in a Rust string", 'let q = "CREATE TABLE t (id INT)";\n', "rust", 3],
    ["SQL in a comment", "# SELECT id FROM users\nx = 1\n", "python", 0],
    ["SQL in a JS comment", "// select name from users\nconst x = 1;\n", "javascript", 0],
    [
      "a string merely mentioning select and from",
      'msg = "please select a file from the list"\n',
      "python",
      0,
    ],
    [
      "JS Array.prototype.filter",
      "const big = items.filter((item) => item.size > 3);\n",
      "javascript",
      0,
    ],
    [
      "TS Array.prototype.filter",
      "const big = items.filter((item): boolean => item.ok);\n",
      "typescript",
      0,
    ],
    ["a python ORM filter", "users = User.query.filter(User.active == True)\n", "python", 3],
    [
      "a Prisma call",
      "const user = await prisma.user.findUnique({ where: { id } });\n",
      "typescript",
      3,
    ],
    ["a Django manager", "rows = Order.objects.all()\n", "python", 3],
  ])("%s", (_name, content, language, expected) => {
    expect(points("db", content, language)).toBe(expected);
  });
});

describe("branches", () => {
  it("caps at +4", () => {
    const content = Array.from({ length: 10 }, (_, i) => `if x == ${i}:\n    pass\n`).join("");
    expect(points("branches", content, "python")).toBe(4);
  });

  it.each<[string, string, Language, number]>([
    ["else if counts once", "if (a) {\n} else if (b) {\n}\n", "javascript", 2],
    ["a plain else counts", "if (a) {\n} else {\n}\n", "javascript", 2],
    ["elif counts", "if a:\n    pass\nelif b:\n    pass\n", "python", 2],
    ["re.match( is not a branch", "import re\nm = re.match(pattern, text)\n", "python", 0],
    ["a python match statement", "match command:\n    case 1:\n        pass\n", "python", 1],
    ["a rust match expression", "let v = match x {\n    1 => a,\n    _ => b,\n};\n", "rust", 1],
    ["a Go switch without a tag", "switch {\ncase a:\n}\n", "go", 1],
    ["a JS switch", "switch (kind) {\n  case 1: break;\n}\n", "javascript", 1],
    [
      "ruby unless, elsif and case",
      "unless a\nend\nif b\nelsif c\nend\ncase d\nwhen 1\nend\n",
      "ruby",
      4,
    ],
    [
      "an identifier containing if is not a branch",
      "const iffy = notify(diff);\n",
      "javascript",
      0,
    ],
    ["if inside a string is not a branch", 'const s = "if (x)";\n', "javascript", 0],
  ])("%s", (_name, content, language, expected) => {
    expect(points("branches", content, language)).toBe(expected);
  });
});

describe("public functions", () => {
  it("caps at +5", () => {
    const content = Array.from({ length: 9 }, (_, i) => `def f${i}():\n    return ${i}\n`).join("");
    expect(points("functions", content, "python")).toBe(5);
  });

  // Each row has two public functions and at least one that the rule must not count.
  it.each<[Language, string]>([
    [
      "python",
      "def load(x):\n    pass\n\nasync def save(x):\n    pass\n\ndef _private():\n    pass\n\nclass A:\n    def method(self):\n        pass\n",
    ],
    [
      "javascript",
      "export function load() {}\nexport const save = async (x) => x;\nfunction hidden() {}\nconst alsoHidden = () => 1;\nexport class Box {}\n",
    ],
    [
      "typescript",
      "export default async function load(): Promise<void> {}\nexport const add = (a: number, b: number): number => a + b;\nexport const LIMIT = 3;\nexport interface Shape {}\n",
    ],
    [
      "java",
      "public class Service {\n    public static void main(String[] args) {}\n    public List<String> names() { return null; }\n    private void hidden() {}\n}\n",
    ],
    [
      "csharp",
      "public class Service\n{\n    public async Task<int> LoadAsync(int id) { return 1; }\n    public string? Name(int id) => null;\n    internal void Hidden() {}\n    public int Count { get; set; }\n}\n",
    ],
    [
      "php",
      "<?php\nclass Service {\n    public function load($id) {}\n    public static function make() {}\n    private function hidden() {}\n}\n",
    ],
    [
      "kotlin",
      "public class Service(val id: Int) {\n    fun load(): Int = id\n    public fun save() {}\n    private fun hidden() {}\n}\n",
    ],
    [
      "swift",
      "public struct Service {\n    public func load() {}\n    public static func make<T>(_ t: T) {}\n    func hidden() {}\n}\n",
    ],
    [
      "go",
      "func Load(id int) error { return nil }\nfunc (s *Service) Save() error { return nil }\nfunc hidden() {}\n",
    ],
    [
      "rust",
      "pub fn load() {}\npub(crate) async fn save() {}\nfn hidden() {}\npub struct Service;\n",
    ],
    [
      "ruby",
      "class Service\n  def load\n  end\n  def self.valid?(x)\n  end\n  def _hidden\n  end\nend\n",
    ],
  ])("%s counts exactly its public functions", (language, content) => {
    expect(points("functions", content, language)).toBe(2);
  });

  it("counts Kotlin's `public fun` once although two rules match it", () => {
    expect(points("functions", "public fun load() {}\n", "kotlin")).toBe(1);
  });
});

describe("depthForScore and scenarioCount", () => {
  it.each([
    [0, "simple"],
    [5, "simple"],
    [6, "standard"],
    [9, "standard"],
    [10, "thorough"],
    [22, "thorough"],
  ])("score %i → %s", (score, depth) => {
    expect(depthForScore(score)).toBe(depth);
  });

  it.each<[Depth, number, number]>([
    ["simple", 0, 2],
    ["simple", 3, 3],
    ["simple", 5, 4],
    ["standard", 1, 5],
    ["standard", 7, 7],
    ["standard", 9, 8],
    ["thorough", 3, 10],
    ["thorough", 12, 12],
    ["thorough", 22, 15],
    ["adversarial", 0, 8],
    ["adversarial", 10, 10],
    ["adversarial", 22, 12],
  ])("%s with score %i → %i scenarios", (depth, score, expected) => {
    expect(scenarioCount(depth, score)).toBe(expected);
  });
});

const MAXED_PY = `import requests


def login(user):
    if user.locked:
        return None
    if user.expired:
        return None
    if user.banned:
        return None
    if user.flagged:
        return None
    requests.post(user.url)
    user.save()


def logout(user):
    pass


def refresh(user):
    pass


def revoke(user):
    pass


def audit(user):
    pass
`;

describe("decideDepth", () => {
  it("never lowers a configured thorough depth for a simple file", () => {
    expect(decideDepth("thorough", "src/util.py", "x = 1\n", "python")).toEqual({
      depth: "thorough",
      score: 0,
      signals: [],
      scenarios: 10,
      override: false,
      note: undefined,
      inputs: {
        pathTerms: [],
        http: false,
        db: false,
        branches: 0,
        publicFunctions: 0,
        contentChars: 6,
        codeChars: 6,
        runtimeCode: true,
      },
    });
  });

  it("shows the score's inputs before their caps", () => {
    const decision = decideDepth("standard", "src/admin/auth.py", MAXED_PY, "python");
    expect(decision.inputs).toMatchObject({ pathTerms: ["auth", "admin"], runtimeCode: true });
    expect(decision.inputs).toMatchObject({
      http: true,
      db: true,
      branches: 4,
      publicFunctions: 5,
    });
  });

  it("asks for no scenarios when the file has no runtime code", () => {
    const types = "export interface User {\n  id: string;\n}\nexport type Id = string;\n";
    const decision = decideDepth("standard", "src/types.ts", types, "typescript", {
      runtimeCode: false,
    });
    expect(decision).toMatchObject({ depth: "standard", scenarios: 0, override: false });
    expect(decision.note).toBe(
      "Complexity: types has no runtime code (types or re-exports only): no scenarios to generate; a test that imports it is enough.",
    );
  });

  it("does not override adversarial even when the file scores thorough", () => {
    const decision = decideDepth("adversarial", "billing.py", BILLING_PY, "python");
    expect(decision.score).toBe(12);
    expect(decision).toMatchObject({
      depth: "adversarial",
      override: false,
      note: undefined,
      scenarios: 12,
    });
  });

  it("keeps a configured standard depth when the file scores standard", () => {
    const decision = decideDepth(
      "standard",
      "src/admin_panel.py",
      "import requests\nrequests.get(url)\n",
      "python",
    );
    expect(decision).toMatchObject({
      depth: "standard",
      score: 6,
      override: false,
      note: undefined,
      scenarios: 6,
    });
  });

  it("raises simple to standard and caps the scenario count at the band's maximum", () => {
    const content = "requests.get(url)\nuser.save()\n";
    const decision = decideDepth("simple", "src/delete_user.py", content, "python");
    expect(decision).toMatchObject({ depth: "standard", score: 9, scenarios: 8, override: true });
    expect(decision.note).toBe(
      "Complexity: standard (delete_user: +3 delete +3 HTTP +3 DB = 9 points, capped at 8 scenarios). Generate ~8 scenarios.",
    );
  });

  it("says 'points, capped at' when the score exceeds the scenario cap", () => {
    const decision = decideDepth("standard", "src/admin/auth.py", MAXED_PY, "python");
    expect(decision.score).toBe(22);
    expect(decision.note).toBe(
      "Complexity: thorough (auth: +4 auth +3 admin +3 HTTP +3 DB +4 branches +5 functions = 22 points, capped at 15 scenarios). Generate ~15 scenarios.",
    );
  });
});

describe("stripCommentsAndStrings", () => {
  it.each<[string, string, Language, string, string[]]>([
    [
      "python comments and prefixed strings",
      'x = rb"a\\"b"  # note\ny = f\'{z}\'\n',
      "python",
      'x = ""  \ny = ""\n',
      ['a\\"b', "{z}"],
    ],
    [
      "python triple quotes keep their newlines",
      'doc = """a\nb"""\nz = 1\n',
      "python",
      'doc = ""\n\nz = 1\n',
      ["a\nb"],
    ],
    [
      "an identifier ending in a prefix letter is not a prefix",
      'bar"x"\n',
      "python",
      'bar""\n',
      ["x"],
    ],
    [
      "C-family comments and template literals",
      "a = `t${x}`; /* c\nd */ b = 'q'; // e\n",
      "typescript",
      'a = ""; \n b = ""; \n',
      ["t${x}", "q"],
    ],
    ["an empty block comment does not glue tokens", "a/**/b\n", "javascript", "a b\n", []],
    [
      "rust lifetimes are code, char literals are strings",
      "fn f<'a>(x: &'a str) -> char { '\\'' }\n",
      "rust",
      "fn f<'a>(x: &'a str) -> char { \"\" }\n",
      ["\\'"],
    ],
    [
      "rust raw strings end at their own closer",
      'let s = r#"say "hi""#; x\n',
      "rust",
      'let s = ""; x\n',
      ['say "hi"'],
    ],
    ["rust block comments nest", "a /* x /* y */ z */ b\n", "rust", "a   b\n", []],
    [
      "php hash comments, but not attributes",
      "<?php\n#[Attr]\n# gone\n$a = 'x';\n",
      "php",
      '<?php\n#[Attr]\n\n$a = "";\n',
      ["x"],
    ],
    [
      "ruby hash inside a string is not a comment",
      'a = "#{b}" # c\n',
      "ruby",
      'a = "" \n',
      ["#{b}"],
    ],
    [
      "java text blocks",
      'String q = """\n  SELECT 1\n  """;\n',
      "java",
      'String q = ""\n\n;\n',
      ["\n  SELECT 1\n  "],
    ],
    [
      "go raw strings ignore backslashes",
      "s := `C:\\`; t := 1\n",
      "go",
      's := ""; t := 1\n',
      ["C:\\"],
    ],
    [
      "an unterminated C-family string stops at the line end",
      'a = "open\nb = 1\n',
      "javascript",
      'a = ""\nb = 1\n',
      ["open"],
    ],
  ])("%s", (_name, content, language, code, strings) => {
    expect(stripCommentsAndStrings(content, language)).toEqual({ code, strings });
  });

  it("looks only at the first 8000 characters of code, after comments are removed", () => {
    const longComment = `# ${"x".repeat(9000)}\n`;
    expect(points("http", `${longComment}requests.get(url)\n`, "python")).toBe(3);
    const longCode = `${"x = 1\n".repeat(1400)}requests.get(url)\n`;
    expect(points("http", longCode, "python")).toBe(0);
  });

  it("never throws, terminates, and keeps every line on random quote, slash, star and hash soup", () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = [
      "'",
      '"',
      "`",
      "/",
      "*",
      "#",
      "\n",
      "\\",
      "r",
      "b",
      "f",
      "x",
      " ",
      "'''",
      '"""',
      "#[",
    ];
    const languages: Language[] = [
      "python",
      "ruby",
      "php",
      "javascript",
      "typescript",
      "go",
      "rust",
      "java",
      "csharp",
      "swift",
      "kotlin",
    ];
    for (let run = 0; run < 400; run += 1) {
      const length = Math.floor(random() * 60);
      const input = Array.from(
        { length },
        () => alphabet[Math.floor(random() * alphabet.length)] ?? "",
      ).join("");
      const language = languages[run % languages.length] ?? "python";
      const { code, strings } = stripCommentsAndStrings(input, language);
      expect(code.length).toBeLessThanOrEqual(input.length + strings.length * 2);
      expect(code.split("\n").length).toBe(input.split("\n").length);
    }
  });
});

describe("the guards of the HTTP and DB regexes", () => {
  /** The pattern's top-level alternatives (none of these has a class holding `|` or `(`). */
  const alternatives = (source: string): string[] => {
    const parts = [""];
    let depth = 0;
    for (let i = 0; i < source.length; i += 1) {
      const char = source[i] ?? "";
      if (char === "\\") {
        parts[parts.length - 1] += source.slice(i, i + 2);
        i += 1;
        continue;
      }
      if (char === "(") depth += 1;
      if (char === ")") depth -= 1;
      if (char === "|" && depth === 0) parts.push("");
      else parts[parts.length - 1] += char;
    }
    return parts;
  };
  it.each([
    ["HTTP_CALL", HTTP_CALL, 20],
    ["DB_CALL", DB_CALL, 20],
  ] as const)("every alternative of %s has a word the guard looks for", (_name, pattern, count) => {
    const guard = requiredLiterals(pattern);
    expect(guard).toBeDefined();
    const parts = alternatives(pattern.source);
    expect(parts).toHaveLength(count);
    for (const part of parts) {
      const own = requiredLiterals(new RegExp(part, pattern.flags));
      expect(own, part).toBeDefined();
      for (const word of own ?? []) expect(guard, part).toContain(word);
    }
  });
  it.each([
    ["http", "resp = Requests.GET(url)\n", "python"],
    ["http", "const c = new HTTPCLIENT();\n", "csharp"],
    ["db", "rows = CURSOR.fetchall()\n", "python"],
    ["db", "await Prisma.user.findMany({})\n", "typescript"],
  ] as const)("%s is found in any case: %j", (kind, content, language) => {
    expect(points(kind, content, language)).toBe(3);
  });
});
