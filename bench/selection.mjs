#!/usr/bin/env node
// The selection acceptance run on the real-project corpus (fixtures/projects/): installs the
// packed adapter of an agent the way a user does (Claude Code unless --agent names codex or
// cursor), and per seeded edit fires that agent's real hook sequence through the hook commands
// its `init` wrote (Claude Code: SessionStart, PreToolUse(Edit), the edit, PostToolUse(Edit),
// Stop; Codex: the same with apply_patch; Cursor: sessionStart, preToolUse(Write), the edit,
// postToolUse(Write), afterFileEdit, stop). Reports per project and overall: seeded bugs caught (the Stop blocks),
// false blocks on harmless edits, existing modules mapped to a test that really covers them
// (`tailtest explain --json`), edits whose note names a test that really covers the file, and
// the Stop's wall time against running the same selected test files directly with the
// project's runner in the same run.
//
//   node bench/selection.mjs [--project NAME]... [--agent claude-code|codex|cursor] [--check]
//                            [--json FILE] [--keep] [--mode follow|tdd|strict]
//   node bench/selection.mjs --verify [--project NAME]...   (seeds against the project's own runner)
//
// --mode tdd plays the same seeds in tdd mode: each production edit under a Green declared with
// the refactoring escape hatch (`tailtest green --skip-red`), so the gate lets it through and the
// Stop's run of the turn's tests must judge it; a test-break seed, which needs a Red that expects
// its test to fail, is not played. --mode strict plays every seed in strict mode: a production
// edit under `tailtest refactor start` (the Stop runs the full suite), a test's edit as it is
// (the Stop runs the turn's tests). A gate that denies a seed's edit is a hook problem.
// --check exits 1 when catch < 95 %, a harmless edit blocked, or mapped < 95 %.
// --verify applies every seed to a copy and runs the project's full suite with its own runner:
// a `block` seed must make exactly its `failing` files red (at least them), a `pass` seed must
// leave the suite green. It prints each project's full-suite wall time. With --write, a block
// seed's `failing` list is replaced by the files the run really reported red.
// A project whose toolchain is missing (python3 with pytest, cargo, go, npm) is skipped with
// the reason printed.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
// TAILTEST_CORPUS points the run at another folder of the same shape: a project tried out and not
// committed (a snapshot whose code may not enter the repository) is run exactly as the corpus is.
const CORPUS =
  process.env.TAILTEST_CORPUS === undefined || process.env.TAILTEST_CORPUS === ""
    ? join(REPO, "fixtures/projects")
    : resolve(process.env.TAILTEST_CORPUS);
const CACHE = join(REPO, "node_modules/.cache/tailtest/projects");
const z = createRequire(join(REPO, "packages/core/package.json"))("zod");

const TARGETS = { catch: 0.95, falseBlocks: 0, mapped: 0.95, stopRatio: 1.2 };

const Seed = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  kind: z.enum(["indirect", "named", "test-break", "harmless"]),
  file: z.string().min(1),
  find: z.string().min(1),
  replace: z.string(),
  expect: z.enum(["block", "pass"]),
  failing: z.array(z.string()),
  why: z.string().min(1),
});

const Project = z
  .strictObject({
    /** The public repository and commit the snapshot was taken from… */
    repo: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/)
      .optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .optional(),
    /** …or how an official starter was generated from the npm registry and what was added to it. */
    generated: z.string().min(1).optional(),
    license: z.string().min(1),
    license_file: z.string().min(1),
    runner: z.enum([
      "pytest",
      "unittest",
      "vitest",
      "jest",
      "node-test",
      "mocha",
      "tap",
      "tape",
      "ava",
      "uvu",
      "jasmine",
      "cargo",
      "go",
    ]),
    setup: z.enum(["venv", "npm", "none"]),
    /** The full suite's wall time with the project's runner (--verify prints it), for reference. */
    full_suite_seconds: z.number().positive(),
    layout: z.string().min(1),
    changes: z.array(z.string()),
    source_root: z.string().optional(),
    /** false: the venv gets no .pth and no metadata, the project's own config finds its sources. */
    editable: z.boolean().optional(),
    /** The oldest pytest the project's config accepts (its `minversion`), when it is past Debian's. */
    pytest_min: z
      .string()
      .regex(/^\d+(\.\d+)*$/)
      .optional(),
    /** A Django app's settings module: its tests run by `python -m django test --settings=…`. */
    django_settings: z
      .string()
      .regex(/^[\w.]+$/)
      .optional(),
    /** Python modules the tests import that come from Debian's packages (checked before a run). */
    python_imports: z.array(z.string().regex(/^\w+$/)).optional(),
    npm: z.record(z.string(), z.string()).optional(),
    /** What the project's own test script names for the whole suite, when not the runner's default. */
    suite: z.array(z.string()).optional(),
    /** Variables the project's test script sets for its runner (`cross-env FORCE_COLOR=2 vitest`). */
    env: z.record(z.string(), z.string()).optional(),
    modules_evidence: z.string().min(1),
    modules: z.record(z.string(), z.array(z.string()).min(1)),
    seeds: z.array(Seed).min(1),
  })
  .refine(
    (meta) =>
      (meta.repo !== undefined && meta.commit !== undefined) !== (meta.generated !== undefined),
    {
      message: "either repo and commit, or generated",
    },
  );

// ---------------------------------------------------------------------------------------------
// Arguments and the corpus

function parseArgs(argv) {
  const args = {
    projects: [],
    seeds: [],
    check: false,
    json: undefined,
    verify: false,
    write: false,
    keep: false,
    agent: "claude-code",
    mode: "follow",
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--project") args.projects.push(argv[(i += 1)]);
    else if (arg === "--check") args.check = true;
    else if (arg === "--verify") args.verify = true;
    else if (arg === "--keep") args.keep = true;
    else if (arg === "--write") args.write = true;
    else if (arg === "--seed") args.seeds.push(argv[(i += 1)]);
    else if (arg === "--json") args.json = argv[(i += 1)];
    else if (arg === "--agent") args.agent = argv[(i += 1)];
    else if (arg === "--mode") args.mode = argv[(i += 1)];
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Object.hasOwn(AGENTS, args.agent))
    throw new Error(`--agent: one of ${Object.keys(AGENTS).join(", ")}, not ${args.agent}`);
  if (!["follow", "tdd", "strict"].includes(args.mode))
    throw new Error(`--mode: follow, tdd or strict, not ${args.mode}`);
  return args;
}

export function loadCorpus(only = []) {
  const names = readdirSync(CORPUS)
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .filter((name) => only.length === 0 || only.includes(name))
    .sort();
  for (const name of only)
    if (!names.includes(name))
      throw new Error(`no project ${name} in ${relative(REPO, CORPUS) || CORPUS}`);
  return names.map((name) => {
    const parsed = Project.safeParse(
      JSON.parse(readFileSync(join(CORPUS, `${name}.json`), "utf8")),
    );
    if (!parsed.success)
      throw new Error(`fixtures/projects/${name}.json: ${z.prettifyError(parsed.error)}`);
    const meta = parsed.data;
    const dir = join(CORPUS, name);
    for (const file of [meta.license_file, ...Object.keys(meta.modules)])
      if (!existsSync(join(dir, file))) throw new Error(`${name}: ${file} does not exist`);
    for (const tests of Object.values(meta.modules))
      for (const file of tests)
        if (!existsSync(join(dir, file))) throw new Error(`${name}: test ${file} does not exist`);
    for (const seed of meta.seeds) {
      const text = readFileSync(join(dir, seed.file), "utf8");
      if (text.split(seed.find).length !== 2)
        throw new Error(`${name}: seed ${seed.id}: "find" must occur once in ${seed.file}`);
      if ((seed.expect === "block") !== seed.failing.length > 0)
        throw new Error(`${name}: seed ${seed.id}: a block seed names its failing files`);
    }
    return { name, dir, meta };
  });
}

