// How much code each adapter carries, counted the same way every time: an adapter's `src/` is
// its platform's translation plus its installer, and its translation stays small (about 150
// lines of logic) because everything a second platform would also need belongs in core's
// `hook/` folder. Run by `packages/test-utils/src/adapter-size.test.ts`, or by hand:
//   node scripts/adapter-size.mjs          (a table; exit 1 when an adapter is over the limit)
//
// A line is one that is neither blank nor only a comment. Each top-level statement of an
// adapter's non-test source file is one of:
// - installer: anything in install.ts, setup.ts, program.ts (`tailtest-<agent> init`);
// - data: imports, types and interfaces, and constants whose value is a zod schema (`z.…`, or
//   one wrapped in a lazy helper), a literal table (object, array, Set or Map of literals), or a
//   re-export: declarations, not decisions;
// - logic: everything else (functions, and constants computed by code).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const LOGIC_LIMIT = 150;
const INSTALLER_FILES = new Set(["install.ts", "setup.ts", "program.ts"]);
const REPO = fileURLToPath(new URL("..", import.meta.url));

/** The number of lines of `text` that are neither blank nor only a comment. */
export function codeLines(text) {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    ts.LanguageVariant.Standard,
    text,
  );
  const lines = new Set();
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (
      kind === ts.SyntaxKind.NewLineTrivia ||
      kind === ts.SyntaxKind.WhitespaceTrivia ||
      kind === ts.SyntaxKind.SingleLineCommentTrivia ||
      kind === ts.SyntaxKind.MultiLineCommentTrivia
    )
      continue;
    const start = scanner.getTokenStart();
    const end = scanner.getTokenEnd();
    const first = text.slice(0, start).split("\n").length;
    const last = text.slice(0, end).split("\n").length;
    for (let line = first; line <= last; line += 1) lines.add(line);
  }
  return lines.size;
}

function unwrap(node) {
  let value = node;
  while (
    ts.isAsExpression(value) ||
    ts.isSatisfiesExpression(value) ||
    ts.isParenthesizedExpression(value) ||
    ts.isTypeAssertionExpression(value)
  )
    value = value.expression;
  return value;
}

/** Whether a call is a zod schema: `z.object(…)`, `z.enum(…).check(…)`, `lazy(() => z.…)`. */
function isSchema(node) {
  let value = unwrap(node);
  while (ts.isCallExpression(value) || ts.isPropertyAccessExpression(value)) {
    if (ts.isCallExpression(value) && ts.isIdentifier(value.expression)) {
      const [first] = value.arguments;
      return first !== undefined && ts.isArrowFunction(first) && isSchema(first.body);
    }
    value = value.expression;
  }
  return ts.isIdentifier(value) && value.text === "z";
}

/** Whether an expression is a literal table: only literals, arrays and objects of them. */
function isLiteral(node) {
  const value = unwrap(node);
  // `new Set([...])`, `new Map([...])` of literals: a table too.
  if (ts.isNewExpression(value) && ts.isIdentifier(value.expression))
    return (
      ["Set", "Map"].includes(value.expression.text) && (value.arguments ?? []).every(isLiteral)
    );
  if (ts.isArrayLiteralExpression(value)) return value.elements.every(isLiteral);
  if (ts.isObjectLiteralExpression(value))
    return value.properties.every(
      (property) => ts.isPropertyAssignment(property) && isLiteral(property.initializer),
    );
  return (
    ts.isStringLiteral(value) ||
    ts.isNoSubstitutionTemplateLiteral(value) ||
    ts.isNumericLiteral(value) ||
    value.kind === ts.SyntaxKind.TrueKeyword ||
    value.kind === ts.SyntaxKind.FalseKeyword ||
    (ts.isPrefixUnaryExpression(value) && ts.isNumericLiteral(value.operand))
  );
}

/** "data" or "logic" for one top-level statement. */
export function kindOf(statement) {
  if (
    ts.isImportDeclaration(statement) ||
    ts.isExportDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement)
  )
    return "data";
  if (ts.isVariableStatement(statement)) {
    const values = statement.declarationList.declarations.map((d) => d.initializer);
    if (values.every((value) => value !== undefined && (isSchema(value) || isLiteral(value))))
      return "data";
  }
  return "logic";
}

/** One source file's lines by kind. */
export function countFile(name, text) {
  const counts = { logic: 0, data: 0, installer: 0 };
  if (INSTALLER_FILES.has(name)) {
    counts.installer = codeLines(text);
    return counts;
  }
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    counts[kindOf(statement)] += codeLines(statement.getFullText(source));
  }
  return counts;
}

/** Every adapter's lines by kind, its tests counted apart. */
export function adapterSizes(repo = REPO) {
  const adapters = readdirSync(join(repo, "adapters"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return adapters.map((adapter) => {
    const dir = join(repo, "adapters", adapter, "src");
    const size = { adapter, logic: 0, data: 0, installer: 0, tests: 0, files: {} };
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".ts")) continue;
      const text = readFileSync(join(dir, name), "utf8");
      if (name.endsWith(".test.ts")) {
        size.tests += codeLines(text);
        continue;
      }
      const counts = countFile(name, text);
      size.files[name] = counts;
      for (const kind of ["logic", "data", "installer"]) size[kind] += counts[kind];
    }
    return size;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = adapterSizes();
  console.log("adapter       logic  data  installer  tests");
  for (const { adapter, logic, data, installer, tests } of sizes)
    console.log(
      `${adapter.padEnd(12)} ${String(logic).padStart(6)} ${String(data).padStart(5)} ${String(installer).padStart(10)} ${String(tests).padStart(6)}`,
    );
  const over = sizes.filter((size) => size.logic > LOGIC_LIMIT);
  for (const { adapter, logic } of over)
    console.error(
      `${adapter}: ${logic} lines of logic, over ${LOGIC_LIMIT}: move what is not the platform's to core's hook/`,
    );
  process.exitCode = over.length > 0 ? 1 : 0;
}
