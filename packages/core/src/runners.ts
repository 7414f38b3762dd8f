import * as z from "zod/mini";
import { extensionOf, LanguageSchema, stemOf, type Language } from "./languages.ts";
import { dirnameRel, joinRel, type ProjectView } from "./project-view.ts";

export const RunnerIdSchema = z.enum([
  "pytest",
  "unittest",
  "vitest",
  "jest",
  "mocha",
  "node-test",
  "bun",
  "deno",
  "go",
  "cargo",
  "nextest",
  "rspec",
  "minitest",
  "phpunit",
  "pest",
  "maven",
  "gradle",
  "dotnet",
  "swift",
]);
export type RunnerId = z.infer<typeof RunnerIdSchema>;

export const DetectedRunnerSchema = z.object({
  id: RunnerIdSchema,
  languages: z.array(LanguageSchema).check(z.minLength(1)),
  /** The package that owns the tests, relative to the project root ("" is the root). */
  package_dir: z.string(),
  /** The whole-suite command, run in package_dir. */
  command: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  /** Where new test files go (relative to package_dir); absent means beside the source. */
  test_dir: z.optional(z.string()),
  /** What the detection saw, e.g. "pyproject.toml [tool.pytest.ini_options]". */
  evidence: z.string(),
});
export type DetectedRunner = z.infer<typeof DetectedRunnerSchema>;

/** Where the test for a source file lives. */
export type TestTarget =
  | { kind: "file"; path: string; exists: boolean }
  | { kind: "inline"; path: string; exists: boolean };

interface Detection {
  evidence: string;
  command?: string[];
}

interface RunnerSpec {
  id: RunnerId;
  languages: readonly Language[];
  /** Short name used in notes ("runner: pytest"). */
  label: string;
  detect(view: ProjectView, dir: string): Detection | undefined;
  defaultCommand: readonly string[];
  /** Candidate folders for new tests, in order; none existing means `fallbackTestDir`. */
  testDirs: readonly string[];
  /** undefined: tests sit beside the source when no test folder exists. */
  fallbackTestDir: string | undefined;
  /** Test file candidates for a source path relative to the package, preferred first. */
  testCandidates(src: string, testDir: string | undefined, ctx: CandidateContext): string[];
  /** argv that runs only the given test files (relative to the package). */
  fileCommand(command: readonly string[], testFiles: readonly string[]): string[];
  /** Tests live in the source file itself (Rust unit tests). */
  inline?: boolean;
}

interface CandidateContext {
  view: ProjectView;
  packageDir: string;
  typescript: boolean;
}

/** Files whose presence makes a folder a package of its own. */
const MANIFESTS = [
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "pytest.ini",
  "tox.ini",
  "Pipfile",
  "package.json",
  "deno.json",
  "deno.jsonc",
  "go.mod",
  "Cargo.toml",
  "Gemfile",
  "composer.json",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "Package.swift",
] as const;

function read(view: ProjectView, dir: string, name: string): string | undefined {
  return view.readText(joinRel(dir, name));
}

function has(view: ProjectView, dir: string, name: string): boolean {
  return view.exists(joinRel(dir, name));
}

function firstExisting(
  view: ProjectView,
  dir: string,
  names: readonly string[],
): string | undefined {
  return names.find((name) => has(view, dir, name));
}

function requirementFiles(view: ProjectView, dir: string): string[] {
  return view.list(dir).filter((name) => /^requirements[\w.-]*\.(txt|in)$/.test(name));
}

function readPackageJson(view: ProjectView, dir: string): PackageJson | undefined {
  const text = read(view, dir, "package.json");
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const result = PackageJsonSchema.safeParse(parsed);
    return result.success ? result.data : {};
  } catch {
    return {};
  }
}

const DependencyTable = z.optional(z.record(z.string(), z.unknown()));
const PackageJsonSchema = z.looseObject({
  scripts: DependencyTable,
  dependencies: DependencyTable,
  devDependencies: DependencyTable,
  peerDependencies: DependencyTable,
});
type PackageJson = z.infer<typeof PackageJsonSchema>;

function nodeDeps(pkg: PackageJson): Set<string> {
  return new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
}

function testScript(pkg: PackageJson): string {
  const script = pkg.scripts?.["test"];
  return typeof script === "string" ? script : "";
}

/**
 * The Python that has the project's dependencies: the project's virtualenv (`.venv/`, `venv/`,
 * in the package or at the root), the active `$VIRTUAL_ENV`, then a project tool's environment
 * (uv, poetry, pipenv, hatch, pdm) only when that tool is on PATH (a lock file alone is not
 * enough: `uv run` without uv fails every time), else `python3`.
 */
