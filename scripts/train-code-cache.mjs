// Builds the V8 code cache an adapter ships beside its hook bundle (core's node/code-cache.ts):
// the bundle is evaluated once in this process, a few hook calls recorded from the real agents
// run through it in throw-away projects (follow, tdd and strict mode), and everything they
// compiled is written to dist/hook-main.<hash>-<v8>-<arch>.cache, the hash being the one this
// script first stamps on the bundle's first line (code-cache.ts, `stampBuild`). The calls are the ones that
// run on every edit or tool call; a session start or an end of turn compiles the rest lazily.
//
// Run by each adapter's build (tsup.config.base.ts), from the adapter's folder:
//   node ../../scripts/train-code-cache.mjs dist/hook-main.cjs
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundle = resolve(process.argv[2] ?? "dist/hook-main.cjs");
/** Follow mode's answer to an edit, in a bundle of its own beside the main one (ADR 0010). */
const postBundle = join(dirname(bundle), "hook-post.cjs");
/** tdd and strict mode's gate and record around an edit tool, in another (ADR 0010). */
const gateBundle = join(dirname(bundle), "hook-gate.cjs");
const adapter = basename(resolve(dirname(bundle), ".."));
const { stampBuild, trainCodeCache } = await import(
  pathToFileURL(join(repo, "packages/core/dist/node/code-cache.js")).href
);
// The node flags the hook commands around a tool call run with (launcher.ts `hookNodeFlags`):
// V8 takes a cache only under the flags it was made with, and a cache's name carries them, so
// each route trains under its calls' flags. The end of a turn and the rest (a session's start, a
// turn's start) run with none.
const { HOOK_NODE_FLAGS } = await import(
  pathToFileURL(join(repo, "packages/core/dist/node/quiet.js")).href
);
const UNFLAGGED_ROUTES = new Set(["stop", "other"]);

/**
 * The recorded payloads each agent's calls are made of (fixtures/payloads, see its README), per
 * route (core's hook/node/launcher.ts `routeOf`): each route's cache is trained in a fresh evaluation of the
 * bundle, so it holds only what that kind of call runs.
 */
/** A shell command that writes a file, as the recorded Codex one does (a heredoc into a file). */
const SHELL_WRITE = "cat > src/billing.py <<'EOF'\ndef charge(amount):\n    return amount\nEOF\n";

const CALLS = {
  "claude-code": {
    dir: "claude-2.1.330",
    pre: ["context.PreToolUse-Write"],
    post: ["context.PostToolUse-Write"],
    // No Bash PostToolUse was recorded from Claude Code: the recorded Write, as a Bash call.
    shell: [
      {
        file: "context.PostToolUse-Write",
        with: { tool_name: "Bash", tool_input: { command: SHELL_WRITE }, tool_response: {} },
      },
    ],
    // No Bash PreToolUse was recorded from Claude Code either: the recorded Write, as one.
    preShell: [
      {
        file: "context.PreToolUse-Write",
        with: { tool_name: "Bash", tool_input: { command: SHELL_WRITE } },
      },
    ],
    other: ["context.SessionStart", "context.UserPromptSubmit", "context.Stop"],
  },
  codex: {
    dir: "codex-0.169.0",
    pre: ["context.PreToolUse-apply_patch"],
    post: ["context.PostToolUse-apply_patch"],
    shell: ["shell.PostToolUse-Bash"],
    preShell: ["shell.PreToolUse-Bash"],
    other: ["context.SessionStart", "context.UserPromptSubmit", "context.Stop"],
  },
  cursor: {
    dir: "cursor",
    pre: ["gate.preToolUse-Write"],
    post: ["edit.afterFileEdit", "edit.postToolUse-Write"],
    shell: [
      {
        file: "shell.postToolUse-Shell",
        with: { tool_input: { command: SHELL_WRITE } },
      },
    ],
    preShell: ["gate.preToolUse-Shell"],
    other: ["edit.sessionStart", "edit.beforeSubmitPrompt", "edit.stop"],
  },
};

const calls = CALLS[adapter];
if (calls === undefined) throw new Error(`no training calls for adapter ${adapter}`);

