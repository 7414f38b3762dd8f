import { ANSI_STYLE, PLAIN_STYLE } from "@tailtest/core";
import { describe, expect, it } from "vitest";
import { startProgress, styleFor, useColour } from "./terminal.ts";

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
