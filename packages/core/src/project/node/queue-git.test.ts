import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import type { HookEvent } from "../../hook/hook-event.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject } from "./project.ts";

/**
 * No git process on a PostToolUse for a file already queued. A `git` first on PATH
 * counts its calls, then hands over to the real one.
 */

let project: TempProject | undefined;
const PATH = process.env["PATH"] ?? "";
afterEach(() => {
  process.env["PATH"] = PATH;
  project?.cleanup();
});

describe("queueing an edited file", () => {
  it("asks git once whether it is new, not on every later edit of it", async () => {
    project = makeProject({ "pytest.ini": "[pytest]\n", "calc.py": "x = 1\n" });
    const root = project.root;
    const bin = join(root, ".fake-bin");
    const calls = join(bin, "calls");
    mkdirSync(bin);
    const real = PATH.split(":").find((dir) => existsSync(join(dir, "git"))) ?? "/usr/bin";
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\necho "$*" >> "${calls}"\nexec "${join(real, "git")}" "$@"\n`,
    );
    chmodSync(join(bin, "git"), 0o755);
    process.env["PATH"] = `${bin}:${PATH}`;
    const send = (event: HookEvent) =>
      handleEvent(openProject(root), event, {
        platform: "claude-code",
        identity: { sessionId: "q" },
      });
    await send({ kind: "SessionStarted", sessionId: "q", source: "startup" });
    const edit = { kind: "FilesEdited", paths: [join(root, "calc.py")] } as const;
    const lsFiles = () =>
      existsSync(calls)
        ? readFileSync(calls, "utf8")
            .split("\n")
            .filter((line) => line.startsWith("ls-files"))
        : [];
    expect((await send(edit)).kind).toBe("context");
    expect(lsFiles()).toHaveLength(1);
    expect((await send(edit)).kind).toBe("context");
    expect((await send(edit)).kind).toBe("context");
    expect(lsFiles()).toHaveLength(1);
  });
});
