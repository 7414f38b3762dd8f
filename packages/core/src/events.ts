/**
 * What adapters translate platform payloads into, and what the core answers. Adapters render
 * a Decision in their platform's exact output shape.
 */
export type HookEvent =
  | {
      kind: "SessionStarted";
      sessionId?: string | undefined;
      source: "startup" | "resume" | "clear" | "compact";
    }
  /** A new user turn begins (Codex UserPromptSubmit): the Stop sweep looks for changes after it. */
  | { kind: "TurnStarted"; turnId?: string | undefined }
  | {
      kind: "FilesEdited";
      paths: readonly string[];
      /** Files the edit removed (a patch's Delete File, the old side of a move). */
      deleted?: readonly string[] | undefined;
      agentId?: string | undefined;
    }
  /** A shell command ran; the core finds the files it wrote with a real shell parser. */
  | {
      kind: "CommandFinished";
      command: string;
      /** The folder the command ran in; relative targets resolve against it (default: root). */
      cwd?: string | undefined;
      agentId?: string | undefined;
    }
  | {
      kind: "TurnEnded";
      stopHookActive: boolean;
      agentId?: string | undefined;
      /** Before verifying, queue every file changed since the turn began (Codex's mtime sweep). */
      sweep?: boolean | undefined;
      /** The user stopped the turn (Cursor's status "aborted"/"error"): keep the queue, run nothing. */
      interrupted?: boolean | undefined;
    }
  | { kind: "SessionEnded" };

export type Decision =
  { kind: "none" } | { kind: "context"; text: string } | { kind: "block"; reason: string };

export const NO_OPINION: Decision = { kind: "none" };
