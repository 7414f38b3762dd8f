import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  count,
  encode,
  expectNoMarker,
  expectSnapshotSeesChanges,
  fuzzSettings,
  garbageArb,
  hugeUnitArb,
  injectedPaths,
  mutate,
  nodeTest,
  PWNED,
  SHELL_NAMES,
  snapshot,
  trimState,
  useFuzzWorld,
  withModes,
  type FuzzMode,
  type FuzzWorld,
  type Mutation,
  type Payload,
} from "./fuzz.ts";
import { runBin } from "./index.ts";

/** What a hook call printed and returned, in process or from the built bin. */
export interface FuzzHookOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** How a checked answer went, counted per mode (TAILTEST_FUZZ_TALLY=1 prints the counts). */
export type FuzzOutcome = "silent" | "context" | "deny" | "block" | "message";

/**
 * One platform as the fuzz suite drives it: its hook (in process and built), its payloads and
 * the protocol check of its answers. Everything else, the eight properties and what they assert
 * about the world, is the suite's, the same for every platform.
 */
export interface FuzzPlatform {
  /** The adapter's name, as the suite's title says it. */
  name: string;
  /** The default fast-check seed (TAILTEST_FUZZ_SEED overrides it). */
  seed: number;
  /** The built hook bin (launcher + bundle). */
  hookBin: string;
  /** The `.tailtest/config.json` of each mode's project. */
  config: (mode: FuzzMode) => Payload;
  /** The adapter's in-process hook: stdin → answer, the same function the bundle runs. */
  runHook: (io: {
    stdin: string;
    env: Record<string, string>;
    cwd: string;
  }) => Promise<FuzzHookOutput>;
  /** The hook's environment as the agent sets it for a project. */
  env: (stdin: string, root: string) => Record<string, string>;
  /**
   * exit 0, no stack trace, and an answer the agent accepts for the call's event; throws (an
   * expect) otherwise. tailtest never answers "allow"; follow mode never denies.
   */
  checkAnswer: (result: FuzzHookOutput, stdin: string, mode: FuzzMode) => FuzzOutcome;
  /** Answers the agent would refuse for a tdd pre-tool call (stdin), each [stdout, stderr]. */
  refused: { stdin: string; answers: readonly (readonly [string, string])[] };
  /** Payloads shaped like the recorded ones, values fuzzed. */
  shapedArb: (w: FuzzWorld, root: string) => fc.Arbitrary<Payload>;
  mutationsArb: (w: FuzzWorld) => fc.Arbitrary<Mutation[]>;
  /** The calls around one tool call with those paths (pre, post, …), and maybe the stop. */
  injectionArb: (
    w: FuzzWorld,
    root: string,
    paths: fc.Arbitrary<string>,
  ) => fc.Arbitrary<Payload[]>;
  /** Fully random JSON, and random objects naming a real event. */
  randomArb: fc.Arbitrary<string>;
  /** Where a 1-2 MB string may go, and the payload with it there. */
  hugePlaceArb: fc.Arbitrary<string>;
  withHuge: (payload: Payload, place: string, unit: string, bytes: number) => Payload;
  /** A random payload made to name the project where the platform finds it from the payload. */
  confine?: (stdin: string, root: string) => string;
  /** The edit of `src/<name>.js` (a write, or a shell command when viaShell) and the stop. */
  runnerCalls: (root: string, name: string, viaShell: boolean) => [Payload, Payload];
  /** Whether a stop's stdout holds the turn (the failing test). */
  holds: (stdout: string) => boolean;
}

/**
 * Bad input: the property-based suite every adapter's hook runs (fast-check).
 * Payloads shaped like the recorded ones with fields fuzzed and mutated, file names and commands
 * that try to reach a shell, fully random JSON, non-JSON stdin and ≥ 1 MB strings go through the
 * adapter's hook in process, in follow, tdd and strict projects without test runner files (so no
 * stop starts a test run), then a sample through the built bin. Every call must resolve with exit
 * 0 and no stack trace, answer what the platform accepts for its event (`checkAnswer`), and leave
 * everything but the project's own state alone: a sentinel folder beside the projects (never read
 * or written; symlinks in each project lead into it), the projects' parent folder, HOME, the test
 * engine's scratch TMPDIR, and no `$(touch …)` / `; touch …` marker may ever appear.
 * Replay a failure with TAILTEST_FUZZ_SEED=<seed>; TAILTEST_FUZZ_SCALE scales the run counts.
 */
