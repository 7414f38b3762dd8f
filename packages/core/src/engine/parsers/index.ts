import type { OutputFormat } from "../plan.ts";
import type { ParseContext, ParsedRun } from "../results.ts";
import { parseGoTestJson } from "./go-test.ts";
import { parseJasmineEvents } from "./jasmine-events.ts";
import { parseJestJson } from "./jest-json.ts";
import { parseJunitXml } from "./junit.ts";
import { parseLibtestText, parseNextestText } from "./cargo-test.ts";
import { parseMinitestText } from "./minitest-text.ts";
import { parseMochaJson } from "./mocha-json.ts";
import { parseNodeTestEvents } from "./node-test-events.ts";
import { parseRspecJson } from "./rspec-json.ts";
import { parseTap } from "./tap-stream.ts";
import { parseTapeTap } from "./tape-tap.ts";
import { parseTrx } from "./trx.ts";
import { parseUnittestText } from "./unittest-text.ts";
import { parseUvuText } from "./uvu-text.ts";

const PARSERS: Readonly<Record<OutputFormat, (text: string, context: ParseContext) => ParsedRun>> =
  {
    "jest-json": parseJestJson,
    "mocha-json": parseMochaJson,
    "node-test-ndjson": parseNodeTestEvents,
    junit: parseJunitXml,
    trx: parseTrx,
    "go-json": (text, context) => parseGoTestJson(text, context, context.goModule),
    "libtest-text": parseLibtestText,
    "nextest-text": parseNextestText,
    "rspec-json": parseRspecJson,
    "minitest-text": parseMinitestText,
    "unittest-text": parseUnittestText,
    tap: parseTap,
    "tape-tap": parseTapeTap,
    "uvu-text": parseUvuText,
    "jasmine-events": parseJasmineEvents,
  };

/** Reads one runner's machine output in the format its plan asked for. */
export function parseRunOutput(
  format: OutputFormat,
  text: string,
  context: ParseContext,
): ParsedRun {
  return PARSERS[format](text, context);
}

export { NODE_TEST_REPORTER_SOURCE } from "./node-test-events.ts";
