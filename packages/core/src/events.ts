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
  | { kind: "FilesEdited"; paths: readonly string[]; agentId?: string | undefined }
  | { kind: "TurnEnded"; stopHookActive: boolean; agentId?: string | undefined }
  | { kind: "SessionEnded" };

export type Decision =
  { kind: "none" } | { kind: "context"; text: string } | { kind: "block"; reason: string };

export const NO_OPINION: Decision = { kind: "none" };
