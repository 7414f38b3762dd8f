import * as z from "zod/mini";
import { toProjectFile, type ParseContext, type ParsedRun } from "./results.ts";

/**
 * tailtest's own pytest plugin for a gating mode's run (ADR 0012, the thirteenth round): it
 * records which collected tests' own functions (the one the test file defines under the test's
 * name, found at collection before any other hook) returned by themselves during the call phase,
 * through `sys.setprofile`. A pytest pass is the report's word; hooks of a conftest written with
 * the test can make it without the test's body ever running (`pytest_pyfunc_call` returning
 * `True`, a wrapper swallowing the exception, a fresh report, a `pytest_runtest_protocol` that
 * logs passes), or a fixture written with it can stand in for the code under test once it exists
 * (`monkeypatch.setattr(calc, "mul", …)`). `witnessedRun` turns such a pass into a failure.
 */
export const PYTEST_WITNESS_MODULE = "tailtest_witness";
/** The environment variable naming the file the plugin appends its JSON lines to. */
export const PYTEST_WITNESS_ENV = "TAILTEST_WITNESS";
/**
 * The environment variable naming a JSON file of the claimed files a strict verification asks
 * about (`{file: {path, before}}`): the plugin then says, per test, which of them had changed
 * code run while the test ran (`reached`).
 */
export const PYTEST_WITNESS_WATCH_ENV = "TAILTEST_WITNESS_WATCH";

/**
 * The folder (`PYTHONPATH`) of the child witness, set for the processes a watched test starts:
 * a Python child records which watched files' code it started and appends it at exit to the file
 * the parent names in `TAILTEST_WITNESS_CHILD` (ADR 0008, fifteenth round).
 */
export const PYTEST_WITNESS_CHILD_DIR_ENV = "TAILTEST_WITNESS_CHILD_DIR";

/** `sitecustomize.py` of the child witness: it then runs the `sitecustomize` it stands before. */
export const PYTEST_WITNESS_CHILD_SOURCE = String.raw`"""tailtest's child witness: what a process a watched test started ran of the watched files."""

import os
import sys


def _tailtest_child_witness():
    out = os.environ.get("TAILTEST_WITNESS_CHILD")
    watch = os.environ.get("TAILTEST_WITNESS_WATCH")
    if not out or not watch:
        return
    import atexit
    import json
    import threading

    with open(watch, encoding="utf-8") as handle:
        paths = {os.path.realpath(entry["path"]): key for key, entry in json.load(handle).items()}
    keys = {}
    seen = set()

    def key_of(filename):
        try:
            return keys[filename]
        except KeyError:
            try:
                key = paths.get(os.path.realpath(os.path.abspath(filename)))
            except Exception:
                key = None
            keys[filename] = key
            return key

    def record(frame, event, arg):
        if event == "call":
            code = frame.f_code
            key = key_of(code.co_filename)
            if key is not None:
                seen.add((key, getattr(code, "co_qualname", None), code.co_firstlineno, code.co_names))

    def flush():
        sys.setprofile(None)
        threading.setprofile(None)
        try:
            with open(out, "a", encoding="utf-8") as handle:
                for key, name, first, names in seen:
                    handle.write(json.dumps([key, name, first, list(names)]) + "\n")
        except OSError:
            pass

    atexit.register(flush)
    sys.setprofile(record)
    threading.setprofile(record)


try:
    _tailtest_child_witness()
except Exception:
    pass


def _tailtest_next_sitecustomize():
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [entry for entry in sys.path if os.path.abspath(entry or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    _tailtest_next_sitecustomize()
except Exception:
    pass
`;

