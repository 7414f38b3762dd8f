import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { ownEntry } from "../../util/own-entry.ts";
import type { JunitDialect } from "../../runners/spec.ts";
import { specOf } from "../../runners/table.ts";

/** One element as the parser builds it: attributes under `@_name`, child elements as arrays, text under `#text`. */
export type XmlElement = Readonly<Record<string, unknown>>;

export type XmlRead = { ok: true; document: XmlElement } | { ok: false; message: string };

const ATTRIBUTE_PREFIX = "@_";
const TEXT = "#text";

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
};

function decodeCodePoint(code: number, original: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff
    ? String.fromCodePoint(code)
    : original;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (original, ref: string) => {
    if (ref.startsWith("#x")) return decodeCodePoint(Number.parseInt(ref.slice(2), 16), original);
    if (ref.startsWith("#")) return decodeCodePoint(Number.parseInt(ref.slice(1), 10), original);
    return ownEntry(PREDEFINED_ENTITIES, ref) ?? original;
  });
}

function isElement(value: unknown): value is XmlElement {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/*
 * One pass over the report with native regular expressions, checking it is well formed as it
 * goes. A report is read once, by a fresh process, right after the runner exits: a general XML
 * library validated it and then parsed it again, ~25% of a Stop's own work (docs/performance.md).
 */

/** The markup at a `<`: a comment, CDATA, a declaration or PI, a DOCTYPE, a closing or an opening tag. */
const MARKUP =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>|<\/([^\s<>/]+)\s*>|<([^\s<>/!?'"=]+)((?:\s+[^\s<>/'"=]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([^\s<>/'"=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NAME = /^[A-Za-z_:\u00C0-\uFFFF][\w:.\u00B7\u00C0-\uFFFF-]*$/;
/** An `&` that is not a reference: text that is not XML. */
const BARE_AMPERSAND = /&(?!(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_][\w.-]*);)/;

class XmlError extends Error {}

/** `ns:name` → `name` (the reports' namespaces carry nothing the parsers read). */
function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon === -1 ? name : name.slice(colon + 1);
}

function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line += 1;
  return line;
}

/** An element's attributes as `@_name`, decoded; `xmlns` declarations left out. */
function readAttributes(element: Record<string, unknown>, text: string): void {
  for (const match of text.matchAll(ATTRIBUTE)) {
    const [, name = "", double, single] = match;
    const value = double ?? single ?? "";
    if (!NAME.test(name)) throw new XmlError(`attribute '${name}' has an invalid name`);
    if (BARE_AMPERSAND.test(value)) throw new XmlError(`attribute '${name}' has an invalid value`);
    if (name === "xmlns" || name.startsWith("xmlns:")) continue;
    const key = `${ATTRIBUTE_PREFIX}${localName(name)}`;
    if (Object.hasOwn(element, key)) throw new XmlError(`attribute '${name}' is repeated`);
    element[key] = decodeEntities(value);
  }
}

function addText(element: Record<string, unknown>, text: string): void {
  const before = element[TEXT];
  element[TEXT] = typeof before === "string" ? before + text : text;
}

/**
 * The document's root elements as `{ [name]: [element, …] }`: attributes under `@_name`, child
 * elements as arrays by name (namespace prefixes removed), the text and CDATA directly inside an
 * element under `#text`. Only the predefined entities and character references are decoded;
 * entities a DOCTYPE declares are left as written, so a report can neither expand itself nor
 * inject text. Throws `XmlError` on anything that is not well-formed XML.
 */
function parseXml(text: string): XmlElement {
  const read: XmlReading = { document: Object.create(null) as XmlNode, open: [], rooted: false };
  let at = 0;
  while (at < text.length) {
    const lt = text.indexOf("<", at);
    const end = lt === -1 ? text.length : lt;
    if (end > at) {
      readText(read, text.slice(at, end));
      at = end;
      continue;
    }
    MARKUP.lastIndex = at;
    const match = MARKUP.exec(text);
    if (match === null) throw new XmlError(`unreadable markup at line ${lineAt(text, at)}`);
    at = MARKUP.lastIndex;
    readMarkup(read, match, () => lineAt(text, at));
  }
  const unclosed = read.open[read.open.length - 1];
  if (unclosed !== undefined) throw new XmlError(`unclosed tag '${unclosed.name}'`);
  if (!read.rooted) throw new XmlError(`no root element`);
  return read.document;
}

type XmlNode = Record<string, unknown>;

