// strict mode's pure core: the event log, its state and gate, test ids (native and tailtest-id
// slugs), valid reds, plan steps and the exported (red, edit, green) triples. See ADR 0008.
export * from "./strict-events.ts";
export * from "./strict-gate.ts";
export * from "./pairs.ts";
export * from "./plan-steps.ts";
export * from "./red.ts";
export * from "./strict-state.ts";
export * from "./test-id.ts";
export { supportDescription } from "./test-support.ts";