const box = mkdtempSync(join(tmpdir(), "tailtest-train-"));
const saved = { cwd: process.cwd(), env: { ...process.env } };
/**
 * The state folder of the training's sessions: the gate bundle's tdd and strict projects get the
 * copy of their session's mode there, as a started session leaves it, so their gates read and
 * append tailtest's copies of the state logs (state-copy.ts), as nearly every gate does.
 */
const state = join(box, "state");
const { setWitness } = await import(
  pathToFileURL(join(repo, "packages/core/dist/node/index.js")).href
);

/**
 * A git project with the pytest fixture and the files the recorded payloads name; `witnessed`:
 * with the copy of its session's mode (the gate bundle alone reads nothing else of a session).
 */
function makeProject(name, mode, witnessed = false) {
  const root = join(box, name, "project");
  cpSync(join(repo, "fixtures/runners/pytest-pyproject"), root, { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "src/billing.py"), "def charge(amount):\n    return amount\n");
  commitProject(root, mode);
  if (witnessed && mode !== "follow")
    setWitness(root, ".tailtest/session.json", mode, { XDG_STATE_HOME: state });
  return root;
}

/** The project's config in `mode`, and its files committed to a new git repository. */
function commitProject(root, mode) {
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(join(root, ".tailtest/config.json"), `${JSON.stringify({ mode })}\n`);
  const git = (...args) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "fixture");
}

/**
 * The vitest fixture with a TypeScript source its test imports, for the post route: an edit
 * there runs what a Python project's edit never reaches (package.json's runner detection, the
 * runner's suite shape, a tsconfig's layout). Adding node --test and jest projects too cost a
 * Python edit 2.6 M instructions more (a 564 KB cache against 545 KB) and saved a TypeScript one
 * run by node --test nothing: what they add is mostly each runner's own few functions.
 */
function makeTypeScriptProject(name) {
  const root = join(box, name, "project");
  cpSync(join(repo, "fixtures/runners/vitest"), root, { recursive: true });
  writeFileSync(join(root, "src/billing.ts"), "export const charge = (amount) => amount;\n");
  writeFileSync(
    join(root, "src/billing.test.ts"),
    'import { charge } from "./billing";\nconsole.log(charge(1));\n',
  );
  commitProject(root, "follow");
  return root;
}

/** The recorded calls, made of the TypeScript project's `src/billing.ts`. */
const asTypeScript = (list) =>
  list.map((call) => ({
    ...(typeof call === "string" ? { file: call } : call),
    rename: ["src/billing.py", "src/billing.ts"],
  }));

/**
 * A recorded call (a file name, or `{ file, with, rename }` to change some of its fields, or the
 * file it names).
 */
function payload(call, root) {
  const file = typeof call === "string" ? call : call.file;
  let text = readFileSync(join(repo, "fixtures/payloads", calls.dir, `${file}.json`), "utf8")
    .replaceAll("<run>/project", root)
    .replaceAll("<run>", dirname(root));
  if (typeof call !== "string" && call.rename !== undefined)
    text = text.replaceAll(call.rename[0], call.rename[1]);
  const recorded = JSON.parse(text);
  if (typeof call !== "string") recorded.stdin = { ...recorded.stdin, ...call.with };
  return recorded;
}

async function run(main, root, files) {
  for (const file of files) {
    const { stdin, env } = payload(file, root);
    process.chdir(root);
    process.env = {
      ...saved.env,
      ...env,
      CLAUDE_PROJECT_DIR: root,
      CURSOR_PROJECT_DIR: root,
      XDG_STATE_HOME: state,
    };
    const output = await main.answerHook(JSON.stringify(stdin));
    if (output === undefined)
      throw new Error(`training call ${JSON.stringify(file)}: not answered`);
    // Cursor writes what only the person reads to stderr, its hooks output channel: the end of
    // a turn's line ("tailtest: 1 edited file, 1 test passed (40 ms)") and strict's word on an edit its
    // gate did not let through (a training edit comes with no claim). Anything else is a failure.
    const personLine =
      /^tailtest(: \d+ edited files?, | strict: \S+ changed without a claim)[^\n]*\n$/;
    if (output.exitCode !== 0 || (output.stderr !== "" && !personLine.test(output.stderr)))
      throw new Error(`training call ${JSON.stringify(file)} failed: ${output.stderr}`);
  }
}

