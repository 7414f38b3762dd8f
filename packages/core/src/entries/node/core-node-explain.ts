/**
 * What `tailtest explain` needs of core (`@tailtest/core/node/explain`): the filter's verdict on
 * a file, the tests the end of a turn would select for it and the note an agent would read,
 * without the barrels, which reach the test engine and every mode (see ../core-status.ts).
 */
export { inspectEdit, openProject, type EditInsight } from "../../project/node/project.ts";
export { selectRelated, type Selection } from "../../selection/node/graph-selection.ts";
export { renderQueuedNote } from "../../notes/notes.ts";
export { memoView } from "../../project/project-view.ts";
export { runnerLabel } from "../../runners/project-runners.ts";
export type { Language } from "../../filter/languages.ts";
export type { ScoreInputs } from "../../config/complexity.ts";
