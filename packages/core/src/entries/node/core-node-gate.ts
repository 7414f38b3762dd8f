/**
 * What an adapter's gate bundle (`hook-gate.cjs`) needs of core (`@tailtest/core/node/gate`): tdd
 * and strict mode's answers around an edit tool and what opens a project, without `handleEvent`,
 * which reaches every mode and engine. See ADR 0010.
 */
export { answerGatedEdit } from "../../gating/node/gated-edit.ts";
export * from "./core-node-edit.ts";