/**
 * `import("fs/promises")` and the like, left in the bundle by a library (the shell parser's
 * WebAssembly loader), become a require through the bundle's own `require` (its banner names it
 * __tailtestNodeRequire: the loader declares a `require` of its own in the same function). Node 20
 * runs no import() from a script compiled from a code cache ("A dynamic import callback was not
 * specified"), and esbuild's own lowering of import() would call that shadowed `require`.
 */
function lowerNodeImports(file) {
  const text = readFileSync(file, "utf8");
  const lowered = text.replace(
    /\bimport\((["'])((?:node:)?[a-z_/]+)\1\)/g,
    (_all, _quote, name) => `Promise.resolve(__tailtestNodeRequire(${JSON.stringify(name)}))`,
  );
  const left = /\bimport\(/.exec(lowered);
  if (left !== null)
    throw new Error(`${file}: an import() that is not of a node module is left at ${left.index}`);
  writeFileSync(file, lowered);
}

/** Makes a bundle ready to be cached: its import()s lowered, its hash stamped. */
function prepare(file) {
  lowerNodeImports(file);
  // A hook reads an ASCII bundle without decoding it: a character outside ASCII in a regular
  // expression (esbuild escapes the ones in strings) costs every hook call ~10%.
  if (!stampBuild(file).ascii)
    console.warn(`${file} is not pure ASCII: write such characters as \\u escapes`);
}

/**
 * Each route's cache is made in a process of its own: V8 shares what it compiled among scripts of
 * the same source in one process, so a route trained after another carried the other's functions
 * too (the later routes' caches were a third larger, deserialized by every call that used them).
 */
const ROUTES = {
  // After an edit in follow mode, from hook-post.cjs: the note on a file already queued, the
  // call an agent makes on nearly every edit. The session's first edit (its creation: the lock,
  // proper-lockfile, the whole session schema) is played through node's own loading of the
  // bundle, another script to V8, so the cache holds none of it: every call deserialises all of
  // a cache, and a session's first edit is one call in many (its own local caches are never
  // kept either, code-cache.ts `keepCache`).
  // The session is started first, through the main bundle (another script: nothing of it enters
  // this cache), as every real session is: its start builds the import graph, so the edit's note
  // reads it for the tests covering the file. Trained without it, the cache held none of that
  // path, and every queued edit of a real session compiled it again (~27 M instructions).
  // JavaScript projects' edits are trained too, in the same process: their runner detection
  // and suite shapes (~9 M instructions of lazy compiling on a real TypeScript project's every
  // edit) cost a Python project's edit the deserialisation of a slightly larger cache only.
  "post-follow": async () => {
    const root = makeProject("post-follow", "follow");
    const typed = makeTypeScriptProject("post-follow-ts");
    const main = createRequire(import.meta.url)(bundle);
    await run(main, root, calls.other.slice(0, 1));
    await run(main, typed, asTypeScript(calls.other.slice(0, 1)));
    const post = createRequire(import.meta.url)(postBundle);
    await run(post, root, calls.post);
    await run(post, typed, asTypeScript(calls.post));
    return trainCodeCache(postBundle, "post", async (trained) => {
      await run(trained, root, calls.post);
      await run(trained, typed, asTypeScript(calls.post));
    });
  },
  // Around an edit in tdd and strict mode, from hook-gate.cjs: the gates before, the records
  // after. The gate before an edit has a cache per mode (launcher.ts `partRoute`): `pre` for
  // tdd's, `pre-strict` for strict's, so neither deserialises the other's functions. Each is
  // trained on a gate in a project with state, as nearly every gate is: the agent's tdd log
  // already there, strict's log read from its checkpoint and the lines since. A project's first
  // gate (which creates the state) and strict's first reading of a log (which replays it and
  // writes the checkpoint) are played through node's own loading of the bundle, another script
  // to V8, so the cache holds none of what they alone run.
  "gate-pre": async () => {
    const root = makeProject("gate-pre-tdd", "tdd", true);
    await run(createRequire(import.meta.url)(gateBundle), root, calls.pre);
    return trainCodeCache(gateBundle, "pre", (gate) => run(gate, root, calls.pre));
  },
  "gate-pre-strict": async () => {
    const root = makeProject("gate-pre-strict", "strict", true);
    await run(createRequire(import.meta.url)(gateBundle), root, [...calls.pre, ...calls.pre]);
    return trainCodeCache(gateBundle, "pre-strict", (gate) => run(gate, root, calls.pre));
  },
  "gate-post": () =>
    trainCodeCache(gateBundle, "post", async (gate) => {
      await run(gate, makeProject("gate-post-tdd", "tdd", true), calls.post);
      await run(gate, makeProject("gate-post-strict", "strict", true), calls.post);
    }),
  // Before a tool, what hook-gate.cjs leaves (a gate whose config does not say the mode).
  pre: () =>
    trainCodeCache(bundle, "pre", async (main) => {
      await run(main, makeProject("pre-tdd", "tdd"), calls.pre);
      await run(main, makeProject("pre-strict", "strict"), calls.pre);
    }),
  // After a tool, what the smaller bundles leave.
  post: () =>
    trainCodeCache(bundle, "post", async (main) => {
      await run(main, makeProject("post-tdd", "tdd"), calls.post);
      await run(main, makeProject("post-strict", "strict"), calls.post);
    }),
  // The end of a turn that runs the edited file's test, so the test engine, execa and the report
  // parser come from the cache: a Stop starts its runner that much sooner. The turn before it is
  // played through node's own loading of the bundle (another script to V8), so the cache holds
  // only what the Stop compiles.
  stop: async () => {
    const root = makeProject("stop", "follow");
    writeFileSync(
      join(root, "tests/test_billing.py"),
      "from src.billing import charge\n\n\ndef test_charge():\n    assert charge(1) == 1\n",
    );
    const [start, prompt, stop] = calls.other;
    await run(createRequire(import.meta.url)(bundle), root, [start, prompt, ...calls.post]);
    return trainCodeCache(bundle, "stop", (main) => run(main, root, [stop]));
  },
  // The rest: a session's start and a turn's start (and a Stop with nothing queued).
  other: () =>
    trainCodeCache(bundle, "other", async (main) => {
      await run(main, makeProject("other", "follow"), calls.other);
    }),
  // After a shell command that writes: the bash grammar's loader and reader, under the V8 flag
  // that route sets (code-cache.ts FLAGGED_ROUTES).
  shell: () =>
    trainCodeCache(bundle, "shell", async (main) => {
      await run(main, makeProject("shell", "follow"), calls.shell);
    }),
  // Before a shell command in tdd and strict mode: the gate and the bash grammar, under the
  // same flags.
  "pre-shell": () =>
    trainCodeCache(bundle, "pre-shell", async (main) => {
      await run(main, makeProject("pre-shell-tdd", "tdd"), calls.preShell);
      await run(main, makeProject("pre-shell-strict", "strict"), calls.preShell);
    }),
};

const only = process.argv.indexOf("--route");
try {
  if (only !== -1) {
    // A child: one route, its cache file's name on stdout.
    const route = ROUTES[process.argv[only + 1]];
    if (route === undefined) throw new Error(`no route ${process.argv[only + 1]}`);
    console.log(basename(await route()));
  } else {
    prepare(bundle);
    prepare(postBundle);
    prepare(gateBundle);
    const script = fileURLToPath(import.meta.url);
    const written = Object.keys(ROUTES).map((name) =>
      execFileSync(
        process.execPath,
        [...(UNFLAGGED_ROUTES.has(name) ? [] : HOOK_NODE_FLAGS), script, bundle, "--route", name],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
      ).trim(),
    );
    // Caches of earlier builds of this bundle are of no use to anyone.
    for (const name of readdirSync(dirname(bundle)))
      if (name.endsWith(".cache") && !written.includes(name))
        rmSync(join(dirname(bundle), name), { force: true });
    console.log(`code caches: ${written.join(", ")}`);
  }
} finally {
  process.chdir(saved.cwd);
  process.env = saved.env;
  rmSync(box, { recursive: true, force: true });
}
