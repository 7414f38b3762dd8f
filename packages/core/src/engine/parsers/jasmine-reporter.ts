/**
 * Source of the ESM reporter tailtest hands to `jasmine --reporter=<file>` (jasmine's console
 * reporter names neither the passing specs nor their files). It writes one marked JSON line on
 * standard output per finished spec (its file, its describe path, its status and failed
 * expectations), per suite whose `beforeAll`/`afterAll` failed, and one at the end with the
 * run's own errors (a spec file that did not load). `parseJasmineEvents` reads what it writes;
 * anything else on standard output (the project's own logging) is left alone.
 */
export const JASMINE_REPORTER_SOURCE = `// tailtest's reporter for jasmine: one marked JSON line per event.
const MARK = "tailtest-jasmine ";
const failures = (list) =>
  (list || []).map((f) => ({ message: f.message, stack: f.stack, filename: f.filename }));
const write = (event) => process.stdout.write("\\n" + MARK + JSON.stringify(event) + "\\n");
export default class TailtestJasmineReporter {
  constructor() {
    this.path = [];
  }
  suiteStarted(result) {
    this.path.push(result.description);
  }
  suiteDone(result) {
    this.path.pop();
    if ((result.failedExpectations || []).length > 0)
      write({ event: "suite", file: result.filename, path: [...this.path, result.description], failures: failures(result.failedExpectations) });
  }
  specDone(result) {
    write({ event: "spec", file: result.filename, path: [...this.path, result.description], status: result.status, duration: result.duration, failures: failures(result.failedExpectations) });
  }
  jasmineDone(result) {
    write({ event: "done", status: result.overallStatus, incomplete: result.incompleteReason, failures: failures(result.failedExpectations) });
  }
}
`;
