"""The pipeline in one place: source -> parse -> resolve variants -> check -> compile.

Nothing is compiled while the checker reports an error; every failure is a RulesError
carrying diagnostics and the source texts to show them with.

The folders a rule file may read beyond its own (`include`, the command line's `--include`)
are an argument of every function here, and the rules loaded remember them
(`Rules.include`), as they remember their settings: what loads the same file again (with
coverage counted, in a worker process) reaches the same folders and no others.

Python's cycle collector is paused while a file is parsed, checked and compiled: these
stages make hundreds of thousands of objects that live until the stage ends (syntax
trees, the generated module) and hardly any garbage, and the collector, set off by the
number of objects made, would look through all of them again and again (a quarter of the
CPU time of `rulesdsl check` on Cromlech).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .check import analyze
from .check.analysis import Analysis
from .compile.backends import PLAIN, Backend
from .compile.compiler import compile_program
from .compile.options import DEFAULT, Options
from .diagnostics import Diagnostic, RulesError, Span
from .grammar import parse, parse_file
from .interpreter.game import Rules
from .resolve.catalogue import source
from .resolve.variants import Resolved, merge, resolve


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cycle collection inside (see the module's docstring); as before after it (left
    off if it was off)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _build(resolved: Resolved, overrides: dict[str, Any] | None,
           coverage: bool = False, backend: Backend = PLAIN,
           options: Options = DEFAULT, include: Iterable[str | Path] = ()) -> Rules:
    analysis = analyze(resolved.file, overrides)
    if analysis.errors:
        raise RulesError(analysis.diagnostics, resolved.sources)
    return Rules(compile_program(analysis, resolved.sources, coverage, backend, options),
                 resolved.sources, overrides, folders(include))


def folders(include: Iterable[str | Path]) -> tuple[str, ...]:
    """The included folders as absolute paths: the same folders from any working folder."""
    return tuple(str(Path(f).resolve()) for f in include)


def load(path: str | Path, overrides: dict[str, Any] | None = None,
         coverage: bool = False, include: Iterable[str | Path] = (),
         backend: Backend = PLAIN, options: Options = DEFAULT) -> Rules:
    """Load a rule file (a variant with its bases), or a shipped game by its name
    (`load("cromlech/hardcore")`; a path that exists wins): parsed, checked and compiled,
    or a RulesError. `overrides` changes settings; `include` names folders `extends` and
    data files may reach beyond the file's own. With `coverage`, the program counts which
    rules, branches, options, triggers, turns and ends of the game run (`Program.points`,
    `Program.hits`). `backend` runs the generated code: the plain path, or
    `native_backend()`'s; `options` are the code generator's switches (compile/options.py)."""
    with collector_paused():
        return _build(resolve(named_path(path), include=include), overrides, coverage, backend,
                      options, include)


def native_backend() -> Backend:
    """The compiled path (compile/native.py), telling on stderr, once each, when it
    builds a module and when it runs the plain path instead: what `--native` uses."""
    from .compile.native import Cython

    return Cython(_tell_once)


def backend_for(native: bool) -> Backend:
    """The compiled path's backend if `native` (`--native`), else the plain path's."""
    return native_backend() if native else PLAIN


_told: set[str] = set()


def _tell_once(message: str) -> None:
    import sys

    if message not in _told:
        _told.add(message)
        print(f"rulesdsl: {message}", file=sys.stderr, flush=True)


def named_path(path: str | Path) -> str | Path:
    """A path as it is, or the file a catalogue name names (catalogue.source)."""
    return source(path) if isinstance(path, str) else path


def load_named(path: str | Path, by: str, overrides: dict[str, Any] | None = None,
               include: Iterable[str | Path] = ()) -> Rules:
    """Load a rule file that another file names (the rule file of a record, found by
    `records.rule_file`), as `load` does (`include` as it takes it); but a file that does
    not parse as rules is not quoted: the one naming it is untrusted, and a text that is
    not rules may be anything (a line of a host's file in a syntax error would show it to
    whoever made the record)."""
    with collector_paused():
        try:
            file, text = parse_file(path)
        except RulesError as err:
            first = err.diagnostics[0]
            if first.span is None:  # the file could not be read: the reason, no text
                raise
            errors = len(err.diagnostics)
            raise RulesError([Diagnostic(
                first.code, f"the rule file {by} names does not parse as rules ({errors} "
                f"error{'s' if errors > 1 else ''}, the first at line {first.span.line})",
                Span(file=str(path), line=0, column=0, end_line=0, end_column=0),
                hint=f"to see them: rulesdsl check {path}")]) from None
        return _build(merge(file, text, str(path), include=include), overrides,
                      include=include)


@contextmanager
def lasting(freeze: bool = False) -> Iterator[None]:
    """Rules loaded for the rest of the process: the collector waits while they load (as
    `collector_paused` makes it wait), and, with `freeze` (the command line in a process of
    its own), is then on again with what is there frozen, so that it never looks through
    them: on again after a plain pause, it would at once, and again at each of its older
    generations' turns (about 40 collections and 0.04 to 0.09 s of CPU as `perft` of
    Cromlech starts). Called in-process (`main`, as tests do), nothing is frozen: what the
    caller holds is none of the command's business."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            if freeze:
                gc.freeze()
            gc.enable()


def build(resolved: Resolved, overrides: dict[str, Any] | None = None,
          coverage: bool = False, backend: Backend = PLAIN,
          options: Options = DEFAULT, include: Iterable[str | Path] = ()) -> Rules:
    """A file resolved already (and perhaps added to: `simulate --stat`), checked and
    compiled, or a RulesError; `include`: the folders it was resolved with."""
    with collector_paused():
        return _build(resolved, overrides, coverage, backend, options, include)


def load_text(text: str, path: str = "<input>", overrides: dict[str, Any] | None = None,
              include: Iterable[str | Path] = (), backend: Backend = PLAIN,
              options: Options = DEFAULT) -> Rules:
    """Load rules from a string (tests, docs); `extends` is relative to `path`, and reaches
    the folder of `path` and below, and the folders in `include`."""
    with collector_paused():
        return _build(merge(parse(text, path), text, path, include=include), overrides,
                      backend=backend, options=options, include=include)


__all__ = ["Analysis", "build", "collector_paused", "folders", "lasting", "load", "load_named",
           "load_text", "named_path", "native_backend"]
