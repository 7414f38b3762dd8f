import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import { RunnerIdSchema } from "../runners/project-runners.ts";

/** A test's stable identity: which runner, which file (project-relative, POSIX), which names. */
export const TestIdSchema = lazy(() =>
  z.object({
    runner: RunnerIdSchema,
    file: z.string(),
    /** Describe blocks / classes / subtests, outermost first, then the test's own name. */
    segments: z.array(z.string()).check(z.minLength(1)),
  }),
);
export type TestId = z.infer<typeof TestIdSchema>;

export const TestStatusSchema = lazy(() => z.enum(["pass", "fail", "skip", "not_run"]));
export type TestStatus = z.infer<typeof TestStatusSchema>;

/** Why a test or file failed: a real assertion, or the code could not even be loaded. */
export const FailureKindSchema = lazy(() =>
  z.enum(["assertion", "collection", "timeout", "crash"]),
);
export type FailureKind = z.infer<typeof FailureKindSchema>;

export const TestResultSchema = lazy(() =>
  z.object({
    id: TestIdSchema,
    status: TestStatusSchema,
    duration_ms: z.optional(z.number().check(z.minimum(0))),
    /** The runner's failure message and stack, raw (excerpts are made later, deterministically). */
    failure: z.optional(z.string()),
    failure_kind: z.optional(FailureKindSchema),
    /**
     * A strict verification's claimed files whose changed code ran while the test ran (pytest's
     * witness, `engine/pytest-witness.ts`); absent when the run did not ask.
     */
    reached: z.optional(z.array(z.string())),
    /** The same run's claimed files with changed functions that did not start while it ran. */
    unran: z.optional(z.record(z.string(), z.array(z.string()))),
  }),
);
export type TestResult = z.infer<typeof TestResultSchema>;

/** A failure that belongs to a file or the whole run, not to one test: import/syntax/build errors. */
export const FileErrorSchema = lazy(() =>
  z.object({
    /** Project-relative POSIX path, when the runner says which file. */
    file: z.optional(z.string()),
    message: z.string(),
    kind: FailureKindSchema,
  }),
);
export type FileError = z.infer<typeof FileErrorSchema>;

/** What a parser makes of one runner's machine output. */
export interface ParsedRun {
  tests: TestResult[];
  errors: FileError[];
  /**
   * Test files the runner loaded and found no test in (vitest's "No test suite found in file"):
   * test tables or helpers named like tests, which the project's own run passes with
   * `--passWithNoTests`. Not a failure; the non-zero exit they cause is explained by them.
   */
  empty?: string[];
}

/**
 * Context a parser needs to turn the runner's paths into project paths. Parsers are pure:
 * they only rewrite strings, they never touch the file system.
 */
export interface ParseContext {
  runner: z.infer<typeof RunnerIdSchema>;
  /** The package the runner ran in, relative to the project root ("" for the root). */
  packageDir: string;
  /** Absolute path of that package on this machine, to strip from absolute paths in output. */
  packageAbs: string;
  /** Go only: the module path from go.mod, so package import paths map to folders exactly. */
  goModule?: string | undefined;
  /** The test files the run was given (project-relative), for runners that name none (ava). */
  files?: readonly string[] | undefined;
  /**
   * The folder, relative to the package and without a trailing slash, the runner names files
   * from (uvu's folder); absent: the package itself.
   */
  namesFrom?: string | undefined;
}

/**
 * Turns a path from runner output (absolute, `./`-relative, Windows or package-relative)
 * into a project-relative POSIX path.
 */
export function toProjectFile(path: string, context: ParseContext): string {
  let file = path.replace(/\\/g, "/");
  const abs = context.packageAbs.replace(/\\/g, "/").replace(/\/$/, "");
  if (abs !== "" && (file === abs || file.startsWith(`${abs}/`))) file = file.slice(abs.length + 1);
  else if (file.startsWith("file://"))
    return toProjectFile(decodeURI(file.slice("file://".length)), context);
  file = file.replace(/^\.\//, "");
  return context.packageDir === "" ? file : `${context.packageDir}/${file}`;
}