export function describeFuzzSuite(platform: FuzzPlatform): void {
  const { seed: SEED, runs: RUNS, params } = fuzzSettings(platform.seed);
  const confine = platform.confine ?? ((stdin: string) => stdin);

  describe(`${platform.name} hook: fuzzed input`, () => {
    const getWorld = useFuzzWorld(platform.config);

    /** One in-process hook call in a mode's project, and every check. */
    async function fire(stdin: string, mode: FuzzMode): Promise<FuzzHookOutput> {
      const { root } = getWorld().projects[mode];
      trimState(root);
      const result = await platform.runHook({ stdin, env: platform.env(stdin, root), cwd: root });
      count(`${mode} ${platform.checkAnswer(result, stdin, mode)}`);
      count("calls in process");
      if (/internal error/.test(result.stderr))
        count(`internal error: ${result.stderr.slice(0, 200)}`);
      expect(snapshot(getWorld()), "nothing outside the project's state changed").toBe(
        getWorld().baseline,
      );
      return result;
    }

    it("the checks can fail: a sentinel read, a new file, a marker, a bad answer are all seen", () => {
      expectSnapshotSeesChanges(getWorld());
      const { stdin, answers } = platform.refused;
      for (const [stdout, stderr] of answers) {
        const refused = () => platform.checkAnswer({ stdout, stderr, exitCode: 0 }, stdin, "tdd");
        expect(refused, stdout).toThrow();
      }
    });

    it(`payloads shaped like the recorded ones, fields fuzzed and mutated (${RUNS.shaped} runs)`, async () => {
      const w = getWorld();
      const arb = withModes((mode) =>
        fc.record({
          payload: platform.shapedArb(w, w.projects[mode].root),
          mutations: platform.mutationsArb(w),
          how: fc.nat(),
          cut: fc.nat(1000),
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ mode, value: { payload, mutations, how, cut } }) => {
          await fire(encode(mutate(payload, mutations), how, cut), mode);
        }),
        params(RUNS.shaped),
      );
    }, 120_000);

    it(`file names and commands built to reach a shell never do: edit, then stop (${RUNS.injection} runs)`, async () => {
      const w = getWorld();
      const arb = withModes((mode) => {
        const root = w.projects[mode].root;
        const named = fc.constantFrom(...injectedPaths(w));
        const paths = fc.oneof(
          named,
          named.map((path) => join(root, path)),
        );
        return platform.injectionArb(w, root, paths);
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ mode, value: calls }) => {
          for (const call of calls) await fire(JSON.stringify(call), mode);
          expect(existsSync(join(getWorld().outside, PWNED))).toBe(false);
        }),
        params(RUNS.injection),
      );
    }, 120_000);

    it(`fully random JSON, and random objects naming a real event (${RUNS.random} runs)`, async () => {
      await fc.assert(
        fc.asyncProperty(
          withModes(() => platform.randomArb),
          async ({ mode, value }) => {
            await fire(confine(value, getWorld().projects[mode].root), mode);
          },
        ),
        params(RUNS.random),
      );
    }, 120_000);

    it(`stdin that is not JSON, or no hook's JSON (${RUNS.garbage} runs)`, async () => {
      await fc.assert(
        fc.asyncProperty(
          withModes(() => garbageArb),
          async ({ mode, value }) => {
            await fire(confine(value, getWorld().projects[mode].root), mode);
          },
        ),
        params(RUNS.garbage),
      );
    }, 120_000);

    it(`1-2 MB strings in any field (${RUNS.huge} runs)`, async () => {
      const w = getWorld();
      const arb = withModes((mode) =>
        fc.record({
          payload: platform.shapedArb(w, w.projects[mode].root),
          place: platform.hugePlaceArb,
          unit: hugeUnitArb,
          bytes: fc.integer({ min: 1 << 20, max: 2 << 20 }),
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ mode, value: { payload, place, unit, bytes } }) => {
          const stdin = JSON.stringify(platform.withHuge(payload, place, unit, bytes));
          expect(Buffer.byteLength(stdin)).toBeGreaterThanOrEqual(1 << 20);
          await fire(stdin, mode);
        }),
        params(RUNS.huge),
      );
    }, 120_000);

    it(`a real test run of files named to break out: node --test gets them as arguments, no shell (${SHELL_NAMES.length} runs)`, async () => {
      const project = getWorld().runner;
      const { root } = project;
      for (const [index, name] of SHELL_NAMES.entries()) {
        const passing = index % 2 === 1;
        const viaShell = index % 4 >= 2;
        project.write(`src/${name}.js`, "export const value = 1;\n");
        project.write(`test/${name}.test.js`, nodeTest(passing));
        const answers: string[] = [];
        for (const payload of platform.runnerCalls(root, name, viaShell)) {
          const stdin = JSON.stringify(payload);
          const result = await platform.runHook({
            stdin,
            env: platform.env(stdin, root),
            cwd: root,
          });
          platform.checkAnswer(result, stdin, "follow");
          answers.push(result.stdout);
        }
        // The run happened: the failing test holds the turn, the passing one does not.
        expect(platform.holds(answers[1] ?? ""), `${name}: ${answers[1]}`).toBe(!passing);
        expectNoMarker([getWorld().box, root, join(root, "src"), join(root, "test")]);
        rmSync(join(root, "src", `${name}.js`));
        rmSync(join(root, "test", `${name}.test.js`));
        trimState(root, true);
        expect(snapshot(getWorld())).toBe(getWorld().baseline);
      }
    }, 120_000);

    it(`the built bin (launcher + bundle) holds the same on a sample (${RUNS.bin} payloads)`, async () => {
      const w = getWorld();
      const arb = withModes((mode) =>
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .record({
                payload: platform.shapedArb(w, w.projects[mode].root),
                mutations: platform.mutationsArb(w),
              })
              .map(({ payload, mutations }) => JSON.stringify(mutate(payload, mutations))),
          },
          { weight: 1, arbitrary: garbageArb },
        ),
      );
      const one = async ({ mode, value }: { mode: FuzzMode; value: string }) => {
        const root = w.projects[mode].root;
        const stdin = confine(value, root);
        const env = platform.env(stdin, root);
        const ran = await runBin(platform.hookBin, [], { input: stdin, cwd: root, env });
        // runBin (execa) strips the final newlines.
        const line = (text: string) => (text === "" ? "" : `${text}\n`);
        const result = { ...ran, stdout: line(ran.stdout), stderr: line(ran.stderr) };
        count(`bin ${mode} ${platform.checkAnswer(result, stdin, mode)}`);
      };
      const samples = fc.sample(arb, { numRuns: RUNS.bin, seed: SEED });
      // Two at a time: hooks of one turn can land together, and it halves the wait.
      for (let i = 0; i < samples.length; i += 2) {
        await Promise.all(samples.slice(i, i + 2).map(one));
        expect(snapshot(w)).toBe(w.baseline);
      }
    }, 120_000);
  });
}
