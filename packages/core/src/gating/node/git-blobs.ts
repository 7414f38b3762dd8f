/** How long git may take to answer for the blobs of one call. */
const GIT_TIMEOUT_MS = 10_000;

function runGit(root: string, args: readonly string[], input: string): Buffer | undefined {
  // Loaded here: most hook calls start no process.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const run = spawnSync("git", ["--no-optional-locks", ...args], {
    cwd: root,
    input,
    stdio: ["pipe", "pipe", "ignore"],
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 512 * 1024 * 1024,
  });
  return run.status === 0 && Buffer.isBuffer(run.stdout) ? run.stdout : undefined;
}

/** The ids of `ids` that git holds as blobs of at most `maxBytes`, with their sizes. */
function sizedBlobs(root: string, ids: readonly string[], maxBytes: number) {
  const answer = runGit(root, ["cat-file", "--batch-check"], ids.map((id) => `${id}\n`).join(""));
  if (answer === undefined) return undefined;
  const sizes = new Map<string, number>();
  for (const line of answer.toString("latin1").split("\n")) {
    const [id, type, size] = line.split(" ");
    const bytes = Number(size);
    if (id !== undefined && type === "blob" && Number.isSafeInteger(bytes) && bytes <= maxBytes)
      sizes.set(id, bytes);
  }
  return sizes;
}

/**
 * The bytes of git's blobs by id, each at most `maxBytes`, read with one `git cat-file --batch`
 * (after a `--batch-check` that leaves out larger ones): a blob git does not hold, or a larger
 * one, is not in the map. Undefined when git could not answer.
 */
export function gitBlobs(
  root: string,
  ids: readonly string[],
  maxBytes: number,
): Map<string, Buffer> | undefined {
  const asked = [...new Set(ids.filter((id) => /^[0-9a-f]{40,64}$/.test(id)))];
  const blobs = new Map<string, Buffer>();
  if (asked.length === 0) return blobs;
  const sizes = sizedBlobs(root, asked, maxBytes);
  if (sizes === undefined) return undefined;
  if (sizes.size === 0) return blobs;
  const wanted = [...sizes.keys()];
  const answer = runGit(root, ["cat-file", "--batch"], wanted.map((id) => `${id}\n`).join(""));
  if (answer === undefined) return undefined;
  // Each answer: `<id> blob <size>\n<bytes>\n`, in the order asked.
  let at = 0;
  for (const id of wanted) {
    const end = answer.indexOf(0x0a, at);
    if (end < 0) return undefined;
    const [shown, type, size] = answer.toString("latin1", at, end).split(" ");
    const bytes = Number(size);
    if (shown !== id || type !== "blob" || bytes !== sizes.get(id)) return undefined;
    const start = end + 1;
    if (start + bytes > answer.length) return undefined;
    blobs.set(id, answer.subarray(start, start + bytes));
    at = start + bytes + 1;
  }
  return blobs;
}

/** One blob's bytes (see `gitBlobs`): undefined when git cannot give it within `maxBytes`. */
export function gitBlob(root: string, id: string, maxBytes: number): Buffer | undefined {
  return gitBlobs(root, [id], maxBytes)?.get(id);
}
