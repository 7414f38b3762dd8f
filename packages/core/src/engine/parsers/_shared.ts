import type { ParsedRun } from "../results.ts";

/** What every parser returns for input it cannot read: no tests, one crash error. */
export function crashed(message: string): ParsedRun {
  return { tests: [], errors: [{ message, kind: "crash" }] };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One line of NDJSON as an object, or undefined for anything else (text lines, arrays, junk). */
export function parseJsonLine(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}
