import { isAbsolute, join } from "node:path";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { classifyTddFile, tddPatternsFromConfig, type TddFileClass } from "../file-classes.ts";
import { decideEdit, decideFiles, isProtectedPath } from "../tdd-gate.ts";
import { withAgentFlag } from "../guide.ts";
import type { EditEntry, TddEntry } from "../tdd-log.ts";
import { deriveTddState, type TddView } from "../tdd-state.ts";
import { detectLanguage } from "../../filter/languages.ts";
import { goBuildExcluded, goBuildNamesVersion, goModVersion } from "../../filter/go-build.ts";
import { readHead } from "../../project/node/fs-view.ts";
import { judgeTarget, protectionFor } from "../../gating/node/write-identity.ts";
import { lastAppliedAt, recordApplied } from "./tdd-applied.ts";
import type { Project } from "../../project/node/project.ts";
import { agentKey, appendTddAudit, readTddEntries, type AgentIdentity } from "./tdd-store.ts";
import { isoString } from "../../util/iso-datetime.ts";

/**
 * tdd mode's gate before a write (ADR 0007), on its own: what `handleEvent` runs for it, and
 * what the gate bundle (`hook-gate.cjs`, ADR 0010) runs without loading the rest of tdd mode.
 */

export interface TddCall {
  project: Project;
  /** The agent the call belongs to (session id, transcript path; the agent id for a subagent). */
  identity: AgentIdentity;
  now: () => Date;
}

export function keyOf(call: TddCall): string {
  return agentKey(call.identity);
}

/** The agent session's key, a subagent's call included: whose turn baseline is read and kept. */
export function sessionKeyOf(call: TddCall): string {
  return agentKey({ ...call.identity, agentId: undefined });
}

export async function viewOf(call: TddCall): Promise<{ entries: TddEntry[]; view: TddView }> {
  const { entries } = await readTddEntries(call.project.root, keyOf(call), { mineOnly: true });
  return { entries, view: deriveTddState(entries) };
}

/**
 * The agent's state alone, as `viewOf` derives it, without reading its `edit` entries: the
 * gate's audit never moves the state, and an agent's log is mostly that audit.
 */
async function stateViewOf(call: TddCall): Promise<TddView> {
  const read = await readTddEntries(call.project.root, keyOf(call), {
    mineOnly: true,
    stateOnly: true,
  });
  return deriveTddState(read.entries);
}

export interface GatedFile {
  relPath: string;
  fileClass: TddFileClass;
  /** Set when the file is tailtest's or an agent's hook settings by identity (write-identity.ts). */
  protectedAs?: string;
}

/**
 * Project files among the paths (absolute, or relative to `base`), each judged by where it leads
 * (write-identity.ts): a path through a link is the file it reaches; one that reaches outside the
 * project is not gated, unless it is protected (the user-level hook settings, the bundle).
 */
export function gatedFiles(
  call: Pick<TddCall, "project">,
  paths: readonly string[],
  base: string,
): GatedFile[] {
  const patterns = tddPatternsFromConfig(call.project.config);
  const files: GatedFile[] = [];
  const seen = new Set<string>();
  const protection = protectionFor(call.project.root);
  for (const path of paths) {
    const abs = isAbsolute(path) ? path : join(base, path);
    const { relPath, protectedAs } = judgeTarget(call.project.root, abs, protection);
    if (protectedAs !== undefined) {
      if (seen.has(protectedAs)) continue;
      seen.add(protectedAs);
      files.push({ relPath: protectedAs, fileClass: "other", protectedAs });
      continue;
    }
    if (relPath === undefined || seen.has(relPath)) continue;
    seen.add(relPath);
    const fileClass = classifyTddFile(relPath, patterns);
    files.push({
      relPath,
      fileClass:
        fileClass === "prod" && goProgramOutsideBuild(call.project.root, relPath)
          ? "other"
          : fileClass,
    });
  }
  return files;
}

/** The first bytes of a Go file read for its build constraint (a license header comes first). */
const GO_HEAD_BYTES = 4096;

/**
 * A Go file that `//go:build ignore` leaves out of every build as it stands on disk: a program
 * for `go run` (a `gen.go` generator) that no test compiles, so no Red can precede its edit. Read
 * from the file before the edit: writing the constraint into a package's file is gated as
 * production, and an allowed edit that takes it out is not recorded as gated
 * (`recordTddEdits`), so the end of the turn reports it. A constraint naming a Go version
 * (`//go:build !go1.18`) is judged against the module's go.mod, read only then.
 */
export function goProgramOutsideBuild(root: string, relPath: string): boolean {
  if (!relPath.endsWith(".go")) return false;
  const head = readHead(join(root, relPath), GO_HEAD_BYTES);
  return head !== undefined && goHeadOutsideBuild(root, relPath, head);
}

