// tdd mode's pure core (issue 7, in progress): the log, the state reducer, declarations, file
// classes, the edit gate and test-command recognition. Adapters and the CLI do not use it yet.
export * from "./declare.ts";
export * from "./file-classes.ts";
export * from "./gate.ts";
export * from "./log.ts";
export * from "./state.ts";
export * from "./test-commands.ts";
