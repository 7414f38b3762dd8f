/**
 * Source of the CommonJS module tailtest hands to tape as a preload (`tape -r <file> <files>`).
 * tape's TAP names a test by a `# <name>` comment and never says which file made it, nor which
 * test a subtest is inside, so one run of several files could not say whose test failed. The
 * preload renames every test as it is made: `tailtest:["<file>","<outer>",…,"<name>"]`, the
 * file (relative to the folder tape runs in) read off the stack of the call that made the test,
 * one of the files on tape's command line when it is there. A subtest takes its parent's file
 * and names. `parseTapeTap` reads the names back.
 *
 * It hooks tape's own `Test` (the one the running `tape` bin loads, so the project's copy): a
 * setter for `name` on its prototype, which the constructor's `this.name = …` goes through, and
 * a wrapper round `Test.prototype.test`, which the constructor binds to each test. When tape's
 * layout is not what it expects it does nothing, and the parser reads the plain names.
 */
export const TAPE_PRELOAD_SOURCE = `// tailtest's preload for tape: each test's name says which file made it.
"use strict";
const path = require("path");
const { fileURLToPath } = require("url");
const MARK = "tailtest:";
const PLACE = Symbol("tailtest.place");
const cwd = process.cwd();
const given = new Set(
  process.argv.slice(2).filter((arg) => !arg.startsWith("-")).map((arg) => path.resolve(cwd, arg)),
);

function loadTest() {
  const bin = require.main && require.main.filename;
  if (typeof bin !== "string") return undefined;
  try {
    const Test = require(path.join(path.dirname(bin), "..", "lib", "test.js"));
    return typeof Test === "function" && typeof Test.prototype.test === "function" ? Test : undefined;
  } catch {
    return undefined;
  }
}

function callerFile() {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  let sites = [];
  try {
    Error.prepareStackTrace = (_error, stack) => stack;
    Error.stackTraceLimit = 100;
    const holder = {};
    Error.captureStackTrace(holder, callerFile);
    sites = Array.isArray(holder.stack) ? holder.stack : [];
  } catch {
    sites = [];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
  let outside;
  for (const site of sites) {
    let file = typeof site.getFileName === "function" ? site.getFileName() : undefined;
    if (typeof file !== "string" || file === "") continue;
    if (file.startsWith("file://")) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    }
    if (!path.isAbsolute(file) || file === __filename) continue;
    if (given.has(file)) return file;
    if (outside === undefined && !/[\\\\/]node_modules[\\\\/]/.test(file))
      outside = file;
  }
  return outside;
}

function relative(file) {
  return file === undefined ? "" : path.relative(cwd, file).split(path.sep).join("/");
}

const Test = loadTest();
if (Test !== undefined) {
  let parent;
  const subtest = Test.prototype.test;
  Test.prototype.test = function test(...args) {
    const outer = parent;
    parent = this;
    try {
      return subtest.apply(this, args);
    } finally {
      parent = outer;
    }
  };
  Object.defineProperty(Test.prototype, "name", {
    configurable: true,
    enumerable: false,
    get() {
      return undefined;
    },
    set(value) {
      const around = parent !== undefined ? parent[PLACE] : undefined;
      const place = around !== undefined
        ? { file: around.file, names: [...around.names, String(value)] }
        : { file: relative(callerFile()), names: [String(value)] };
      Object.defineProperty(this, PLACE, { value: place });
      Object.defineProperty(this, "name", {
        value: MARK + JSON.stringify([place.file, ...place.names]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
  });
}
`;
