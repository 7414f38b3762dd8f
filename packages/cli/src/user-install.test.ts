import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SetupError } from "@tailtest/core/node";
import { shownPath, userDataDir, userHook, userPackageDir } from "./user-install.ts";

describe("where a user-level install keeps its copy", () => {
  it.each([
    [{ TAILTEST_DATA_DIR: "/data/tt", XDG_DATA_HOME: "/xdg" }, "/data/tt"],
    [{ XDG_DATA_HOME: "/xdg" }, "/xdg/tailtest"],
    [{}, join(homedir(), ".local/share/tailtest")],
  ])("%o → %s", (env, dir) => {
    expect(userDataDir(env)).toBe(dir);
  });

  it("lays the copy out as a package, so its command carries the project install's marker", () => {
    const pkg = { folder: "codex", name: "@tailtest/codex" };
    const env = { TAILTEST_DATA_DIR: "/data/tt" };
    expect(userPackageDir(pkg, env)).toBe("/data/tt/codex/node_modules/@tailtest/codex");
    expect(userHook(pkg, env)).toEqual({
      path: "/data/tt/codex/node_modules/@tailtest/codex/dist/hook.cjs",
      // The project opted out, or installed the package itself: its own hooks answer.
      standAside: [".tailtest/off", "node_modules/@tailtest/codex/dist/hook.cjs"],
    });
  });

  it.each(['/data/"q', "/data/it's", "/data/$HOME", "/data/`x`", "/data/back\\slash"])(
    "refuses a data folder a hook command cannot quote: %s",
    (dir) => {
      const pkg = { folder: "codex", name: "@tailtest/codex" };
      expect(() => userHook(pkg, { TAILTEST_DATA_DIR: dir })).toThrow(SetupError);
      expect(() => userHook(pkg, { TAILTEST_DATA_DIR: "/data/with space" })).not.toThrow();
    },
  );

  it("shows the home folder as ~ and nothing else", () => {
    expect(shownPath(join(homedir(), ".cursor/hooks.json"))).toBe("~/.cursor/hooks.json");
    expect(shownPath(homedir())).toBe("~");
    expect(shownPath(`${homedir()}-other/x`)).toBe(`${homedir()}-other/x`);
  });
});
