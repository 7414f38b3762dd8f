import { capText } from "../notes/notes.ts";
import type { PlanStep } from "./strict-events.ts";

/**
 * strict mode's reading of a plan (Claude Code's ExitPlanMode markdown): its steps, and for each
 * the test it names. Every step must name the failing test it advances, or the plan belongs in
 * refactor mode.
 *
 * Steps are `### Step N: …` / `## N. …` headings when the plan has any (what sits under a step
 * heading is its detail); otherwise the outermost list items (numbered, bulleted, checkboxes),
 * or the level below when the outermost level is a single item; otherwise the whole plan.
 */

export interface PlanVerdict {
  accepted: boolean;
  /** 1-based numbers of the steps that name no test id. */
  missing: number[];
  /** 1-based numbers of the steps that name a test id (a slug) but no test file. */
  noFile: number[];
}

// ---------------------------------------------------------------------------------------------
// Lines

type LineKind = "blank" | "item" | "heading" | "step-heading" | "text";

interface PlanLine {
  kind: LineKind;
  /** Columns of leading white space (a tab counts 4). */
  indent: number;
  /** The line without its indentation and trailing white space. */
  raw: string;
  /** Items: the text after the marker (and checkbox); step headings: after `Step N:`. */
  content: string;
  /** Headings: how many `#`. */
  level: number;
}

const ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]+(\S.*)$/;
const CHECKBOX = /^\[[ xX]\](?:[ \t]+|$)/;
const RULE = /^([-*_])(?:[ \t]*\1){2,}$/;
const HEADING = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?$/;
const STEP_TITLE =
  /^(?:step[ \t]*\d{1,9}(?:[ \t]*[:.)\u2013\u2014-])?|\d{1,9}[.):])(?:[ \t]+(.*))?$/i;
