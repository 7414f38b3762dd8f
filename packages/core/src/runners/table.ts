import type { RunnerId } from "./project-runners.ts";
import { ava } from "./ava.ts";
import { bun } from "./bun.ts";
import { cargo } from "./cargo.ts";
import { deno } from "./deno.ts";
import { dotnet } from "./dotnet.ts";
import { go } from "./go.ts";
import { gradle } from "./gradle.ts";
import { jasmine } from "./jasmine.ts";
import { jest } from "./jest.ts";
import { maven } from "./maven.ts";
import { minitest } from "./minitest.ts";
import { mocha } from "./mocha.ts";
import { nextest } from "./nextest.ts";
import { nodeTest } from "./node-test.ts";
import { pest } from "./pest.ts";
import { phpunit } from "./phpunit.ts";
import { pytest } from "./pytest.ts";
import type { RunnerSpec } from "./spec.ts";
import { rspec } from "./rspec.ts";
import { swift } from "./swift.ts";
import { tap } from "./tap.ts";
import { tape } from "./tape.ts";
import { unittest } from "./unittest.ts";
import { uvu } from "./uvu.ts";
import { vitest } from "./vitest.ts";

/** Every runner's id: what state files, results and the config may name. */
export const RUNNER_IDS = [
  "pytest",
  "unittest",
  "vitest",
  "jest",
  "mocha",
  "node-test",
  "ava",
  "uvu",
  "jasmine",
  "tap",
  "tape",
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
] as const;

/**
 * Every runner tailtest knows, in detection order: a package gets at most one runner per
 * language, and an earlier row wins (pytest before the unittest fallback, vitest before jest,
 * nextest before plain cargo, pest before phpunit).
 */
const BUILT_IN: readonly RunnerSpec[] = [
  pytest,
  unittest,
  vitest,
  jest,
  mocha,
  bun,
  nodeTest,
  ava,
  uvu,
  jasmine,
  tap,
  tape,
  deno,
  go,
  nextest,
  cargo,
  rspec,
  minitest,
  pest,
  phpunit,
  maven,
  gradle,
  dotnet,
  swift,
];

let table: readonly RunnerSpec[] = BUILT_IN;
let byId = new Map<string, RunnerSpec>(BUILT_IN.map((spec) => [spec.id, spec]));

/** Every runner, in detection order. */
export function runnerSpecs(): readonly RunnerSpec[] {
  return table;
}

/** One runner's record; an id nobody registered is a programming error. */
export function specOf(id: RunnerId): RunnerSpec {
  const spec = byId.get(id);
  if (spec === undefined) throw new Error(`unknown runner ${id}`);
  return spec;
}

/**
 * Adds a runner record (before `options.before` in detection order, else last),
 * for a test or an embedder; the returned function takes it out again.
 */
export function registerRunner(spec: RunnerSpec, options: { before?: RunnerId } = {}): () => void {
  const previous = table;
  const at = options.before === undefined ? -1 : table.findIndex((s) => s.id === options.before);
  table = at === -1 ? [...table, spec] : [...table.slice(0, at), spec, ...table.slice(at)];
  byId = new Map(table.map((entry) => [entry.id, entry]));
  return () => {
    table = previous;
    byId = new Map(table.map((entry) => [entry.id, entry]));
  };
}