// ---------------------------------------------------------------------------------------------
// Toolchains, set-up and the project's own runner

const has = (command, args = ["--version"]) =>
  spawnSync(command, args, { stdio: "ignore" }).status === 0;

/**
 * Debian's python3 first: its pytest (and pytest-django, freezegun, hypothesis) come from
 * python3-*; then the PATH's, for a project whose pytest `minversion` Debian's pytest is
 * older than (`pytest_min`).
 */
function systemPython(meta = {}) {
  const least = meta.pytest_min?.split(".").map(Number);
  // A pre-release's parts ("9.0.0rc1") stop at the first that is not a number.
  const recent =
    least === undefined
      ? ""
      : `\nimport itertools\nv = tuple(int(p) for p in itertools.takewhile(str.isdigit, pytest.__version__.split(".")))\nassert v >= (${least.join(", ")},)`;
  for (const python of ["/usr/bin/python3", "python3"])
    if (has(python, ["-c", `import pytest${recent}`])) return python;
  return undefined;
}

export function missingToolchain(meta) {
  switch (meta.runner) {
    case "pytest":
    case "unittest": {
      const python = systemPython(meta);
      if (python === undefined)
        return meta.pytest_min === undefined
          ? "no python3 with pytest (Debian: python3-pytest)"
          : `no python3 with pytest ${meta.pytest_min} or later`;
      if (meta.python_imports !== undefined) {
        if (!has(python, ["-c", `import ${meta.python_imports.join(", ")}`]))
          return `no ${meta.python_imports.join(", ")} for ${python} (from Debian's python3-* packages)`;
      } else if (meta.npm === undefined && meta.layout.includes("django"))
        if (!has(python, ["-c", "import django, pytest_django"]))
          return "no Django with pytest-django (Debian: python3-django python3-pytest-django)";
      return undefined;
    }
    case "cargo":
      return has("cargo") ? undefined : "no cargo";
    case "go":
      return has("go", ["version"]) ? undefined : "no go (Debian: golang-go)";
    default:
      if (meta.setup === "npm" && !has("npm")) return "no npm";
      return undefined;
  }
}

/** The runner's test devDependencies, installed once per checkout under node_modules/.cache. */
function npmCache(name, meta) {
  const dir = join(CACHE, name);
  const wanted = JSON.stringify({ private: true, devDependencies: meta.npm }, null, 2);
  const stamp = join(dir, ".installed");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${wanted}\n`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 600_000,
  });
  writeFileSync(stamp, wanted);
  return dir;
}

function git(cwd, ...args) {
  execFileSync("git", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/**
 * A working copy of a corpus project in `dest`, set up as its own developer would: a venv with
 * the system's pytest and a .pth for the sources, or the runner's node_modules (each installed
 * package linked from the cache, so a package can still be added beside them), then a git
 * repository with everything committed.
 */
export function prepare(project, dest) {
  const { name, dir, meta } = project;
  cpSync(dir, dest, { recursive: true, verbatimSymlinks: true });
  // Every file of a snapshot was tracked upstream (it came from `git archive`), a file its own
  // .gitignore matches too (graphql/dataloader's src/index.js under an `index.js` pattern).
  git(dest, "init", "-q");
  git(dest, "add", "-A", "--force");
  if (meta.setup === "venv") {
    const python = systemPython(meta);
    execFileSync(python, ["-m", "venv", "--system-site-packages", join(dest, ".venv")]);
    const lib = join(dest, ".venv/lib");
    const site = join(lib, readdirSync(lib)[0], "site-packages");
    if (meta.editable !== false) {
      writeFileSync(join(site, "corpus-source.pth"), `${join(dest, meta.source_root ?? "")}\n`);
      editableMetadata(dest, site);
    }
  }
  if (meta.setup === "npm") {
    const modules = join(npmCache(name, meta), "node_modules");
    mkdirSync(join(dest, "node_modules"));
    for (const entry of readdirSync(modules))
      symlinkSync(join(modules, entry), join(dest, "node_modules", entry));
    linkWorkspaces(dest);
  }
  writeFileSync(
    join(dest, ".gitignore"),
    `${existsSync(join(dest, ".gitignore")) ? readFileSync(join(dest, ".gitignore"), "utf8") : ""}node_modules/\n.venv/\ntarget/\n__pycache__/\n`,
  );
  git(dest, "add", "-A");
  git(
    dest,
    "-c",
    "user.name=corpus",
    "-c",
    "user.email=corpus@example.invalid",
    "commit",
    "-qm",
    "snapshot",
  );
}

/**
 * What `npm install` does for an npm workspace (package.json `workspaces`, folders or `dir/*`):
 * each package linked into the root's node_modules by its name, so `import 'micromark'` from a
 * test or from another package reaches the package's folder, as in the developer's checkout.
 */
function linkWorkspaces(dest) {
  const root = JSON.parse(readFileSync(join(dest, "package.json"), "utf8"));
  const listed = Array.isArray(root.workspaces)
    ? root.workspaces
    : (root.workspaces?.packages ?? []);
  const folders = listed.flatMap((entry) => {
    if (!entry.endsWith("/*")) return [entry];
    const parent = entry.slice(0, -2);
    return readdirSync(join(dest, parent)).map((child) => `${parent}/${child}`);
  });
  for (const folder of folders) {
    const manifest = join(dest, folder, "package.json");
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, "utf8"));
    const link = join(dest, "node_modules", name);
    if (typeof name !== "string" || existsSync(link)) continue;
    const scope = dirname(link);
    if (existsSync(scope) && lstatSync(scope).isSymbolicLink()) {
      // A scope linked whole from the cache: a folder of links instead, so the cache is not written.
      const cached = realpathSync(scope);
      rmSync(scope);
      mkdirSync(scope);
      for (const entry of readdirSync(cached)) symlinkSync(join(cached, entry), join(scope, entry));
    }
    mkdirSync(scope, { recursive: true });
    symlinkSync(relative(dirname(link), join(dest, folder)), link);
  }
}

/**
 * What `pip install -e .` leaves in site-packages besides the path: the distribution's metadata
 * (click's tests read its version through importlib.metadata) with its entry points
 * (Python-Markdown finds its extensions by entry point). Debian's setuptools is too old for some
 * projects' pyproject.toml and there is no index, so it is written from `[project]` and
 * `[project.entry-points.'group']` directly.
 */
