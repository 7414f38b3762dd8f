// What core's modules get for `picomatch` in the hook bundles and the command's
// (tsup.config.base.ts): the library, loaded on its first call. Its modules build their tables
// and patterns as they load (~25 KB of young objects, and their code in every route's cache), and
// most calls never match a glob: a queued edit of a Python file in a project with pytest's
// defaults runs none. Core calls `picomatch(globs, options)` and `picomatch.isMatch(path, glob)`,
// which is all this forwards (a test holds core to those two). The build resolves the require
// below to the real library, from core, which depends on it.
"use strict";

let loaded;
const load = () => (loaded ??= require("picomatch"));

module.exports = (...args) => load()(...args);
module.exports.isMatch = (...args) => load().isMatch(...args);
