import { describe, expect, it } from "vitest";
import { runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { detectPackageRunners } from "./project-runners.ts";
import { dependentCrates, hasDocTests } from "./rust-crates.ts";

describe("hasDocTests: a Rust source's doc tests", () => {
  it.each([
    ["/// ```\n/// let x = 1;\n/// ```\npub fn f() {}\n", true],
    ["//! ```rust\n//! assert!(true);\n//! ```\n", true],
    ["/// ```no_run\n/// run();\n/// ```\n", true],
    ["/// ```should_panic,edition2021\n/// panic!();\n/// ```\n", true],
    // Not Rust, or not run: no doc test.
    ["/// ```text\n/// a b c\n/// ```\n", false],
    ["/// ```ignore\n/// nope();\n/// ```\n", false],
    ["/// ```toml\n/// [package]\n/// ```\n", false],
    // A fence in a plain or inner-line comment is no doc comment.
    ["// ```\n// code\n// ```\n", false],
    ["//// ```\n//// code\n//// ```\n", false],
    // After a text block closes, a Rust one is still seen.
    ["/// ```text\n/// out\n/// ```\n/// ```\n/// f();\n/// ```\n", true],
    ["pub fn f() {}\n#[cfg(test)]\nmod tests {}\n", false],
  ])("%j → %s", (source, expected) => {
    expect(hasDocTests(source)).toBe(expected);
  });

  it("docs included from a README count by the README's code blocks", () => {
    const source =
      '#[doc = include_str!("../README.md")]\n#[cfg(doctest)]\npub struct ReadmeDoctests;\n';
    const readme = (text: string) => (path: string) => (path === "../README.md" ? text : undefined);
    expect(hasDocTests(source, readme("# x\n\n```rust\nlet s = x::new();\n```\n"))).toBe(true);
    expect(hasDocTests(source, readme("# x\n\n```console\n$ cargo add x\n```\n"))).toBe(false);
    // A README that cannot be read may hold some.
    expect(hasDocTests(source)).toBe(true);
  });
});

describe("dependentCrates: the workspace crates that use a crate by path", () => {
  // anstyle's shape: a virtual manifest, members by a glob, each crate depending on anstyle.
  const files = {
    "Cargo.toml":
      '[workspace]\nmembers = [\n  "crates/*",\n  # "old",\n]\nexclude = ["crates/skip"]\n',
    "crates/style/Cargo.toml": '[package]\nname = "style"\n',
    "crates/git/Cargo.toml":
      '[package]\nname = "style-git"\n\n[dependencies]\nstyle = { version = "1.0.0", path = "../style" }\n',
    "crates/ls/Cargo.toml":
      '[package]\nname = "style-ls"\n\n[dev-dependencies]\nstyle.path = "../style"\n',
    "crates/term/Cargo.toml":
      '[package]\nname = "term"\n\n[dependencies.style-git]\nversion = "1"\npath = "../git"\n',
    "crates/other/Cargo.toml": '[package]\nname = "other"\n\n[dependencies]\nserde = "1"\n',
    "crates/skip/Cargo.toml":
      '[package]\nname = "skip"\n[dependencies]\nstyle = { path = "../style" }\n',
  };

  it("direct dependents (normal and dev), then theirs; not an excluded or unrelated crate", () => {
    const view = createMemoryView(files);
    expect(dependentCrates(view, "crates/style")).toEqual([
      { dir: "crates/git", name: "style-git", hops: 1 },
      { dir: "crates/ls", name: "style-ls", hops: 1 },
      { dir: "crates/term", name: "term", hops: 2 },
    ]);
    expect(dependentCrates(view, "crates/term")).toEqual([]);
    expect(dependentCrates(view, "crates/git")).toEqual([
      { dir: "crates/term", name: "term", hops: 1 },
    ]);
  });

  it("a root package that is the workspace, and dependencies taken from [workspace.dependencies]", () => {
    const view = createMemoryView({
      "Cargo.toml":
        '[package]\nname = "primal"\n\n[dependencies]\nprimal-check = { workspace = true }\n\n[workspace]\nmembers = ["primal-check", "primal-sieve"]\n\n[workspace.dependencies]\nprimal-check = { path = "primal-check" }\n',
      "primal-check/Cargo.toml": '[package]\nname = "primal-check"\n',
      "primal-sieve/Cargo.toml":
        "[package]\nname = \"primal-sieve\"\n\n[target.'cfg(unix)'.dependencies]\nprimal-check.workspace = true\n",
    });
    expect(dependentCrates(view, "primal-check")).toEqual([
      { dir: "", name: "primal", hops: 1 },
      { dir: "primal-sieve", name: "primal-sieve", hops: 1 },
    ]);
  });

  it("a crate in no workspace has none", () => {
    const view = createMemoryView({
      "Cargo.toml": '[package]\nname = "one"\n',
      "sub/Cargo.toml": '[package]\nname = "two"\n[dependencies]\none = { path = ".." }\n',
    });
    expect(dependentCrates(view, "")).toEqual([]);
  });
});

describe("cargo's argv when a selected source holds doc tests", () => {
  const crate = (lib: string) =>
    createMemoryView({
      "Cargo.toml": '[package]\nname = "fx"\n',
      "src/lib.rs": lib,
      "src/effect.rs":
        "/// ```\n/// assert!(fx::clear());\n/// ```\npub fn clear() -> bool { true }\n",
      "src/plain.rs": "pub fn f() {}\n#[cfg(test)]\nmod tests {}\n",
      "tests/suite.rs": "#[test]\nfn t() {}\n",
    });
  const argv = (lib: string, files: string[], edited: string[] = []) => {
    const view = crate(lib);
    const [runner] = detectPackageRunners(view, "");
    return runnerArgv(view, runner!, files, [], edited).argv;
  };

  it("runs every target (doc tests too) instead of naming --lib and --test", () => {
    expect(argv("mod effect;\n", ["src/effect.rs", "tests/suite.rs"])).toEqual([
      "cargo",
      "test",
      "--no-fail-fast",
    ]);
    // The crate root's overview examples alone do not: it is selected for its unit tests.
    expect(
      argv("//! ```\n//! fx::clear();\n//! ```\nmod plain;\n", ["src/lib.rs", "tests/suite.rs"]),
    ).toEqual(["cargo", "test", "--no-fail-fast", "--lib", "--test", "suite"]);
    // Unless the turn edited the crate root itself (itoa: a changed `//!` example ended green).
    expect(
      argv(
        "//! ```\n//! fx::clear();\n//! ```\nmod plain;\n",
        ["src/lib.rs", "tests/suite.rs"],
        ["src/lib.rs"],
      ),
    ).toEqual(["cargo", "test", "--no-fail-fast"]);
    // Without doc tests among them, the targets are named as before.
    expect(argv("mod plain;\n", ["src/plain.rs", "tests/suite.rs"])).toEqual([
      "cargo",
      "test",
      "--no-fail-fast",
      "--lib",
      "--test",
      "suite",
    ]);
  });
});

describe("cargo's targets for a library root Cargo.toml's [lib] path names", () => {
  // servo/rust-fnv's layout: `[lib] path = "lib.rs"` beside the manifest, no src/.
  const view = createMemoryView({
    "Cargo.toml":
      '[package]\nname = "fnv"\nversion = "1.0.7"\n\n[lib]\nname = "fnv"\npath = "lib.rs"\n',
    "lib.rs":
      '//! ```\n//! let h = fnv::hash(b"");\n//! ```\nmod state;\n\n#[cfg(test)]\nmod test {}\n',
    "state.rs": "pub fn fold() {}\n",
    "tests/api.rs": "#[test]\nfn api() {}\n",
  });
  const argv = (files: string[], edited: string[] = []) => {
    const [runner] = detectPackageRunners(view, "");
    return runnerArgv(view, runner!, files, [], edited).argv;
  };

  it("names the library's unit tests by --lib, not --bins (which would leave them out)", () => {
    expect(argv(["state.rs", "lib.rs", "tests/api.rs"])).toEqual([
      "cargo",
      "test",
      "--no-fail-fast",
      "--lib",
      "--test",
      "api",
    ]);
  });

  it("runs the root's overview examples only when the turn edited the root", () => {
    expect(argv(["lib.rs", "tests/api.rs"])).toEqual([
      "cargo",
      "test",
      "--no-fail-fast",
      "--lib",
      "--test",
      "api",
    ]);
    expect(argv(["lib.rs", "tests/api.rs"], ["lib.rs"])).toEqual([
      "cargo",
      "test",
      "--no-fail-fast",
    ]);
  });
});