/** Where `parseXml` is: the document, the elements open, whether a root element was seen. */
interface XmlReading {
  document: XmlNode;
  open: { name: string; element: XmlNode }[];
  rooted: boolean;
}

function readText(read: XmlReading, chunk: string): void {
  const current = read.open[read.open.length - 1];
  if (current === undefined) {
    // Text after the root is tolerated (as the validator before this did), not before it.
    if (!read.rooted && chunk.trim() !== "") throw new XmlError(`text before the root element`);
    return;
  }
  if (BARE_AMPERSAND.test(chunk)) throw new XmlError(`an '&' that is not a reference`);
  addText(current.element, decodeEntities(chunk));
}

function readMarkup(read: XmlReading, match: RegExpExecArray, line: () => number): void {
  const [whole, cdata, closing, opening, attributes = "", selfClosing] = match;
  const current = read.open[read.open.length - 1];
  if (cdata !== undefined) {
    if (current === undefined) throw new XmlError(`CDATA outside the root element`);
    addText(current.element, cdata);
  } else if (closing !== undefined) {
    if (current?.name !== closing)
      throw new XmlError(`closing tag '${closing}' does not match at line ${line()}`);
    read.open.pop();
  } else if (opening !== undefined) {
    if (!NAME.test(opening)) throw new XmlError(`tag '${opening}' has an invalid name`);
    const element = Object.create(null) as XmlNode;
    readAttributes(element, attributes);
    const parent = current?.element ?? read.document;
    read.rooted = true;
    const key = localName(opening);
    const siblings = parent[key];
    if (Array.isArray(siblings)) siblings.push(element);
    else parent[key] = [element];
    if (selfClosing !== "/") read.open.push({ name: opening, element });
  } else if (whole.startsWith("<!DOCTYPE") && read.rooted) {
    throw new XmlError(`a DOCTYPE inside the document`);
  }
}

