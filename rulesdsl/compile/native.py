"""The compiled path: a rule file's generated module built into a C extension with Cython.

Stage: compile (a backend, see backends.py). The module is the one the plain path runs,
checked by the sandbox the same way before anything is built (only what the compiler
emits reaches Cython); the C it becomes plays the same games move for move, only faster
(the interpreter's dispatch of each operation is gone). What is added to the text:
- a first line of Cython directives, and a header giving each name the engine puts into
  the module's namespace (the runtime helpers, the tables) a placeholder, since Cython
  refuses a name it cannot see defined; the real values are put in after the module is
  loaded, as the plain path passes them to `exec`;
- the loop variables that can be C integers without changing anything but the speed
  (those over the cells of a board, the players) declared so (typedloops.py).
Each statement is on a line of its own, and the table from the text's lines to the rules
is made from the text itself, so a runtime error names the rule file's line as on the
plain path (Cython adds each function it leaves to the traceback, with its line).

The build (Cython to C, then the C compiler; about 7 s for a small game, minutes for
Cromlech) is kept in the user's private cache folder (cachedir.open_private), named by a digest of
the checked text, the engine, Cython's version and the compiler flags: the same rules
build once. Loading a kept build runs its code, so it is loaded only as the parse cache's
pickles are: a file of the user's own in that folder, signed with the folder's key.
Without Cython, a C compiler or Python's headers, `NativeUnavailable` says what is missing,
and the plain path runs.

The run-time helpers the generated code calls (program/helpers/) are built the same way,
from their own source unchanged, once for all rule files (`built_helpers`): what a game
spends in them is outside the rules' module. Should they fail to build, the rules still
run built, with the plain helpers.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import inspect
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..files import cachedir
from ..program.runtime import FAMILIES, Env, make_helpers
from . import typedloops
from .backends import PLAIN, Loaded
from .sandbox import check

FORMAT = "rulesdsl-native/1"
DIRECTIVES = "# cython: language_level=3, emit_code_comments=False"
# -O2: Cromlech's module plays 1.22 times as fast as with -O1, for twice the build (103 s
# of CPU against 45: docs/performance.md); no -g: debugging information made it 16 MB
C_FLAGS = ("-O2", "-fwrapv", "-fPIC", "-DNDEBUG", "-w")
# a build that only has to be right, not fast (the tests' comparison of every shipped rule
# file on both paths): the same C, not optimised, Cromlech's in about 11 s of CPU (Cython
# 3.3 s, the C compiler 7.8 s) where -O2 takes minutes
CHECK_FLAGS = ("-O0", "-fwrapv", "-fPIC", "-DNDEBUG", "-w")
BUILD_SECONDS = 1800  # the C compiler on a module of tens of thousands of lines
# the run-time helpers are built from their source as it is: their type hints are not
# taken as C types (an argument of another type would then fail where it runs now)
HELPER_OPTIONS = ("-X", "annotation_typing=False")
_helpers: dict[str, ModuleType] = {}   # the helpers' builds loaded in this process


class NativeUnavailable(Exception):
    """The compiled path cannot be had here (no Cython, no C compiler, a failed build): the
    message says why, for people."""


def missing() -> str | None:
    """What the compiled path lacks on this machine, or None when it can build."""
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed (pip install 'rulesdsl[native]')"
    if _compiler() is None:
        return "no C compiler was found (set CC, or install gcc or clang)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's C headers are not installed (the python3-dev package)"
    return None


def _compiler() -> list[str] | None:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not cc or shutil.which(cc[0]) is None:
        return None
    return cc


def source_of(module: ast.Module, line_sids: list[int],
              namespace: dict[str, Any]) -> tuple[str, list[int]]:
    """The text Cython builds: the directives, a placeholder for each name the engine puts
    into the namespace, the module; and per line of that text the span id of its rule."""
    header: list[ast.stmt] = [
        ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.Constant(None),
                   lineno=0)  # line 0: no rule
        for name in sorted(namespace)]
    truths = _truths_in_and_or(module)
    header += [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                          value=ast.Constant(value), lineno=0)
               for value, name in TRUTH_NAMES.items() if truths]
    # loop variables declared C integers where that changes nothing but the speed
    statements, typed = typedloops.declared(module, namespace)
    if typed:
        header.insert(0, ast.Import(names=[ast.alias(name=typedloops.CYTHON)], lineno=0))
    whole = ast.Module(body=header + statements, type_ignores=[])
    body = ast.unparse(whole)
    if truths:   # the same statements, line for line: only operands are renamed
        body = ast.unparse(_TruthsNamed().visit(ast.parse(body)))
    text = f"{DIRECTIVES}\n{body}\n"
    table = [-1] * (text.count("\n") + 2)

    def pair(made: list[ast.stmt], read: list[ast.stmt]) -> None:
        for original, again in zip(made, read, strict=True):
            line = getattr(original, "lineno", None)
            if line is not None and 0 < line < len(line_sids):
                table[again.lineno] = line_sids[line]
            for field in ("body", "orelse"):
                inner = getattr(original, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    pair(inner, getattr(again, field))

    pair(whole.body, ast.parse(text).body)
    return text, table


# Cython 3.3.1 builds `x and True or y` (x a truth value of its own, `not not z`) into C
# that takes the constant for an object's address, and the process crashes there (Cromlech's
# Symmetry variant): in the text built, a truth value an `and` or an `or` is made of is
# read from a name of the module instead, which Cython leaves an object
TRUTH_NAMES = {True: "_rules_true", False: "_rules_false"}


def _truths_in_and_or(module: ast.Module) -> bool:
    return any(isinstance(node, ast.BoolOp) and any(_truth(v) for v in node.values)
               for node in ast.walk(module))


def _truth(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, bool)


class _TruthsNamed(ast.NodeTransformer):
    def visit_BoolOp(self, node: ast.BoolOp) -> ast.BoolOp:
        self.generic_visit(node)
        node.values = [ast.Name(id=TRUTH_NAMES[v.value], ctx=ast.Load())
                       if isinstance(v, ast.Constant) and isinstance(v.value, bool) else v
                       for v in node.values]
        return node


class Cython:
    """The compiled backend; `report` is told, for people, when a build starts and when the
    plain path runs instead (and why)."""

    name = "native"

    def __init__(self, report: Callable[[str], None] | None = None,
                 flags: tuple[str, ...] = C_FLAGS):
        self.report = report or (lambda message: None)
        self.flags = flags  # the C compiler's, for the rules and the helpers alike
        self.fell_back: str | None = None  # why the last load ran on the plain path

    def helpers(self, env: Env) -> dict[str, Any]:
        """The run-time helpers built too (`built_helpers`), else the plain path's."""
        if missing() is not None:
            return PLAIN.helpers(env)   # `load` says why
        try:
            return make_helpers(env, built_helpers(self.report, self.flags))
        except NativeUnavailable as why:
            self.report(f"--native: {why}: the run-time helpers run on the plain path")
            return PLAIN.helpers(env)

    def load(self, module: ast.Module, filename: str, line_sids: list[int],
             namespace: dict[str, Any]) -> Loaded:
        check(module, namespace)  # only what the sandbox passes is built
        try:
            return self._load_native(module, filename, line_sids, namespace)
        except NativeUnavailable as why:
            self.fell_back = str(why)
            self.report(f"--native: {why}: the rules run on the plain path")
            return PLAIN.load(module, filename, line_sids, namespace)

    def _load_native(self, module: ast.Module, filename: str, line_sids: list[int],
                     namespace: dict[str, Any]) -> Loaded:
        lacking = missing()
        if lacking:
            raise NativeUnavailable(lacking)
        text, table = source_of(module, line_sids, namespace)
        name = "rules_" + _digest(text, self.flags)
        built = _kept_or_built(name, text, lambda: self.report(
            f"building the native module of {_shown(filename)} (once: it is kept in the "
            "cache)"), self.flags)
        loaded = _instance(name, built)
        loaded.__dict__.update(namespace)
        self.fell_back = None
        return Loaded(loaded.__dict__, f"{name}.pyx", table, self.name)


