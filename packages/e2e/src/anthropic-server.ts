import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseJsonBody, sseEvent, startServer, type FakeServer, type Reply } from "./http.ts";
import { OUT_OF_SCRIPT, type Answer, type Move, type Scenario } from "./scenario.ts";

/** Tool-use ids the script gives its moves and pre-reads, so it can find them in the history. */
const MOVE_ID = "toolu_e2e_m";
const READ_ID = "toolu_e2e_read_m";

interface Message {
  role: string;
  content: string | Block[];
}

interface Block {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/**
 * A scripted Anthropic Messages API (streaming) for Claude Code: `POST /v1/messages` answers
 * with the scenario's next move as SSE; `count_tokens`, `HEAD` and `GET` are answered so that
 * no side request fails. `root` is the project folder Claude Code runs in (Write takes absolute
 * paths).
 */
export function startAnthropicServer(scenario: Scenario, root: string): Promise<FakeServer> {
  let served = 0;
  return startServer(({ method, url, body }): Reply => {
    const path = url.split("?")[0] ?? "";
    if (method === "HEAD") return { kind: "empty", status: 200 };
    if (method === "GET") return { kind: "json", status: 200, body: { data: [] } };
    if (method !== "POST") return { kind: "empty", status: 405 };
    if (path === "/v1/messages/count_tokens")
      return { kind: "json", status: 200, body: { input_tokens: Math.ceil(body.length / 4) } };
    if (path !== "/v1/messages") return { kind: "json", status: 404, body: { error: "no route" } };
    served += 1;
    const request = parseJsonBody(body);
    const model = typeof request["model"] === "string" ? request["model"] : "claude-e2e";
    const { answer, blocks } = nextTurn(scenario, root, request);
    return { kind: "sse", answer, events: messageEvents(`msg_e2e_${served}`, model, blocks) };
  });
}

type OutBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** The next assistant message: the first move the conversation does not hold yet. */
function nextTurn(
  scenario: Scenario,
  root: string,
  request: Record<string, unknown>,
): { answer: Answer; blocks: OutBlock[] } {
  const tools = Array.isArray(request["tools"]) ? (request["tools"] as { name?: string }[]) : [];
  if (tools.length === 0)
    return { answer: { kind: "side" }, blocks: [{ type: "text", text: "ok" }] };
  const offered = new Set(tools.map((tool) => tool.name));
  const messages = Array.isArray(request["messages"]) ? (request["messages"] as Message[]) : [];
  const ids = toolUseIds(messages);
  const done = [...ids].filter((id) => id.startsWith(MOVE_ID)).length + textReplies(messages);
  const move = scenario.moves[done];
  if (move === undefined)
    return { answer: { kind: "extra" }, blocks: [{ type: "text", text: OUT_OF_SCRIPT }] };
  const need = (tool: string) => {
    if (!offered.has(tool)) throw new Error(`move ${done} needs the ${tool} tool; not offered`);
  };
  const answer: Answer = { kind: "move", index: done, move };
  switch (move.kind) {
    case "reply":
      return { answer, blocks: [{ type: "text", text: move.text }] };
    case "shell":
      need("Bash");
      return {
        answer,
        blocks: [
          toolUse(`${MOVE_ID}${done}`, "Bash", { command: move.command, description: "run" }),
        ],
      };
    case "write":
      return writeTurn(move, done, root, ids, need);
  }
}

/** Claude Code refuses to overwrite a file the model has not read: an existing one is read first. */
function writeTurn(
  move: Extract<Move, { kind: "write" }>,
  index: number,
  root: string,
  ids: Set<string>,
  need: (tool: string) => void,
): { answer: Answer; blocks: OutBlock[] } {
  const filePath = join(root, move.path);
  if (existsSync(filePath) && !ids.has(`${READ_ID}${index}`)) {
    need("Read");
    return {
      answer: { kind: "read", path: move.path },
      blocks: [toolUse(`${READ_ID}${index}`, "Read", { file_path: filePath })],
    };
  }
  need("Write");
  return {
    answer: { kind: "move", index, move },
    blocks: [
      toolUse(`${MOVE_ID}${index}`, "Write", { file_path: filePath, content: move.content }),
    ],
  };
}

function toolUse(id: string, name: string, input: Record<string, unknown>): OutBlock {
  return { type: "tool_use", id, name, input };
}

function toolUseIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content)
      if (block.type === "tool_use" && block.id !== undefined) ids.add(block.id);
  }
  return ids;
}

/** Assistant messages that are text only: the script's replies. */
function textReplies(messages: readonly Message[]): number {
  return messages.filter(
    (message) =>
      message.role === "assistant" &&
      (typeof message.content === "string" ||
        message.content.every((block) => block.type === "text")),
  ).length;
}

/** The standard streaming sequence for one assistant message. */
function messageEvents(id: string, model: string, blocks: readonly OutBlock[]): string[] {
  const events = [
    sseEvent("message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 10,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    }),
    sseEvent("ping", { type: "ping" }),
  ];
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      events.push(
        sseEvent("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        }),
        sseEvent("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: block.text },
        }),
      );
    } else {
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      events.push(
        sseEvent("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
        ...[json.slice(0, half), json.slice(half)].map((partial) =>
          sseEvent("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: partial },
          }),
        ),
      );
    }
    events.push(sseEvent("content_block_stop", { type: "content_block_stop", index }));
  });
  const usesTool = blocks.some((block) => block.type === "tool_use");
  events.push(
    sseEvent("message_delta", {
      type: "message_delta",
      delta: { stop_reason: usesTool ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 20 },
    }),
    sseEvent("message_stop", { type: "message_stop" }),
  );
  return events;
}
