import { redCommandFor } from "./declare.ts";
import ignore from "ignore";
import { capText } from "../notes/notes.ts";
import { normaliseTddPath, type TddFileClass } from "./file-classes.ts";
import { pathRules, type PathRules } from "./path-rules.ts";
import type { TddState } from "./tdd-state.ts";
import { shellWord } from "../util/shell-word.ts";

export interface EditGateInput {
  state: TddState;
  fileClass: TddFileClass;
  /** Relative to the project root. */
  relPath: string;
  /** The files declared for the current Green (`--file`): paths or globs, relative to the root. */
  allowlist: readonly string[];
  /** The current Green was declared with `--skip-red`. */
  skipRed: boolean;
  /** Set when the edge found the file protected by identity (where it leads, its inode). */
  protectedAs?: string | undefined;
  /** Extra protected patterns (gitignore syntax), added to `DEFAULT_PROTECTED_PATHS`. */
  protectedPaths?: readonly string[] | undefined;
}

export interface EditDecision {
  decision: "allow" | "deny";
  /** Why, for the agent; on a denial also the exact next command. */
  message: string;
  /** On allowed edits: something the agent should hear (a large Green allowlist). */
  warning?: string;
}

export interface FilesGateInput extends Omit<
  EditGateInput,
  "fileClass" | "relPath" | "protectedAs"
> {
  files: readonly { relPath: string; fileClass: TddFileClass; protectedAs?: string | undefined }[];
}

export interface FileDecision {
  relPath: string;
  fileClass: TddFileClass;
  decision: "allow" | "deny";
  message: string;
}

export interface FilesDecision extends EditDecision {
  files: FileDecision[];
}

/**
 * What an agent may never edit: tailtest's state, config and logs, Cursor's tailtest state, and
 * the hook configs that run tailtest. Matched at any depth and ignoring case, so a nested package
 * or a case-insensitive file system does not open a way round.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  ".tailtest/",
  "**/.cursor/hooks/state/",
  "**/.claude/settings*.json",
  "**/.cursor/hooks.json",
  "**/.codex/hooks.json",
  "**/.codex/config.toml",
];

/** A Green that declares more files than this gets a warning on every allowed edit. */
export const ALLOWLIST_WARNING_THRESHOLD = 5;

/** The same placeholder command the declarations' own refusals print. */
export const RED_COMMAND = redCommandFor();
const CHANGE_PLACEHOLDER = '"<what you will change>"';
const SKIP_RED_REASONS = "refactoring, lint-only, adding-coverage";

/** The command that declares a Green for these files. */
export function greenCommand(files: readonly string[]): string {
  const shown = files.length === 0 ? ["<production file>"] : files;
  const flags = shown.map((file) => `--file ${file.startsWith("<") ? file : shellWord(file)}`);
  return `tailtest green --change ${CHANGE_PLACEHOLDER} ${flags.join(" ")}`;
}

function skipRedCommand(files: readonly string[]): string {
  return greenCommand(files).replace(
    "tailtest green ",
    "tailtest green --skip-red --reason refactoring ",
  );
}

type Next =
  | { kind: "red" }
  | { kind: "green"; files: string[] }
  | { kind: "fail-then-green"; files: string[] }
  | { kind: "green-or-red" }
  | { kind: "red-or-skip-red"; files: string[] }
  | { kind: "person" };

interface Verdict {
  allowed: boolean;
  why: string;
  next?: Next;
}

/** Allow or deny one edit by the agent, from the TDD state and the file's class. */
export function decideEdit(input: EditGateInput): EditDecision {
  const path = displayPath(input.relPath);
  const verdict = judge(input, path);
  const warning = verdict.allowed ? allowlistWarning(input) : undefined;
  const message = verdict.allowed
    ? `tailtest tdd: allowed: ${verdict.why}.`
    : capText(
        `tailtest tdd: ${path} is blocked: ${verdict.why}.\n${renderNext(nextSteps([verdict]))}`,
      );
  return warning === undefined
    ? { decision: verdict.allowed ? "allow" : "deny", message }
    : { decision: "allow", message, warning };
}

/**
 * Allow or deny an edit that touches several files at once (a Codex patch, a shell command): it
 * is denied when any file is, and the message lists each blocked file and the next command(s).
 */
