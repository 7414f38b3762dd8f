import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Answer, LoggedRequest } from "./scenario.ts";

/** One server-sent event, in the `event:`/`data:` form both APIs use. */
export function sseEvent(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every request received, in order, with its whole body. */
  requests: LoggedRequest[];
  /** Errors the script met (a request it could not answer); a test asserts there are none. */
  problems: string[];
  close(): Promise<void>;
}

/** What a route returns: an SSE stream, a JSON document, or a status with no body. */
export type Reply =
  | { kind: "sse"; events: string[]; answer: Answer }
  | { kind: "json"; status: number; body: unknown }
  | { kind: "empty"; status: number };

export type Route = (request: { method: string; url: string; body: string }) => Reply;

/** A node:http server on a free local port that logs each request and answers through `route`. */
export async function startServer(route: Route): Promise<FakeServer> {
  const requests: LoggedRequest[] = [];
  const problems: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const entry: LoggedRequest = { method: req.method ?? "", url: req.url ?? "", body };
      requests.push(entry);
      let reply: Reply;
      try {
        reply = route({ method: entry.method, url: entry.url, body });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        problems.push(`${entry.method} ${entry.url}: ${message}`);
        reply = { kind: "json", status: 500, body: { error: { message } } };
      }
      send(res, reply, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, reply: Reply, entry: LoggedRequest): void {
  switch (reply.kind) {
    case "sse":
      entry.answer = reply.answer;
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      for (const event of reply.events) res.write(event);
      res.end();
      return;
    case "json":
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.body));
      return;
    case "empty":
      res.writeHead(reply.status);
      res.end();
      return;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The JSON body of a model request; a body that is not an object is the script's error. */
export function parseJsonBody(body: string): Record<string, unknown> {
  const json: unknown = JSON.parse(body);
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw new Error("the request body is not a JSON object");
  return json as Record<string, unknown>;
}
