/** The project's Cursor hooks file (Cursor also reads `~/.cursor/hooks.json`). */
export const HOOKS_PATH = ".cursor/hooks.json";

/** Where a Cursor session's state lives: beside other Cursor hooks' state. */
export { CURSOR_SESSION_PATH } from "@tailtest/core/node/edit";

/** The folder `init` keeps out of git, so the session state is never committed. */
export const CURSOR_STATE_DIR = ".cursor/hooks/state/";
