/**
 * Go build constraints that leave a file out of every build. `//go:build ignore` (or the older
 * `// +build ignore`) is Go's convention for a program run by `go run` beside a package
 * (generators such as `gen.go`, a memory benchmark's `main`): `go test` never compiles it, so no
 * test of the package covers it and a note naming the package's tests would be wrong.
 *
 * The word `ignore` is taken as unset. A Go version word `go1.N` is set in every build of a module
 * whose go.mod says `go 1.M` with N ≤ M (a toolchain older than the module's line does not build
 * it), so `//go:build !go1.18` in a go 1.18 module is left out of every build too (the
 * pre-generics copy beside a generic one). Platform words (`linux`, `cgo`), later Go versions
 * and a project's own tags may be set in some build, so an expression over them is left
 * undecided and the file stays source.
 */

type Tri = boolean | undefined;

const not = (a: Tri): Tri => (a === undefined ? undefined : !a);

function and(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  return a === true && b === true ? true : undefined;
}

function or(a: Tri, b: Tri): Tri {
  if (a === true || b === true) return true;
  return a === false && b === false ? false : undefined;
}

/** The minor of a `go1.N` word or of go.mod's `go 1.N[.P]` line; undefined for anything else. */
function goMinor(version: string): number | undefined {
  const minor = /^(?:go)?1\.(\d+)(?:\.\d+)?$/.exec(version)?.[1];
  return minor === undefined ? undefined : Number(minor);
}

/** The module's `go` line (`go 1.18`), or undefined when go.mod's text has none. */
export function goModVersion(goMod: string): string | undefined {
  return /^go\s+(1\.\d+(?:\.\d+)?)\s*(?:\/\/.*)?$/m.exec(goMod)?.[1];
}

/** Whether a Go file's first lines hold a build constraint naming a Go version (`go1.18`). */
export function goBuildNamesVersion(head: string): boolean {
  return /^\/\/(?:go:build|\s*\+build)\s.*\bgo1\.\d/m.test(head);
}

function wordOf(moduleMinor: number | undefined): (name: string) => Tri {
  return (name) => {
    if (name === "ignore") return false;
    const minor = name.startsWith("go") ? goMinor(name) : undefined;
    if (minor !== undefined && moduleMinor !== undefined && minor <= moduleMinor) return true;
    return undefined;
  };
}

/** The constraint lines before the package clause: `//go:build` first, else every `// +build`. */
function constraintLines(head: string): { goBuild?: string; plusBuild: string[] } {
  const plusBuild: string[] = [];
  for (const raw of head.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (!line.startsWith("//")) break;
    const goBuild = /^\/\/go:build\s+(.+)$/.exec(line)?.[1];
    if (goBuild !== undefined) return { goBuild, plusBuild };
    const plus = /^\/\/\s*\+build\s+(.+)$/.exec(line)?.[1];
    if (plus !== undefined) plusBuild.push(plus);
  }
  return { plusBuild };
}

/** A `//go:build` expression: `!`, `&&`, `||`, parentheses and words; undefined when unparsable. */
function evalGoBuild(expr: string, word: (name: string) => Tri): Tri {
  const tokens = expr.match(/&&|\|\||[!()]|[\w.]+|\S/g) ?? [];
  let at = 0;
  let broken = false;
  const primary = (): Tri => {
    const token = tokens[at++];
    if (token === "!") return not(primary());
    if (token === "(") {
      const value = disjunction();
      if (tokens[at++] !== ")") broken = true;
      return value;
    }
    if (token === undefined || !/^[\w.]+$/.test(token)) {
      broken = true;
      return undefined;
    }
    return word(token);
  };
  const conjunction = (): Tri => {
    let value = primary();
    while (tokens[at] === "&&") {
      at += 1;
      value = and(value, primary());
    }
    return value;
  };
  const disjunction = (): Tri => {
    let value = conjunction();
    while (tokens[at] === "||") {
      at += 1;
      value = or(value, conjunction());
    }
    return value;
  };
  const value = disjunction();
  return broken || at !== tokens.length ? undefined : value;
}

/** A `// +build` line: options separated by spaces (or), terms by commas (and), `!` negates. */
function evalPlusBuild(line: string, word: (name: string) => Tri): Tri {
  let value: Tri = false;
  for (const option of line.trim().split(/\s+/)) {
    let term: Tri = true;
    for (const part of option.split(",")) {
      const negated = part.startsWith("!");
      const name = negated ? part.slice(1) : part;
      if (!/^[\w.]+$/.test(name)) return undefined;
      term = and(term, negated ? not(word(name)) : word(name));
    }
    value = or(value, term);
  }
  return value;
}

/**
 * Whether the Go file's build constraint (in its first lines) excludes it from every build;
 * `goVersion` is the module's go.mod `go` line (`1.18`), when known.
 */
export function goBuildExcluded(head: string, goVersion?: string): boolean {
  const { goBuild, plusBuild } = constraintLines(head);
  const word = wordOf(goVersion === undefined ? undefined : goMinor(goVersion));
  if (goBuild !== undefined) return evalGoBuild(goBuild, word) === false;
  return plusBuild.some((line) => evalPlusBuild(line, word) === false);
}
