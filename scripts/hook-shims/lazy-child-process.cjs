// What commander gets for `child_process` in the `tailtest` command's bundle
// (tsup.config.base.ts): commander loads it at its top for executable subcommands, which tailtest
// has none of, and node's child_process loads its net, dgram and stream modules (~20 M
// instructions, a quarter of `node -e 0`) on every call, `--help` included. Loaded when used.
"use strict";

let loaded;

module.exports = new Proxy(
  {},
  {
    get(_target, key) {
      loaded ??= require("node:child_process");
      return loaded[key];
    },
  },
);
