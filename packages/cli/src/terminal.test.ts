import { ANSI_STYLE, PLAIN_STYLE } from "@tailtest/core";
import { describe, expect, it } from "vitest";
import { styleFor } from "./style.ts";
import { refusesColour, startProgress, useColour, useLiveProgress } from "./terminal.ts";

describe("useColour", () => {
  it.each<[string, Record<string, string>, boolean, boolean]>([
    ["a terminal", {}, true, true],
    ["a pipe", {}, false, false],
    ["NO_COLOR on a terminal", { NO_COLOR: "1" }, true, false],
    ["an empty NO_COLOR (unset, says no-color.org)", { NO_COLOR: "" }, true, true],
    ["FORCE_COLOR into a pipe", { FORCE_COLOR: "1" }, false, true],
    ["FORCE_COLOR=0 on a terminal", { FORCE_COLOR: "0" }, true, false],
    ["FORCE_COLOR=false", { FORCE_COLOR: "false" }, true, false],
    ["NO_COLOR and FORCE_COLOR: NO_COLOR wins", { NO_COLOR: "1", FORCE_COLOR: "1" }, true, false],
  ])("%s", (_name, env, terminal, expected) => {
    expect(useColour(env, terminal)).toBe(expected);
    expect(styleFor(useColour(env, terminal))).toBe(expected ? ANSI_STYLE : PLAIN_STYLE);
  });
});

describe("one NO_COLOR rule for colours and the progress line", () => {
  it.each<[string, Record<string, string>, boolean]>([
    ["unset", {}, false],
    ["empty (unset, says no-color.org)", { NO_COLOR: "" }, false],
    ["1", { NO_COLOR: "1" }, true],
    ["any other value", { NO_COLOR: "false" }, true],
  ])("NO_COLOR %s", (_name, env, refused) => {
    expect(refusesColour(env)).toBe(refused);
    // On a terminal, colours and the redrawn progress line go together.
    expect(useColour(env, true)).toBe(!refused);
    expect(useLiveProgress(env, true)).toBe(!refused);
    expect(useLiveProgress(env, false)).toBe(false);
  });
});

describe("startProgress", () => {
  it("writes one plain line when stderr is not a terminal", () => {
    const written: string[] = [];
    const progress = startProgress("pytest in .", {
      stderr: (text) => written.push(text),
      interactive: false,
    });
    progress.tick();
    progress.stop();
    expect(written).toEqual(["running pytest in .\n"]);
  });

  it("redraws itself on a terminal and clears the line when done", () => {
    const written: string[] = [];
    const progress = startProgress("pytest in .", {
      stderr: (text) => written.push(text),
      interactive: true,
    });
    progress.stop();
    expect(written).toEqual(["\r\u001b[2Krunning pytest in . 0s", "\r\u001b[2K"]);
  });
});
