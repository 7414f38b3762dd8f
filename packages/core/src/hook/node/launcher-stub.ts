import { createHash } from "node:crypto";
import { LOCAL_SUFFIX, V8_FLAGS_MARK } from "./code-cache.ts";

/**
 * An adapter's `hook.cjs` as shipped: a few lines that evaluate the launcher (the CommonJS
 * bundle of `entries/node/adapter/hook.ts`, carried inside as one string literal) through
 * `vm.Script` with a V8 code cache of its own, the way the launcher evaluates the hook bundles
 * (code-cache.ts). Node's CommonJS loader compiles a main module from source on every call, and
 * the launcher's ~10 KB compiled lazily cost every hook call ~6 M instructions (ADR 0010); a
 * string literal is only scanned, and the stub itself is a handful of statements.
 *
 * One file, not a stub beside the launcher: everything that copies or checks `hook.cjs` (user
 * installs, the plugin, tests) keeps working, and there is no second file to go missing.
 *
 * The cache is written by the first call that finds none (or one V8 rejects), at exit, with
 * every launcher function that call compiled; it is never packed (`*.cache`), and its name
 * carries a hash of the launcher's text, V8's version, the architecture and a hash of node's
 * flags (which V8 checks a cache against), as the bundles' caches do. It is not written when the
 * call changed V8's flags (the shell route, code-cache.ts `V8_FLAGS_MARK`): V8 would reject it.
 * A cache is code: it sits beside the launcher, never in a shared folder.
 */
export function launcherStub(launcher: string): string {
  if (/\bimport\(/.test(launcher))
    // Node 20 runs no import() from a script compiled from a cache.
    throw new Error("the hook launcher may not hold an import()");
  // Node's CommonJS wrapper, on one line so the launcher's line numbers stay as they are.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${launcher}\n});`;
  const id = createHash("sha256").update(wrapped).digest("hex").slice(0, 16);
  // eslint-disable-next-line no-control-regex -- the test is for bytes outside ASCII
  if (/[^\x00-\x7f]/.test(wrapped)) throw new Error("the hook launcher is not pure ASCII");
  return `${[
    `"use strict";`,
    `// tailtest's hook launcher, evaluated with a V8 code cache (core's hook/node/launcher-stub.ts).`,
    `var launcher = ${JSON.stringify(wrapped)};`,
    `(function () {`,
    `  var fs = require("fs"), vm = require("vm");`,
    `  var flags = process.execArgv.concat(process.env.NODE_OPTIONS || "").join(" ").trim(), hash = 0;`,
    `  for (var i = 0; i < flags.length; i += 1) hash = (hash * 31 + flags.charCodeAt(i)) >>> 0;`,
    `  var tag = "${id}-" + process.versions.v8 + "-" + process.arch + (flags === "" ? "" : "-f" + hash.toString(36));`,
    `  var cache = __dirname + "/hook." + tag.replace(/[^\\w.-]/g, "_") + "${LOCAL_SUFFIX}";`,
    `  var data;`,
    `  try { data = fs.readFileSync(cache); } catch (error) { data = undefined; }`,
    `  var script = new vm.Script(launcher, { filename: "${LAUNCHER_SCRIPT_NAME}", cachedData: data });`,
    `  if (data === undefined || script.cachedDataRejected === true) {`,
    `    var mark = Symbol.for(${JSON.stringify(V8_FLAGS_MARK.description)}), flagsAtLoad = process[mark];`,
    `    process.once("exit", function () {`,
    `      if (process[mark] !== flagsAtLoad) return;`,
    `      var temp = cache + "." + process.pid + ".tmp";`,
    `      try { fs.writeFileSync(temp, script.createCachedData(), { mode: 420 }); fs.renameSync(temp, cache); }`,
    `      catch (error) { try { fs.unlinkSync(temp); } catch (gone) {} }`,
    `    });`,
    `  }`,
    `  script.runInThisContext().call(module.exports, module.exports, require, module, __filename, __dirname);`,
    `})();`,
  ].join("\n")}\n`;
}

/** The launcher's script name in V8 (and its cache): no path of the machine that built it. */
export const LAUNCHER_SCRIPT_NAME = "hook-launcher.cjs";