export const PYTEST_WITNESS_SOURCE = String.raw`"""tailtest's witness (ADR 0012): which collected tests' own functions ran to their end.

A pass is pytest's report; this records, beside it, whether the test function written in the
test file returned by itself (not by an exception, not skipped over by a hook). tailtest reads
the file after the run: a pass of a test recorded as collected and never as finished is not a
pass. Before the call it also notes what the test calls by name that code of the test area stood
in for (a fixture's monkeypatch of calc.mul): a pass against a stand-in is not a pass either. It
changes no result and no run: it only watches.
"""

import ast
import dis
import functools
import inspect
import json
import os
import re
import sys
import threading

import pytest

_PATH = os.environ.get("TAILTEST_WITNESS", "")
_CWD = os.getcwd()
_RETURNS = frozenset(
    dis.opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST") if name in dis.opmap
)
_functions = {}

# A strict verification names the claimed files that changed (TAILTEST_WITNESS_WATCH: a JSON file
# of {claimed file: {"path": absolute path, "before": its source at the claim's snapshot, or
# null}}); for each test it records which of them had changed code run while the test ran.
_watch = {}
try:
    with open(os.environ.get("TAILTEST_WITNESS_WATCH", ""), encoding="utf-8") as _handle:
        _watch = json.load(_handle)
except Exception:
    _watch = {}
_by_path = {}
for _key, _entry in list(_watch.items()):
    try:
        _by_path[os.path.realpath(_entry["path"])] = _key
    except Exception:
        _watch.pop(_key, None)
_file_keys = {}
_started = set()
_names_ran = set()
_bound = {}
_recording = False
_changed = {}
# A process the test starts runs code this process never sees. A Python child reports what it ran
# of the watched files (the child witness, on PYTHONPATH while a test records, _children_in);
# any other process reaches nothing.

# Python 3.12+: sys.monitoring's PY_RETURN, asked of the test's own code object alone, fires only
# when it returns by itself (not at a yield, not while an exception unwinds it) and costs nothing
# elsewhere. Before 3.12: a profile function that checks the instruction a return leaves from.
_monitoring = getattr(sys, "monitoring", None)
_TOOL = None
_returned = set()
for _tool in (4, 3) if _monitoring is not None else ():
    try:
        _monitoring.use_tool_id(_tool, "tailtest-witness")
    except Exception:
        continue
    _TOOL = _tool
    _monitoring.register_callback(
        _tool, _monitoring.events.PY_RETURN, lambda code, offset, value: _returned.add(code)
    )
    break


def _watched_key(filename):
    """The watched claimed file a code object's file is, or None (cached per file name)."""
    try:
        return _file_keys[filename]
    except KeyError:
        try:
            key = _by_path.get(os.path.realpath(os.path.abspath(filename)))
        except Exception:
            key = None
        _file_keys[filename] = key
        return key


def _note_start(code):
    key = _watched_key(code.co_filename)
    if key is not None:
        # Before 3.11 a code object has no qualified name: its first line tells it apart.
        _started.add((key, getattr(code, "co_qualname", None), code.co_firstlineno))
        _names_ran.update(code.co_names)


def _on_start(code, offset):
    if _recording:
        _note_start(code)
    # Once per code object and test: restart_events() at the next test's setup.
    return _monitoring.DISABLE


if _TOOL is not None and _watch:
    _monitoring.register_callback(_TOOL, _monitoring.events.PY_START, _on_start)


def _write(kind, item=None, replaced=None, files=None, unran=None):
    if not _PATH:
        return
    line = {"kind": kind}
    if item is not None:
        line["keys"] = _keys(item)
    if replaced:
        line["replaced"] = replaced
    if files is not None:
        line["files"] = files
    if unran:
        line["unran"] = unran
    try:
        with open(_PATH, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    except OSError:
        pass


def _keys(item):
    """The test's file (where collected, where written) and its names after the file."""
    tail = item.nodeid.split("::")[1:]
    files = []
    for file in (
        lambda: str(getattr(item, "path", None) or item.fspath),
        lambda: os.path.join(str(item.config.rootdir), item.location[0]),
    ):
        try:
            files.append(os.path.relpath(os.path.abspath(file()), _CWD))
        except Exception:
            pass
    # Relative to where the run started, as the JUnit report's files are (no link resolved).
    return [[file, tail] for file in sorted(set(files))]


def _own_function(item):
    """The test function the item's test file defines under the item's name, unwrapped."""
    try:
        module = item.getparent(pytest.Module)
        if module is None:
            return None
        holder = item.getparent(pytest.Class)
        name = getattr(item, "originalname", None) or item.name.split("[")[0]
        found = getattr(holder.obj if holder is not None else module.obj, name, None)
        found = getattr(found, "__func__", found)
        found = inspect.unwrap(found) if callable(found) else found
        return found if inspect.iscode(getattr(found, "__code__", None)) else None
    except Exception:
        return None


_TEST_FOLDERS = {"tests", "test", "testing"}


def _test_area(path):
    """A conftest.py, a test module or a file under a tests/ folder: code written with tests."""
    name = os.path.basename(path)
    if name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"):
        return True
    folders = os.path.normpath(os.path.relpath(path, _CWD)).split(os.sep)[:-1]
    return any(folder in _TEST_FOLDERS for folder in folders)


def _project_module(value):
    """A module of the project's own code: under where the run started, not a test's."""
    path = getattr(value, "__file__", None) if inspect.ismodule(value) else None
    if not path:
        return False
    parts = os.path.relpath(os.path.abspath(path), _CWD).split(os.sep)
    if parts[0] == ".." or any(
        part.startswith(".") or part in ("site-packages", "dist-packages") for part in parts
    ):
        return False
    return not _test_area(path)


def _written_in_tests(value):
    """The test-area file a function (a lambda, a fake) was written in, or None."""
    try:
        value = inspect.unwrap(getattr(value, "__func__", value))
        code = getattr(value, "__code__", None)
        if inspect.iscode(code) and _test_area(os.path.abspath(code.co_filename)):
            return os.path.relpath(os.path.abspath(code.co_filename), _CWD)
    except Exception:
        pass
    return None


def _stand_ins(function, seen):
    """What the test calls by name that test code stood in for before it ran: a function of
    the project's own module (calc.mul), or a name of the test's module changed since
    collection, now a function written in a conftest.py, a test module or a tests/ folder."""
    names = sorted(set(function.__code__.co_names))
    scope = getattr(function, "__globals__", {})
    found = []
    for name in names:
        value = scope.get(name)
        if _project_module(value):
            for attr in names:
                now = vars(value).get(attr)
                by = _written_in_tests(now)
                # The module's own code (a def of its own), or not what it held at collection:
                # a module that itself imports a test helper chose that code (the gate's matter).
                if by and (_defines(value, attr) or now is not seen.get(name + "." + attr, now)):
                    found.append([value.__name__ + "." + attr, by])
        elif value is not seen.get(name):
            by = _written_in_tests(value)
            if by:
                found.append([name, by])
    return found


def _defines(module, name):
    """Whether a project module's own source defines name with a def or a class."""
    try:
        with open(module.__file__, encoding="utf-8") as handle:
            source = handle.read()
    except Exception:
        return True
    pattern = r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+" + re.escape(name) + r"\b"
    return re.search(pattern, source, re.M) is not None


def _functions_of(source):
    """Each function a module's source defines, by qualified name: (its syntax, its first line)."""
    found = {}

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                found[name] = (ast.dump(child), first)
                walk(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return found


def _module_statements(source):
    """Each top-level statement but a def or a class, by its syntax: the names it binds."""
    found = {}
    for statement in ast.parse(source).body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        names = found.setdefault(ast.dump(statement), set())
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
    return found


def _changed_functions(key):
    """The functions of a watched file whose code differs from its source at the claim: a dict
    of qualified name to first line; None when the file cannot be read or parsed, or its code
    did not change (not judged)."""
    if key not in _changed:
        entry = _watch[key]
        try:
            with open(entry["path"], encoding="utf-8") as handle:
                source = handle.read()
            now = _functions_of(source)
        except Exception:
            _changed[key] = None
            return None
        try:
            before = _functions_of(entry["before"]) if entry.get("before") is not None else {}
            same = ast.dump(ast.parse(source)) == ast.dump(ast.parse(entry["before"]))
        except Exception:
            before, same = {}, False
        # No code changed (a comment, a blank line): nothing to run.
        if same:
            _changed[key] = None
            return None
        try:
            earlier = _module_statements(entry["before"] or "")
            _bound[key] = set().union(
                *(names for syntax, names in _module_statements(source).items() if syntax not in earlier)
            )
        except Exception:
            _bound[key] = set()
        _changed[key] = {
            name: first
            for name, (syntax, first) in now.items()
            if before.get(name, (None,))[0] != syntax
        }
    return _changed[key]


def _imported(path):
    """Whether a module loaded from path is in sys.modules (its module code ran in this run)."""
    real = os.path.realpath(path)
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        try:
            if file and os.path.realpath(file) == real:
                return True
        except Exception:
            pass
    return False


def _reached(names):
    """The watched files whose changed code ran while the test ran: one of its changed functions
    started, or the module is loaded and only its module-level code changed, or a module-level
    statement new since the claim binds a name the test's function or the file's code that ran
    uses (from tests.helpers import mul, for a test calling calc.mul)."""
    names = set(names) | _names_ran
    found = []
    for key in sorted(_watch):
        changed = _changed_functions(key)
        ran = [(name, first) for (at, name, first) in _started if at == key]
        if changed is None:
            found.append(key)
        elif not changed:
            if ran or _imported(_watch[key]["path"]):
                found.append(key)
        elif any(
            first in changed.values()
            if name is None
            else name in changed or any(name.startswith(each + ".<locals>.") for each in changed)
            for name, first in ran
        ):
            found.append(key)
        elif _bound.get(key, set()) & names and _imported(_watch[key]["path"]):
            found.append(key)
    return found


def _unran():
    """Per watched file, its changed functions that did not start while the test ran (a function
    counts as run when one defined inside it did): [[file, [qualified names]], ...]."""
    found = []
    for key in sorted(_watch):
        changed = _changed_functions(key)
        if not changed:
            continue
        ran = [(name, first) for (at, name, first) in _started if at == key]
        missed = sorted(
            each
            for each, line in changed.items()
            if not any(
                first == line
                if name is None
                else name == each or name.startswith(each + ".<locals>.")
                for name, first in ran
            )
        )
        if missed:
            found.append([key, missed])
    return found


def _record_profile(frame, event, arg):
    if event == "call":
        _note_start(frame.f_code)


_write("loaded")


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    # Before any other implementation: what the test file defines, as collected.
    for item in items:
        function = _own_function(item)
        if function is not None and (_TOOL is not None or _RETURNS):
            scope = getattr(function, "__globals__", {})
            names = function.__code__.co_names
            seen = {name: scope.get(name) for name in names}
            for name in names:
                value = scope.get(name)
                if _project_module(value):
                    for attr in names:
                        seen[name + "." + attr] = vars(value).get(attr)
            _functions[item.nodeid] = (function, seen)
            _write("judged", item)
    _write("collected")
    yield


_CHILD_DIR = os.environ.get("TAILTEST_WITNESS_CHILD_DIR", "")
_CHILD_OUT = _PATH + ".children" if _PATH else ""
_saved_env = {}


def _children_in():
    """While a test records, the processes it starts load the child witness (PYTHONPATH)."""
    if not (_watch and _CHILD_DIR and _CHILD_OUT):
        return
    for name in ("PYTHONPATH", "TAILTEST_WITNESS_CHILD"):
        _saved_env[name] = os.environ.get(name)
    inherited = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = _CHILD_DIR + (os.pathsep + inherited if inherited else "")
    os.environ["TAILTEST_WITNESS_CHILD"] = _CHILD_OUT


def _children_out():
    """The environment back as it was, and what the test's Python children ran, taken in."""
    for name, value in list(_saved_env.items()):
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _saved_env.clear()
    if not _CHILD_OUT:
        return
    try:
        with open(_CHILD_OUT, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        os.remove(_CHILD_OUT)
    except OSError:
        return
    for line in lines:
        try:
            key, name, first, names = json.loads(line)
        except Exception:
            continue
        if key in _watch:
            _started.add((key, name, first))
            _names_ran.update(names)


def _start_recording():
    global _recording
    _started.clear()
    _names_ran.clear()
    _recording = True
    _children_in()
    if _TOOL is not None:
        _monitoring.restart_events()
        _monitoring.set_events(_TOOL, _monitoring.events.PY_START)


def _stop_recording():
    global _recording
    _recording = False
    _children_out()
    if _TOOL is not None:
        _monitoring.set_events(_TOOL, 0)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_setup(item):
    # A fixture's code runs for the test too: recording starts with its setup.
    if not _watch:
        yield
        return
    _start_recording()
    if _TOOL is None:
        before = sys.getprofile()
        sys.setprofile(_record_profile)
        threading.setprofile(_record_profile)
        try:
            yield
        finally:
            sys.setprofile(before)
            threading.setprofile(None)
    else:
        yield


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    if not _watch:
        yield from _call(item)
        return
    if not _recording:
        _start_recording()
    try:
        yield from _call(item)
    finally:
        _stop_recording()
    try:
        function = _functions.get(item.nodeid, (None, None))[0]
        own = function.__code__.co_names if function is not None else ()
        # What its Python children ran is in _started too; other processes reach nothing.
        files = _reached(own)
        unran = _unran()
    except Exception:
        files, unran = [], []
    _write("reached", item, files=files, unran=unran)


def _plain_call(item, target, function):
    """Whether pytest calls the test's own function as item.obj: no decorator between them, not a
    unittest case, not a coroutine or generator a plugin runs its own way, nothing watched."""
    return (
        not _watch
        and type(item) is pytest.Function
        and getattr(target, "__func__", target) is function
        and inspect.isfunction(function)
        and not (
            inspect.iscoroutinefunction(function)
            or inspect.isasyncgenfunction(function)
            or inspect.isgeneratorfunction(function)
        )
    )


def _call(item):
    function, seen = _functions.get(item.nodeid, (None, None))
    if function is None:
        if _watch and _TOOL is None:
            before = sys.getprofile()
            sys.setprofile(_record_profile)
            try:
                yield
            finally:
                sys.setprofile(before)
            return
        yield
        return
    # After its fixtures, before its body: what it calls, as it will call it.
    try:
        replaced = _stand_ins(function, seen)
    except Exception:
        replaced = []
    if replaced:
        _write("replaced", item, replaced)
    code = function.__code__
    if _TOOL is not None:
        _returned.discard(code)
        _monitoring.set_local_events(_TOOL, code, _monitoring.events.PY_RETURN)
        try:
            yield
        finally:
            _monitoring.set_local_events(_TOOL, code, 0)
        if code in _returned:
            _write("ran", item)
        return
    finished = []
    target = getattr(item, "obj", None)
    if _plain_call(item, target, function):
        # Before 3.12, when nothing is watched and pytest calls the test's own plain function
        # itself: a call through a wrapper that notes a normal return says what the profile
        # function below says, at no cost per call the test makes (a profile function runs on
        # every call and return the test makes: h11's suite ran 3x slower under it).
        def returned(*args, **kwargs):
            result = target(*args, **kwargs)
            finished.append(True)
            return result

        functools.update_wrapper(returned, target)
        item.obj = returned
        try:
            yield
        finally:
            item.obj = target
        if finished:
            _write("ran", item)
        return

    def watch(frame, event, arg):
        if event == "call" and _recording:
            _note_start(frame.f_code)
        if event == "return" and frame.f_code is code:
            at = frame.f_lasti
            if 0 <= at < len(code.co_code) and code.co_code[at] in _RETURNS:
                finished.append(True)

    before = sys.getprofile()
    sys.setprofile(watch)
    threading.setprofile(watch)
    try:
        yield
    finally:
        sys.setprofile(before)
        threading.setprofile(None)
    if finished:
        _write("ran", item)
`;

