/**
 * The files an `apply_patch` envelope touches (Codex's edit tool, also run from a shell). The
 * grammar is line based: `*** Add File: p`, `*** Update File: p` (optionally followed by
 * `*** Move to: q`), `*** Delete File: p`, between `*** Begin Patch` and `*** End Patch`.
 */
export interface PatchedFile {
  path: string;
  change: "add" | "update" | "delete";
  /** The new path of an updated file that the patch also renames. */
  movedTo?: string;
}

const CHANGES = { "Add File": "add", "Update File": "update", "Delete File": "delete" } as const;

const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/;

export function parsePatchFiles(text: string): PatchedFile[] {
  const files: PatchedFile[] = [];
  for (const rawLine of text.split("\n")) {
    // Codex trims header lines before matching them, so an indented header still names a file.
    // A context line that reads like a header (" *** Add File: x") is then taken as one too: the
    // tdd gate judges one file more, which errs on the safe side.
    const match = HEADER.exec(rawLine.trim());
    if (match === null) continue;
    const [, kind, rawPath] = match;
    const path = rawPath?.trim() ?? "";
    if (path === "") continue;
    if (kind === "Move to") {
      const last = files.at(-1);
      if (last !== undefined && last.change === "update") last.movedTo = path;
      continue;
    }
    files.push({ path, change: CHANGES[kind as keyof typeof CHANGES] });
  }
  return files;
}

/** Paths whose content now exists (to queue), and paths the patch removed. */
export function patchEffects(files: readonly PatchedFile[]): {
  written: string[];
  deleted: string[];
  /** Of `written`, the files the patch adds (Add File): they did not exist before it. */
  created: string[];
} {
  const written: string[] = [];
  const deleted: string[] = [];
  const created: string[] = [];
  for (const file of files) {
    if (file.change === "delete") deleted.push(file.path);
    else if (file.movedTo !== undefined) {
      written.push(file.movedTo);
      deleted.push(file.path);
    } else {
      written.push(file.path);
      if (file.change === "add") created.push(file.path);
    }
  }
  return {
    written: [...new Set(written)],
    deleted: [...new Set(deleted)],
    created: [...new Set(created)],
  };
}
