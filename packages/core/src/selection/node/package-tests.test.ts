import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { packageTests } from "./covering.ts";
import { chooseTests } from "./choose-tests.ts";
import { selectRelated } from "./graph-selection.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

/** Where each run of the end of a turn starts, and its argv. */
const planFor = async (root: string, files: string[]) =>
  (await chooseTests(openProject(root), files, { write: false })).plan.runs.map((run) => [
    run.cwd,
    run.argv,
  ]);

const related = (root: string, file: string) =>
  (packageTests(openProject(root), file, "rust") ?? []).map((t) => [t.path, t.evidence, t.hops]);

describe("packageTests: a Rust file's tests", () => {
  // httparse's layout: lib.rs holds the unit tests and declares the modules it parses with.
  const crate = {
    "Cargo.toml": '[package]\nname = "hp"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs":
      "#[macro_use]\nmod macros;\nmod iter;\nmod simd;\nuse crate::iter::Bytes;\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {}\n}\n",
    "src/macros.rs": "macro_rules! next { () => {} }\n",
    "src/iter.rs": "pub struct Bytes;\nuse core::iter::Iterator;\n",
    "src/simd/mod.rs": "mod runtime;\nmod swar;\npub use self::runtime::*;\n",
    "src/simd/runtime.rs": "use super::swar;\npub fn pick() {}\n",
    // swar.rs's tests are #[test] functions at its top level, with no #[cfg(test)] module.
    "src/simd/swar.rs": "pub fn run() {}\n\n#[test]\nfn runs() {}\n",
    "tests/uri.rs": "#[test]\nfn uri() { hp::parse(); }\n",
  };

  it("a module with no tests of its own: the unit tests of the files that declare it", () => {
    temp = makeProject(crate);
    expect(related(temp.root, "src/macros.rs")).toEqual([
      ["src/lib.rs", "imports", 1],
      ["tests/uri.rs", "imports-via", 2],
    ]);
    expect(related(temp.root, "src/iter.rs")[0]).toEqual(["src/lib.rs", "imports", 1]);
  });

  it("through a folder's mod.rs, and a module's own tests first", () => {
    temp = makeProject(crate);
    // runtime.rs ← simd/mod.rs (no tests) ← lib.rs; swar.rs does not reach runtime.rs.
    expect(related(temp.root, "src/simd/runtime.rs")).toEqual([
      ["src/lib.rs", "imports", 2],
      ["tests/uri.rs", "imports-via", 2],
    ]);
    // swar.rs ← runtime.rs and simd/mod.rs (neither has tests) ← lib.rs.
    expect(related(temp.root, "src/simd/swar.rs").slice(0, 2)).toEqual([
      ["src/simd/swar.rs", "self", 0],
      ["src/lib.rs", "imports", 2],
    ]);
  });

  it("the crate root's own tests, and an integration test as itself", () => {
    temp = makeProject(crate);
    expect(related(temp.root, "src/lib.rs")).toEqual([
      ["src/lib.rs", "self", 0],
      ["tests/uri.rs", "imports-via", 2],
    ]);
    expect(related(temp.root, "tests/uri.rs")).toEqual([["tests/uri.rs", "self", 0]]);
  });

  it("a library root Cargo.toml's [lib] path puts beside it: its tests reach its modules", () => {
    // servo/rust-fnv's layout (`[lib] path = "lib.rs"`, no src/), with a module declared there.
    temp = makeProject({
      "Cargo.toml":
        '[package]\nname = "fnv"\nversion = "1.0.7"\n\n[lib]\nname = "fnv"\npath = "lib.rs"\n\n[features]\ndefault = ["std"]\n',
      "lib.rs":
        'mod state;\n\npub fn hash(b: &[u8]) -> u64 { state::fold(b) }\n\n#[cfg(test)]\nmod test {\n    #[test]\n    fn basic() { assert_eq!(super::hash(b""), 1); }\n}\n',
      "state.rs": "pub fn fold(b: &[u8]) -> u64 { b.len() as u64 + 1 }\n",
      "examples/demo.rs": 'use fnv::hash;\nfn main() { state::fold(b""); }\n',
      "tests/api.rs": '#[test]\nfn api() { fnv::hash(b""); }\n',
    });
    expect(related(temp.root, "state.rs")).toEqual([
      ["lib.rs", "imports", 1],
      ["tests/api.rs", "imports-via", 2],
    ]);
    expect(related(temp.root, "lib.rs")).toEqual([
      ["lib.rs", "self", 0],
      ["tests/api.rs", "imports-via", 2],
    ]);
  });

  it("a module no `mod` declares yet is compiled by nothing: no test reaches it", () => {
    temp = makeProject({ ...crate, "src/chunk.rs": "pub fn size() -> u8 { 1 }\n" });
    expect(related(temp.root, "src/chunk.rs")).toEqual([]);
    // Its own tests are still its own.
    temp.write("src/chunk.rs", "pub fn size() -> u8 { 1 }\n\n#[test]\nfn sized() {}\n");
    expect(related(temp.root, "src/chunk.rs")).toEqual([["src/chunk.rs", "self", 0]]);
    // Declared, the crate's tests reach it.
    temp.write("src/lib.rs", `mod chunk;\n${crate["src/lib.rs"]}`);
    expect(related(temp.root, "src/chunk.rs")).toEqual([
      ["src/chunk.rs", "self", 0],
      ["src/lib.rs", "imports", 1],
      ["tests/uri.rs", "imports-via", 2],
    ]);
  });

  it("with none, the selection says where the first test goes (explain's related row)", async () => {
    temp = makeProject({ ...crate, "src/chunk.rs": "pub fn size() -> u8 { 1 }\n" });
    const selection = await selectRelated(openProject(temp.root), ["src/chunk.rs"], {
      write: false,
      cachedLists: true,
    });
    expect(selection.related.get("src/chunk.rs")).toEqual([]);
    expect(selection.suggested.get("src/chunk.rs")).toBe("src/chunk.rs");
  });

  it("a source file an integration test compiles in by #[path], and no `mod` declares", () => {
    // ryu's layout: src/s2f.rs is in no module of the library, only in tests/s2f_test.rs.
    temp = makeProject({
      ...crate,
      "src/s2f.rs": "pub fn s2f() -> f32 { 1.0 }\n",
      "tests/s2f_test.rs":
        '#[path = "../src/s2f.rs"]\nmod s2f;\n\n#[test]\nfn parses() { s2f::s2f(); }\n',
      "tests/other.rs": '#[path = "../src/iter.rs"]\nmod iter;\n',
    });
    expect(related(temp.root, "src/s2f.rs")).toEqual([["tests/s2f_test.rs", "imports", 0]]);
    // A declared module compiled in by a test: that test first.
    expect(related(temp.root, "src/iter.rs").slice(0, 2)).toEqual([
      ["src/lib.rs", "imports", 1],
      ["tests/other.rs", "imports", 0],
    ]);
  });

  it("an integration test that never names the library is not one of its tests", () => {
    // ryu: s2d_test.rs compiles the sources it tests in by #[path] and never uses the crate.
    const files = {
      ...crate,
      "src/s2d.rs": "pub fn s2d() {}\n",
      "tests/s2d_test.rs":
        '// Translated from https://example.com/hp\n#[path = "../src/s2d.rs"]\nmod s2d;\n#[test]\nfn t() { s2d::s2d(); }\n',
      "tests/shared.rs": "mod common;\n#[test]\nfn t() { common::go(); }\n",
      "tests/common/mod.rs": "pub fn go() { hp::parse(); }\n",
    };
    temp = makeProject(files);
    expect(related(temp.root, "src/iter.rs").map(([path]) => path)).toEqual([
      "src/lib.rs",
      "tests/shared.rs",
      "tests/uri.rs",
    ]);
    expect(related(temp.root, "src/s2d.rs")).toEqual([["tests/s2d_test.rs", "imports", 0]]);
    temp.cleanup();
    // A crate with a binary: its tests may run it by any name, so every one stays.
    temp = makeProject({ ...files, "src/main.rs": "fn main() {}\n" });
    expect(related(temp.root, "src/iter.rs").map(([path]) => path)).toContain("tests/s2d_test.rs");
  });

  it("a module the integration tests share: the tests that declare it, never itself", () => {
    // ryu's tests/macros/mod.rs, the Rust book's tests/common/mod.rs: no target of their own.
    temp = makeProject({
      ...crate,
      "tests/macros/mod.rs": "macro_rules! check { () => {} }\n",
      "tests/d2s.rs": "mod macros;\n#[test]\nfn d() { check!(); }\n",
      "tests/f2s.rs": "#[macro_use]\nmod macros;\n",
      "tests/cli/main.rs": "mod support;\n",
      "tests/cli/support.rs": "pub fn run() {}\n",
    });
    expect(related(temp.root, "tests/macros/mod.rs")).toEqual([
      ["tests/d2s.rs", "support", 1],
      ["tests/f2s.rs", "support", 1],
    ]);
    // A target in a folder is itself, and the target of the modules beside it.
    expect(related(temp.root, "tests/cli/main.rs")).toEqual([["tests/cli/main.rs", "self", 0]]);
    expect(related(temp.root, "tests/cli/support.rs")).toEqual([
      ["tests/cli/main.rs", "support", 1],
    ]);
    // A shared module that no test is seen to declare: every integration test.
    temp.write("tests/util/mod.rs", "pub fn helper() {}\n");
    expect(related(temp.root, "tests/util/mod.rs").map(([path]) => path)).toEqual([
      "tests/cli/main.rs",
      "tests/d2s.rs",
      "tests/f2s.rs",
      "tests/uri.rs",
    ]);
  });

  it("a crate that declares modules by #[path] keeps its integration tests for any file", () => {
    temp = makeProject({
      ...crate,
      "src/lib.rs": `#[path = "gen/chunk_impl.rs"]\nmod chunked;\n${crate["src/lib.rs"]}`,
      "src/gen/chunk_impl.rs": "pub fn size() -> u8 { 1 }\n",
    });
    expect(related(temp.root, "src/gen/chunk_impl.rs")).toEqual([
      ["tests/uri.rs", "imports-via", 2],
    ]);
  });

  it("a module with doc tests is its own test, and so is a file whose doc tests reach it", () => {
    temp = makeProject({
      ...crate,
      "src/iter.rs": "/// ```\n/// let b = hp::Bytes;\n/// ```\npub struct Bytes;\n",
      "src/lib.rs": `//! \`\`\`\n//! hp::parse();\n//! \`\`\`\n${crate["src/lib.rs"]}`,
    });
    expect(related(temp.root, "src/iter.rs").slice(0, 2)).toEqual([
      ["src/iter.rs", "self", 0],
      ["src/lib.rs", "imports", 1],
    ]);
    expect(packageTests(openProject(temp.root), "src/iter.rs", "rust")?.[0]?.detail).toBe(
      "its own doc tests",
    );
  });
});

