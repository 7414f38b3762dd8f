/**
 * Source of the ESM reporter tailtest hands to `node --test --test-reporter=<file>`. Node's
 * junit reporter names no files, so this one writes one JSON line per finished test or suite
 * (`test:pass` / `test:fail`, suites marked `"type":"suite"`) and one per line a test file
 * wrote to stderr (`test:stderr`: the only place a file that failed to load says why).
 * `parseNodeTestEvents` reads what it writes.
 */
export const NODE_TEST_REPORTER_SOURCE = `// tailtest's reporter for node --test: one JSON line per event.
// An error node could not carry over from the test's process arrives as an object without a
// prototype (an assertion comparing functions), which String() throws on: the reporter must not.
const text = (value) => {
  if (typeof value?.message === "string") return value.message;
  try {
    return String(value);
  } catch {
    return "the test failed (node could not pass on its error)";
  }
};
export default async function* tailtestReporter(source) {
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === "test:stderr") {
      yield JSON.stringify({ event: "stderr", file: data.file, message: data.message }) + "\\n";
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const details = data.details ?? {};
    const error = details.error;
    const cause = error ? error.cause : undefined;
    yield JSON.stringify({
      event: event.type === "test:pass" ? "pass" : "fail",
      type: details.type === "suite" ? "suite" : "test",
      file: data.file,
      name: data.name,
      nesting: data.nesting,
      duration_ms: details.duration_ms,
      skip: Boolean(data.skip),
      todo: Boolean(data.todo),
      error: error
        ? {
            message: error.message,
            cause: cause instanceof Error ? cause.message : cause === undefined ? undefined : text(cause),
            code: (cause && cause.code) || error.code,
            failureType: error.failureType,
            stack: cause instanceof Error ? cause.stack : typeof cause?.stack === "string" ? cause.stack : undefined,
          }
        : undefined,
    }) + "\\n";
  }
}
`;
