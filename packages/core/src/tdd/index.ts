// tdd mode's pure core: the log, the state reducer, declarations, file classes, the edit gate,
// test-command recognition and the agent-facing guide. The CLI declares through it (tailtest
// red/green); the hooks gate through node/tdd-gate-call.ts and record through node/tdd-hooks.ts.
export * from "./cycles.ts";
export * from "./declare.ts";
export * from "./file-classes.ts";
export * from "./tdd-gate.ts";
export * from "./guide.ts";
export * from "./tdd-log.ts";
export * from "./tdd-state.ts";
export * from "./test-commands.ts";
