import { statSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { joinRel } from "../../project/project-view.ts";
import { runnerLabel, type DetectedRunner } from "../project-runners.ts";
import { specOf } from "../table.ts";
import { askedKey, type AskedTests } from "../../selection/suite.ts";

export { askedKey };
import { STATE_DIR, type Project } from "../../project/node/project.ts";
import { readState, updateState, type StateFile } from "../../state/node/store.ts";

/**
 * Asking a runner for its test files when its config cannot be read as text (a vitest or jest
 * config that exports a function, has projects, builds on another config; a conftest.py that
 * changes collection): `vitest list`, `jest --listTests`, `pytest --collect-only`, once per config (the cache in `.tailtest/test-lists.json` is keyed by the
 * config files' hashes), within a time box. No answer in time: the config as read, and a note.
 */

export const TEST_LISTS_PATH = `${STATE_DIR}/test-lists.json`;

/** How long a runner may take to list its tests. */
export const LIST_TIMEOUT_MS = 5_000;

/** A runner that gave no answer is asked again after this long (or when its config changes). */
const RETRY_AFTER_MS = 60 * 60 * 1000;

const ListEntrySchema = z.object({
  /** Hash of the command and the config files' contents. */
  key: z.string(),
  /** When the runner was asked (ms since the epoch). */
  at: z.number(),
  /** Package-relative test files; absent when the runner gave no answer. */
  files: z.optional(z.array(z.string())),
  note: z.string(),
});
type ListEntry = z.infer<typeof ListEntrySchema>;

const TestListsSchema = z.object({
  version: z.literal(1),
  lists: z.record(z.string(), ListEntrySchema),
});
type TestLists = z.infer<typeof TestListsSchema>;

function testListsFile(project: Project): StateFile<TestLists> {
  return {
    path: join(project.root, TEST_LISTS_PATH),
    schema: TestListsSchema,
    create: () => ({ version: 1, lists: {} }),
  };
}

export interface AskOptions {
  timeoutMs?: number;
  clock?: () => number;
  /** Only what was asked before: a per-edit hook never waits for a runner. */
  cachedOnly?: boolean;
}

/** The key `askRunners` answers under. */

/**
 * Each runner whose config cannot be read as text and that can list its tests, asked (or its
 * cached answer), by `askedKey`. Runners whose config reads fine are not in the map.
 */
export async function askRunners(
  project: Project,
  runners: readonly DetectedRunner[],
  options: AskOptions = {},
): Promise<Map<string, AskedTests>> {
  const answers = new Map<string, AskedTests>();
  const clock = options.clock ?? Date.now;
  let cached: TestLists | undefined;
  for (const runner of runners) {
    const spec = specOf(runner.id);
    const lister = spec.listTests;
    if (lister === undefined) continue;
    const opaque = spec.suite(project.view, runner).opaque;
    if (opaque === undefined) continue;
    const dir = runner.package_dir;
    const key = configKey(project, runner, lister.configFiles(project.view, dir));
    cached ??= (await readState(testListsFile(project))).value;
    let entry = cached.lists[askedKey(runner)];
    const fresh =
      entry?.key === key && (entry.files !== undefined || clock() - entry.at < RETRY_AFTER_MS);
    if (options.cachedOnly === true && (entry === undefined || !fresh)) continue;
    const asked = entry === undefined || !fresh;
    if (entry === undefined || !fresh) {
      entry = await ask(project, runner, opaque, key, options.timeoutMs ?? LIST_TIMEOUT_MS, clock);
      await store(project, askedKey(runner), entry);
    }
    answers.set(askedKey(runner), { ...answerOf(project, runner, entry), asked });
  }
  return answers;
}

function configKey(project: Project, runner: DetectedRunner, files: readonly string[]): string {
  // Loaded here: node's crypto loads its streams, which `explain` and `run` on a project whose
  // runners need no asking would otherwise pay for at their start.
  const hash = process.getBuiltinModule("node:crypto").createHash("sha256");
  hash.update(JSON.stringify(runner.command));
  for (const file of [...files].sort()) {
    hash.update(`\u0000${file}\u0000`);
    hash.update(project.view.readText(joinRel(runner.package_dir, file)) ?? "");
  }
  return hash.digest("hex");
}

async function ask(
  project: Project,
  runner: DetectedRunner,
  opaque: string,
  key: string,
  timeoutMs: number,
  clock: () => number,
): Promise<ListEntry> {
  const lister = specOf(runner.id).listTests;
  const label = runnerLabel(runner.id);
  const at = clock();
  if (lister === undefined) return { key, at, note: `${opaque}; ${label} cannot list its tests` };
  const argv = lister.argv(runner);
  const cwd = join(project.root, runner.package_dir);
  const shown = argv.join(" ");
  let outcome;
  try {
    // Imported here: the run machinery is paid only by a call that asks a runner.
    const { runProcess } = await import("../../engine/node/execute.ts");
    outcome = await runProcess(argv, cwd, { CI: "1" }, { root: project.root, timeoutMs }, () => {});
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { key, at, note: `${opaque}, and \`${shown}\` failed (${why}): its defaults are used` };
  }
  if (outcome.timedOut)
    return {
      key,
      at,
      note: `${opaque}, and \`${shown}\` did not answer in ${String(timeoutMs / 1000)} s: its defaults are used`,
    };
  // pytest's 5 (nothing collected) is an answer too: an empty list.
  const answered =
    outcome.exitCode === 0 ||
    specOf(runner.id).noTestsRan?.(outcome.exitCode, outcome.output) === true;
  const files = answered ? lister.parse(outcome.output, cwd) : undefined;
  if (files === undefined) {
    const why = outcome.spawnError ?? `exit ${String(outcome.exitCode)}`;
    return {
      key,
      at,
      note: `${opaque}, and \`${shown}\` gave no list (${why}): its defaults are used`,
    };
  }
  const unique = [...new Set(files)].sort();
  return {
    key,
    at,
    files: unique,
    note: `${opaque}: \`${shown}\` listed ${String(unique.length)} test files`,
  };
}

/** Writes one answer; one that cannot be written is still used, and asked again next time. */
async function store(project: Project, id: string, entry: ListEntry): Promise<void> {
  try {
    await updateState(testListsFile(project), (lists) => ({
      value: { ...lists, lists: { ...lists.lists, [id]: entry } },
      result: undefined,
    }));
  } catch {
    // A read-only .tailtest/: the answer holds for this process.
  }
}

function answerOf(project: Project, runner: DetectedRunner, entry: ListEntry): AskedTests {
  if (entry.files === undefined) return { note: entry.note };
  const base = join(project.root, runner.package_dir);
  return {
    files: new Set(entry.files),
    note: entry.note,
    // A test created after the list (in this turn, say) is judged by the config as read.
    isNewer: (path) => {
      try {
        return statSync(join(base, path)).mtimeMs > entry.at;
      } catch {
        return false;
      }
    },
  };
}
