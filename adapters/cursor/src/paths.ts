/** The project's Cursor hooks file (Cursor also reads `~/.cursor/hooks.json`). */
export const HOOKS_PATH = ".cursor/hooks.json";

/** Where a Cursor session's state lives: in .tailtest/, apart from Claude Code's and Codex's. */
export { CURSOR_SESSION_PATH } from "@tailtest/core/node/edit";