describe("packageTests: a crate other crates of its workspace depend on", () => {
  // anstyle's shape: anstyle-git and anstyle-ls parse into anstyle's Style, and test that.
  const workspace = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
    "crates/style/Cargo.toml": '[package]\nname = "style"\nversion = "1.0.0"\n',
    "crates/style/src/lib.rs": "mod effect;\npub use effect::Effects;\n",
    "crates/style/src/effect.rs": "pub struct Effects;\n",
    "crates/style/tests/suite.rs": "#[test]\nfn t() { let _ = style::Effects; }\n",
    "crates/git/Cargo.toml":
      '[package]\nname = "style-git"\nversion = "1.0.0"\n\n[dependencies]\nstyle = { path = "../style" }\n',
    "crates/git/src/lib.rs":
      "pub fn parse() -> style::Effects { style::Effects }\n#[cfg(test)]\nmod tests {}\n",
    "crates/lossy/Cargo.toml":
      '[package]\nname = "style-lossy"\nversion = "1.0.0"\n\n[dependencies]\nstyle = { path = "../style" }\n',
    "crates/lossy/src/lib.rs": "pub fn lossy() {}\n",
  };

  it("a source of the crate: its own tests, then each dependent crate with tests by its root", () => {
    temp = makeProject(workspace);
    expect(related(temp.root, "crates/style/src/effect.rs")).toEqual([
      ["crates/style/tests/suite.rs", "imports-via", 2],
      ["crates/git/src/lib.rs", "imports-via", 3],
    ]);
    expect(
      packageTests(openProject(temp.root), "crates/style/src/effect.rs", "rust")?.at(-1)?.detail,
    ).toBe("crate style-git depends on style: its tests");
    // An integration test of the crate is nothing the dependents build.
    expect(related(temp.root, "crates/style/tests/suite.rs")).toEqual([
      ["crates/style/tests/suite.rs", "self", 0],
    ]);
  });

  it("the end of a turn runs each dependent crate whole, from its folder", async () => {
    temp = makeProject(workspace);
    const plan = await planFor(temp.root, ["crates/style/src/effect.rs"]);
    expect(plan).toEqual([
      ["crates/style", ["cargo", "test", "--no-fail-fast", "--test", "suite"]],
      ["crates/git", ["cargo", "test", "--no-fail-fast"]],
    ]);
  });
});