/** `goProgramOutsideBuild` on a Go file's first bytes (`head`), as held now or at a turn's start. */
export function goHeadOutsideBuild(root: string, relPath: string, head: string): boolean {
  if (!head.includes("build")) return false;
  return goBuildExcluded(
    head,
    goBuildNamesVersion(head) ? goModVersionAbove(root, relPath) : undefined,
  );
}

/** The `go` line of the nearest go.mod above a project file, or undefined. */
function goModVersionAbove(root: string, relPath: string): string | undefined {
  const dirs = relPath.split("/").slice(0, -1);
  for (let depth = dirs.length; depth >= 0; depth -= 1) {
    const goMod = readHead(join(root, ...dirs.slice(0, depth), "go.mod"), GO_HEAD_BYTES);
    if (goMod !== undefined) return goModVersion(goMod);
  }
  return undefined;
}

/**
 * Allows or denies a write to these files (an edit tool's, or a shell command's), and records
 * each gated decision in the agent's log. Files outside the project, end-to-end tests and other
 * files pass; tailtest's own files never do.
 */
export async function gateWrites(call: TddCall, paths: readonly string[], base?: string) {
  const files = gatedFiles(call, paths, base ?? call.project.root);
  if (files.length === 0) return { kind: "none" } as const satisfies Decision;
  const view = await stateViewOf(call);
  const gate = { state: view.state, allowlist: view.allowlist, skipRed: view.skipRed };
  const decision = decideFiles({ ...gate, files });
  // One file reads better as the single-edit message (the same verdict).
  const only = files.length === 1 ? files[0] : undefined;
  const single = only === undefined ? undefined : decideEdit({ ...gate, ...only });
  const message = single?.message ?? decision.message;
  const at = isoString(call.now());
  const audited: EditEntry[] = decision.files
    .filter(
      (file, index) =>
        file.decision === "deny" ||
        file.fileClass === "test" ||
        file.fileClass === "prod" ||
        // Source of no class or an end-to-end one: production code may import it, and the end
        // of the turn then asks whether a Green let it through (`test-imports.ts`).
        detectLanguage(file.relPath) !== undefined ||
        files[index]?.protectedAs !== undefined ||
        isProtectedPath(file.relPath),
    )
    .map((file) => ({
      kind: "edit",
      path: file.relPath,
      file_class: file.fileClass,
      state: view.state,
      decision: file.decision === "allow" ? "allowed" : "blocked",
      at,
    }));
  await appendTddAudit(call.project.root, keyOf(call), audited);
  const agentId = call.identity.agentId;
  if (decision.decision === "deny")
    return { kind: "deny", reason: withAgentFlag(message, agentId) } as const;
  return decision.warning === undefined
    ? ({ kind: "none" } as const)
    : ({ kind: "context", text: withAgentFlag(decision.warning, agentId) } as const);
}

/**
 * After a tool ran: what the production, test and other source files among `paths` hold now, for those this
 * agent's gate allowed last (tdd-applied.ts), so the end of the turn can tell the gated edit from
 * a write after it. A file the gate did not allow is left to the end of the turn to report.
 */
export async function recordTddEdits(
  call: TddCall,
  paths: readonly string[],
  base?: string,
): Promise<Decision> {
  const files = gatedFiles(call, paths, base ?? call.project.root).filter(
    (file) =>
      file.protectedAs === undefined &&
      (file.fileClass === "prod" ||
        file.fileClass === "test" ||
        detectLanguage(file.relPath) !== undefined),
  );
  if (files.length === 0) return { kind: "none" };
  const { entries } = await viewOf(call);
  // Each path's last gate decision for this agent, when it allowed it and the class it saw.
  const last = new Map<
    string,
    { decision: EditEntry["decision"]; at: number; fileClass: string }
  >();
  for (const entry of entries)
    if (entry.kind === "edit")
      last.set(entry.path, {
        decision: entry.decision,
        at: Date.parse(entry.at),
        fileClass: entry.file_class,
      });
  const now = new Map(files.map((file) => [file.relPath, file.fileClass]));
  // An allowance is used once: a write after its record (a gate that timed out) records nothing.
  const used = lastAppliedAt(call.project.root, keyOf(call));
  const allowed = files
    .map((file) => file.relPath)
    .filter((path) => {
      const gate = last.get(path);
      return (
        gate?.decision === "allowed" &&
        gate.at >= (used.get(path) ?? Number.NEGATIVE_INFINITY) &&
        // A Go program allowed as outside every build that the edit made production.
        !(gate.fileClass === "other" && now.get(path) === "prod")
      );
    });
  await recordApplied(call.project.root, keyOf(call), allowed, call.now().toISOString());
  return { kind: "none" };
}

/** The call a tdd-mode event makes: the agent is the session's, or the event's subagent. */
export function tddCallOf(
  project: Project,
  event: HookEvent,
  identity: Omit<AgentIdentity, "agentId"> | undefined,
  now: () => Date,
): TddCall {
  const agentId = "agentId" in event ? event.agentId : undefined;
  return { project, identity: { ...identity, agentId }, now };
}
