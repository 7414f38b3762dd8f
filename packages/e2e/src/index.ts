export * from "./agents.ts";
export * from "./anthropic-server.ts";
export * from "./harness.ts";
export * from "./http.ts";
export * from "./openai-server.ts";
export * from "./scenario.ts";
export * from "./scenarios.ts";
