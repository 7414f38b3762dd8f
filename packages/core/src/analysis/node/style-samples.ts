import { statSync } from "node:fs";
import { join } from "node:path";
import type { Budget } from "../budget.ts";
import { loadJsLexers, scanJsModule } from "../js-module.ts";
import { scanPythonModule } from "../python-module.ts";
import { resolveJsImport, resolvePythonImport } from "../resolve.ts";
import {
  headLines,
  isHelperName,
  renderStyleBlock,
  STYLE_FILES_PER_RUNNER,
  STYLE_FILES_TOTAL,
  type StyleSample,
} from "../test-style.ts";
import { isTestFile } from "../../filter/filter.ts";
import { baseName, detectLanguage, extensionOf } from "../../filter/languages.ts";
import { dirnameRel } from "../../project/project-view.ts";
import { runnerLabel, type DetectedRunner } from "../../runners/project-runners.ts";
import { readHead } from "../../project/node/fs-view.ts";
import { lookupContext } from "./impact.ts";
import type { Project } from "../../project/node/project.ts";

/** Read of each sampled test: enough for its first lines and its imports. */
const SAMPLE_HEAD = 32 * 1024;

/**
 * The style block for the session's start: per runner the newest test files (by modification
 * time), their first lines, and the project helpers they import (plus the conftest.py files
 * pytest gives them). Undefined when the project has no tests yet.
 */
export async function sampleStyle(
  project: Project,
  runners: readonly DetectedRunner[],
  walk: { files: readonly string[]; complete: boolean },
  budget: Budget,
): Promise<string | undefined> {
  await loadJsLexers();
  const extra = project.config.file_classes.test;
  const tests = walk.files.filter(
    (file) => isTestFile(file, extra) && !isHelperName(file) && baseName(file) !== "__init__.py",
  );
  const samples: StyleSample[] = [];
  const texts = new Map<string, string>();
  for (const runner of runners) {
    const own = tests.filter((file) => ownedBy(runner, file));
    // Modification times while the box lasts: past it, the newest of those seen so far.
    const dated: { file: string; mtime: number }[] = [];
    for (const file of own) {
      if (budget.expired() && dated.length > 0) break;
      const mtime = statSync(join(project.root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;
      dated.push({ file, mtime });
    }
    const newest = dated
      .sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : 1))
      .slice(0, STYLE_FILES_PER_RUNNER);
    for (const { file } of newest) {
      if (samples.length >= STYLE_FILES_TOTAL || samples.some((s) => s.path === file)) continue;
      const text = readHead(join(project.root, file), SAMPLE_HEAD) ?? "";
      texts.set(file, text);
      samples.push({ path: file, runner: runnerLabel(runner.id), lines: headLines(text) });
    }
  }
  const helpers = new Set<string>();
  for (const sample of samples) {
    for (const helper of helpersOf(project, sample.path, texts.get(sample.path) ?? "")) {
      if (!samples.some((s) => s.path === helper)) helpers.add(helper);
    }
  }
  return renderStyleBlock(samples, [...helpers].sort(), !walk.complete);
}

function ownedBy(runner: DetectedRunner, file: string): boolean {
  const language = detectLanguage(file);
  if (language === undefined || !runner.languages.includes(language)) return false;
  return runner.package_dir === "" || file.startsWith(`${runner.package_dir}/`);
}

/** Project files a test imports that are test support, and the conftest.py files above it. */
function helpersOf(project: Project, test: string, text: string): string[] {
  const context = lookupContext(project, test);
  const found: string[] = [];
  const isSupport = (file: string): boolean =>
    isHelperName(file) || (isTestFile(file) && !isTestNamed(file));
  if (extensionOf(test) === ".py") {
    for (const entry of scanPythonModule(text).imports)
      for (const file of resolvePythonImport(context, test, entry))
        if (isSupport(file)) found.push(file);
    let dir = dirnameRel(test);
    for (;;) {
      const conftest = dir === "" ? "conftest.py" : `${dir}/conftest.py`;
      if (context.files.has(conftest)) found.push(conftest);
      if (dir === "") break;
      dir = dirnameRel(dir);
    }
  } else {
    for (const entry of scanJsModule(text, test).imports) {
      const file = resolveJsImport(context, test, entry.specifier);
      if (file !== undefined && isSupport(file)) found.push(file);
    }
  }
  return [...new Set(found)];
}

/** A test file by its own name (not only by living in a test folder). */
function isTestNamed(file: string): boolean {
  return isTestFile(baseName(file));
}
