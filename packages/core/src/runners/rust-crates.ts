import { dirnameRel, joinRel, normalizeRel, type ProjectView } from "../project/project-view.ts";

/**
 * What a Rust file or a Cargo workspace says about the tests that reach it, read as text: the
 * doc tests in a file's doc comments (`cargo test` runs them, `--lib`/`--test` leave them out),
 * and the crates of a workspace that depend on another by path (their tests use it).
 */

/** Code-block attributes rustdoc still runs (or compiles) as a doc test. */
const RUST_BLOCK = new Set([
  "rust",
  "should_panic",
  "no_run",
  "compile_fail",
  "test_harness",
  "standalone_crate",
]);

/** Whether a doc comment's code block with this info string is a doc test. */
function isDocTestBlock(info: string): boolean {
  const words = info
    .replace(/[{}]/g, "")
    .split(/[\s,]+/)
    .filter((word) => word !== "");
  if (words.some((word) => word === "ignore" || word.startsWith("ignore-"))) return false;
  return words.every((word) => RUST_BLOCK.has(word) || /^edition\d+$/.test(word));
}

/** Whether Markdown (a README included as docs) holds a Rust code block: a doc test there. */
function markdownHasDocTests(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (fence === null) continue;
    const [, marks = "", info = ""] = fence;
    if (open !== undefined) {
      if (marks.startsWith(open) && info.trim() === "") open = undefined;
      continue;
    }
    if (isDocTestBlock(info)) return true;
    open = marks;
  }
  return false;
}

/**
 * Whether a Rust source holds doc tests: a Rust code block in a `///` or `//!` comment (a block
 * marked `text`, `ignore` or another language is none), or in docs included from a file
 * (`#[doc = include_str!("../README.md")]`), read through `include` (path as written; a file it
 * cannot read counts as holding some).
 */