def built_helpers(report: Callable[[str], None],
                  flags: tuple[str, ...] = C_FLAGS) -> tuple[ModuleType, ...]:
    """The run-time helpers' modules (program/helpers/, `runtime.FAMILIES`) built with
    Cython from their own source, unchanged, each kept in the cache as a rule file's build
    is (named by a digest of its source, Cython's version, Python's and the flags), and
    loaded once a process. What a game spends in them is outside the rules' module: about
    a fifth of a Cleromancy game (docs/performance.md)."""
    said: list[bool] = []

    def building() -> None:
        if not said:
            said.append(True)
            report("building the native run-time helpers (once: they are kept in the cache)")

    return tuple(_built_family(family, building, flags) for family in FAMILIES)


def _built_family(family: ModuleType, building: Callable[[], None],
                  flags: tuple[str, ...]) -> ModuleType:
    name = family.__name__
    try:
        text = inspect.getsource(family)
    except (OSError, TypeError) as err:
        raise NativeUnavailable(f"the source of {name} cannot be read ({err})") from None
    options = (*HELPER_OPTIONS, "--module-name", name)
    stem = f"helpers_{name.rpartition('.')[2]}_{_digest(text, flags, *options)}"
    if stem not in _helpers:
        built = _kept_or_built(stem, text, building, flags, name, options)
        _helpers[stem] = _instance(name, built)
    return _helpers[stem]