export function decideFiles(input: FilesGateInput): FilesDecision {
  const judged = input.files.map((file) => {
    const path = displayPath(file.relPath);
    return { file, path, verdict: judge({ ...input, ...file }, path) };
  });
  const files = judged.map(({ file, path, verdict }) => ({
    relPath: file.relPath,
    fileClass: file.fileClass,
    decision: verdict.allowed ? ("allow" as const) : ("deny" as const),
    message: verdict.allowed ? `allowed: ${verdict.why}` : `${path} is blocked: ${verdict.why}`,
  }));
  const denied = judged.filter(({ verdict }) => !verdict.allowed);
  if (denied.length === 0) {
    const warning = allowlistWarning(input);
    const only = files.length === 1 ? files[0] : undefined;
    const message = `tailtest tdd: ${only?.message ?? `allowed: all ${files.length} files`}.`;
    return warning === undefined
      ? { decision: "allow", message, files }
      : { decision: "allow", message, warning, files };
  }
  const lines = denied.map(({ path, verdict }) => `- ${path}: ${verdict.why}`);
  const head = `tailtest tdd: this edit is blocked: ${denied.length} of ${files.length} file${
    files.length === 1 ? "" : "s"
  } may not change now.`;
  const next = renderNext(nextSteps(denied.map(({ verdict }) => verdict)));
  return { decision: "deny", message: capText([head, ...lines, next].join("\n")), files };
}

/** True for a path the agent may never edit (see `DEFAULT_PROTECTED_PATHS`). */
export function isProtectedPath(relPath: string, extra: readonly string[] = []): boolean {
  const path = normaliseTddPath(relPath);
  return path !== undefined && protectedMatcher(extra).ignores(path);
}

/**
 * True when the Green allowlist covers a path. Both sides are normalised (`./`, `\`, `//`, `.`,
 * `..`) and compared case-sensitively. An entry with `*`, `?` or `[` is a glob anchored at the
 * project root (`src/*.ts` is not `src/a/b.ts`; `src/**` is); an entry ending in `/` covers
 * everything under that folder.
 */
export function allowlistCovers(allowlist: readonly string[], relPath: string): boolean {
  const path = normaliseTddPath(relPath);
  if (path === undefined) return false;
  return allowlist.some((entry) => entryCovers(entry, path));
}

