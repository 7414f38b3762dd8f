/**
 * The console scripts a Python project declares, read from its manifest's text: each command
 * name with the module its entry point is in (`nbstripout = "nbstripout._nbstripout:main"` →
 * `nbstripout` → `nbstripout._nbstripout`). A test that starts such a command by name imports
 * nothing of the package, yet runs that module and all it imports.
 */

/** `name = "module:func"`, `name=module.sub:func [extra]` (a TOML line, setup.cfg or setup.py). */
const ENTRY_RE =
  /^\s*["']?([A-Za-z0-9][\w.-]*)["']?\s*=\s*["']?([A-Za-z_][\w.]*)\s*(?::\s*[\w.]+)?/;

/** The console scripts of a `pyproject.toml`, `setup.cfg` or `setup.py` (by `name`), name → module. */
export function pythonConsoleScripts(name: string, text: string): Record<string, string> {
  const found: Record<string, string> = {};
  const add = (line: string): void => {
    const match = ENTRY_RE.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) found[match[1]] = match[2];
  };
  if (name === "pyproject.toml") {
    // `[project.scripts]` (PEP 621) and `[tool.poetry.scripts]`: one `name = "module:func"` a line.
    for (const table of text.matchAll(
      /^\[(?:project|tool\.poetry)\.scripts\][^\n]*\n((?:(?!\s*\[)[^\n]*\n?)*)/gm,
    ))
      for (const line of (table[1] ?? "").split("\n"))
        if (!line.trimStart().startsWith("#")) add(line);
  } else if (name === "setup.cfg") {
    // `console_scripts =` under `[options.entry_points]`, its entries on the indented lines after.
    const section = /^\[options\.entry_points\][^\n]*\n((?:(?!\[)[^\n]*\n?)*)/m.exec(text)?.[1];
    const block = /^console_scripts\s*=[^\n]*\n((?:[ \t]+[^\n]*\n?)*)/m.exec(section ?? "")?.[1];
    for (const line of (block ?? "").split("\n")) add(line);
  } else if (name === "setup.py" && text.includes("console_scripts")) {
    // `entry_points={"console_scripts": ["name = module:func"]}`: the entries are string literals.
    const at = text.indexOf("console_scripts");
    const list = /^["']\s*:\s*\[([^\]]*)\]/.exec(text.slice(at + "console_scripts".length))?.[1];
    for (const literal of (list ?? "").matchAll(/["']([^"'\n]+)["']/g))
      if ((literal[1] ?? "").includes(":")) add(literal[1] ?? "");
  }
  return found;
}

/**
 * A file that starts processes: `subprocess`, pytester's `run`, `os.system`, pexpect,
 * pytest-console-scripts' `script_runner`. Only such a file's strings are read for commands: a
 * module that names its package in a log line or a docstring starts no command.
 */
export const STARTS_PROCESSES_RE =
  /\b(?:subprocess|Popen|pytester|testdir|os\.system|pexpect|script_runner|check_output|check_call)\b/;

/** Where a command line starts: the string's start, after `;`, `|`, `&`, `(`, `$(`, `<(`, a backtick. */
const COMMAND_START_RE = /(?:^|[;|&(`])\s*([A-Za-z0-9][\w.-]*)(?=\s|$|[;|&)`])/g;

/**
 * The console scripts a string literal of a Python file starts as a command: the whole string
 * (`["nbstripout", …]`), a command line's first word (`"nbstripout --install"`), a command in a
 * shell line (`"diff <( nbstripout -t a.ipynb )"`, `"echo x | tool"`).
 */
export function namedScripts(
  literals: readonly string[],
  scripts: Readonly<Record<string, string>>,
): string[] {
  const found = new Set<string>();
  for (const literal of literals) {
    if (literal.length > 2000) continue;
    for (const match of literal.trim().matchAll(COMMAND_START_RE)) {
      const word = match[1] ?? "";
      if (Object.hasOwn(scripts, word)) found.add(word);
    }
  }
  return [...found];
}