const WitnessLineSchema = z.object({
  kind: z.enum(["loaded", "judged", "collected", "ran", "replaced", "reached"]),
  keys: z.optional(z.array(z.tuple([z.string(), z.array(z.string())]))),
  /** What the test calls (`calc.mul`) and the test-area file that stood in for it. */
  replaced: z.optional(z.array(z.tuple([z.string(), z.string()]))),
  /** The watched claimed files whose changed code ran while the test ran. */
  files: z.optional(z.array(z.string())),
  /** Per watched file, its changed functions that did not start while the test ran. */
  unran: z.optional(z.array(z.tuple([z.string(), z.array(z.string())]))),
});

const NOT_LOADED =
  "tailtest's pytest witness did not see this run's tests collected (a config or conftest unloaded it, or the run ended first): a pass in it is not trusted";
const NEVER_RAN =
  "tailtest's pytest witness did not see this test's own function return (a hook answered for it, swallowed its exception or reported it without running it): a pass whose test body never ran to its end is not a pass";

/**
 * A pytest run's results judged by what the witness wrote (`text`, undefined when it wrote no
 * file): a passed test the witness collected and never saw finish, or any pass in a run it did
 * not see collected, becomes a failure. A test the witness could not tie to a function of its
 * test file (a doctest, a plugin's item) keeps its result. When the run watched claimed files
 * (`watching`), each pass carries `reached`: those whose changed code ran while it ran (none when
 * the witness said nothing of it).
 */
