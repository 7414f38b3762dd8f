import { ANSI_STYLE, PLAIN_STYLE, type TextStyle } from "@tailtest/core/status";

/** The text style for a decision made by `useColour` (terminal.ts, which loads nothing of core). */
export function styleFor(colour: boolean): TextStyle {
  return colour ? ANSI_STYLE : PLAIN_STYLE;
}