function editableMetadata(dest, site) {
  const file = join(dest, "pyproject.toml");
  if (!existsSync(file)) return;
  const text = readFileSync(file, "utf8");
  const project = /^\[project\]\s*\n((?:[^[\n].*\n|\n)*)/m.exec(text)?.[1] ?? "";
  const name = /^name\s*=\s*["']([^"']+)["']/m.exec(project)?.[1];
  if (name === undefined) return;
  const version = /^version\s*=\s*["']([^"']+)["']/m.exec(project)?.[1] ?? "0.dev0";
  const groups = [
    ...text.matchAll(/^\[project\.entry-points\.["']?([^\]"']+)["']?\]\n((?:[^[\n].*\n)*)/gm),
  ];
  // `[project.scripts]`: the console scripts pip writes into the venv's bin/ (tests run them by
  // name, with the venv's bin/ on PATH as an activated venv has it).
  const scripts = /^\[project\.scripts\]\n((?:[^[\n].*\n)*)/m.exec(text)?.[1];
  if (scripts !== undefined) {
    groups.push([undefined, "console_scripts", scripts]);
    for (const [, script, module, func] of scripts.matchAll(
      /^([\w.-]+)\s*=\s*["']([\w.]+):([\w.]+)["']/gm,
    )) {
      const bin = join(dirname(dirname(dirname(site))), "bin", script);
      writeFileSync(
        bin,
        `#!${join(dirname(dirname(dirname(site))), "bin/python")}\nimport sys\nfrom ${module} import ${func.split(".")[0]}\nif __name__ == "__main__":\n    sys.exit(${func}())\n`,
      );
      chmodSync(bin, 0o755);
    }
  }
  const info = join(site, `${name.replace(/-/g, "_")}-${version}.dist-info`);
  mkdirSync(info);
  writeFileSync(
    join(info, "METADATA"),
    `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
  );
  if (groups.length === 0) return;
  const entries = groups.map(
    ([, group, body]) => `[${group}]\n${body.replace(/["']/g, "").replace(/ = /g, " = ")}`,
  );
  writeFileSync(join(info, "entry_points.txt"), `${entries.join("\n")}\n`);
}

const python = (cwd) => join(cwd, ".venv/bin/python");

/** The argv that runs the whole suite, or only `files`, with the project's own runner. */
export function runnerArgv(meta, cwd, files) {
  const some = files ?? meta.suite ?? [];
  switch (meta.runner) {
    case "pytest": {
      // Chosen files run with the doctest collection the project's own suite asks for.
      const doctests = files !== undefined && (meta.suite ?? []).includes("--doctest-modules");
      const extra = doctests ? ["--doctest-modules"] : [];
      return [
        python(cwd),
        "-m",
        "pytest",
        "-q",
        "-rfE",
        "-p",
        "no:cacheprovider",
        ...extra,
        ...some,
      ];
    }
    case "unittest":
      // A Django app's tests run by Django's runner with its settings, files as dotted modules.
      if (meta.django_settings !== undefined)
        return [
          python(cwd),
          "-m",
          "django",
          "test",
          `--settings=${meta.django_settings}`,
          "--noinput",
          ...(files ?? []).map((file) => file.replace(/\.py$/, "").replaceAll("/", ".")),
        ];
      return some.length > 0
        ? [python(cwd), "-m", "unittest", ...some]
        : [python(cwd), "-m", "unittest", "discover", "-s", "tests", "-t", "."];
    case "vitest":
      return ["node_modules/.bin/vitest", "run", "--reporter=verbose", ...some];
    case "jest":
      // A suite of several configs (`--projects . test/jest-e2e.json`) takes chosen files by path.
      if (files !== undefined && meta.suite !== undefined)
        return [
          "node_modules/.bin/jest",
          "--ci",
          "--coverage=false",
          ...meta.suite,
          "--runTestsByPath",
          ...files,
        ];
      return ["node_modules/.bin/jest", "--ci", "--coverage=false", ...some];
    case "node-test":
      return ["node", "--test", "--test-reporter=tap", ...some];
    case "mocha":
      return ["node_modules/.bin/mocha", "--reporter", "json", ...some];
    case "tap":
      return ["node_modules/.bin/tap", tapCoverageOff(cwd), "--reporter=tap", ...some];
    case "ava":
      return ["node_modules/.bin/ava", "--tap", ...some];
    case "tape":
      return ["node_modules/.bin/tape", ...some];
    case "jasmine":
      // The config's spec_files are replaced by files named on the command line.
      return ["node_modules/.bin/jasmine", ...(meta.suite ?? []), ...(files ?? [])];
    case "uvu": {
      // uvu takes a folder and a pattern, not files: chosen files are one anchored pattern from
      // the root, with the suite's preloaded modules (`-r esm`).
      if (files === undefined) return ["node_modules/.bin/uvu", "-c", "false", ...some];
      const requires = uvuRequires(meta.suite ?? []);
      const pattern = `^(${files.map((file) => file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
      return ["node_modules/.bin/uvu", "-c", "false", ...requires, ".", pattern];
    }
    case "cargo": {
      // As tailtest's plan does (runners/cargo.ts): integration tests by target, with a source
      // file among them the crate's unit tests too; source files alone run every target (cargo
      // cannot pick tests by source file).
      // A source file with doc tests (not the crate root) runs every target (`--doc` cannot be
      // mixed with others).
      const doc = some.some(
        (file) =>
          !file.startsWith("tests/") &&
          !/^src\/(lib|main)\.rs$/.test(file) &&
          /^\s*\/\/[/!]\s*```|#!?\[doc\s*=\s*include_str!/m.test(
            readFileSync(join(cwd, file), "utf8"),
          ),
      );
      const integration = doc ? [] : some.filter((file) => file.startsWith("tests/"));
      const unit =
        integration.length > 0 && integration.length < some.length
          ? [existsSync(join(cwd, "src/lib.rs")) ? "--lib" : "--bins"]
          : [];
      // The whole suite is every member's (`cargo test` at a root that is itself a package
      // runs that package alone; rustc-demangle's CI runs `cargo test --all`).
      return [
        "cargo",
        "test",
        "--offline",
        "--no-fail-fast",
        ...(files === undefined ? ["--workspace"] : []),
        ...unit,
        ...integration.flatMap((file) => ["--test", file.slice("tests/".length, -".rs".length)]),
      ];
    }
    case "go": {
      // Chosen test files run their packages, as tailtest's plan does (runners/go.ts); the
      // whole module otherwise.
      if (files === undefined) return ["go", "test", "-count=1", "./..."];
      const dirs = [...new Set(files.map((file) => `./${dirname(file)}`.replace(/\/\.$/, "")))];
      return ["go", "test", "-count=1", ...dirs];
    }
    default:
      throw new Error(`no runner ${meta.runner}`);
  }
}

/** tap 18+ refuses `--no-coverage`: it spells it `--disable-coverage` (runners/tap.ts). */
function tapCoverageOff(cwd) {
  const manifest = join(cwd, "node_modules/tap/package.json");
  const major = existsSync(manifest)
    ? Number(/^(\d+)\./.exec(JSON.parse(readFileSync(manifest, "utf8")).version)?.[1])
    : 0;
  return major >= 18 ? "--disable-coverage" : "--no-coverage";
}

/** The modules a uvu suite preloads (`-r esm`), for a run of chosen files. */
function uvuRequires(suite) {
  return suite.flatMap((arg, i) =>
    /^(-r|--require)$/.test(suite[i - 1] ?? "") ? ["-r", arg] : [],
  );
}

function runRunner(meta, cwd, files) {
  // A Cargo workspace's files run per crate, from its folder, as tailtest's plan does.
  if (meta.runner === "cargo" && files !== undefined) {
    const crates = new Map();
    for (const file of files) {
      let dir = dirname(file);
      while (dir !== "." && !existsSync(join(cwd, dir, "Cargo.toml"))) dir = dirname(dir);
      const rel = dir === "." ? file : file.slice(dir.length + 1);
      crates.set(dir, [...(crates.get(dir) ?? []), rel]);
    }
    if (crates.size > 1 || !crates.has(".")) {
      const runs = [...crates].map(([dir, some]) => runOne(meta, join(cwd, dir), some));
      const output = runs.map((run) => run.output).join("\n");
      const ms = runs.reduce((sum, run) => sum + run.ms, 0);
      const status = runs.find((run) => run.status !== 0)?.status ?? 0;
      return { ms, status, output, failing: failingFiles(meta, cwd, output) };
    }
  }
  return runOne(meta, cwd, files);
}

function runOne(meta, cwd, files) {
  const [command, ...args] = runnerArgv(meta, cwd, files);
  const started = process.hrtime.bigint();
  // A venv project's developer runs its tests in the activated venv: its bin/ (console
  // scripts the tests start by name) first on PATH.
  const venv =
    meta.setup === "venv" ? { PATH: `${join(cwd, ".venv/bin")}:${process.env.PATH}` } : {};
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...meta.env, ...venv, CI: "true" },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 600_000,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const output = `${result.stdout}\n${result.stderr}`;
  return { ms, status: result.status, output, failing: failingFiles(meta, cwd, output) };
}

/** The test files a run reported red, read from the runner's own output. */
function failingFiles(meta, cwd, coloured) {
  // vitest 4 colours its report even into a pipe when CI is set.
  // eslint-disable-next-line no-control-regex
  const output = coloured.replace(/\x1b\[[0-9;]*m/g, "");
  const found = new Set();
  const add = (file) => found.add(file.startsWith(cwd) ? file.slice(cwd.length + 1) : file);
  const each = (regex, pick = (m) => m[1]) => {
    for (const match of output.matchAll(regex)) add(pick(match));
  };
  switch (meta.runner) {
    case "pytest":
      // A doctest file (`--doctest-glob "*.rst"`) is a test file too.
      each(/^(?:FAILED|ERROR) ([^\s:]+\.(?:py|rst|md|txt))/gm);
      break;
    case "unittest":
      // "FAIL: test_x (tests.test_apis.TestBlockParser.test_x)": the longest dotted prefix that
      // is a file of the project is the test file.
      // A class built in a function names it: "(pkg.tests.test_x.make.<locals>.TestX.test_y)".
      for (const match of output.matchAll(/^(?:FAIL|ERROR): \S+ \(([\w.<>]+)\)(\nDoctest: )?/gm)) {
        // A doctest names its source module: the test file whose load_tests adds it is red.
        if (match[2] !== undefined) {
          const loader = doctestLoader(cwd, match[1]);
          if (loader !== undefined) found.add(loader);
          continue;
        }
        const parts = match[1].split(".");
        // Tests inside a src-layout package are named from the source root.
        const roots = meta.source_root === undefined ? [""] : ["", `${meta.source_root}/`];
        search: for (let n = parts.length; n > 0; n -= 1)
          for (const root of roots) {
            const file = `${root}${parts.slice(0, n).join("/")}.py`;
            if (existsSync(join(cwd, file))) {
              found.add(file);
              break search;
            }
          }
      }
      break;
    case "vitest":
      // A named project prefixes its files: "FAIL  |zustand| tests/x.test.tsx", or without
      // the bars once colours are stripped.
      each(/^\s*(?:FAIL|×)\s+(?:(?:\|[^|\n]+\||[^\s/]+)\s+)?(\S+\.[cm]?[jt]sx?)\b/gm);
      break;
    case "jest":
      // "FAIL test/x.test.js", or with a project's displayName "FAIL Unit Tests __tests__/x.test.js";
      // " FAIL " in inverse video, uncoloured, when the suite forces colours (--color=true).
      each(/^ ?FAIL\s+(?:.*\s)?(\S+\.[cm]?[jt]sx?)\b/gm);
      break;
    case "node-test":
      // Node 20's tap names suites, not files: a failure's YAML block has its location.
      each(/^\s*not ok \d+ - .*\n\s*---\n(?:\s+.*\n)*?\s+location: '([^']+?):\d+:\d+'/gm);
      break;
    case "ava":
      // ava's TAP titles a test by its file's path under test/ (or tests/), without `.test`,
      // `.spec` and its extension: "not ok 3 - chalk › title" for test/chalk.js,
      // "parse › duration › title" for tests/parse/duration.test.ts.
      each(/^not ok \d+ - (.+? › .+)$/gm, (m) => {
        const parts = m[1].split(" › ");
        const ext = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"];
        for (let take = parts.length - 1; take >= 1; take -= 1) {
          const rel = parts.slice(0, take).join("/");
          const names = ["test", "tests"].flatMap((dir) =>
            ["", ".test", ".spec"].flatMap((mid) => ext.map((e) => `${dir}/${rel}${mid}${e}`)),
          );
          const file = names.find((f) => existsSync(join(cwd, f)));
          if (file !== undefined) return file;
        }
        return `test/${parts[0]}.js`;
      });
      break;
    case "jasmine": {
      // The console reporter's "Failures:" list: each failure's stack names its spec file.
      if (output.includes("\nFailures:"))
        each(/(?:file:\/\/)?(\/\S+?\.[cm]?js):\d+:\d+/g, (m) => m[1]);
      for (const file of [...found]) if (!/spec\.[cm]?js$/.test(file)) found.delete(file);
      break;
    }
    case "uvu": {
      // uvu prints each file's name (relative to the folder it was given) before its suites.
      const folder = (meta.suite ?? []).find(
        (arg, i, all) =>
          !arg.startsWith("-") && !/^-[ri]$|^--(require|ignore)$/.test(all[i - 1] ?? ""),
      );
      let file;
      for (const line of output.split("\n")) {
        if (/^\S+\.[cm]?[jt]sx?$/.test(line))
          file = [line, join(folder ?? ".", line)].find((path) => existsSync(join(cwd, path)));
        else if (/^\s+FAIL\s/.test(line)) found.add(file ?? "<uvu file>");
      }
      break;
    }
    case "tap":
      // tap's own report: each file is a top-level subtest, "not ok 3 - test/x.js # time=…".
      each(/^not ok \d+ - (\S+\.[cm]?[jt]s)\b/gm);
      break;
    case "tape": {
      // tape names no file: a failed assertion's `at:` does, and a run that threw, its stack
      // (the deepest frame in a test folder).
      each(/^\s+at: .*?\(?((?:file:\/\/)?\/[^\s():]+):\d+:\d+\)?$/gm, (m) =>
        m[1].replace(/^file:\/\//, ""),
      );
      if (found.size === 0 && !/^# fail\s+0\b/m.test(output)) {
        const frames = [...output.matchAll(/\((\/[^\s():]+):\d+:\d+\)/g)]
          .map((m) => m[1])
          .filter((file) => file.startsWith(`${cwd}/`) && !file.includes("/node_modules/"))
          .map((file) => file.slice(cwd.length + 1))
          .filter((file) => /^tests?\//.test(file));
        if (frames.length > 0) found.add(frames[0]);
      }
      break;
    }
    case "mocha": {
      const start = output.indexOf("{");
      try {
        const report = JSON.parse(output.slice(start, output.lastIndexOf("}") + 1));
        // mocha before 6 names no file: the first frame of the failure's stack in a test.
        const frameFile = (stack) =>
          [...(stack ?? "").matchAll(/^\s*at (?:.* \()?([^\s()]+):\d+:\d+\)?$/gm)]
            .map((m) => (m[1].startsWith(`${cwd}/`) ? m[1].slice(cwd.length + 1) : m[1]))
            .find((file) => /^tests?\//.test(file));
        for (const failure of report.failures ?? [])
          add(failure.file ?? frameFile(failure.err?.stack));
      } catch {
        found.add("<unreadable mocha report>");
      }
      break;
    }
    case "cargo": {
      // cargo's own summary on stderr: "error: test failed, to rerun pass `--test test_version`",
      // in a workspace with the package: "`-p anstyle-git --lib`"; a doc test by its file:
      // "---- crates/anstyle/src/effect.rs - effect::Effects::clear (line 119) stdout ----".
      const crates = cargoPackages(cwd);
      const at = (name) => {
        const dir = name === undefined ? "" : (crates.get(name) ?? name);
        return dir === "" ? "" : `${dir}/`;
      };
      each(/to rerun pass `(?:-p ([\w-]+) )?--test (\w+)`/g, (m) => `${at(m[1])}tests/${m[2]}.rs`);
      // The library's root is Cargo.toml's `[lib] path` when it names one (rust-fnv: lib.rs).
      const libRoot = (prefix) => {
        const manifest = readFileSync(join(cwd, prefix, "Cargo.toml"), "utf8");
        const lib = /^\s*\[lib\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(manifest)?.[1] ?? "";
        return `${prefix}${/^\s*path\s*=\s*"([^"]+)"/m.exec(lib)?.[1] ?? "src/lib.rs"}`;
      };
      each(/to rerun pass `(?:-p ([\w-]+) )?--lib`/g, (m) => libRoot(at(m[1])));
      // A crate-level doc test names no item: "---- lib.rs - (line 30) stdout ----".
      each(/^---- (\S+\.rs) - (?:.* )?\(line \d+\) stdout ----$/gm);
      if (/^error(\[E\d+\]: |: could not compile)/m.test(output)) found.add("<compile error>");
      break;
    }
    case "go": {
      // go test names a failing file without its folder; the package's own `FAIL\t<import
      // path>` line, which follows its tests' output, gives the folder in the module.
      const gomod = join(cwd, "go.mod");
      const module = existsSync(gomod)
        ? /^module\s+(\S+)/m.exec(readFileSync(gomod, "utf8"))?.[1]
        : undefined;
      let pending = [];
      for (const line of output.split("\n")) {
        const file = /^\s+(\w+_test\.go):\d+:/.exec(line)?.[1];
        if (file !== undefined) pending.push(file);
        const pkg = /^(?:FAIL|ok)\s+(\S+)/.exec(line)?.[1];
        if (pkg === undefined) continue;
        const dir =
          module !== undefined && pkg.startsWith(`${module}/`) ? pkg.slice(module.length + 1) : "";
        for (const name of pending) add(dir === "" ? name : `${dir}/${name}`);
        pending = [];
      }
      for (const name of pending) add(name);
      if (/^FAIL\s/m.test(output) && found.size === 0) found.add("<go package>");
      break;
    }
    default:
      break;
  }
  return [...found].sort();
}

/** A Cargo workspace's packages by name → folder (manifests up to three folders down). */
function cargoPackages(cwd) {
  const found = new Map();
  const walk = (dir, depth) => {
    for (const entry of readdirSync(join(cwd, dir), { withFileTypes: true })) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory() && depth < 3 && !/^(\.|target$|node_modules$)/.test(entry.name))
        walk(rel, depth + 1);
      else if (entry.name === "Cargo.toml") {
        const text = readFileSync(join(cwd, rel), "utf8");
        const name = /^\[package\][^[]*?^name\s*=\s*"([\w-]+)"/ms.exec(text)?.[1];
        if (name !== undefined) found.set(name, dir);
      }
    }
  };
  walk("", 0);
  return found;
}

/** The test file under tests/ that adds a module's doctests (`DocTestSuite('pkg.module')`). */
function doctestLoader(cwd, module) {
  const walk = (dir) =>
    readdirSync(join(cwd, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(dir, entry.name))
        : /^test.*\.py$/.test(entry.name)
          ? [join(dir, entry.name)]
          : [],
    );
  const tail = module.split(".").at(-1);
  return walk("tests").find((file) =>
    new RegExp(`DocTestSuite\\(\\s*(['"]${module.replace(/\./g, "\\.")}['"]|${tail}\\b)`).test(
      readFileSync(join(cwd, file), "utf8"),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// --verify: every seed against the project's own runner

function verify(projects, write = false) {
  let bad = 0;
  const report = [];
  for (const project of projects) {
    const missing = missingToolchain(project.meta);
    if (missing !== undefined) {
      console.log(`${project.name}: skipped (${missing})`);
      continue;
    }
    const scratch = mkdtempSync(join(tmpdir(), "tailtest-corpus-"));
    const cwd = join(scratch, project.name);
    let rewrite = false;
    try {
      prepare(project, cwd);
      const baseline = runRunner(project.meta, cwd);
      const entry = { project: project.name, suite_ms: Math.round(baseline.ms), seeds: [] };
      report.push(entry);
      console.log(
        `${project.name}: full suite ${baseline.status === 0 ? "green" : "RED"} in ${(baseline.ms / 1000).toFixed(1)} s`,
      );
      if (baseline.status !== 0) {
        bad += 1;
        console.log(baseline.output.slice(-3000));
        continue;
      }
      for (const seed of project.meta.seeds) {
        const path = join(cwd, seed.file);
        const original = readFileSync(path, "utf8");
        writeFileSync(
          path,
          original.replace(seed.find, () => seed.replace),
        );
        const run = runRunner(project.meta, cwd);
        writeFileSync(path, original);
        const ok =
          seed.expect === "pass"
            ? run.status === 0
            : run.status !== 0 && seed.failing.every((file) => run.failing.includes(file));
        const exact = ok && seed.failing.length === run.failing.length;
        if (write && seed.expect === "block" && run.status !== 0 && run.failing.length > 0) {
          seed.failing = run.failing;
          rewrite = true;
        } else if (!ok) bad += 1;
        entry.seeds.push({ id: seed.id, ok, failing: run.failing });
        console.log(
          `  ${ok ? (exact ? "ok  " : "ok+ ") : "BAD "} ${seed.id} (${seed.kind}): exit ${run.status}, red: ${run.failing.join(", ") || "none"}`,
        );
        if (!ok && process.env.CORPUS_VERBOSE) console.log(run.output.slice(-4000));
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    if (rewrite) {
      const file = join(CORPUS, `${project.name}.json`);
      const stored = JSON.parse(readFileSync(file, "utf8"));
      for (const seed of stored.seeds)
        seed.failing =
          project.meta.seeds.find((one) => one.id === seed.id)?.failing ?? seed.failing;
      writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`);
      console.log(`  wrote the observed failing files into fixtures/projects/${project.name}.json`);
    }
  }
  return { bad, report };
}

// ---------------------------------------------------------------------------------------------
// The acceptance run: the packed adapter and Claude Code's hook sequence

/** A recorded payload of an agent's (`fixtures/payloads/`), its run folder filled in. */
function payload(agent, name, run) {
  const text = readFileSync(
    join(REPO, "fixtures/payloads", agent.payloads, `${name}.json`),
    "utf8",
  );
  return JSON.parse(text.replaceAll("<run>", run)).stdin;
}

/** Codex's apply_patch text replacing `find` with `replace` in `rel`, one hunk. */
function patchOf(rel, find, replace) {
  const lines = (text, sign) =>
    text
      .replace(/\n$/, "")
      .split("\n")
      .map((line) => `${sign}${line}`);
  return [
    "*** Begin Patch",
    `*** Update File: ${rel}`,
    "@@",
    ...lines(find, "-"),
    ...lines(replace, "+"),
    "*** End Patch",
    "",
  ].join("\n");
}

/**
 * The agents a seed can be sent through: where each one's adapter is built, its recorded
 * payloads, where `init` writes its hook commands, one turn's payloads shaped as its own (a
 * session start, the edit's gate, what follows the edit, the end of the turn), and how its
 * answers read: the end of a turn blocking, its reason, the note an edit gets.
 */
/** How Claude Code's and Codex's answers read: one JSON protocol. */
const JSON_ANSWERS = {
  blocked: (answer) => answer.decision === "block",
  reason: (answer) => String(answer.reason ?? ""),
  note: (answer) => String(answer.hookSpecificOutput?.additionalContext ?? ""),
  opening: (answer) =>
    String(answer.hookSpecificOutput?.additionalContext ?? answer.systemMessage ?? ""),
};

const AGENTS = {
  "claude-code": {
    adapter: "adapters/claude-code",
    payloads: "claude-2.1.330",
    commands: (project) => groupedCommands(join(project, ".claude/settings.json")),
    env: (project) => ({ CLAUDE_PROJECT_DIR: project }),
    turn({ run, cwd, session, path, seed, original }) {
      const base = (name) => ({ ...payload(this, name, run), session_id: session, cwd });
      const input = {
        file_path: path,
        old_string: seed.find,
        new_string: seed.replace,
        replace_all: false,
      };
      return {
        start: ["SessionStart", base("context.SessionStart")],
        pre: [
          "PreToolUse",
          { ...base("context.PreToolUse-Write"), tool_name: "Edit", tool_input: input },
        ],
        after: [
          [
            "PostToolUse",
            {
              ...base("context.PostToolUse-Write"),
              tool_name: "Edit",
              tool_input: input,
              tool_response: {
                filePath: path,
                oldString: seed.find,
                newString: seed.replace,
                originalFile: original,
                structuredPatch: [],
                userModified: false,
                replaceAll: false,
              },
            },
          ],
        ],
        stop: ["Stop", { ...base("context.Stop"), stop_hook_active: false }],
      };
    },
    ...JSON_ANSWERS,
  },
  codex: {
    adapter: "adapters/codex",
    payloads: "codex-0.169.0",
    commands: (project) => groupedCommands(join(project, ".codex/hooks.json")),
    env: () => ({}),
    turn({ run, cwd, session, seed }) {
      const turn = `${session}-turn`;
      // A session's start carries no turn; every event of the turn carries the same one.
      const base = (name) => ({
        ...payload(this, name, run),
        session_id: session,
        ...(name.endsWith("SessionStart") ? {} : { turn_id: turn }),
        cwd,
      });
      const command = patchOf(seed.file, seed.find, seed.replace);
      return {
        start: ["SessionStart", base("context.SessionStart")],
        pre: ["PreToolUse", { ...base("context.PreToolUse-apply_patch"), tool_input: { command } }],
        after: [
          [
            "PostToolUse",
            {
              ...base("context.PostToolUse-apply_patch"),
              tool_input: { command },
              tool_response: `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM ${seed.file}\n`,
            },
          ],
        ],
        stop: ["Stop", { ...base("context.Stop"), stop_hook_active: false }],
      };
    },
    ...JSON_ANSWERS,
  },
  cursor: {
    adapter: "adapters/cursor",
    payloads: "cursor",
    commands(project) {
      const config = JSON.parse(readFileSync(join(project, ".cursor/hooks.json"), "utf8"));
      return Object.fromEntries(
        Object.entries(config.hooks).map(([event, hooks]) => [event, hooks[0].command]),
      );
    },
    env: (project) => ({ CURSOR_PROJECT_DIR: project }),
    turn({ run, session, path, seed, original }) {
      const base = (name) => ({
        ...payload(this, name, run),
        conversation_id: session,
        session_id: session,
      });
      const content = original.replace(seed.find, () => seed.replace);
      return {
        start: ["sessionStart", base("edit.sessionStart")],
        pre: [
          "preToolUse",
          { ...base("gate.preToolUse-Write"), tool_input: { file_path: path, content } },
        ],
        after: [
          [
            "postToolUse",
            {
              ...base("edit.postToolUse-Write"),
              tool_input: { file_path: path, content },
              tool_output: `Wrote ${content.split("\n").length} lines to ${seed.file}`,
            },
          ],
          [
            "afterFileEdit",
            {
              ...base("edit.afterFileEdit"),
              file_path: path,
              edits: [{ old_string: seed.find, new_string: seed.replace }],
            },
          ],
        ],
        stop: ["stop", { ...base("edit.stop"), status: "completed", loop_count: 0 }],
      };
    },
    // A green end of a turn is one line in Cursor's Hooks output channel (its stderr); in tdd or
    // strict the mode's own line takes its place (the escape hatch used, a claim's verdict).
    says: (event, stderr) =>
      event === "Stop" && /^tailtest(?: tdd| strict)?: [^\n]*\n?$/.test(stderr),
    blocked: (answer) =>
      typeof answer.followup_message === "string" && answer.followup_message !== "",
    reason: (answer) => String(answer.followup_message ?? ""),
    note: (answer) => String(answer.additional_context ?? ""),
    opening: (answer) => String(answer.additional_context ?? answer.user_message ?? ""),
  },
};

/** Each event's first hook command in Claude Code's and Codex's shape (`hooks.<event>[].hooks[]`). */
function groupedCommands(file) {
  const settings = JSON.parse(readFileSync(file, "utf8"));
  return Object.fromEntries(
    Object.entries(settings.hooks).map(([event, groups]) => [
      event,
      groups.flatMap((group) => group.hooks.map((hook) => hook.command))[0],
    ]),
  );
}

/**
 * Installs the packed adapter once into a prefix, as `npm install <tarball>` does for a user:
 * `pnpm pack` (what publishing writes: workspace ranges made exact, no build) of the adapter and
 * of `@tailtest/cli`, which owns the `tailtest` command the adapter depends on, both installed
 * together offline.
 */
function installAdapter(scratch, agent) {
  const adapterDir = join(REPO, agent.adapter);
  if (!existsSync(join(adapterDir, "dist/hook.cjs")))
    throw new Error("build first: npx -y pnpm@10.34.9 build");
  const tarballs = [adapterDir, join(REPO, "packages/cli")].map((dir) => {
    const before = new Set(readdirSync(scratch));
    execFileSync(
      "npx",
      ["-y", "pnpm@10.34.9", "pack", "--config.ignore-scripts=true", "--pack-destination", scratch],
      { cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
    );
    const made = readdirSync(scratch).find((name) => name.endsWith(".tgz") && !before.has(name));
    if (made === undefined) throw new Error(`pnpm pack in ${dir} wrote no tarball`);
    return join(scratch, made);
  });
  const prefix = join(scratch, "prefix");
  mkdirSync(prefix);
  writeFileSync(join(prefix, "package.json"), '{"private":true}\n');
  execFileSync(
    "npm",
    ["install", ...tarballs, "--offline", "--no-audit", "--no-fund", "--loglevel=error"],
    {
      cwd: prefix,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  return join(prefix, "node_modules/@tailtest", basename(agent.adapter));
}

function fire(agent, command, project, stdin) {
  const started = process.hrtime.bigint();
  const result = spawnSync("bash", ["-c", command], {
    cwd: project,
    env: { ...process.env, ...agent.env(project) },
    input: JSON.stringify(stdin),
    encoding: "utf8",
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  let output;
  try {
    output = result.stdout.trim() === "" ? {} : JSON.parse(result.stdout);
  } catch {
    output = { unreadable: result.stdout.slice(0, 500) };
  }
  return { ms, status: result.status, stderr: result.stderr, output };
}

/** The test files `tailtest explain --json` selects for a file, and its selection cost. */
function explain(project, file) {
  const result = spawnSync(
    "node",
    [join(project, "node_modules/@tailtest/cli/dist/bin.js"), "explain", "--json", file],
    { cwd: project, encoding: "utf8", timeout: 120_000 },
  );
  let entry;
  let whole;
  try {
    whole = JSON.parse(result.stdout);
    entry = whole.files?.[0];
  } catch {
    return { tests: [], error: result.stderr.trim().split("\n")[0] ?? "unreadable" };
  }
  const related = entry?.related_tests ?? entry?.relatedTests;
  const tests = Array.isArray(related)
    ? related.map((test) => test.path)
    : entry?.target?.exists === true && typeof entry.target.path === "string"
      ? [entry.target.path]
      : [];
  const cost = whole?.selection_ms ?? entry?.selection_ms;
  return { tests, cost: typeof cost === "number" ? cost : undefined };
}

function edited(seed, original) {
  return original.replace(seed.find, () => seed.replace);
}

/**
 * What the agent declares before a seed's edit in a gating mode, as an agent would: in tdd, a
 * Green with the escape hatch for a change that adds no behaviour (`green --skip-red`), so the
 * gate lets the edit through and the Stop's run of the turn's tests (ADR 0007) must judge it; in
 * strict, `refactor start` for a production file (the Stop then runs the verify command, the full
 * suite, ADR 0008) and nothing for a test file, which strict lets the agent edit (the Stop runs
 * the turn's tests). The answer is a hook-like result, so a refusal is a problem of the run.
 */
function declare(agent, cwd, seed, mode) {
  const argv =
    mode === "tdd"
      ? [
          ...["green", "--skip-red", "--reason", "refactoring"],
          ...["--change", `seeded edit ${seed.id}`, "--file", seed.file],
        ]
      : seed.kind === "test-break"
        ? undefined
        : ["refactor", "start"];
  if (argv === undefined) return undefined;
  const result = spawnSync("node", [join(cwd, "node_modules/@tailtest/cli/dist/bin.js"), ...argv], {
    cwd,
    env: { ...process.env, ...agent.env(cwd) },
    encoding: "utf8",
    timeout: 120_000,
  });
  return {
    ms: 0,
    status: result.status,
    stderr: result.status === 0 ? "" : result.stderr,
    output: {},
  };
}

/** Whether a gate's answer refused the edit, in any agent's shape. */
const denied = (answer) =>
  /"(permissionDecision|permission|decision)":"deny"/.test(JSON.stringify(answer.output));

/** Where a compiled project's build state lives in a run: go's build cache, cargo's target. */
const BUILD_STATE = { go: ["GOCACHE", "gocache"], cargo: ["CARGO_TARGET_DIR", "target"] };

/**
 * A compiled project's build state, copied aside before a Stop so that the direct run starts
 * from the same state (`useBuildState` points the runner at it for the project's run).
 * Undefined for other runners.
 */
function snapshotBuildState(project, run) {
  const state = BUILD_STATE[project.meta.runner];
  if (state === undefined) return undefined;
  const dir = join(run, state[1]);
  const before = join(run, `${state[1]}.before`);
  rmSync(before, { recursive: true, force: true });
  if (existsSync(dir)) cpSync(dir, before, { recursive: true, preserveTimestamps: true });
  else mkdirSync(before, { recursive: true });
  return { dir, before };
}

/** A compiled project's runs (the hooks', the direct ones) share a build state of their own. */
function useBuildState(project, run) {
  for (const [runner, [variable, name]] of Object.entries(BUILD_STATE))
    if (project.meta.runner === runner) process.env[variable] = join(run, name);
    else delete process.env[variable];
}

function runSeed(agent, project, cwd, commands, seed, index, mode = "follow") {
  const run = dirname(cwd);
  const session = `corpus-${project.name}-${index}`;
  const path = join(cwd, seed.file);
  const original = readFileSync(path, "utf8");
  const turn = agent.turn({ run, cwd, session, path, seed, original });
  const send = ([event, stdin]) => fire(agent, commands[event], cwd, stdin);
  const answers = {};
  answers.SessionStart = send(turn.start);
  const declared = mode === "follow" ? undefined : declare(agent, cwd, seed, mode);
  if (declared !== undefined) answers.declared = declared;
  answers.PreToolUse = send(turn.pre);
  // A gate that refuses the edit is a problem of the run: the agent could not make it.
  if (mode !== "follow" && denied(answers.PreToolUse))
    answers.PreToolUse = { ...answers.PreToolUse, status: 2, stderr: "the gate denied the edit" };
  writeFileSync(path, edited(seed, original));
  const after = turn.after.map(send);
  answers.PostToolUse = after[0];
  after.slice(1).forEach((answer, i) => (answers[turn.after[i + 1][0]] = answer));
  const built = snapshotBuildState(project, run);
  const stop = send(turn.stop);
  answers.Stop = stop;
  // The edit's note names a test that really covers the file (its failing tests, or the tests
  // the metadata lists for it), judged for source edits the hook queued.
  const fullNote = agent.note(answers.PostToolUse.output);
  const truth = [...seed.failing, ...(project.meta.modules[seed.file] ?? [])];
  const noteJudged = /\bqueued\b/.test(fullNote) && seed.kind !== "test-break" && truth.length > 0;
  const blocked = agent.blocked(stop.output);
  const reason = agent.reason(stop.output);
  const named = [seed.file, ...seed.failing].some((file) => reason.includes(file));
  const problems = Object.entries(answers)
    .filter(
      ([event, answer]) =>
        answer.status !== 0 || (answer.stderr.trim() !== "" && !agent.says?.(event, answer.stderr)),
    )
    .map(
      ([event, answer]) =>
        `${event}: exit ${answer.status} ${answer.stderr.trim().split("\n")[0] ?? ""}`,
    );
  // The same selected test files, run directly with the project's runner, for the ratio.
  const selected = explain(cwd, seed.file).tests;
  // The direct run builds what the Stop built: the build state goes back to what it was before
  // the Stop. go's cache is keyed by content and would hand the direct run the packages the Stop
  // compiled; cargo's incremental cache would make its rebuild of an unchanged text nearly free.
  // The edited file is then touched, so cargo sees it newer than what it built.
  if (built !== undefined) {
    rmSync(built.dir, { recursive: true, force: true });
    renameSync(built.before, built.dir);
  }
  const now = new Date();
  utimesSync(path, now, now);
  const direct = selected.length > 0 ? runRunner(project.meta, cwd, selected) : undefined;
  writeFileSync(path, original);
  // Each seed starts from the snapshot: tailtest's state of the last seed goes.
  for (const file of readdirSync(join(cwd, ".tailtest")))
    if (/^(cursor-)?session\b/.test(file)) rmSync(join(cwd, ".tailtest", file), { force: true });
  return {
    id: seed.id,
    kind: seed.kind,
    mode,
    expect: seed.expect,
    blocked,
    caught: seed.expect === "block" ? blocked && named : undefined,
    false_block: seed.expect === "pass" ? blocked : undefined,
    note_true: noteJudged ? truth.some((test) => fullNote.includes(test)) : undefined,
    stop_ms: Math.round(stop.ms),
    selected,
    direct_ms: direct === undefined ? undefined : Math.round(direct.ms),
    problems,
    // What the person and the agent read, whole: the session's opening line, the edit's note
    // and the Stop's block text.
    session_start: agent.opening(answers.SessionStart.output),
    note: fullNote,
    reason,
  };
}

/** The project's config in a gating mode, everything else `init` wrote kept. */
function gateProject(cwd, mode) {
  const file = join(cwd, ".tailtest/config.json");
  const config = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...config, mode }, null, 2)}\n`);
}

function acceptance(projects, args) {
  const scratch = mkdtempSync(join(tmpdir(), "tailtest-selection-"));
  const results = [];
  try {
    const agent = AGENTS[args.agent];
    const adapter = installAdapter(scratch, agent);
    const name = basename(agent.adapter);
    for (const project of projects) {
      const missing = missingToolchain(project.meta);
      if (missing !== undefined) {
        console.log(`${project.name}: skipped (${missing})`);
        results.push({ project: project.name, skipped: missing });
        continue;
      }
      const run = join(scratch, project.name);
      const cwd = join(run, "project");
      mkdirSync(run);
      useBuildState(project, run);
      prepare(project, cwd);
      mkdirSync(join(cwd, "node_modules/@tailtest"), { recursive: true });
      symlinkSync(adapter, join(cwd, "node_modules/@tailtest", name));
      // The `tailtest` command comes with the adapter, from the package that owns it.
      symlinkSync(join(dirname(adapter), "cli"), join(cwd, "node_modules/@tailtest/cli"));
      execFileSync("node", [join(cwd, "node_modules/@tailtest", name, "dist/cli.js"), "init"], {
        cwd,
        stdio: ["ignore", "ignore", "pipe"],
      });
      const commands = agent.commands(cwd);
      if (args.mode !== "follow") gateProject(cwd, args.mode);
      // A test's own edit in tdd mode comes under a Red, which expects that test to fail.
      const played = project.meta.seeds.filter(
        (seed) => args.mode !== "tdd" || seed.kind !== "test-break",
      );
      if (played.length < project.meta.seeds.length)
        console.log(
          `${project.name}: ${project.meta.seeds.length - played.length} test-break seed(s) not played in ${args.mode} mode`,
        );
      const seeds = played.map((seed, index) =>
        runSeed(agent, project, cwd, commands, seed, index, args.mode),
      );
      const modules = Object.entries(project.meta.modules).map(([file, truth]) => {
        const { tests, cost, error } = explain(cwd, file);
        return {
          file,
          selected: tests,
          mapped: tests.some((test) => truth.includes(test)),
          cost,
          error,
        };
      });
      results.push(summarise(project.name, seeds, modules));
      printProject(results.at(-1));
    }
  } finally {
    if (!args.keep) rmSync(scratch, { recursive: true, force: true });
    else console.log(`kept ${scratch}`);
  }
  const overall = summarise(
    "overall",
    results.flatMap((result) => result.seeds ?? []),
    results.flatMap((result) => result.modules ?? []),
  );
  return { results, overall };
}

function ratio(part, whole) {
  return whole === 0 ? undefined : part / whole;
}

function summarise(project, seeds, modules) {
  const bugs = seeds.filter((seed) => seed.expect === "block");
  const harmless = seeds.filter((seed) => seed.expect === "pass");
  const timed = seeds.filter((seed) => seed.direct_ms !== undefined);
  const stopMs = timed.reduce((sum, seed) => sum + seed.stop_ms, 0);
  const directMs = timed.reduce((sum, seed) => sum + (seed.direct_ms ?? 0), 0);
  const costs = modules.map((module) => module.cost).filter((cost) => cost !== undefined);
  const judgedNotes = seeds.filter((seed) => seed.note_true !== undefined);
  return {
    project,
    seeds,
    modules,
    caught: bugs.filter((seed) => seed.caught).length,
    bugs: bugs.length,
    catch_rate: ratio(bugs.filter((seed) => seed.caught).length, bugs.length),
    false_blocks: harmless.filter((seed) => seed.false_block).length,
    harmless: harmless.length,
    mapped: modules.filter((module) => module.mapped).length,
    module_count: modules.length,
    mapped_rate: ratio(modules.filter((module) => module.mapped).length, modules.length),
    notes_true: judgedNotes.filter((seed) => seed.note_true).length,
    notes: judgedNotes.length,
    stop_vs_direct: ratio(stopMs, directMs),
    timed_seeds: timed.length,
    selection_ms_max: costs.length > 0 ? Math.max(...costs) : undefined,
    hook_problems: seeds.flatMap((seed) =>
      seed.problems.map((problem) => `${seed.id}: ${problem}`),
    ),
  };
}

const pct = (value) => (value === undefined ? "n/a" : `${Math.round(value * 100)} %`);

function row(summary) {
  return `| ${summary.project} | ${summary.caught}/${summary.bugs} (${pct(summary.catch_rate)}) | ${summary.false_blocks}/${summary.harmless} | ${summary.mapped}/${summary.module_count} (${pct(summary.mapped_rate)}) | ${summary.notes_true}/${summary.notes} | ${summary.stop_vs_direct === undefined ? "n/a" : `${summary.stop_vs_direct.toFixed(2)}× (${summary.timed_seeds})`} | ${summary.selection_ms_max ?? "n/a"} |`;
}

function printProject(summary) {
  console.log(row(summary));
  for (const seed of summary.seeds)
    console.log(
      `    ${seed.expect === "block" ? (seed.caught ? "caught" : "MISSED") : seed.false_block ? "FALSE BLOCK" : "quiet"} ${seed.id} (${seed.kind}) stop ${seed.stop_ms} ms, selected: ${seed.selected.join(", ") || "none"}`,
    );
  for (const problem of summary.hook_problems) console.log(`    hook problem: ${problem}`);
}

function printTable({ results, overall }) {
  console.log("");
  console.log(
    "| project | caught | false blocks | modules mapped | notes name a covering test | Stop vs direct (seeds) | selection ms (max) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const result of results)
    console.log(
      result.skipped ? `| ${result.project} | skipped: ${result.skipped} | | | | | |` : row(result),
    );
  console.log(row(overall).replace("| overall |", "| **overall** |"));
}

function missedTargets(overall) {
  const missed = [];
  if ((overall.catch_rate ?? 0) < TARGETS.catch)
    missed.push(`catch rate ${pct(overall.catch_rate)} < 95 %`);
  if (overall.false_blocks > TARGETS.falseBlocks)
    missed.push(`${overall.false_blocks} false block(s)`);
  if ((overall.mapped_rate ?? 0) < TARGETS.mapped)
    missed.push(`mapped ${pct(overall.mapped_rate)} < 95 %`);
  return missed;
}

// ---------------------------------------------------------------------------------------------

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  const projects = loadCorpus(args.projects);
  // --seed ID (repeatable): only those seeds, e.g. to verify a new one.
  if (args.seeds.length > 0)
    for (const project of projects)
      project.meta.seeds = project.meta.seeds.filter((seed) => args.seeds.includes(seed.id));
  if (args.verify) {
    const { bad, report } = verify(projects, args.write);
    if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    process.exitCode = bad === 0 ? 0 : 1;
  } else {
    const outcome = acceptance(projects, args);
    printTable(outcome);
    if (args.json) writeFileSync(args.json, `${JSON.stringify(outcome, null, 2)}\n`);
    const missed = missedTargets(outcome.overall);
    if (missed.length > 0) console.log(`\nmissed: ${missed.join("; ")}`);
    if (args.check && missed.length > 0) process.exitCode = 1;
  }
}