export function pythonCommand(view: ProjectView, dir: string, module: string): string[] {
  for (const venv of [".venv", "venv", ".env", "env"]) {
    for (const base of dir === "" ? [""] : [dir, ""]) {
      if (!view.exists(joinRel(base, venv, "pyvenv.cfg"))) continue;
      const python = joinRel(base, venv, "bin/python");
      if (!view.exists(python)) continue;
      // The run starts in the package folder: a root venv is reached from there.
      const rel = base === dir ? joinRel(venv, "bin/python") : joinRel(upTo(dir), python);
      return [rel, "-m", module];
    }
  }
  const active = view.host?.env("VIRTUAL_ENV");
  if (active !== undefined && active !== "") return [`${active}/bin/python`, "-m", module];
  const tools: readonly [string, string, readonly string[]][] = [
    ["uv.lock", "uv", ["uv", "run", "python"]],
    ["poetry.lock", "poetry", ["poetry", "run", "python"]],
    ["Pipfile.lock", "pipenv", ["pipenv", "run", "python"]],
    ["pdm.lock", "pdm", ["pdm", "run", "python"]],
  ];
  for (const [lock, tool, prefix] of tools) {
    if (has(view, dir, lock) && view.host?.onPath(tool) === true) return [...prefix, "-m", module];
  }
  const pyproject = read(view, dir, "pyproject.toml") ?? "";
  if (/^\[tool\.hatch/m.test(pyproject) && view.host?.onPath("hatch") === true)
    return ["hatch", "run", "python", "-m", module];
  return ["python3", "-m", module];
}

/**
 * How a package runs an installed JS tool: its own (or a workspace root's) `node_modules/.bin`
 * entry, else through the package manager its lock file names when that manager is on PATH
 * (`pnpm exec`, `yarn` — Plug'n'Play included —, `bun x`), else `npx --no-install`, which never
 * fetches a package from the registry.
 */
export function jsToolCommand(view: ProjectView, dir: string, tool: string): string[] {
  const bases: string[] = [];
  for (let base = dir; ; base = dirnameRel(base)) {
    bases.push(base);
    if (base === "") break;
  }
  for (const base of bases) {
    const bin = joinRel(base, "node_modules/.bin", tool);
    if (view.exists(bin))
      return [base === dir ? joinRel("node_modules/.bin", tool) : joinRel(upTo(dir), bin)];
  }
  const managers: readonly [RegExp, string, readonly string[]][] = [
    [/^pnpm-lock\.yaml$/, "pnpm", ["pnpm", "exec", tool]],
    [/^yarn\.lock$/, "yarn", ["yarn", tool]],
    [/^bun\.lockb?$/, "bun", ["bun", "x", tool]],
  ];
  for (const base of bases) {
    const names = view.list(base);
    for (const [lock, manager, argv] of managers) {
      if (names.some((name) => lock.test(name)) && view.host?.onPath(manager) === true)
        return [...argv];
    }
  }
  return ["npx", "--no-install", tool];
}

/** `../..` from a package folder back to the root. */
function upTo(dir: string): string {
  return dir === ""
    ? ""
    : dir
        .split("/")
        .map(() => "..")
        .join("/");
}

function detectPytest(view: ProjectView, dir: string): Detection | undefined {
  const pyproject = read(view, dir, "pyproject.toml");
  if (pyproject !== undefined && /^\[tool\.pytest/m.test(pyproject)) {
    return { evidence: "pyproject.toml [tool.pytest]" };
  }
  if (pyproject !== undefined && /["'\s]pytest\b/.test(pyproject)) {
    return { evidence: "pyproject.toml lists pytest" };
  }
  if (has(view, dir, "pytest.ini")) return { evidence: "pytest.ini" };
  const setupCfg = read(view, dir, "setup.cfg");
  if (setupCfg !== undefined && /^\[tool:pytest\]/m.test(setupCfg))
    return { evidence: "setup.cfg [tool:pytest]" };
  const tox = read(view, dir, "tox.ini");
  if (tox !== undefined && /^\[pytest\]|\bpytest\b/m.test(tox))
    return { evidence: "tox.ini mentions pytest" };
  for (const name of requirementFiles(view, dir)) {
    if (/^\s*pytest\b/m.test(read(view, dir, name) ?? ""))
      return { evidence: `${name} lists pytest` };
  }
  if (/\bpytest\b/.test(read(view, dir, "Pipfile") ?? ""))
    return { evidence: "Pipfile lists pytest" };
  if (/\bpytest\b/.test(read(view, dir, "setup.py") ?? ""))
    return { evidence: "setup.py lists pytest" };
  if (has(view, dir, "conftest.py")) return { evidence: "conftest.py" };
  return undefined;
}

function detectUnittest(view: ProjectView, dir: string): Detection | undefined {
  const manifest =
    firstExisting(view, dir, ["pyproject.toml", "setup.py", "setup.cfg", "Pipfile"]) ??
    requirementFiles(view, dir)[0];
  return manifest === undefined
    ? undefined
    : { evidence: `${manifest} without pytest (unittest fallback)` };
}

/** Which JS runner a package.json uses: its test script first, then its dependencies, then config files. */
function detectNode(view: ProjectView, dir: string, id: RunnerId): Detection | undefined {
  const pkg = readPackageJson(view, dir);
  if (pkg === undefined) return undefined;
  const script = testScript(pkg);
  const deps = nodeDeps(pkg);
  const order: readonly [RunnerId, RegExp, string | undefined, RegExp][] = [
    ["vitest", /\bvitest\b/, "vitest", /^vitest\.(config|workspace)\.[cm]?[jt]s$/],
    ["jest", /\bjest\b/, "jest", /^jest\.config\.[cm]?[jt]s(on)?$/],
    ["mocha", /\bmocha\b/, "mocha", /^\.mocharc\.(json|jsonc|ya?ml|[cm]?js)$/],
    ["bun", /\bbun\s+test\b/, undefined, /^bunfig\.toml$/],
    ["node-test", /\bnode\s+(.*\s)?--test\b/, undefined, /^$/],
  ];
  const byScript = order.find(([, pattern]) => pattern.test(script));
  const byDep = order.find(([, , dep]) => dep !== undefined && deps.has(dep));
  const names = view.list(dir);
  const byFile = order.find(([, , , file]) => names.some((name) => file.test(name)));
  let winner: RunnerId | undefined;
  let evidence = "";
  if (byScript !== undefined)
    [winner, evidence] = [byScript[0], `package.json scripts.test runs ${byScript[0]}`];
  else if (byDep !== undefined)
    [winner, evidence] = [byDep[0], `package.json depends on ${byDep[2] ?? byDep[0]}`];
  else if (byFile !== undefined) {
    const file = names.find((name) => byFile[3].test(name)) ?? "";
    [winner, evidence] = [byFile[0], `${file} present`];
  }
  return winner === id ? { evidence } : undefined;
}

function detectDeno(view: ProjectView, dir: string): Detection | undefined {
  const file = firstExisting(view, dir, ["deno.json", "deno.jsonc"]);
  if (file === undefined) return undefined;
  // A package.json with its own runner wins: Deno then only runs scripts.
  if (
    ["vitest", "jest", "mocha", "bun", "node-test"].some((id) =>
      detectNode(view, dir, id as RunnerId),
    )
  ) {
    return undefined;
  }
  return { evidence: file };
}

function detectRuby(
  view: ProjectView,
  dir: string,
  id: "rspec" | "minitest",
): Detection | undefined {
  const gemfile = read(view, dir, "Gemfile");
  const rspec =
    (gemfile !== undefined && /gem\s+["']rspec(-rails)?["']/.test(gemfile)) ||
    has(view, dir, ".rspec");
  if (id === "rspec")
    return rspec
      ? { evidence: gemfile === undefined ? ".rspec" : "Gemfile lists rspec" }
      : undefined;
  if (rspec) return undefined;
  if (gemfile !== undefined && /gem\s+["']minitest["']/.test(gemfile))
    return { evidence: "Gemfile lists minitest" };
  if (gemfile !== undefined && has(view, dir, "test"))
    return { evidence: "Gemfile with a test/ folder (minitest)" };
  return undefined;
}

function detectPhp(view: ProjectView, dir: string, id: "phpunit" | "pest"): Detection | undefined {
  const composer = read(view, dir, "composer.json") ?? "";
  const pest = composer.includes('"pestphp/pest"') || has(view, dir, "tests/Pest.php");
  if (id === "pest") return pest ? { evidence: "composer.json requires pestphp/pest" } : undefined;
  if (pest) return undefined;
  if (composer.includes('"phpunit/phpunit"'))
    return { evidence: "composer.json requires phpunit/phpunit" };
  const xml = firstExisting(view, dir, ["phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"]);
  return xml === undefined ? undefined : { evidence: xml };
}

function detectDotnet(view: ProjectView, dir: string): Detection | undefined {
  const names = view.list(dir);
  // A project inside a solution is tested from the solution's folder, where `dotnet test` sees every test project.
  if (!names.some((name) => /\.slnx?$/.test(name)) && hasSolutionAbove(view, dir)) return undefined;
  const manifest =
    names.find((name) => name.endsWith(".sln") || name.endsWith(".slnx")) ??
    names.find((name) => name.endsWith(".csproj")) ??
    (names.includes("global.json") ? "global.json" : undefined);
  return manifest === undefined ? undefined : { evidence: manifest };
}

function hasSolutionAbove(view: ProjectView, dir: string): boolean {
  let current = dir;
  while (current !== "") {
    current = dirnameRel(current);
    if (view.list(current).some((name) => /\.slnx?$/.test(name))) return true;
  }
  return false;
}

/** Path of a source file below the usual source roots, for mirrored test trees. */
function mirrored(src: string, roots: readonly string[]): string {
  for (const root of roots) {
    if (src.startsWith(`${root}/`)) return src.slice(root.length + 1);
  }
  return src;
}

function jsTestExtension(src: string, typescript: boolean): string {
  const ext = extensionOf(src);
  if (ext === ".vue" || ext === ".svelte") return typescript ? ".ts" : ".js";
  if (ext === ".jsx" && typescript) return ".tsx";
  if (ext === ".js" && typescript) return ".ts";
  return ext;
}

function jsCandidates(
  src: string,
  testDir: string | undefined,
  ctx: CandidateContext,
  kinds: readonly string[],
): string[] {
  const dir = dirnameRel(src);
  const stem = stemOf(src);
  const ext = jsTestExtension(src, ctx.typescript);
  const beside = kinds.map((kind) => joinRel(dir, `${stem}.${kind}${ext}`));
  const nested = joinRel(dir, "__tests__", `${stem}.test${ext}`);
  const inDir =
    testDir === undefined
      ? []
      : [
          joinRel(testDir, dirnameRel(mirrored(src, ["src", "lib"])), `${stem}.test${ext}`),
          joinRel(testDir, `${stem}.test${ext}`),
        ];
  return testDir === undefined ? [...beside, nested] : [...inDir, ...beside, nested];
}

function classNames(files: readonly string[]): string[] {
  return [...new Set(files.map((file) => stemOf(file)))];
}

const NODE_LABELS: Readonly<Record<keyof typeof NODE_COMMANDS, string>> = {
  vitest: "vitest",
  jest: "jest",
  mocha: "mocha",
  bun: "bun test",
  "node-test": "node --test",
};

const NODE_COMMANDS: Readonly<
  Record<"vitest" | "jest" | "mocha" | "bun" | "node-test", readonly string[]>
> = {
  vitest: ["npx", "vitest", "run"],
  jest: ["npx", "jest"],
  mocha: ["npx", "mocha"],
  bun: ["bun", "test"],
  "node-test": ["node", "--test"],
};

const SPECS: readonly RunnerSpec[] = [
  {
    id: "pytest",
    languages: ["python"],
    label: "pytest",
    detect: detectPytest,
    defaultCommand: ["python3", "-m", "pytest"],
    testDirs: ["tests", "test", "src/tests", "src/test", "testing"],
    fallbackTestDir: "tests",
    testCandidates: (src, testDir) => pythonCandidates(src, testDir ?? "tests"),
    fileCommand: (command, files) => [...command, ...files],
  },
  {
    id: "unittest",
    languages: ["python"],
    label: "unittest",
    detect: detectUnittest,
    defaultCommand: ["python3", "-m", "unittest", "discover", "-s", "tests", "-t", "."],
    testDirs: ["tests", "test"],
    fallbackTestDir: "tests",
    testCandidates: (src, testDir) => pythonCandidates(src, testDir ?? "tests"),
    fileCommand: (command, files) => [
      ...command.slice(0, command.indexOf("unittest") + 1),
      ...files,
    ],
  },
  ...(["vitest", "jest", "mocha", "bun", "node-test"] as const).map((id): RunnerSpec => ({
    id,
    languages: ["javascript", "typescript"],
    label: NODE_LABELS[id],
    detect: (view, dir) => detectNode(view, dir, id),
    defaultCommand: NODE_COMMANDS[id],
    testDirs:
      id === "mocha" || id === "node-test"
        ? ["test", "tests", "__tests__"]
        : ["__tests__", "tests", "test", "src/__tests__", "src/test"],
    fallbackTestDir: id === "mocha" ? "test" : undefined,
    testCandidates: (src, testDir, ctx) => jsCandidates(src, testDir, ctx, ["test", "spec"]),
    fileCommand: (command, files) =>
      id === "jest"
        ? [...command, "--runTestsByPath", ...files]
        : [
            ...command,
            ...(id === "bun" ? files.map((f) => (f.startsWith(".") ? f : `./${f}`)) : files),
          ],
  })),
  {
    id: "deno",
    languages: ["typescript", "javascript"],
    label: "deno test",
    detect: detectDeno,
    defaultCommand: ["deno", "test"],
    testDirs: [],
    fallbackTestDir: undefined,
    testCandidates: (src) => {
      const dir = dirnameRel(src);
      const ext = extensionOf(src);
      return [joinRel(dir, `${stemOf(src)}_test${ext}`), joinRel(dir, `${stemOf(src)}.test${ext}`)];
    },
    fileCommand: (command, files) => [...command, ...files],
  },
  {
    id: "go",
    languages: ["go"],
    label: "go test",
    detect: (view, dir) => (has(view, dir, "go.mod") ? { evidence: "go.mod" } : undefined),
    defaultCommand: ["go", "test", "./..."],
    testDirs: [],
    fallbackTestDir: undefined,
    testCandidates: (src) => [joinRel(dirnameRel(src), `${stemOf(src)}_test.go`)],
    fileCommand: (command, files) => [
      ...command.filter((arg) => arg !== "./..."),
      ...new Set(files.map((file) => `./${dirnameRel(file)}`.replace(/\/$/, ""))),
    ],
  },
  {
    id: "nextest",
    languages: ["rust"],
    label: "cargo nextest",
    detect: (view, dir) =>
      has(view, dir, "Cargo.toml") &&
      (has(view, dir, ".config/nextest.toml") || view.exists(".config/nextest.toml"))
        ? { evidence: "Cargo.toml and .config/nextest.toml" }
        : undefined,
    defaultCommand: ["cargo", "nextest", "run"],
    testDirs: [],
    fallbackTestDir: undefined,
    inline: true,
    testCandidates: rustCandidates,
    fileCommand: rustFileCommand,
  },
  {
    id: "cargo",
    languages: ["rust"],
    label: "cargo test",
    detect: (view, dir) => (has(view, dir, "Cargo.toml") ? { evidence: "Cargo.toml" } : undefined),
    defaultCommand: ["cargo", "test"],
    testDirs: [],
    fallbackTestDir: undefined,
    inline: true,
    testCandidates: rustCandidates,
    fileCommand: rustFileCommand,
  },
  {
    id: "rspec",
    languages: ["ruby"],
    label: "rspec",
    detect: (view, dir) => detectRuby(view, dir, "rspec"),
    defaultCommand: ["bundle", "exec", "rspec"],
    testDirs: ["spec"],
    fallbackTestDir: "spec",
    testCandidates: (src, testDir) => [
      joinRel(
        testDir ?? "spec",
        dirnameRel(mirrored(src, ["lib", "app"])),
        `${stemOf(src)}_spec.rb`,
      ),
    ],
    fileCommand: (command, files) => [...command, ...files],
  },
  {
    id: "minitest",
    languages: ["ruby"],
    label: "minitest",
    detect: (view, dir) => detectRuby(view, dir, "minitest"),
    defaultCommand: ["bundle", "exec", "rake", "test"],
    testDirs: ["test"],
    fallbackTestDir: "test",
    testCandidates: (src, testDir) => [
      joinRel(
        testDir ?? "test",
        dirnameRel(mirrored(src, ["lib", "app"])),
        `${stemOf(src)}_test.rb`,
      ),
    ],
    fileCommand: (_command, files) => [
      "bundle",
      "exec",
      "ruby",
      "-Itest",
      "-Ilib",
      "-e",
      "ARGV.each { |f| require File.expand_path(f) }",
      ...files,
    ],
  },
  ...(["pest", "phpunit"] as const).map((id): RunnerSpec => ({
    id,
    languages: ["php"],
    label: id,
    detect: (view, dir) => detectPhp(view, dir, id),
    defaultCommand: [`vendor/bin/${id}`],
    testDirs: ["tests"],
    fallbackTestDir: "tests",
    testCandidates: (src, testDir, ctx) => phpCandidates(src, testDir ?? "tests", ctx),
    fileCommand: (command, files) =>
      files.length === 1
        ? [...command, ...files]
        : [...command, "--filter", `(${classNames(files).join("|")})`],
  })),
  {
    id: "maven",
    languages: ["java", "kotlin"],
    label: "maven",
    detect: (view, dir) =>
      has(view, dir, "pom.xml")
        ? {
            evidence: "pom.xml",
            command: has(view, dir, "mvnw") ? ["./mvnw", "test"] : ["mvn", "test"],
          }
        : undefined,
    defaultCommand: ["mvn", "test"],
    testDirs: [],
    fallbackTestDir: undefined,
    testCandidates: jvmCandidates,
    fileCommand: (command, files) => [
      ...command,
      `-Dtest=${classNames(files).join(",")}`,
      "-Dsurefire.failIfNoSpecifiedTests=false",
    ],
  },
  {
    id: "gradle",
    languages: ["java", "kotlin"],
    label: "gradle",
    detect: (view, dir) => {
      const file = firstExisting(view, dir, ["build.gradle.kts", "build.gradle"]);
      if (file === undefined) return undefined;
      return {
        evidence: file,
        command: has(view, dir, "gradlew") ? ["./gradlew", "test"] : ["gradle", "test"],
      };
    },
    defaultCommand: ["gradle", "test"],
    testDirs: [],
    fallbackTestDir: undefined,
    testCandidates: jvmCandidates,
    fileCommand: (command, files) => [
      ...command,
      ...classNames(files).flatMap((name) => ["--tests", name]),
    ],
  },
  {
    id: "dotnet",
    languages: ["csharp"],
    label: "dotnet test",
    detect: detectDotnet,
    defaultCommand: ["dotnet", "test"],
    testDirs: [],
    fallbackTestDir: undefined,
    testCandidates: dotnetCandidates,
    fileCommand: (command, files) => [
      ...command,
      "--filter",
      classNames(files)
        .map((name) => `FullyQualifiedName~${name}`)
        .join("|"),
    ],
  },
  {
    id: "swift",
    languages: ["swift"],
    label: "swift test",
    detect: (view, dir) =>
      has(view, dir, "Package.swift") ? { evidence: "Package.swift" } : undefined,
    defaultCommand: ["swift", "test"],
    testDirs: ["Tests"],
    fallbackTestDir: "Tests",
    testCandidates: (src) => {
      const target = src.startsWith("Sources/") ? (src.split("/")[1] ?? "App") : "App";
      return [joinRel("Tests", `${target}Tests`, `${stemOf(src)}Tests.swift`)];
    },
    fileCommand: (command, files) => [...command, "--filter", classNames(files).join("|")],
  },
];

function pythonCandidates(src: string, testDir: string): string[] {
  const raw = stemOf(src);
  const dir = dirnameRel(src);
  // Tests name a module without its leading underscores (`_cached.py` → `test_cached.py`) and a
  // package by its folder (`pkg/__init__.py` → `test_pkg.py`).
  const stem = raw === "__init__" ? (dir.split("/").pop() ?? raw) : raw.replace(/^_+/, "") || raw;
  const sub = dirnameRel(mirrored(src, ["src"]));
  const named = (name: string) => [
    joinRel(testDir, `test_${name}.py`),
    joinRel(testDir, sub, `test_${name}.py`),
    joinRel(testDir, `${name}_test.py`),
    joinRel(dir, `test_${name}.py`),
    joinRel(dir, `${name}_test.py`),
  ];
  return [...new Set([...named(stem), ...(stem === raw ? [] : named(raw))])];
}

function rustCandidates(src: string): string[] {
  return [src];
}

function rustFileCommand(command: readonly string[], files: readonly string[]): string[] {
  const integration = files.filter((file) => file.startsWith("tests/")).map((file) => stemOf(file));
  return [...command, ...integration.flatMap((name) => ["--test", name])];
}

function phpCandidates(src: string, testDir: string, ctx: CandidateContext): string[] {
  const name = `${stemOf(src)}Test.php`;
  const sub = dirnameRel(mirrored(src, ["src", "app"]));
  const feature = /(^|\/)(Http|Controllers)\//.test(src);
  const suites = feature ? ["Feature", "Unit"] : ["Unit", "Feature"];
  const existing = suites.filter((suite) =>
    ctx.view.isDirectory(joinRel(ctx.packageDir, testDir, suite)),
  );
  const preferred = existing.map((suite) => joinRel(testDir, suite, sub, name));
  return [...preferred, joinRel(testDir, sub, name), joinRel(testDir, name)];
}

function jvmCandidates(src: string): string[] {
  const match = /^(.*?)src\/main\/(java|kotlin)\/(.*)$/.exec(src);
  const ext = extensionOf(src);
  const name = `${stemOf(src)}Test${ext}`;
  if (match !== null) {
    const [, prefix = "", lang = "java", rest = ""] = match;
    return [joinRel(prefix, "src/test", lang, dirnameRel(rest), name)];
  }
  return [joinRel("src/test", ext === ".kt" ? "kotlin" : "java", name)];
}

function dotnetCandidates(
  src: string,
  _testDir: string | undefined,
  ctx: CandidateContext,
): string[] {
  const parts = src.split("/");
  const srcIndex = parts[0] === "src" ? 1 : 0;
  const project = parts[srcIndex] ?? "App";
  const rest = parts.slice(srcIndex + 1, -1);
  const name = `${stemOf(src)}Tests.cs`;
  const projects = [`${project}.Tests`, `${project}.Test`, `${project}.UnitTests`];
  const found: string[] = [];
  for (const root of ["tests", "test", ""]) {
    for (const candidate of projects) {
      if (ctx.view.isDirectory(joinRel(ctx.packageDir, root, candidate)))
        found.push(joinRel(root, candidate, ...rest, name));
    }
  }
  return [...found, joinRel("tests", `${project}.Tests`, ...rest, name)];
}

const SPEC_BY_ID = new Map(SPECS.map((spec) => [spec.id, spec]));

function specOf(id: RunnerId): RunnerSpec {
  const spec = SPEC_BY_ID.get(id);
  if (spec === undefined) throw new Error(`unknown runner ${id}`);
  return spec;
}

export function runnerLabel(id: RunnerId): string {
  return specOf(id).label;
}

export function isPackageDir(view: ProjectView, dir: string): boolean {
  // One listing of the folder instead of a stat per manifest name: a project walk asks this of
  // every folder near the root (1,200 of them in a 50,000-file project), and most have none.
  const names = view.list(dir);
  const listed = new Set(names);
  if (MANIFESTS.some((name) => listed.has(name) && has(view, dir, name))) return true;
  return names.some(
    (name) => /^requirements[\w.-]*\.txt$/.test(name) || /\.(csproj|sln)$/.test(name),
  );
}

/**
 * The runners one package uses, at most one per language; earlier table rows win (pytest
 * before the unittest fallback, nextest before plain cargo, pest before phpunit).
 */
export function detectPackageRunners(
  view: ProjectView,
  dir: string,
  overrides: Partial<
    Record<Language, { command?: string[] | undefined; test_dir?: string | undefined }>
  > = {},
): DetectedRunner[] {
  const claimed = new Set<Language>();
  const found: DetectedRunner[] = [];
  for (const spec of SPECS) {
    if (spec.languages.every((language) => claimed.has(language))) continue;
    const detection = spec.detect(view, dir);
    if (detection === undefined) continue;
    const languages = spec.languages.filter((language) => !claimed.has(language));
    for (const language of languages) claimed.add(language);
    const override = overrides[languages[0] as Language];
    const command =
      override?.command ?? detection.command ?? resolveDefaultCommand(spec, view, dir);
    const testDir =
      override?.test_dir ??
      spec.testDirs.find((candidate) => view.isDirectory(joinRel(dir, candidate))) ??
      spec.fallbackTestDir;
    found.push({
      id: spec.id,
      languages,
      package_dir: dir,
      command,
      ...(testDir === undefined ? {} : { test_dir: testDir }),
      evidence:
        override?.command === undefined
          ? detection.evidence
          : `${detection.evidence}; command from config`,
    });
  }
  return found;
}

function resolveDefaultCommand(spec: RunnerSpec, view: ProjectView, dir: string): string[] {
  if (spec.id === "pytest") return pythonCommand(view, dir, "pytest");
  if (spec.id === "vitest" || spec.id === "jest" || spec.id === "mocha")
    return [...jsToolCommand(view, dir, spec.id), ...spec.defaultCommand.slice(2)];
  if (spec.id === "unittest") {
    const testDir =
      spec.testDirs.find((candidate) => view.isDirectory(joinRel(dir, candidate))) ?? "tests";
    return [...pythonCommand(view, dir, "unittest"), "discover", "-s", testDir, "-t", "."];
  }
  return [...spec.defaultCommand];
}

/** The nearest folder at or above `relFile`'s folder that has a manifest of its own. */
export function findOwningPackage(view: ProjectView, relFile: string): string | undefined {
  let dir = dirnameRel(relFile);
  for (;;) {
    if (isPackageDir(view, dir)) return dir;
    if (dir === "") return undefined;
    dir = dirnameRel(dir);
  }
}

export type RunnerResolution =
  { runner: DetectedRunner; reason: string } | { runner: undefined; reason: string };

/**
 * The runner that owns a source file: the nearest package (walking up from the file) that has
 * a runner for its language. Python falls back to unittest when nothing names pytest.
 */
export function resolveRunner(
  view: ProjectView,
  relFile: string,
  language: Language,
  overrides: Parameters<typeof detectPackageRunners>[2] = {},
): RunnerResolution {
  let dir = dirnameRel(relFile);
  let firstPackage: string | undefined;
  for (;;) {
    if (isPackageDir(view, dir)) {
      firstPackage ??= dir;
      const runner = detectPackageRunners(view, dir, overrides).find((r) =>
        r.languages.includes(language),
      );
      if (runner !== undefined) {
        const where = dir === "" ? "the project root" : `${dir}/`;
        return { runner, reason: `${runner.evidence} in ${where}` };
      }
    }
    if (dir === "") break;
    dir = dirnameRel(dir);
  }
  if (language === "python") {
    const packageDir = firstPackage ?? "";
    const spec = specOf("unittest");
    return {
      runner: {
        id: "unittest",
        languages: ["python"],
        package_dir: packageDir,
        command: overrides.python?.command ?? resolveDefaultCommand(spec, view, packageDir),
        test_dir:
          overrides.python?.test_dir ??
          spec.testDirs.find((d) => view.isDirectory(joinRel(packageDir, d))) ??
          "tests",
        evidence: "no pytest configuration found (unittest fallback)",
      },
      reason: "no pytest configuration found, so the standard library's unittest",
    };
  }
  return { runner: undefined, reason: `no ${language} test runner found for ${relFile}` };
}

/**
 * Every package in the project (root plus folders up to `maxDepth` deep) and its runners, with
 * the config's per-language command overrides applied.
 */
export function detectProjectRunners(
  view: ProjectView,
  maxDepth = 2,
  overrides: Parameters<typeof detectPackageRunners>[2] = {},
): DetectedRunner[] {
  const skip =
    /^(node_modules|\.[^/]*|dist|build|target|vendor|venv|__pycache__|coverage|fixtures)$/;
  const dirs: string[] = [""];
  let frontier = [""];
  for (let depth = 0; depth < maxDepth; depth += 1) {
    const next: string[] = [];
    for (const dir of frontier) {
      for (const name of view.list(dir)) {
        const child = joinRel(dir, name);
        if (!skip.test(name) && view.isDirectory(child)) next.push(child);
      }
    }
    dirs.push(...next);
    frontier = next;
  }
  return dirs
    .filter((dir) => isPackageDir(view, dir))
    .flatMap((dir) => detectPackageRunners(view, dir, overrides));
}

/** The test file (or inline block) that covers a source file, preferring one that exists. */
export function findTestTarget(
  view: ProjectView,
  runner: DetectedRunner,
  relFile: string,
): TestTarget {
  const spec = specOf(runner.id);
  const pkg = runner.package_dir;
  const src = pkg === "" ? relFile : relFile.slice(pkg.length + 1);
  if (spec.inline === true) return { kind: "inline", path: relFile, exists: true };
  // node --test before Node 22.6 loads no .ts test without a loader in its command: a tsconfig
  // there is for typings, and a JavaScript source gets a JavaScript test.
  const tsconfig =
    has(view, pkg, "tsconfig.json") && (runner.id !== "node-test" || hasTsLoader(runner.command));
  const typescript =
    runner.languages.includes("typescript") && (tsconfig || extensionOf(src).includes("ts"));
  const candidates = spec.testCandidates(src, runner.test_dir, {
    view,
    packageDir: pkg,
    typescript,
  });
  const withRoot = candidates.map((candidate) => joinRel(pkg, candidate));
  const existing = withRoot.find((candidate) => view.exists(candidate));
  return { kind: "file", path: existing ?? withRoot[0] ?? relFile, exists: existing !== undefined };
}

/** Whether a `node --test` command loads TypeScript itself (Node before 22.6 does not). */
export function hasTsLoader(command: readonly string[]): boolean {
  return command.some((arg) =>
    /^--(import|loader|require|experimental-strip-types|experimental-transform-types)/.test(arg),
  );
}

/** argv that runs the given test files with a runner, from its package folder. */
export function commandForTestFiles(
  runner: DetectedRunner,
  relTestFiles: readonly string[],
): string[] {
  const pkg = runner.package_dir;
  const local = relTestFiles.map((file) => (pkg === "" ? file : file.slice(pkg.length + 1)));
  return specOf(runner.id).fileCommand(runner.command, local);
}

export function describeTestTarget(target: TestTarget): string {
  return target.kind === "inline" ? `add #[cfg(test)] block to ${target.path}` : target.path;
}
