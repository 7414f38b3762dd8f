/**
 * What `tailtest status` reads of the project (`@tailtest/core/node/status`), without the node
 * barrel, which reaches the test engine, the selection and every mode (see ../core-status.ts).
 */
export { createFsView } from "../../project/node/fs-view.ts";
export { openProject, SESSION_PATHS, sessionModeOf } from "../../project/node/project.ts";
export { pinLine, pinOf, pinWithWitness } from "../../gating/node/mode-pin.ts";
export { readWitness } from "../../gating/node/mode-witness.ts";
export { copyStatusLine } from "../../gating/node/copy-status.ts";
export { readActivity } from "../../views/node/activity.ts";
