// tdd mode's pure core: the log, the state reducer, declarations, file
// classes, the edit gate and test-command recognition. The CLI declares through it (tailtest
// red/green); the hooks do not gate with it yet.
export * from "./declare.ts";
export * from "./file-classes.ts";
export * from "./gate.ts";
export * from "./log.ts";
export * from "./state.ts";
export * from "./test-commands.ts";