def _shown(filename: str) -> str:
    """The rule file of a generated module's name (`<rules PATH>`)."""
    return filename.removeprefix("<rules ").removesuffix(">")


def _digest(text: str, flags: tuple[str, ...], *more: str) -> str:
    import Cython

    key = "\0".join((FORMAT, Cython.__version__, sys.version,
                     " ".join(flags), *more, text))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _kept_or_built(name: str, text: str, building: Callable[[], None],
                   flags: tuple[str, ...] = C_FLAGS, module: str | None = None,
                   cython: tuple[str, ...] = ()) -> bytes:
    """The build kept as `name` (which the digest of the text and `flags` names): as the
    user's cache folder keeps it (a file of the user's own that the folder's key signed:
    loading it runs its code, as unpickling a kept tree does), else built (said first by
    `building`; `module`, the module's whole name, `name` if not given, and `cython`,
    Cython's arguments, see `_build`) and kept, signed."""
    file = f"{name}{_suffix()}"
    folder = cachedir.open_private()
    if folder is None:
        building()
        return _build(module or name, text, cython, flags)
    with folder:
        built = folder.read(file)
        if built is not None:
            folder.used(file)
            return built
        building()
        built = _build(module or name, text, cython, flags)
        folder.write(file, built)
        return built


def _build(name: str, text: str, cython: tuple[str, ...] = (),
           flags: tuple[str, ...] = C_FLAGS) -> bytes:
    """Cython (with the arguments `cython`, if any), then the C compiler (with `flags`),
    in a private temporary folder: the extension's bytes. Its entry is named after the
    last part of `name`, which Cython also takes for the module's own."""
    cc = _compiler()
    if cc is None:
        raise NativeUnavailable("no C compiler was found")
    base = name.rpartition(".")[2]
    with tempfile.TemporaryDirectory(prefix="rulesdsl-native-") as work:
        Path(work, f"{base}.pyx").write_text(text, encoding="utf-8")
        _run([sys.executable, "-m", "cython", "-3", *cython, f"{base}.pyx",
              "-o", f"{base}.c"], work, "Cython")
        include = sysconfig.get_paths()["include"]
        _run([*cc, *flags, "-shared", f"-I{include}", f"{base}.c",
              "-o", f"{base}{_suffix()}"], work, "the C compiler")
        return Path(work, f"{base}{_suffix()}").read_bytes()


def _run(command: list[str], folder: str, what: str) -> None:
    try:
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True,
                              timeout=BUILD_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise NativeUnavailable(f"{what} could not build the module ({err})") from None
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise NativeUnavailable(f"{what} failed on the module: {' / '.join(last)}")


def _instance(name: str, built: bytes) -> Any:
    """A module of its own from the built bytes: loaded from a private copy, so that two
    programs of the same rules in one process (whose tables and error places may differ)
    never share the module's names (a C extension loaded twice from one file is one
    module). `name` is the module's whole name; the file is named by its last part."""
    with tempfile.TemporaryDirectory(prefix="rulesdsl-native-") as work:
        path = Path(work, f"{name.rpartition('.')[2]}{_suffix()}")
        path.write_bytes(built)
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is None:
            raise NativeUnavailable("the built module could not be loaded")
        try:
            loaded = importlib.util.module_from_spec(spec)
            loader.exec_module(loaded)
        except ImportError as err:
            raise NativeUnavailable(f"the built module could not be loaded ({err})") from None
        return loaded
