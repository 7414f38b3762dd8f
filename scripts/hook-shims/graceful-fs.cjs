// What the hook bundles get for `graceful-fs` (proper-lockfile's file system): node's own. A hook
// opens a handful of files, so graceful-fs's queueing on EMFILE has nothing to do there, and
// loading it (it clones and patches fs, and loads node's stream and assert modules) cost every
// hook process several milliseconds. See tsup.config.base.ts.
module.exports = require("node:fs");
