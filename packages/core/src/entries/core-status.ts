/**
 * What `tailtest status` and `doctor`'s Codex check need of core's pure part
 * (`@tailtest/core/status`), and nothing else: the command bundle evaluates every module a barrel
 * such as `index.ts` names once anything is imported through it, and a person waits for the
 * command's start (ADR 0010, docs/performance.md).
 */
export { buildStatus, renderStatus } from "../views/status-view.ts";
export {
  DOCTOR_CONFIG_PATH,
  DOCTOR_HOOK_FILES,
  findHookInstalls,
  type ParsedToml,
} from "../install/doctor-checks.ts";
export { checkCodexTrust, type CodexHooksSource, type CodexTrust } from "../install/codex-trust.ts";
export { parseJsonObject } from "../install/project-files.ts";
export { ANSI_STYLE, PLAIN_STYLE, type TextStyle } from "../views/text-style.ts";
