/**
 * A read-only view of a project, relative to its root with `/` separators. The core reads
 * projects only through this port; `node/` provides one over the real file system and tests
 * can pass an in-memory one.
 */
export interface ProjectView {
  exists(relPath: string): boolean;
  isDirectory(relPath: string): boolean;
  /** File text, or undefined when missing or unreadable. Large files may be cut short. */
  readText(relPath: string): string | undefined;
  /** Entry names in a directory (files and folders), or [] when missing. */
  list(relDir: string): readonly string[];
  /**
   * The machine around the project, where known: whether a tool is on PATH, an environment
   * variable. Absent (an in-memory view): no tool is assumed present and no variable set.
   */
  host?: {
    onPath(name: string): boolean;
    env(name: string): string | undefined;
  };
}

/** An in-memory project: a map of relative paths to file contents. */
export function createMemoryView(files: Readonly<Record<string, string>>): ProjectView {
  const paths = Object.keys(files).map(normalize);
  const contents = new Map(Object.entries(files).map(([path, text]) => [normalize(path), text]));
  const isDir = (rel: string): boolean => {
    const dir = normalize(rel);
    return dir === "" || paths.some((path) => path.startsWith(`${dir}/`));
  };
  return {
    exists: (rel) => contents.has(normalize(rel)) || isDir(rel),
    isDirectory: isDir,
    readText: (rel) => contents.get(normalize(rel)),
    list: (rel) => {
      const dir = normalize(rel);
      const prefix = dir === "" ? "" : `${dir}/`;
      const names = new Set<string>();
      for (const path of paths) {
        if (!path.startsWith(prefix)) continue;
        const first = path.slice(prefix.length).split("/")[0];
        if (first !== undefined && first !== "") names.add(first);
      }
      return [...names].sort();
    },
  };
}

export function joinRel(...parts: readonly string[]): string {
  return normalize(parts.filter((part) => part !== "" && part !== ".").join("/"));
}

export function dirnameRel(relPath: string): string {
  const slash = relPath.lastIndexOf("/");
  return slash === -1 ? "" : relPath.slice(0, slash);
}

function normalize(path: string): string {
  return path
    .replace(/\\/g, "/")
    .replace(/^\.\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\/{2,}/g, "/");
}
