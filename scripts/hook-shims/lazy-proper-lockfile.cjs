// What the hook bundles get for `proper-lockfile` (tsup.config.base.ts): the library, loaded on
// its first call. Loading it loads retry and signal-exit, which sets up its signal emitter, and
// most hook calls take no lock: a follow-mode edit appends one journal line (ADR 0003), a gate
// reads. The build resolves the require below to the real library, from core, which depends on
// it (the plugin lets it through; knip.json lists it as a dependency the root does not declare).
"use strict";

let loaded;
const load = () => (loaded ??= require("proper-lockfile"));

module.exports = {
  lock: (...args) => load().lock(...args),
  unlock: (...args) => load().unlock(...args),
  check: (...args) => load().check(...args),
  lockSync: (...args) => load().lockSync(...args),
  unlockSync: (...args) => load().unlockSync(...args),
  checkSync: (...args) => load().checkSync(...args),
};