const FENCE = /^(?:```|~~~)/;

function indentOf(line: string): number {
  let columns = 0;
  for (const char of line) {
    if (char === " ") columns += 1;
    else if (char === "\t") columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

function classify(line: string, inFence: boolean): PlanLine {
  const raw = line.trim();
  const indent = indentOf(line);
  const plain = { indent, raw, content: raw, level: 0 };
  if (raw === "") return { kind: "blank", ...plain };
  if (inFence || FENCE.test(raw) || RULE.test(raw)) return { kind: "text", ...plain };
  const heading = HEADING.exec(raw);
  if (heading !== null && indent < 4) {
    const title = (heading[2] ?? "").trim();
    const level = heading[1]?.length ?? 1;
    const step = STEP_TITLE.exec(title);
    if (step !== null) return { kind: "step-heading", indent, raw, content: step[1] ?? "", level };
    return { kind: "heading", indent, raw, content: title, level };
  }
  const item = ITEM.exec(raw);
  if (item !== null) {
    const content = (item[1] ?? "").replace(CHECKBOX, "").trim();
    return { kind: "item", ...plain, content };
  }
  return { kind: "text", ...plain };
}

function planLines(plan: string): PlanLine[] {
  let inFence = false;
  return plan.split(/\r\n|\r|\n/).map((line) => {
    const classified = classify(line, inFence);
    if (FENCE.test(classified.raw)) inFence = !inFence;
    return classified;
  });
}

// ---------------------------------------------------------------------------------------------
// Steps

interface ItemNode {
  indent: number;
  /** The first line without its marker. */
  head: string;
  /** The first line with its marker. */
  raw: string;
  more: string[];
  children: ItemNode[];
}

/** Step headings of the outermost such level; each takes the lines up to the next heading. */
function headingSteps(lines: readonly PlanLine[]): string[][] {
  const levels = lines.filter((line) => line.kind === "step-heading").map((line) => line.level);
  const top = Math.min(...levels);
  const steps: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    const isHeading = line.kind === "heading" || line.kind === "step-heading";
    if (line.kind === "step-heading" && line.level === top) {
      current = line.content === "" ? [] : [line.content];
      steps.push(current);
    } else if (isHeading && line.level <= top) {
      current = undefined;
    } else if (current !== undefined && line.kind !== "blank") {
      current.push(line.raw);
    }
  }
  return steps;
}

/** The list items as a tree: an item is inside the open item it is indented under. */
function itemTree(lines: readonly PlanLine[]): ItemNode[] {
  const roots: ItemNode[] = [];
  let open: ItemNode[] = [];
  for (const line of lines) {
    if (line.kind === "blank") continue;
    if (line.kind === "heading" || line.kind === "step-heading") {
      open = [];
      continue;
    }
    while (open.length > 0 && (open.at(-1)?.indent ?? 0) >= line.indent) open.pop();
    const parent = open.at(-1);
    if (line.kind === "item") {
      const node = {
        indent: line.indent,
        head: line.content,
        raw: line.raw,
        more: [],
        children: [],
      };
      (parent === undefined ? roots : parent.children).push(node);
      open.push(node);
    } else if (parent !== undefined) {
      parent.more.push(line.raw);
    }
  }
  return roots;
}

function detailLines(node: ItemNode): string[] {
  return [node.raw, ...node.more, ...node.children.flatMap(detailLines)];
}

function itemSteps(roots: readonly ItemNode[]): string[][] {
  const only = roots.length === 1 ? roots[0] : undefined;
  const level = only !== undefined && only.children.length > 0 ? only.children : roots;
  return level.map((node) => [node.head, ...node.more, ...node.children.flatMap(detailLines)]);
}

/**
 * The steps of a plan, each with the test id and test file it names. `isTestFile` says whether
 * a project-relative path is a test file (the caller's runner and file-class rules).
 */
export function readPlanSteps(plan: string, isTestFile: (path: string) => boolean): PlanStep[] {
  const lines = planLines(plan);
  let texts: string[];
  if (lines.some((line) => line.kind === "step-heading")) {
    texts = headingSteps(lines).map((step) => step.join("\n"));
  } else if (lines.some((line) => line.kind === "item")) {
    texts = itemSteps(itemTree(lines)).map((step) => step.join("\n"));
  } else {
    texts = plan.trim() === "" ? [] : [plan.trim()];
  }
  return texts.map((text) => describeStep(text, isTestFile));
}

function describeStep(text: string, isTestFile: (path: string) => boolean): PlanStep {
  const found = findTestId(text);
  const file = found?.file ?? findTestFile(text, isTestFile);
  return {
    text,
    ...(found === undefined ? {} : { test_id: found.id }),
    ...(file === undefined ? {} : { test_file: file }),
  };
}

// ---------------------------------------------------------------------------------------------
// Test ids in text (a small recogniser of our own: `<path with extension>::<name…>` or a slug)

interface Token {
  at: number;
  text: string;
}

interface FoundId {
  at: number;
  id: string;
  file?: string;
}

const PATH_ID = /^([\w.@+\-/[\]()]*[\w@+\-\])]\.[A-Za-z0-9]+)::(.*\S.*)$/;
const SLUG_ID =
  /(?<![\w-])(?:tailtest-id|test[ _]id)[ \t]*:[ \t]*`?([A-Za-z0-9][A-Za-z0-9._/-]*)(?![A-Za-z0-9._/-]|::)/gi;
const CODE_SPAN = /`([^`\n]+)`/g;
const PATH_LIKE = /^[\w.@+\-/[\]()]+$/;
const EXTENSION = /\.[A-Za-z0-9]+$/;
const LINE_SUFFIX = /^(.+\.[A-Za-z0-9]+):\d+(?::\d+)?$/;
const LEADING_PUNCTUATION = /^[("'*<[{]+/;
const TRAILING_PUNCTUATION = /[.,;:!?"'*>]+$/;

/**
 * The candidates in a text, in text order: each backtick span's whole content (trimmed), then
 * the words inside it (a span may be a command that names a test), and the bare words outside
 * spans, without the punctuation around them.
 */
function tokens(text: string): Token[] {
  const found: Token[] = [];
  const plain = text.replace(CODE_SPAN, (whole: string, content: string, at: number) => {
    found.push({ at, text: content.trim() });
    if (/\s/.test(content.trim())) found.push(...words(content, at + 1));
    return " ".repeat(whole.length);
  });
  found.push(...words(plain, 0));
  return found.sort((a, b) => a.at - b.at);
}

function words(text: string, offset: number): Token[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({
    at: offset + match.index,
    text: trimWord(match[0]),
  }));
}

/** A bare word without the punctuation around it (a closer only when it opens nowhere). */
function trimWord(word: string): string {
  let result = word.replace(LEADING_PUNCTUATION, "");
  for (;;) {
    const before = result;
    result = result.replace(TRAILING_PUNCTUATION, "");
    result = dropUnbalanced(result, "(", ")");
    result = dropUnbalanced(result, "[", "]");
    if (result === before) return result;
  }
}

function dropUnbalanced(word: string, open: string, close: string): string {
  if (!word.endsWith(close)) return word;
  const opens = word.split(open).length;
  const closes = word.split(close).length;
  return closes > opens ? word.slice(0, -1) : word;
}

function pathId(token: Token): FoundId | undefined {
  const match = PATH_ID.exec(token.text);
  if (match === null) return undefined;
  const file = match[1] ?? "";
  return { at: token.at, id: token.text, file: withoutDotSlash(file) };
}

function withoutDotSlash(path: string): string {
  return path.startsWith("./") ? path.slice(2) : path;
}

/** The first test id the text names, by position. */
function findTestId(text: string): FoundId | undefined {
  const candidates: FoundId[] = [];
  for (const token of tokens(text)) {
    const found = pathId(token);
    if (found !== undefined) candidates.push(found);
  }
  for (const match of text.matchAll(SLUG_ID)) {
    candidates.push({ at: match.index, id: match[1] ?? "" });
  }
  return candidates.reduce<FoundId | undefined>(
    (first, candidate) => (first === undefined || candidate.at < first.at ? candidate : first),
    undefined,
  );
}

/** A path-like word (`/` or an extension) as a path; a test id or `path:line` as its path. */
function asPath(text: string): string | undefined {
  const bare = PATH_ID.exec(text)?.[1] ?? LINE_SUFFIX.exec(text)?.[1] ?? text;
  const path = withoutDotSlash(bare);
  if (!PATH_LIKE.test(path)) return undefined;
  return path.includes("/") || EXTENSION.test(path) ? path : undefined;
}

/** The first path-like word or backtick span that is a test file. */
function findTestFile(text: string, isTestFile: (path: string) => boolean): string | undefined {
  for (const token of tokens(text)) {
    const path = asPath(token.text);
    if (path !== undefined && isTestFile(path)) return path;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Verdict

/** Accepted in refactor mode, or when every step names a test id. */
export function judgePlan(steps: readonly PlanStep[], refactor: boolean): PlanVerdict {
  const missing: number[] = [];
  const noFile: number[] = [];
  steps.forEach((step, index) => {
    if (step.test_id === undefined) missing.push(index + 1);
    else if (step.test_file === undefined) noFile.push(index + 1);
  });
  return { accepted: refactor || missing.length === 0, missing, noFile };
}

const STEP_PREVIEW = 80;

function preview(text: string): string {
  const folded = text.replace(/\s+/g, " ").trim();
  if (folded === "") return "(no text)";
  if (folded.length <= STEP_PREVIEW) return folded;
  return `${folded.slice(0, STEP_PREVIEW).trimEnd()}…`;
}

/** What the agent reads when its plan is refused ("" when the verdict accepted it). */
export function describePlanVerdict(verdict: PlanVerdict, steps: readonly PlanStep[]): string {
  if (verdict.accepted) return "";
  const lines = [
    "tailtest strict: this plan has steps that name no test.",
    ...verdict.missing.map(
      (number) => `- step ${number}: ${preview(steps[number - 1]?.text ?? "")}`,
    ),
    "Every step must name the failing test it advances (a test id such as " +
      "`tests/test_x.py::test_y` or `src/x.test.ts::suite > case`, and its test file). " +
      "Pure restructuring, docs, config or dependency bumps belong in refactor mode: " +
      "`tailtest refactor start` (the full test run must pass before the turn ends).",
  ];
  return capText(lines.join("\n"));
}

/** One line about accepted steps that name a test slug but no test file ("" when none do). */
export function describePlanWarnings(verdict: PlanVerdict, steps: readonly PlanStep[]): string {
  if (!verdict.accepted || verdict.noFile.length === 0) return "";
  const named = verdict.noFile.map((number) => {
    const id = steps[number - 1]?.test_id;
    return id === undefined ? `${number}` : `${number} (${id})`;
  });
  const which = named.length === 1 ? `step ${named[0]}` : `steps ${named.join(", ")}`;
  return capText(
    `tailtest strict: plan ${which} name${named.length === 1 ? "s" : ""} a test id but no test ` +
      "file; name the test file too so the test's red can be checked.",
  );
}
