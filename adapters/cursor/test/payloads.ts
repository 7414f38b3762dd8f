import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  FIXTURES_DIR,
  loadPayload as loadStoredPayload,
  type StoredPayload,
} from "@tailtest/test-utils";

/** Synthetic Cursor payloads built from the protocol reference (see fixtures/payloads/README.md). */
export const CURSOR_PAYLOADS = join(FIXTURES_DIR, "payloads/cursor");

export const PAYLOAD_FILES = readdirSync(CURSOR_PAYLOADS)
  .filter((name) => name.endsWith(".json"))
  .sort();

export interface CursorPayload {
  hook_event_name: string;
  tool_name?: string;
  file_path?: string;
  tool_input?: { file_path?: string; content?: string; command?: string; cwd?: string };
  edits?: { old_string: string; new_string: string }[];
  [key: string]: unknown;
}

export type Fixture = StoredPayload<CursorPayload>;

/** A payload file with `<run>/project` pointing at `root` and `<run>` at its parent. */
export function loadPayload(name: string, root: string): Fixture {
  return loadStoredPayload<CursorPayload>("cursor", name, root);
}

/**
 * The whole file a postToolUse Write payload carries, and where it goes (Cursor fires after the
 * write; a preToolUse Write has not written anything yet).
 */
export function writtenFile(payload: CursorPayload): { path: string; content: string } | undefined {
  const input = payload.tool_input;
  if (payload.hook_event_name !== "postToolUse" || payload.tool_name !== "Write") return undefined;
  if (input?.file_path === undefined) return undefined;
  return input.content === undefined
    ? undefined
    : { path: input.file_path, content: input.content };
}
