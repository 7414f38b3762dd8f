import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonBody, sseEvent, startServer, type FakeServer, type Reply } from "./http.ts";
import { contentLines, OUT_OF_SCRIPT, type Answer, type Move, type Scenario } from "./scenario.ts";

/** The call id the script gives each move, so it can count its moves in the history. */
const MOVE_CALL_ID = "call_e2e_m";

interface InputItem {
  type?: string;
  role?: string;
  call_id?: string;
}

type OutputItem = Record<string, unknown> & { type: string; id: string };

/**
 * A scripted OpenAI Responses API (streaming) for Codex: `POST /v1/responses` answers with the
 * scenario's next move as SSE. A write is an `apply_patch` freeform `custom_tool_call` (Add File,
 * or Update File replacing every line when the file exists); a shell move is an `exec_command`
 * `function_call`. `root` is the project folder Codex runs in.
 */
export function startOpenAiServer(scenario: Scenario, root: string): Promise<FakeServer> {
  let served = 0;
  return startServer(({ method, url, body }): Reply => {
    const path = url.split("?")[0] ?? "";
    if (method === "HEAD") return { kind: "empty", status: 200 };
    if (method === "GET")
      return { kind: "json", status: 200, body: { object: "list", data: [], models: [] } };
    if (method !== "POST") return { kind: "empty", status: 405 };
    if (path !== "/v1/responses") return { kind: "json", status: 404, body: { error: "no route" } };
    served += 1;
    const request = parseJsonBody(body);
    const model = typeof request["model"] === "string" ? request["model"] : "gpt-e2e";
    const { answer, item } = nextItem(scenario, root, request, served);
    return { kind: "sse", answer, events: responseEvents(`resp_e2e_${served}`, model, item) };
  });
}

function nextItem(
  scenario: Scenario,
  root: string,
  request: Record<string, unknown>,
  served: number,
): { answer: Answer; item: OutputItem } {
  const tools = Array.isArray(request["tools"]) ? (request["tools"] as { name?: string }[]) : [];
  if (tools.length === 0) return { answer: { kind: "side" }, item: message(served, "ok") };
  const offered = new Set(tools.map((tool) => tool.name));
  const input = Array.isArray(request["input"]) ? (request["input"] as InputItem[]) : [];
  const done = input.filter(
    (item) =>
      (item.type === "message" && item.role === "assistant") ||
      ((item.type === "custom_tool_call" || item.type === "function_call") &&
        item.call_id?.startsWith(MOVE_CALL_ID) === true),
  ).length;
  const move = scenario.moves[done];
  if (move === undefined)
    return { answer: { kind: "extra" }, item: message(served, OUT_OF_SCRIPT) };
  const need = (tool: string) => {
    if (!offered.has(tool)) throw new Error(`move ${done} needs the ${tool} tool; not offered`);
  };
  const answer: Answer = { kind: "move", index: done, move };
  const callId = `${MOVE_CALL_ID}${done}`;
  switch (move.kind) {
    case "reply":
      return { answer, item: message(served, move.text) };
    case "shell":
      need("exec_command");
      return {
        answer,
        item: {
          type: "function_call",
          id: `fc_e2e_${served}`,
          call_id: callId,
          name: "exec_command",
          arguments: JSON.stringify({ cmd: move.command }),
          status: "completed",
        },
      };
    case "write":
      need("apply_patch");
      return {
        answer,
        item: {
          type: "custom_tool_call",
          id: `ctc_e2e_${served}`,
          call_id: callId,
          name: "apply_patch",
          input: patchFor(move, root),
          status: "completed",
        },
      };
  }
}

/** An apply_patch text that makes the file hold exactly the move's content. */
export function patchFor(move: Extract<Move, { kind: "write" }>, root: string): string {
  const added = contentLines(move.content).map((line) => `+${line}`);
  const filePath = join(root, move.path);
  const body = existsSync(filePath)
    ? [
        `*** Update File: ${move.path}`,
        "@@",
        ...contentLines(readFileSync(filePath, "utf8")).map((line) => `-${line}`),
        ...added,
      ]
    : [`*** Add File: ${move.path}`, ...added];
  return ["*** Begin Patch", ...body, "*** End Patch", ""].join("\n");
}

function message(served: number, text: string): OutputItem {
  return {
    type: "message",
    id: `msg_e2e_${served}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/** created → in_progress → output_item.added → deltas → output_item.done → completed. */
function responseEvents(id: string, model: string, item: OutputItem): string[] {
  const response = { id, object: "response", created_at: 0, model, status: "in_progress" };
  const events = [
    sseEvent("response.created", {
      type: "response.created",
      response: { ...response, output: [] },
    }),
    sseEvent("response.in_progress", {
      type: "response.in_progress",
      response: { ...response, output: [] },
    }),
    sseEvent("response.output_item.added", {
      type: "response.output_item.added",
      output_index: 0,
      item: inProgress(item),
    }),
    ...deltas(item),
    sseEvent("response.output_item.done", {
      type: "response.output_item.done",
      output_index: 0,
      item,
    }),
    sseEvent("response.completed", {
      type: "response.completed",
      response: {
        ...response,
        status: "completed",
        output: [item],
        usage: {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 30,
        },
      },
    }),
  ];
  return events;
}

function inProgress(item: OutputItem): OutputItem {
  switch (item.type) {
    case "message":
      return { ...item, status: "in_progress", content: [] };
    case "function_call":
      return { ...item, status: "in_progress", arguments: "" };
    default:
      return { ...item, status: "in_progress", input: "" };
  }
}

function deltas(item: OutputItem): string[] {
  const base = { item_id: item.id, output_index: 0 };
  switch (item.type) {
    case "message": {
      const text = (item["content"] as { text: string }[])[0]?.text ?? "";
      const part = { type: "output_text", text: "", annotations: [] };
      return [
        sseEvent("response.content_part.added", {
          type: "response.content_part.added",
          ...base,
          content_index: 0,
          part,
        }),
        sseEvent("response.output_text.delta", {
          type: "response.output_text.delta",
          ...base,
          content_index: 0,
          delta: text,
        }),
        sseEvent("response.output_text.done", {
          type: "response.output_text.done",
          ...base,
          content_index: 0,
          text,
        }),
        sseEvent("response.content_part.done", {
          type: "response.content_part.done",
          ...base,
          content_index: 0,
          part: { ...part, text },
        }),
      ];
    }
    case "function_call": {
      const args = String(item["arguments"]);
      return [
        sseEvent("response.function_call_arguments.delta", {
          type: "response.function_call_arguments.delta",
          ...base,
          delta: args,
        }),
        sseEvent("response.function_call_arguments.done", {
          type: "response.function_call_arguments.done",
          ...base,
          arguments: args,
        }),
      ];
    }
    default: {
      const input = String(item["input"]);
      return [
        sseEvent("response.custom_tool_call_input.delta", {
          type: "response.custom_tool_call_input.delta",
          ...base,
          delta: input,
        }),
        sseEvent("response.custom_tool_call_input.done", {
          type: "response.custom_tool_call_input.done",
          ...base,
          input,
        }),
      ];
    }
  }
}