function entryCovers(entry: string, path: string): boolean {
  const trimmed = entry.trim().replace(/\\/g, "/");
  if (/[*?[]/.test(trimmed)) {
    const glob = trimmed.replace(/^(\.\/)+/, "").replace(/^\/+/, "");
    return ignore({ ignorecase: false }).add(`/${glob}`).ignores(path);
  }
  const normal = normaliseTddPath(trimmed);
  if (normal === undefined) return false;
  return path === normal || (trimmed.endsWith("/") && path.startsWith(`${normal}/`));
}

function judge(input: EditGateInput, path: string): Verdict {
  if (input.protectedAs !== undefined || isProtectedPath(input.relPath, input.protectedPaths)) {
    return {
      allowed: false,
      why: "it is tailtest's own state, configuration or an agent hook config, which agents may not edit in any state; only the person can change modes or overrides",
      next: { kind: "person" },
    };
  }
  switch (input.fileClass) {
    case "e2e_test":
      return { allowed: true, why: `${path} is an end-to-end test, which tdd mode does not gate` };
    case "other":
      return {
        allowed: true,
        why: `${path} is neither a test nor production code, which tdd mode does not gate`,
      };
    case "test":
      return judgeTest(input, path);
    case "prod":
      return judgeProd(input, path);
  }
}

function judgeTest(input: EditGateInput, path: string): Verdict {
  switch (input.state) {
    case "initial":
      return {
        allowed: false,
        why: "no TDD cycle is open; declare the behaviour you are about to test before writing the test",
        next: { kind: "red" },
      };
    case "writing_tests":
      return { allowed: true, why: `Red is declared and ${path} is a test file` };
    case "red":
      return {
        allowed: false,
        why: "the test failed as expected (Red is confirmed), so tests stay as they are; declare the production change that makes it pass",
        next: { kind: "green-or-red" },
      };
    case "making_tests_pass":
      return input.skipRed
        ? {
            allowed: true,
            why: `this Green was declared with --skip-red, so test files such as ${path} may change`,
          }
        : {
            allowed: false,
            why: `during Green, test files may change only when the Green was declared with --skip-red (${SKIP_RED_REASONS}); this one was not, so the failing test keeps its meaning while you make it pass`,
            next: { kind: "red" },
          };
  }
}

function judgeProd(input: EditGateInput, path: string): Verdict {
  switch (input.state) {
    case "initial":
      return {
        allowed: false,
        why: "no TDD cycle is open; production code changes only after a failing test, so declare that test first",
        next: { kind: "red-or-skip-red", files: [path] },
      };
    case "writing_tests":
      return {
        allowed: false,
        why: "Red is declared, so only test files may change until the new test has failed",
        next: { kind: "fail-then-green", files: [path] },
      };
    case "red":
      return {
        allowed: false,
        why: "the test failed as expected (Red is confirmed); declare the change and its files before editing production code",
        next: { kind: "green", files: [path] },
      };
    case "making_tests_pass":
      if (allowlistCovers(input.allowlist, input.relPath)) {
        return { allowed: true, why: `${path} is declared for this Green` };
      }
      return {
        allowed: false,
        why: `it is not among the files declared for this Green (${declared(input.allowlist)})`,
        next: { kind: "green", files: [...displayList(input.allowlist), path] },
      };
  }
}

function allowlistWarning(input: Omit<EditGateInput, "fileClass" | "relPath">): string | undefined {
  if (input.state !== "making_tests_pass") return undefined;
  const entries = displayList(input.allowlist);
  // A glob or a folder is one entry that can cover any number of files (`--file '**'`).
  const patterns = entries.filter((entry) => /[*?[]/.test(entry) || entry.endsWith("/"));
  if (entries.length <= ALLOWLIST_WARNING_THRESHOLD && patterns.length > 0)
    return capText(
      `tailtest tdd: this Green declares ${patterns.length === 1 ? "a pattern" : "patterns"} (${patterns.join(", ")}), not files: it can cover any number of them, which is a big step. Name each file the failing test needs, and split the rest into further Red→Green cycles.`,
    );
  if (entries.length <= ALLOWLIST_WARNING_THRESHOLD) return undefined;
  return capText(
    `tailtest tdd: this Green declares ${entries.length} files (${entries.join(", ")}); more than ${ALLOWLIST_WARNING_THRESHOLD} is a big step. Make the failing test pass with as few files as you can, and split the rest into further Red→Green cycles.`,
  );
}

/** Merges the next steps of several denials: one Red, one Green naming every file. */
function nextSteps(verdicts: readonly Verdict[]): Next[] {
  const steps: Next[] = [];
  for (const verdict of verdicts) {
    const next = verdict.next;
    if (next === undefined) continue;
    const same = steps.find((step) => step.kind === next.kind);
    if (same === undefined)
      steps.push("files" in next ? { ...next, files: [...next.files] } : next);
    else if ("files" in same && "files" in next) {
      for (const file of next.files) if (!same.files.includes(file)) same.files.push(file);
    }
  }
  return steps;
}

function renderNext(steps: readonly Next[]): string {
  return steps.map((step) => renderStep(step)).join("\n");
}

function renderStep(step: Next): string {
  switch (step.kind) {
    case "red":
      return `Next, declare a Red (the behaviour and the failure you expect):\n  ${RED_COMMAND}`;
    case "green":
      return `Next, declare the change and every file it needs:\n  ${greenCommand(step.files)}`;
    case "fail-then-green":
      return `Next, finish the test and run it so it fails as expected; then declare the change:\n  ${greenCommand(step.files)}`;
    case "green-or-red":
      return `Next, declare the change and the production files it needs:\n  ${greenCommand([])}\nTo rewrite the test instead, declare a new Red:\n  ${RED_COMMAND}`;
    case "red-or-skip-red":
      return `Next, declare a Red (the behaviour and the failure you expect):\n  ${RED_COMMAND}\nOnly for a change that adds no behaviour (${SKIP_RED_REASONS}):\n  ${skipRedCommand(step.files)}`;
    case "person":
      return "Next: leave it as it is. If tdd mode or an override must change, ask the person to do it.";
  }
}

function declared(allowlist: readonly string[]): string {
  const entries = displayList(allowlist);
  return entries.length === 0 ? "none" : entries.join(", ");
}

function displayList(allowlist: readonly string[]): string[] {
  const shown = allowlist.map((entry) => {
    const trimmed = entry.trim().replace(/\\/g, "/");
    if (/[*?[]/.test(trimmed)) return trimmed.replace(/^(\.\/)+/, "");
    const normal = normaliseTddPath(trimmed);
    return normal === undefined ? trimmed : `${normal}${trimmed.endsWith("/") ? "/" : ""}`;
  });
  return [...new Set(shown.filter((entry) => entry !== ""))];
}

function displayPath(relPath: string): string {
  return normaliseTddPath(relPath) ?? relPath;
}

let protectedCache: { key: string; matcher: PathRules } | undefined;

function protectedMatcher(extra: readonly string[]): PathRules {
  const key = JSON.stringify(extra);
  if (protectedCache?.key !== key) {
    // A negation could re-open a default, so extra patterns only ever add.
    const added = extra.filter((pattern) => pattern.trim() !== "" && !pattern.startsWith("!"));
    const patterns = [...DEFAULT_PROTECTED_PATHS, ...added];
    protectedCache = { key, matcher: pathRules(patterns, { ignorecase: true }) };
  }
  return protectedCache.matcher;
}
