import { baseName, extensionOf, stemOf } from "../filter/languages.ts";
import { dirnameRel, joinRel } from "../project/project-view.ts";
import { hasTsLoader, type DetectedRunner } from "../runners/project-runners.ts";
import { specOf } from "../runners/table.ts";

/**
 * Where a new test for a file goes, following the project's own habit for that runner: the
 * extension its tests use (`.js` when a `node --test` suite is all JavaScript, even with a
 * tsconfig for typings), beside the source, in a `__tests__` folder or in a test tree (flat or
 * mirrored), `x.test.js` or `x.spec.js`, `test_x.py` or `x_test.py`. With no test yet, the
 * runner table's first candidate (`fallback`).
 */
export interface SuggestInput {
  file: string;
  runner: DetectedRunner;
  /** The runner's existing test files, project-relative. */
  tests: readonly string[];
  fallback: string;
}

const TEST_ROOTS = new Set(["test", "tests", "__tests__", "spec", "specs", "testing"]);

export function suggestTestPath(input: SuggestInput): string {
  const { file, runner, tests } = input;
  const python = extensionOf(file) === ".py";
  if (tests.length === 0) return adjustExtension(input.fallback, runner);
  const pkg = runner.package_dir;
  const local = (rel: string): string => (pkg === "" ? rel : rel.slice(pkg.length + 1));
  const src = local(file);
  // A package's __init__.py / index file is tested under the package's name.
  const named = /^(__init__|index|mod)$/.test(stemOf(src))
    ? baseName(dirnameRel(src)) || stemOf(src)
    : stemOf(src);
  const stem = python ? named.replace(/^_+/, "") : named;
  const place = placeOf(src, tests.map(local));
  const beside = place === dirnameRel(src);
  const name = python ? pythonName(stem, tests) : jsName(stem, src, runner, tests, beside);
  return joinRel(pkg, place, name);
}

function majority<T>(values: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: T | undefined;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount) [best, bestCount] = [value, count];
  }
  return best;
}

function pythonName(stem: string, tests: readonly string[]): string {
  const suffix = tests.filter((test) => /_test\.py$/.test(test)).length;
  const prefix = tests.filter((test) => /^test_/.test(baseName(test))).length;
  return suffix > prefix ? `${stem}_test.py` : `test_${stem}.py`;
}

/** The suffix a JS test's name ends in before its extension: `.test`, `.spec`, `-test`, `.tests`. */
const JS_TEST_SUFFIX = /([.\-_](?:test|spec)s?)\.[^.]+$/;

/**
 * `x.test.ts`, `x.spec.ts`, `x-test.ts` (graphql-js, whose mocha runs `*-test.ts`), or `x.ts`
 * where the project's tests carry no suffix at all (p-queue's `test/priority-queue.ts`, named by
 * its script's `test/*.ts`); never a suffix-less name beside the source, where it would be the
 * source's own.
 */
function jsName(
  stem: string,
  src: string,
  runner: DetectedRunner,
  tests: readonly string[],
  beside: boolean,
): string {
  const found = majority(tests.map((test) => JS_TEST_SUFFIX.exec(baseName(test))?.[1] ?? "")) ?? "";
  const suffix = found === "" && beside ? ".test" : found;
  // The project's tests' own extension stands: they run as they are (or as tsc's output, uuid's
  // `src/test/*.test.ts` under `node --test dist-node/test/*.js`). Only a source's is adjusted.
  const ext = majority(tests.map(extensionOf)) ?? adjustJsExt(extensionOf(src), runner);
  return `${stem}${suffix}${ext}`;
}

/** Where the project keeps tests: beside the source, `__tests__/`, or a test tree. */
function placeOf(src: string, tests: readonly string[]): string {
  const dir = dirnameRel(src);
  const places = tests.map((test) => {
    const parts = test.split("/");
    // A `__tests__/` at the root is a test tree (jest-junit's for `utils/`), one inside the
    // sources sits beside them (`src/__tests__/`).
    if (TEST_ROOTS.has(parts[0] ?? "")) return `root:${parts[0]}`;
    if (parts.includes("__tests__")) return "__tests__";
    // A package's own test folder (`h11/tests/test_io.py`, `pkg/sub/tests/...`).
    const inner = parts.slice(1, -1).find((part) => TEST_ROOTS.has(part));
    return inner === undefined ? "beside" : `inner:${inner}`;
  });
  const place = majority(places) ?? "beside";
  if (place === "beside") return dir;
  if (place === "__tests__") return joinRel(dir, "__tests__");
  if (place.startsWith("inner:")) return innerPlace(dir, place.slice("inner:".length), tests);
  const root = place.slice("root:".length);
  // A tree that mirrors the source folders (tests/unit/a/b for src/a/b) is followed; a flat one is kept flat.
  const nested = tests.filter((test) => test.startsWith(`${root}/`) && test.split("/").length > 2);
  if (nested.length * 2 < tests.length) return root;
  const sub = dir.replace(/^(src|lib)(\/|$)/, "");
  return mirroredPlace(sub, root, tests);
}

/**
 * The test folder that mirrors `sub`: one ending in the longest tail of it
 * (`tests/test_syntax/extensions` for `markdown/extensions`), else a mirrored parent with the
 * rest added (`tests/unit/a` + `c` for `a/c`), else the tree's root. Never a made-up tree
 * beside the real one (`tests/markdown/extensions`), which unittest would not even discover.
 */
function mirroredPlace(sub: string, root: string, tests: readonly string[]): string {
  const segments = sub.split("/").filter((segment) => segment !== "");
  const endingIn = (tail: string): string | undefined =>
    tests.map(dirnameRel).find((folder) => folder === tail || folder.endsWith(`/${tail}`));
  for (let start = 0; start < segments.length; start += 1) {
    const mirror = endingIn(segments.slice(start).join("/"));
    if (mirror !== undefined) return mirror;
  }
  for (let end = segments.length - 1; end > 0; end -= 1) {
    const mirror = endingIn(segments.slice(0, end).join("/"));
    if (mirror !== undefined) return joinRel(mirror, segments.slice(end).join("/"));
  }
  return root;
}

/**
 * The existing `<folder>/<segment>` test folder nearest above the source (`h11/tests` for
 * `h11/_new.py`, `pkg/sub/tests` for `pkg/sub/x.py` when it exists), else one beside it.
 */
function innerPlace(dir: string, segment: string, tests: readonly string[]): string {
  let best: string | undefined;
  for (const test of tests) {
    const parts = test.split("/");
    const at = parts.lastIndexOf(segment, parts.length - 2);
    if (at <= 0) continue;
    const owner = parts.slice(0, at).join("/");
    const inside = dir === owner || dir.startsWith(`${owner}/`);
    if (inside && (best === undefined || owner.length > dirnameRel(best).length))
      best = parts.slice(0, at + 1).join("/");
  }
  return best ?? joinRel(dir, segment);
}

/** `node --test` on Node before 22.6 cannot load a `.ts` test without a loader in its command. */
function adjustJsExt(ext: string, runner: DetectedRunner): string {
  if (specOf(runner.id).tsNeedsLoader !== true || !/^\.[cm]?tsx?$/.test(ext)) return ext;
  return hasTsLoader(runner.command) ? ext : ext.replace("t", "j");
}

function adjustExtension(fallback: string, runner: DetectedRunner): string {
  const ext = extensionOf(fallback);
  const fixed = adjustJsExt(ext, runner);
  return fixed === ext ? fallback : `${fallback.slice(0, -ext.length)}${fixed}`;
}
