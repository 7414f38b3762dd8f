/**
 * What adapters translate platform payloads into, and what the core answers. Adapters render
 * a Decision in their platform's exact output shape.
 */
export type HookEvent =
  | {
      kind: "SessionStarted";
      sessionId?: string | undefined;
      source: "startup" | "resume" | "clear" | "compact";
      /**
       * A file of `export` lines the platform sources before the agent's shell commands (Claude
       * Code's CLAUDE_ENV_FILE): tailtest puts the agent's TDD log key there.
       */
      envFile?: string | undefined;
    }
  /** A new user turn begins (Codex UserPromptSubmit): the Stop sweep looks for changes after it. */
  | { kind: "TurnStarted"; turnId?: string | undefined }
  | {
      kind: "FilesEdited";
      paths: readonly string[];
      /** Files the edit removed (a patch's Delete File, the old side of a move). */
      deleted?: readonly string[] | undefined;
      /**
       * Those of `paths` the tool created, when the platform says (Claude Code's Write answers
       * `type: "create"`, a patch's Add File): new files, with no git process to ask.
       */
      created?: readonly string[] | undefined;
      agentId?: string | undefined;
    }
  /** A shell command ran; the core finds the files it wrote with a real shell parser. */
  | {
      kind: "CommandFinished";
      command: string;
      /** The folder the command ran in; relative targets resolve against it (default: root). */
      cwd?: string | undefined;
      agentId?: string | undefined;
      /**
       * How the command ended, when the platform says (Claude Code: PostToolUse vs
       * PostToolUseFailure); undefined when it does not (Codex, Cursor).
       */
      failed?: boolean | undefined;
      /** The platform's error text for a failed command. */
      error?: string | undefined;
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
  | { kind: "SessionEnded" }
  /** A write tool is about to run (Claude Write/Edit, Codex apply_patch, Cursor Write/Delete). */
  | {
      kind: "EditRequested";
      paths: readonly string[];
      /** Files the edit would remove. */
      deleted?: readonly string[] | undefined;
      agentId?: string | undefined;
    }
  /** A shell command is about to run (Claude/Codex Bash, Cursor Shell). */
  | {
      kind: "CommandRequested";
      command: string;
      cwd?: string | undefined;
      agentId?: string | undefined;
    }
  /** The agent leaves plan mode with this plan (Claude Code ExitPlanMode). */
  | { kind: "PlanSubmitted"; plan: string }
  | { kind: "SubagentStarted"; agentId: string; agentType?: string | undefined };

/**
 * What the core answers. `deny` refuses a tool call that has not run yet (a PreToolUse-style
 * event); `block` keeps the agent working at the end of a turn; `context` adds text for the agent
 * (and `env`, where the platform can set the session's environment, e.g. Cursor's sessionStart).
 */
export type Decision = (
  | { kind: "none" }
  | { kind: "context"; text: string; env?: Readonly<Record<string, string>> | undefined }
  | { kind: "block"; reason: string }
  | { kind: "deny"; reason: string }
) & {
  /**
   * One short line for the person, never for the agent (the end of a verified turn: "tailtest:
   * 3 files, 41 tests passed (2.1 s)"); each adapter shows it where the agent is not woken.
   */
  userMessage?: string | undefined;
};

export const NO_OPINION: Decision = { kind: "none" };
