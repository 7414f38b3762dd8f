// What the hook bundles get for `assert` (tsup.config.base.ts): signal-exit, which proper-lockfile
// loads, calls `assert.equal` once per lock, and loading node's assert module (with its colour
// support, which sets up process.stderr as a stream) cost every hook process ~15% of `node -e 0`.
// `equal` is node's loose equality check; anything else is node's own, loaded when first used.
"use strict";

function load() {
  return require("node:assert");
}

function assert(value, message) {
  return load()(value, message);
}

assert.equal = function equal(actual, expected, message) {
  if (actual != expected) throw new Error(message ?? `${actual} == ${expected}`);
};

module.exports = new Proxy(assert, {
  get(target, key) {
    return key in target ? target[key] : load()[key];
  },
});
