import { existsSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join } from "node:path";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { couldNotDecideReason, errorLine } from "../../hook/failure-policy.ts";
import type { Project } from "../../project/node/project.ts";
import { shellWord } from "../../util/shell-word.ts";

/*
 * What every gating mode's answer goes through, in handleEvent and in the gate bundle alike
 * (gated-edit.ts): the `tailtest` commands it names as the agent can run them, and a core error
 * before a tool runs turned into a deny (ADR 0002).
 */

/**
 * How the agent's shell reaches the `tailtest` command: a project install (`npm i -D`, what the
 * docs say) puts it in node_modules/.bin, which is not on the agent's PATH, so `npx tailtest`
 * (npx finds the local bin without the network); a `tailtest` on PATH (a global install) as
 * itself; otherwise (a user-level install, whose pinned copy is on no PATH) the CLI beside the
 * running hook, by its path. Never a bare `npx tailtest` without a local bin: npx would fetch
 * whatever the registry holds under that name.
 */
export function cliPrefix(
  root: string,
  where: { hookScript?: string | undefined; path?: string | undefined } = {
    hookScript: process.argv[1],
    path: process.env["PATH"],
  },
): string {
  if (existsSync(join(root, "node_modules", ".bin", "tailtest"))) return "npx tailtest";
  const onPath = (where.path ?? "")
    .split(delimiter)
    .some((dir) => dir !== "" && isAbsolute(dir) && existsSync(join(dir, "tailtest")));
  if (onPath) return "tailtest";
  const beside = besideHook(where.hookScript);
  return beside === undefined ? "tailtest" : `node ${shellWord(beside)}`;
}

/** `@tailtest/cli`'s bin installed beside the adapter whose hook runs (node_modules/@tailtest/). */
function besideHook(hookScript: string | undefined): string | undefined {
  if (hookScript === undefined || hookScript === "") return undefined;
  try {
    const dist = dirname(realpathSync(hookScript));
    const bin = join(dist, "..", "..", "cli", "dist", "bin.js");
    return basename(dirname(dirname(dist))) === "@tailtest" && existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** The decision's commands (`tailtest red|green|tdd status`) as the agent can run them. */
export function withCliPrefix(decision: Decision, prefix: string): Decision {
  if (prefix === "tailtest") return decision;
  const fix = (text: string) =>
    text.replace(
      /(^|[^\w-])tailtest (?=(red|green|tdd status|claim|refactor|strict status)\b)/gm,
      `$1${prefix} `,
    );
  switch (decision.kind) {
    case "context":
      return { ...decision, text: fix(decision.text) };
    case "deny":
    case "block":
      return { ...decision, reason: fix(decision.reason) };
    case "none":
      return decision;
  }
}

/** The events that ask before a tool runs: in tdd mode, a failure to decide denies (ADR 0002). */
const GATE_EVENTS = new Set<HookEvent["kind"]>([
  "EditRequested",
  "CommandRequested",
  "PlanSubmitted",
]);

/**
 * A gating mode's answer, with commands as the agent can run them. A core error on a pre-tool
 * event is a deny (the mode fails closed, ADR 0002); elsewhere it goes to the adapter's policy.
 */
export async function guarded(
  mode: "tdd" | "strict",
  project: Project,
  event: HookEvent,
  decide: () => Promise<Decision>,
): Promise<Decision> {
  try {
    return withCliPrefix(await decide(), cliPrefix(project.root));
  } catch (error) {
    if (!GATE_EVENTS.has(event.kind)) throw error;
    return {
      kind: "deny",
      reason: couldNotDecideReason(mode, `internal error: ${errorLine(error, project.root)}`),
    };
  }
}
