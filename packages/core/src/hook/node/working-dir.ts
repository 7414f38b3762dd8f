import { isAbsolute } from "node:path";

/**
 * The folder a hook was started in. `process.cwd()` throws when that folder was removed (an agent
 * that deleted the folder its shell stood in): the hook then goes on from the shell's `PWD`,
 * whose nearest remaining parent still finds the project, or from the root when there is none —
 * never a stack trace to the agent (ADR 0002).
 */
export function workingDir(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return process.cwd();
  } catch {
    const pwd = env["PWD"];
    return pwd !== undefined && isAbsolute(pwd) ? pwd : "/";
  }
}