export function witnessedRun(
  parsed: ParsedRun,
  text: string | undefined,
  context: ParseContext,
  watching = false,
): ParsedRun {
  const reachedBy = new Map<string, string[]>();
  const unranBy = new Map<string, Record<string, string[]>>();
  const judged = new Set<string>();
  const ran = new Set<string>();
  const standIns = new Map<string, ReadonlyArray<readonly [string, string]>>();
  let collected = false;
  for (const line of (text ?? "").split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsedLine = WitnessLineSchema.safeParse(value);
    if (!parsedLine.success) continue;
    if (parsedLine.data.kind === "collected") collected = true;
    const { kind, replaced, files, unran } = parsedLine.data;
    for (const [file, names] of parsedLine.data.keys ?? []) {
      const key = keyOf(toProjectFile(file, context), names);
      if (kind === "judged") judged.add(key);
      else if (kind === "reached") {
        reachedBy.set(key, files ?? []);
        unranBy.set(key, Object.fromEntries(unran ?? []));
      } else if (kind === "ran") ran.add(key);
      else if (kind === "replaced" && replaced !== undefined && replaced.length > 0)
        standIns.set(key, replaced);
    }
  }
  const tests = parsed.tests.map((test) => {
    if (test.status !== "pass") return test;
    const key = keyOf(test.id.file, test.id.segments);
    if (watching) {
      const unran = unranBy.get(key);
      test = {
        ...test,
        reached: reachedBy.get(key) ?? [],
        ...(unran === undefined || Object.keys(unran).length === 0 ? {} : { unran }),
      };
    }
    const replaced = standIns.get(key);
    let reason: string | undefined;
    if (!collected) reason = NOT_LOADED;
    else if (judged.has(key) && !ran.has(key)) reason = NEVER_RAN;
    else if (replaced !== undefined) reason = standInReason(replaced);
    return reason === undefined
      ? test
      : { ...test, status: "fail" as const, failure: reason, failure_kind: "crash" as const };
  });
  return { ...parsed, tests };
}

/** The failure of a pass whose test called test code standing in for the project's. */
function standInReason(replaced: ReadonlyArray<readonly [string, string]>): string {
  const named = replaced.map(([what, by]) => `${what} (by ${by})`).join(", ");
  return `the test calls ${named} in place of the project's own code: test code stood in for it before the test ran (a fixture or hook patching it), so its pass says nothing of that code; call the real code, and patch only what it calls`;
}

const keyOf = (file: string, names: readonly string[]) => `${file}\0${names.join("::")}`;