/** Validates and parses an XML report; never throws. */
export function readXml(xml: string): XmlRead {
  const text = xml.replace(/^\uFEFF/, "");
  if (text.trim() === "") return { ok: false, message: "empty input" };
  try {
    const document = parseXml(text);
    return isElement(document)
      ? { ok: true, document }
      : { ok: false, message: "not an XML document" };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export function childElements(element: XmlElement | undefined, tag: string): XmlElement[] {
  const value = element?.[tag];
  return Array.isArray(value) ? value.filter(isElement) : [];
}

export function attributeOf(element: XmlElement | undefined, name: string): string | undefined {
  const value = element?.[`${ATTRIBUTE_PREFIX}${name}`];
  return typeof value === "string" ? value : undefined;
}

export function textOf(element: XmlElement | undefined): string {
  const value = element?.[TEXT];
  return typeof value === "string" ? value : "";
}

export function crashRun(message: string): ParsedRun {
  return { tests: [], errors: [{ kind: "crash", message }] };
}

/** A testcase's place in the report: its testsuite ancestors, outermost first. */
interface CaseSite {
  testcase: XmlElement;
  suites: readonly XmlElement[];
}

interface Location {
  /** As the report gives it or as derived: absolute, `./`-relative or package-relative. */
  file: string;
  segments: string[];
}

const COLLECTION_MESSAGE =
  /collection failure|could not (be )?(imported|collected|loaded|import|collect|load)|cannot (import|load)|ImportError|ModuleNotFoundError|NoClassDefFoundError|ClassNotFoundException/i;

function nameOf(element: XmlElement | undefined): string {
  return attributeOf(element, "name") ?? "";
}

function lastOf<T>(items: readonly T[]): T | undefined {
  return items[items.length - 1];
}

function nearestSuiteAttribute(suites: readonly XmlElement[], name: string): string | undefined {
  for (const suite of [...suites].reverse()) {
    const value = attributeOf(suite, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

function stripCallParens(name: string): string {
  return name.replace(/\(\)$/, "");
}

/** The message attribute and the element's text; the text alone when it already repeats the message. */
/**
 * A fault's message, then its text, unless the text already says the message near its top
 * (bun's and the JVM runners' text opens with it). pytest's text opens with the test's source
 * and says an exception's message only in an `E` line at the bottom (pyjwt's
 * `ExpiredSignatureError: Signature has expired`, 40 lines down): without the message first, a
 * failure's excerpt showed only source lines.
 */
function describeFault(fault: XmlElement): string {
  const message = (attributeOf(fault, "message") ?? "").trim();
  const body = textOf(fault).trim();
  if (message === "" || topOf(body).includes(message)) return body;
  return `${message}\n${body}`.trim();
}

/** The lines of a fault's text an excerpt shows first. */
const TOP_LINES = 4;

function topOf(text: string): string {
  let end = -1;
  for (let line = 0; line < TOP_LINES; line += 1) {
    end = text.indexOf("\n", end + 1);
    if (end === -1) return text;
  }
  return text.slice(0, end);
}

function describeFaults(faults: readonly XmlElement[]): string {
  return faults
    .map(describeFault)
    .filter((text) => text !== "")
    .join("\n\n");
}

function isCollectionFault(fault: XmlElement): boolean {
  return COLLECTION_MESSAGE.test(
    `${attributeOf(fault, "message") ?? ""} ${attributeOf(fault, "type") ?? ""}`,
  );
}

function durationOf(testcase: XmlElement): number | undefined {
  const time = attributeOf(testcase, "time")?.trim();
  if (time === undefined || time === "") return undefined;
  const seconds = Number(time);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1e6) / 1e3 : undefined;
}

type Outcome = Pick<TestResult, "status" | "failure" | "failure_kind">;

function outcomeOf(testcase: XmlElement): Outcome {
  const failures = childElements(testcase, "failure");
  const errors = childElements(testcase, "error");
  if (failures.length > 0 || errors.length > 0) {
    let kind: FailureKind = "assertion";
    if (failures.length === 0) kind = errors.some(isCollectionFault) ? "collection" : "crash";
    const failure = describeFaults([...failures, ...errors]);
    return { status: "fail", failure_kind: kind, ...(failure === "" ? {} : { failure }) };
  }
  return childElements(testcase, "skipped").length > 0 ? { status: "skip" } : { status: "pass" };
}

/** `tests.test_calc` → `tests/test_calc.py`. */
function pythonModuleFile(dotted: string): string {
  return `${dotted.split(".").join("/")}.py`;
}

function locatePytest(site: CaseSite): Location {
  const { testcase } = site;
  const name = nameOf(testcase);
  const classname = attributeOf(testcase, "classname") ?? "";
  const file = attributeOf(testcase, "file");
  const parts = classname === "" ? [] : classname.split(".");
  if (file !== undefined) {
    // pytest builds classname from the same path as `file`: slashes become dots, `.py` goes.
    const module = file
      .replace(/\\/g, "/")
      .replace(/^\.\//, "")
      .replace(/\.py$/, "")
      .replace(/\//g, ".");
    if (classname === module) return { file, segments: [name] };
    if (classname.startsWith(`${module}.`)) {
      return { file, segments: [...classname.slice(module.length + 1).split("."), name] };
    }
  }
  // xunit2 has no `file`, and a test a class inherits from another file (`class TestB(TestA)`,
  // TestA written in test_a.py) has the `file` it is written in, not the one pytest collected
  // it from: classname spells the node id, so its trailing CamelCase parts are classes and the
  // rest the module pytest reruns it by.
  let split = parts.length;
  while (split > 1 && /^[A-Z]/.test(parts[split - 1] ?? "")) split -= 1;
  const classes = parts.slice(split);
  return {
    file: split === 0 ? (file ?? "") : pythonModuleFile(parts.slice(0, split).join(".")),
    segments: [...classes, name],
  };
}

/**
 * Pest compiles each description into a method name (`Str::evaluable`: `_` → `__`, space and any
 * other non-identifier character → `_`), and PHPUnit's own logger reports that method name. Undo
 * it so the id matches Pest's own logger; characters other than spaces cannot be recovered.
 */
function decodePestName(name: string): string {
  const match = /^__pest_evaluable_(\S*)(.*)$/s.exec(name);
  if (match === null) return name;
  const [, evaluable = "", rest = ""] = match;
  return `${evaluable.replace(/__|_/g, (pair) => (pair === "__" ? "_" : " "))}${rest}`;
}

function locatePhp(site: CaseSite): Location {
  const { testcase, suites } = site;
  const rawClass =
    attributeOf(testcase, "class") ??
    attributeOf(testcase, "classname")?.replace(/\./g, "\\") ??
    nameOf(lastOf(suites));
  // Pest evaluates its test classes under a `P\` namespace; its own logger strips it too.
  const className = rawClass.replace(/^P\\/, "");
  const classParts = className.split("\\");
  const shortClass = lastOf(classParts) ?? className;
  const reported = attributeOf(testcase, "file") ?? nearestSuiteAttribute(suites, "file");
  // Heuristic when no path is given: PSR-4 maps `Tests\Unit\CalcTest` to `tests/Unit/CalcTest.php`.
  const guessed = [
    ...classParts.slice(0, -1).map((p, i) => (i === 0 ? p.toLowerCase() : p)),
    shortClass,
  ]
    .join("/")
    .concat(".php");
  // Pest's own logger writes `tests/Unit/CalcTest.php::adds two numbers`.
  const file = reported === undefined ? guessed : reported.replace(/::.*$/s, "");
  return { file, segments: [shortClass, decodePestName(nameOf(testcase))] };
}

function locateJvm(site: CaseSite): Location {
  const { testcase, suites } = site;
  const classname = attributeOf(testcase, "classname") ?? nameOf(lastOf(suites));
  const [outer = "", ...nested] = classname.split("$");
  const parts = outer.split(".");
  // A guess: the report cannot tell Java from Kotlin or a custom test source folder.
  const file = `src/test/java/${parts.join("/")}.java`;
  return {
    file,
    segments: [lastOf(parts) ?? outer, ...nested, stripCallParens(nameOf(testcase))],
  };
}

function locateBun(site: CaseSite): Location {
  const { testcase, suites } = site;
  const [fileSuite, ...describes] = suites;
  const file = attributeOf(testcase, "file") ?? attributeOf(fileSuite, "file") ?? nameOf(fileSuite);
  // Not `classname`: bun lists nested describe names there innermost first.
  return { file, segments: [...describes.map(nameOf), nameOf(testcase)] };
}

function locateDeno(site: CaseSite): Location {
  const { testcase, suites } = site;
  const file = nameOf(lastOf(suites)) || (attributeOf(testcase, "classname") ?? "");
  const classname = attributeOf(testcase, "classname");
  const outer =
    classname !== undefined && classname !== "" && classname !== file && !/[/\\]/.test(classname)
      ? classname.split(" > ")
      : [];
  // Steps arrive flattened as `parent > step`.
  return { file, segments: [...outer, ...nameOf(testcase).split(" > ")] };
}

function locateSwift(site: CaseSite): Location {
  const { testcase, suites } = site;
  const classname = attributeOf(testcase, "classname") ?? nameOf(lastOf(suites));
  const [first = "", ...rest] = classname.split(".");
  const classes = rest.length > 0 ? rest : [first];
  const [mainClass = first] = classes;
  // SwiftPM layout: test target `CalcTests` lives in Tests/CalcTests/, one file per XCTestCase.
  const file = rest.length > 0 ? `Tests/${first}/${mainClass}.swift` : `Tests/${first}.swift`;
  return { file, segments: [...classes, stripCallParens(nameOf(testcase))] };
}

/** nextest binary ids: `calc` (lib unit tests), `calc::name` (tests/name.rs), `calc::bin/name`. */
function rustBinaryFile(binaryId: string): string {
  const separator = binaryId.indexOf("::");
  if (separator === -1) return "src/lib.rs";
  const crate = binaryId.slice(0, separator);
  const target = binaryId.slice(separator + 2);
  const [kind, name] = target.includes("/") ? target.split("/", 2) : ["test", target];
  if (kind === "bin") return name === crate ? "src/main.rs" : `src/bin/${name}.rs`;
  if (kind === "example") return `examples/${name}.rs`;
  if (kind === "bench") return `benches/${name}.rs`;
  return `tests/${name}.rs`;
}

function locateNextest(site: CaseSite): Location {
  const { testcase, suites } = site;
  const binaryId = (attributeOf(testcase, "classname") ?? nameOf(lastOf(suites))).replace(
    /@stress-\d+$/,
    "",
  );
  // Paths are relative to the crate; in a workspace the report does not say which member.
  return { file: rustBinaryFile(binaryId), segments: nameOf(testcase).split("::") };
}

function locateGeneric(site: CaseSite): Location {
  const { testcase, suites } = site;
  const file = attributeOf(testcase, "file") ?? nearestSuiteAttribute(suites, "file") ?? "";
  const classname = attributeOf(testcase, "classname");
  const segments =
    classname === undefined || classname === "" || classname === file
      ? [nameOf(testcase)]
      : [classname, nameOf(testcase)];
  return { file, segments };
}

/** How each runner's JUnit names files and tests (a runner record's `junit`). */
const LOCATORS: Readonly<Record<JunitDialect, (site: CaseSite) => Location>> = {
  pytest: locatePytest,
  php: locatePhp,
  jvm: locateJvm,
  bun: locateBun,
  deno: locateDeno,
  swift: locateSwift,
  nextest: locateNextest,
};

function dialectOf(context: ParseContext): JunitDialect | undefined {
  return specOf(context.runner).junit;
}

function locate(site: CaseSite, context: ParseContext): Location {
  const dialect = dialectOf(context);
  return dialect === undefined ? locateGeneric(site) : LOCATORS[dialect](site);
}

/** pytest reports a module it could not import as a testcase with an `<error>` and no class. */
function pytestCollectionError(site: CaseSite, context: ParseContext): FileError | undefined {
  const { testcase } = site;
  const errors = childElements(testcase, "error");
  if (errors.length === 0) return undefined;
  const classname = attributeOf(testcase, "classname") ?? "";
  const collection = errors.some((fault) =>
    (attributeOf(fault, "message") ?? "").startsWith("collection failure"),
  );
  if (!collection && classname !== "") return undefined;
  const name = nameOf(testcase);
  const file = attributeOf(testcase, "file") ?? (name === "" ? undefined : pythonModuleFile(name));
  return {
    kind: "collection",
    message: describeFaults(errors),
    ...(file === undefined ? {} : { file: toProjectFile(file, context) }),
  };
}

/** A file the suite stands for, when the runner names suites after files. */
function suiteFile(suite: XmlElement, context: ParseContext): string | undefined {
  const file = attributeOf(suite, "file");
  if (file !== undefined) return file;
  const dialect = dialectOf(context);
  return dialect === "bun" || dialect === "deno" ? nameOf(suite) : undefined;
}

function addSuiteErrors(suite: XmlElement, context: ParseContext, run: ParsedRun): void {
  const faults = childElements(suite, "error");
  if (faults.length === 0) return;
  const file = suiteFile(suite, context);
  run.errors.push({
    kind: "collection",
    message: describeFaults(faults) || nameOf(suite),
    ...(file === undefined || file === "" ? {} : { file: toProjectFile(file, context) }),
  });
}

function addCase(site: CaseSite, context: ParseContext, run: ParsedRun): void {
  const outcome = outcomeOf(site.testcase);
  if (dialectOf(context) === "pytest") {
    const collection = pytestCollectionError(site, context);
    if (collection !== undefined) {
      run.errors.push(collection);
      return;
    }
  }
  if (
    dialectOf(context) === "nextest" &&
    nameOf(lastOf(site.suites)).startsWith("@setup-script:")
  ) {
    // A setup script is not a test; only its failure matters, and it fails the whole run.
    if (outcome.status === "fail") {
      run.errors.push({
        kind: "crash",
        message: outcome.failure ?? `setup script ${nameOf(site.testcase)} failed`,
      });
    }
    return;
  }
  const location = locate(site, context);
  const duration = durationOf(site.testcase);
  run.tests.push({
    id: {
      runner: context.runner,
      file: location.file === "" ? "" : toProjectFile(location.file, context),
      segments: location.segments,
    },
    status: outcome.status,
    ...(duration === undefined ? {} : { duration_ms: duration }),
    ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
    ...(outcome.failure_kind === undefined ? {} : { failure_kind: outcome.failure_kind }),
  });
}

function visitSuite(
  suite: XmlElement,
  parents: readonly XmlElement[],
  context: ParseContext,
  run: ParsedRun,
): void {
  const suites = [...parents, suite];
  addSuiteErrors(suite, context, run);
  for (const testcase of childElements(suite, "testcase"))
    addCase({ testcase, suites }, context, run);
  for (const child of childElements(suite, "testsuite")) visitSuite(child, suites, context, run);
}

/**
 * Per-test results from a JUnit-style XML report (pytest, PHPUnit, Pest, Surefire, Gradle, bun,
 * Deno, SwiftPM, nextest). Never throws: unreadable input becomes one crash error.
 */
export function parseJunitXml(xml: string, context: ParseContext): ParsedRun {
  const read = readXml(xml);
  if (!read.ok) return crashRun(`unreadable JUnit XML: ${read.message}`);
  const roots = childElements(read.document, "testsuites");
  const bare = childElements(read.document, "testsuite");
  if (roots.length === 0 && bare.length === 0) {
    return crashRun("unreadable JUnit XML: no <testsuites> or <testsuite> element");
  }
  const run: ParsedRun = { tests: [], errors: [] };
  for (const root of roots) {
    for (const testcase of childElements(root, "testcase")) {
      addCase({ testcase, suites: [] }, context, run);
    }
    for (const suite of childElements(root, "testsuite")) visitSuite(suite, [], context, run);
  }
  for (const suite of bare) visitSuite(suite, [], context, run);
  return run;
}