export function hasDocTests(
  source: string,
  include: (path: string) => string | undefined = () => undefined,
): boolean {
  for (const [, path = ""] of source.matchAll(/#!?\[doc\s*=\s*include_str!\(\s*"([^"]+)"\s*\)/g)) {
    const text = include(path);
    if (text === undefined || markdownHasDocTests(text)) return true;
  }
  const docs = source
    .split("\n")
    .flatMap((line) => /^\s*\/\/[/!](?!\/)\s?(.*)$/.exec(line)?.[1] ?? []);
  return markdownHasDocTests(docs.join("\n"));
}

/** A crate of the workspace that uses another by path, directly or through others. */
export interface DependentCrate {
  /** Its folder, relative to the project (where its Cargo.toml is). */
  dir: string;
  name: string;
  /** 1 for a direct dependent, 2 for a dependent of that, and so on. */
  hops: number;
}

/** The top-level tables of a manifest: header (`dependencies`, `dev-dependencies.foo`) → body. */
function tables(manifest: string): { header: string; body: string }[] {
  const out: { header: string; body: string }[] = [];
  let current = { header: "", body: "" };
  for (const line of manifest.split("\n")) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line)?.[1];
    if (header === undefined) {
      current.body += `${line}\n`;
      continue;
    }
    out.push(current);
    current = { header: header.replace(/\s+/g, "").replace(/"/g, ""), body: "" };
  }
  out.push(current);
  return out;
}

const DEPENDENCY_TABLE = /^(?:target\.[^.]+(?:\.[^.]+)*?\.)?(?:dev-|build-)?dependencies$/;
const DEPENDENCY_ENTRY =
  /^(?:target\.[^.]+(?:\.[^.]+)*?\.)?(?:dev-|build-)?dependencies\.([\w-]+)$/;

/** A quoted string value of `key` in a TOML fragment. */
function stringValue(text: string, key: string): string | undefined {
  return new RegExp(`(?:^|[\\s{,])${key}\\s*=\\s*["']([^"'\\n]*)["']`, "m").exec(text)?.[1];
}

/**
 * The folders a manifest's dependencies point at by path (dependencies, dev- and build-
 * dependencies, per target too), those taken from the workspace's own table by
 * `workspace = true` included (`workspace` maps such a name to its folder).
 */
function pathDependencies(
  manifest: string,
  dir: string,
  workspace: ReadonlyMap<string, string>,
): string[] {
  const found: string[] = [];
  const add = (name: string, spec: string): void => {
    const path = stringValue(spec, "path");
    if (path !== undefined) {
      const target = normalizeRel(joinRel(dir, path));
      if (target !== undefined) found.push(target);
    } else if (/(?:^|[\s{,.])workspace\s*=\s*true/.test(spec)) {
      const target = workspace.get(name);
      if (target !== undefined) found.push(target);
    }
  };
  for (const { header, body } of tables(manifest)) {
    const entry = DEPENDENCY_ENTRY.exec(header)?.[1];
    if (entry !== undefined) add(entry, body);
    if (!DEPENDENCY_TABLE.test(header)) continue;
    for (const line of body.split("\n")) {
      const match = /^\s*([\w-]+)(\.[\w-]+)?\s*=\s*(.*)$/.exec(line);
      if (match === null) continue;
      const [, name = "", dotted = "", value = ""] = match;
      add(name, dotted === "" ? value : `${dotted.slice(1)} = ${value}`);
    }
  }
  return found;
}

/** The `[workspace.dependencies]` given by path: name → folder. */
function workspacePaths(manifest: string, root: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const { header, body } of tables(manifest)) {
    const entry = /^workspace\.dependencies(?:\.([\w-]+))?$/.exec(header);
    if (entry === null) continue;
    const lines =
      entry[1] === undefined
        ? body.split("\n").flatMap((line) => {
            const match = /^\s*([\w-]+)(\.[\w-]+)?\s*=\s*(.*)$/.exec(line);
            return match === null
              ? []
              : [[match[1] ?? "", `${match[2] ?? ""} = ${match[3] ?? ""}`]];
          })
        : [[entry[1], body]];
    for (const [name = "", spec = ""] of lines) {
      const path = stringValue(spec.replace(/^\.(\w+) =/, "$1 ="), "path");
      const target = path === undefined ? undefined : normalizeRel(joinRel(root, path));
      if (target !== undefined) paths.set(name, target);
    }
  }
  return paths;
}

/** The strings of a TOML array value `key = [ … ]` in a table body (over several lines). */
function stringArray(body: string, key: string): string[] {
  const array = new RegExp(`^\\s*${key}\\s*=\\s*\\[([\\s\\S]*?)\\]`, "m").exec(body)?.[1] ?? "";
  const text = array.replace(/#[^\n]*/g, "");
  return [...text.matchAll(/["']([^"'\n]+)["']/g)].map((match) => match[1] ?? "");
}

/** A workspace member pattern's folders (`crates/*`, `tools/cli`), those with a manifest. */
function expandMember(view: ProjectView, root: string, pattern: string): string[] {
  let dirs = [root];
  for (const part of pattern.split("/")) {
    if (part === "" || part === ".") continue;
    if (!/[*?[]/.test(part)) {
      dirs = dirs.flatMap((dir) => normalizeRel(joinRel(dir, part)) ?? []);
      continue;
    }
    const shape = new RegExp(
      `^${part
        .replace(/[.+^${}()|\\]/g, "\\$&")
        .replace(/\*/g, "[^/]*")
        .replace(/\?/g, "[^/]")}$`,
    );
    dirs = dirs.flatMap((dir) =>
      view
        .list(dir)
        .filter((name) => shape.test(name) && view.isDirectory(joinRel(dir, name)))
        .map((name) => joinRel(dir, name)),
    );
  }
  return dirs.filter((dir) => view.exists(joinRel(dir, "Cargo.toml")));
}

/** The folder of the workspace a crate belongs to: the nearest manifest up with `[workspace]`. */
function workspaceRoot(view: ProjectView, dir: string): string | undefined {
  for (let at = dir; ; at = dirnameRel(at)) {
    const manifest = view.readText(joinRel(at, "Cargo.toml"));
    if (manifest !== undefined && /^\s*\[workspace\]/m.test(manifest)) return at;
    if (at === "") return undefined;
  }
}

/** Past this many members, a workspace's dependents are not worked out (each is read). */
const MEMBERS = 200;

/**
 * The workspace's crates whose tests use the crate in `dir`: those depending on it by path
 * (normal, dev or build dependencies), then those depending on them, nearest first. A bug in
 * anstyle's `Style` turns red only the tests of anstyle-git and anstyle-ls, which parse into it.
 * Empty for a crate in no workspace.
 */
export function dependentCrates(view: ProjectView, dir: string): DependentCrate[] {
  const root = workspaceRoot(view, dir);
  if (root === undefined) return [];
  const rootManifest = view.readText(joinRel(root, "Cargo.toml")) ?? "";
  const workspaceBody = tables(rootManifest).find((table) => table.header === "workspace")?.body;
  const excluded = new Set(
    stringArray(workspaceBody ?? "", "exclude").flatMap(
      (path) => normalizeRel(joinRel(root, path)) ?? [],
    ),
  );
  const members = new Set(
    stringArray(workspaceBody ?? "", "members")
      .flatMap((pattern) => expandMember(view, root, pattern))
      .filter((member) => !excluded.has(member)),
  );
  if (/^\s*\[package\]/m.test(rootManifest)) members.add(root);
  if (members.size > MEMBERS) return [];
  const shared = workspacePaths(rootManifest, root);
  const crates = [...members].map((member) => {
    const manifest = view.readText(joinRel(member, "Cargo.toml")) ?? "";
    const body = tables(manifest).find((table) => table.header === "package")?.body ?? "";
    const name = stringValue(body, "name") ?? (member.split("/").at(-1) || member);
    return { dir: member, name, uses: new Set(pathDependencies(manifest, member, shared)) };
  });
  const found: DependentCrate[] = [];
  const seen = new Set([dir]);
  let level = [dir];
  for (let hops = 1; level.length > 0; hops += 1) {
    const next = crates
      .filter((crate) => !seen.has(crate.dir) && level.some((used) => crate.uses.has(used)))
      .sort((a, b) => a.dir.localeCompare(b.dir));
    for (const crate of next) {
      seen.add(crate.dir);
      found.push({ dir: crate.dir, name: crate.name, hops });
    }
    level = next.map((crate) => crate.dir);
  }
  return found;
}

/**
 * A crate's library root in the crate: Cargo.toml's `[lib] path` (servo/rust-fnv keeps its whole
 * crate in `lib.rs` beside the manifest), else `src/lib.rs` when it exists; undefined for a crate
 * with no library.
 */
export function cargoLibraryRoot(view: ProjectView, dir: string): string | undefined {
  const manifest = view.readText(joinRel(dir, "Cargo.toml")) ?? "";
  const lib = /^\s*\[lib\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(manifest)?.[1] ?? "";
  const declared = /^\s*path\s*=\s*"([^"]+)"/m.exec(lib)?.[1];
  const path = declared === undefined ? undefined : normalizeRel(declared);
  if (path !== undefined && path.endsWith(".rs") && view.exists(joinRel(dir, path))) return path;
  return view.exists(joinRel(dir, "src/lib.rs")) ? "src/lib.rs" : undefined;
}
