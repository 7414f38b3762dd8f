export * from "./program.ts";
export { renderCliReference } from "./cli-reference.ts";
export { renderConfigReference } from "./config-reference.ts";
