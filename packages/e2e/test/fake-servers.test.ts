import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  OUT_OF_SCRIPT,
  reply,
  shell,
  startAnthropicServer,
  startOpenAiServer,
  write,
  type FakeServer,
  type Scenario,
} from "../src/index.ts";

/**
 * The scripted servers without any CLI: requests shaped like the ones Claude Code 2.1.330 and
 * Codex 0.169.0 send (real-clients.md), answers checked event by event.
 */

const SCENARIO: Scenario = {
  name: "unit",
  prompt: "go",
  moves: [write("a.py", "x = 1\n"), reply("done"), write("a.py", "x = 2\n"), shell("ls")],
};

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const lines = chunk.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "";
      const data = lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "{}";
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

let root = "";
let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  if (root !== "") rmSync(root, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server?.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe("the scripted Anthropic Messages server", () => {
  const tools = [{ name: "Write" }, { name: "Read" }, { name: "Bash" }];
  const user = { role: "user", content: [{ type: "text", text: "go" }] };
  const toolUse = (id: string, name: string, input: unknown) => ({
    role: "assistant",
    content: [{ type: "tool_use", id, name, input }],
  });
  const toolResult = (id: string) => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: "ok" }],
  });

  /** The assistant message the server streamed, rebuilt from its SSE events. */
  async function turn(messages: unknown[], withTools = tools) {
    const { status, text } = await post("/v1/messages?beta=true", {
      model: "claude-sonnet-4-5",
      messages,
      tools: withTools,
      stream: true,
    });
    const events = parseSse(text);
    const blocks: Record<string, unknown>[] = [];
    let json = "";
    for (const { event, data } of events) {
      if (event === "content_block_start") blocks.push(data["content_block"] as never);
      if (event === "content_block_delta") {
        const delta = data["delta"] as { type: string; text?: string; partial_json?: string };
        if (delta.type === "text_delta") (blocks.at(-1) as { text: string }).text += delta.text;
        if (delta.type === "input_json_delta") json += delta.partial_json;
      }
    }
    if (json !== "") (blocks.at(-1) as { input: unknown }).input = JSON.parse(json);
    const stop = events.find((e) => e.event === "message_delta")?.data["delta"] as {
      stop_reason: string;
    };
    return { status, events: events.map((e) => e.event), blocks, stopReason: stop?.stop_reason };
  }

  it("streams the standard event sequence and the first move as a Write with an absolute path", async () => {
    root = mkdtempSync(join(tmpdir(), "tailtest-e2e-unit-"));
    server = await startAnthropicServer(SCENARIO, root);
    const first = await turn([user]);
    expect(first.status).toBe(200);
    expect(first.events).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(first.stopReason).toBe("tool_use");
    expect(first.blocks).toEqual([
      {
        type: "tool_use",
        id: "toolu_e2e_m0",
        name: "Write",
        input: { file_path: join(root, "a.py"), content: "x = 1\n" },
      },
    ]);
    expect(server.requests[0]?.answer).toMatchObject({ kind: "move", index: 0 });
    expect(server.requests[0]?.body).toContain('"go"');
  });

  it("moves on after a tool result, and after a Stop-hook continuation; reads before overwriting", async () => {
    root = mkdtempSync(join(tmpdir(), "tailtest-e2e-unit-"));
    server = await startAnthropicServer(SCENARIO, root);
    const wrote = toolUse("toolu_e2e_m0", "Write", {});
    const afterTool = await turn([user, wrote, toolResult("toolu_e2e_m0")]);
    expect(afterTool.blocks).toEqual([{ type: "text", text: "done" }]);
    expect(afterTool.stopReason).toBe("end_turn");

    writeFileSync(join(root, "a.py"), "x = 1\n");
    const history = [
      user,
      wrote,
      toolResult("toolu_e2e_m0"),
      { role: "assistant", content: [{ type: "text", text: "done" }] },
      { role: "user", content: [{ type: "text", text: "Stop hook feedback:\ntailtest: …" }] },
    ];
    const read = await turn(history);
    expect(read.blocks).toEqual([
      {
        type: "tool_use",
        id: "toolu_e2e_read_m2",
        name: "Read",
        input: { file_path: join(root, "a.py") },
      },
    ]);
    const readUse = toolUse("toolu_e2e_read_m2", "Read", {});
    const fix = await turn([...history, readUse, toolResult("toolu_e2e_read_m2")]);
    expect(fix.blocks[0]).toMatchObject({
      id: "toolu_e2e_m2",
      name: "Write",
      input: { content: "x = 2\n" },
    });
    expect(server.requests.map((request) => request.answer?.kind)).toEqual([
      "move",
      "read",
      "move",
    ]);
  });

  it("answers past the script, side requests, count_tokens and HEAD without moving the script", async () => {
    root = mkdtempSync(join(tmpdir(), "tailtest-e2e-unit-"));
    server = await startAnthropicServer({ ...SCENARIO, moves: [reply("done")] }, root);
    const side = await turn([user], []);
    expect(side.blocks).toEqual([{ type: "text", text: "ok" }]);
    const extra = await turn([user, { role: "assistant", content: "done" }, user]);
    expect(extra.blocks).toEqual([{ type: "text", text: OUT_OF_SCRIPT }]);
    const count = await post("/v1/messages/count_tokens", { messages: [user] });
    expect(count.status).toBe(200);
    expect(JSON.parse(count.text)).toHaveProperty("input_tokens");
    const head = await fetch(`${server.origin}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(server.requests.map((request) => request.answer?.kind)).toEqual([
      "side",
      "extra",
      undefined,
      undefined,
    ]);
  });

  it("reports a move whose tool the CLI did not offer", async () => {
    root = mkdtempSync(join(tmpdir(), "tailtest-e2e-unit-"));
    server = await startAnthropicServer(SCENARIO, root);
    const refused = await post("/v1/messages", { messages: [user], tools: [{ name: "Bash" }] });
    expect(refused.status).toBe(500);
    expect(server.problems).toEqual([
      "POST /v1/messages: move 0 needs the Write tool; not offered",
    ]);
  });
});

describe("the scripted OpenAI Responses server", () => {
  const tools = [
    { type: "function", name: "exec_command" },
    { type: "custom", name: "apply_patch" },
  ];
  const prompt = { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] };

  async function respond(input: unknown[]) {
    const { status, text } = await post("/v1/responses", {
      model: "gpt-5.5",
      input,
      tools,
      stream: true,
    });
    const events = parseSse(text);
    const done = events.find((e) => e.event === "response.output_item.done");
    return { status, events: events.map((e) => e.event), item: done?.data["item"] as never };
  }

  it("sends a write as a freeform apply_patch: Add File for a new file", async () => {
    root = mkdtempSync(join(tmpdir(), "tailtest-e2e-unit-"));
    server = await startOpenAiServer(SCENARIO, root);
    const first = await respond([prompt]);
    expect(first.status).toBe(200);
    expect(first.events[0]).toBe("response.created");
    expect(first.events.at(-2)).toBe("response.output_item.done");
    expect(first.events.at(-1)).toBe("response.completed");
    expect(first.item).toMatchObject({
      type: "custom_tool_call",
      call_id: "call_e2e_m0",
      name: "apply_patch",
      input: "*** Begin Patch\n*** Add File: a.py\n+x = 1\n*** End Patch\n",
    });
  });

  it("replaces every line of an existing file, replies after a tool output, and runs shell moves as exec_command", async () => {
    root = mkdtempSync(join(tmpdir(), "tailtest-e2e-unit-"));
    server = await startOpenAiServer(SCENARIO, root);
    const call = {
      type: "custom_tool_call",
      call_id: "call_e2e_m0",
      name: "apply_patch",
      input: "",
    };
    const output = { type: "custom_tool_call_output", call_id: "call_e2e_m0", output: "ok" };
    const afterTool = await respond([prompt, call, output]);
    expect(afterTool.item).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "done" }],
    });

    writeFileSync(join(root, "a.py"), "x = 1\nprint(x)\n");
    const said = {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "done" }],
    };
    const hookPrompt = {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<hook_prompt>tailtest: …</hook_prompt>" }],
    };
    const fix = await respond([prompt, call, output, said, hookPrompt]);
    expect(fix.item).toMatchObject({
      call_id: "call_e2e_m2",
      input:
        "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n-print(x)\n+x = 2\n*** End Patch\n",
    });
    const fixCall = {
      type: "custom_tool_call",
      call_id: "call_e2e_m2",
      name: "apply_patch",
      input: "",
    };
    const shellMove = await respond([prompt, call, output, said, hookPrompt, fixCall, output]);
    expect(shellMove.item).toMatchObject({
      type: "function_call",
      name: "exec_command",
      call_id: "call_e2e_m3",
      arguments: JSON.stringify({ cmd: "ls" }),
    });
    expect(shellMove.events).toContain("response.function_call_arguments.done");
  });
});
