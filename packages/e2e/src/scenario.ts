/**
 * A scenario is what the scripted model does, in order: each move is one assistant message.
 * The fake servers pick the next move from the conversation the CLI sends (how many moves it
 * already holds), never from a counter of their own, so a retry or a side request cannot shift
 * the script.
 */
export type Move =
  | { kind: "write"; path: string; content: string }
  | { kind: "shell"; command: string }
  | { kind: "reply"; text: string };

export interface Scenario {
  name: string;
  /** The user's prompt, passed to the CLI. */
  prompt: string;
  moves: readonly Move[];
}

/** Writes a project-relative file (the whole content; existing files are replaced). */
export function write(path: string, content: string): Move {
  return { kind: "write", path, content };
}

/** Runs a shell command in the project. */
export function shell(command: string): Move {
  return { kind: "shell", command };
}

/** Answers with text and no tool call: the model ends its turn. */
export function reply(text: string): Move {
  return { kind: "reply", text };
}

/** What the model says once the script is used up (a Stop hook that keeps blocking, say). */
export const OUT_OF_SCRIPT = "nothing more to do";

/** Which move a request was answered with. */
export type Answer =
  | { kind: "move"; index: number; move: Move }
  /** The script was used up: the model answered OUT_OF_SCRIPT. */
  | { kind: "extra" }
  /** A request that is not the agent loop (no tools offered), answered with short text. */
  | { kind: "side" }
  /** A pre-read the model needs before it may overwrite a file (Claude Code's Read rule). */
  | { kind: "read"; path: string };

export interface LoggedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  /** The raw request body (search it as a whole: where hook text sits differs by version). */
  body: string;
  answer?: Answer;
}

export function describeMove(move: Move): string {
  switch (move.kind) {
    case "write":
      return `write ${move.path}`;
    case "shell":
      return `shell ${move.command.split("\n")[0] ?? ""}`;
    case "reply":
      return `reply ${JSON.stringify(move.text)}`;
  }
}

/** The content as lines, without the empty string a final newline leaves. */
export function contentLines(content: string): string[] {
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
