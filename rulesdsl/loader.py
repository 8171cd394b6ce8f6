"""The pipeline in one place: source -> parse -> resolve variants -> check -> compile.

Nothing is compiled while the checker reports an error; every failure is a RulesError
carrying diagnostics and the source texts to show them with.

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

from .catalogue import source
from .check import analyze
from .check.analysis import Analysis
from .diagnostics import Diagnostic, RulesError, Span
from .grammar import parse, parse_file
from .interpreter.backends import PLAIN, Backend
from .interpreter.compiler import compile_program
from .interpreter.game import Rules
from .variants import Resolved, merge, resolve


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
           coverage: bool = False, backend: Backend = PLAIN) -> Rules:
    analysis = analyze(resolved.file, overrides)
    if analysis.errors:
        raise RulesError(analysis.diagnostics, resolved.sources)
    return Rules(compile_program(analysis, resolved.sources, coverage, backend),
                 resolved.sources, overrides)


def load(path: str | Path, overrides: dict[str, Any] | None = None,
         coverage: bool = False, include: Iterable[str | Path] = (),
         backend: Backend = PLAIN) -> Rules:
    """Load a rule file (a variant with its bases), or a shipped game by its name
    (`load("cromlech/hardcore")`; a path that exists wins): parsed, checked and compiled,
    or a RulesError. `overrides` changes settings; `include` names folders `extends` and
    data files may reach beyond the file's own. With `coverage`, the program counts which
    rules, branches, options, triggers, turns and ends of the game run (`Program.points`,
    `Program.hits`). `backend` runs the generated code: the plain path, or
    `native_backend()`'s."""
    with collector_paused():
        return _build(resolve(_named(path), include=include), overrides, coverage, backend)


def native_backend() -> Backend:
    """The compiled path (interpreter/native.py), telling on stderr, once each, when it
    builds a module and when it runs the plain path instead: what `--native` uses."""
    from .interpreter.native import Cython

    return Cython(_tell_once)


_told: set[str] = set()


def _tell_once(message: str) -> None:
    import sys

    if message not in _told:
        _told.add(message)
        print(f"rulesdsl: {message}", file=sys.stderr, flush=True)


def _named(path: str | Path) -> str | Path:
    """A path as it is, or the file a catalogue name names (catalogue.source)."""
    return source(path) if isinstance(path, str) else path


def load_named(path: str | Path, by: str, overrides: dict[str, Any] | None = None) -> Rules:
    """Load a rule file that another file names (the rule file of a record, found by
    `records.rule_file`), as `load` does; but a file that does not parse as rules is not
    quoted: the one naming it is untrusted, and a text that is not rules may be anything
    (a line of a host's file in a syntax error would show it to whoever made the record)."""
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
        return _build(merge(file, text, str(path)), overrides)


def build(resolved: Resolved, overrides: dict[str, Any] | None = None,
          coverage: bool = False, backend: Backend = PLAIN) -> Rules:
    """A file resolved already (and perhaps added to: `simulate --stat`), checked and
    compiled, or a RulesError."""
    with collector_paused():
        return _build(resolved, overrides, coverage, backend)


def load_text(text: str, path: str = "<input>", overrides: dict[str, Any] | None = None,
              include: Iterable[str | Path] = (), backend: Backend = PLAIN) -> Rules:
    """Load rules from a string (tests, docs); `extends` is relative to `path`, and reaches
    the folder of `path` and below, and the folders in `include`."""
    with collector_paused():
        return _build(merge(parse(text, path), text, path, include=include), overrides,
                      backend=backend)


def check_file(path: str | Path, run_examples: bool = True,
               overrides: dict[str, Any] | None = None, play: int = 0,
               records: str | Path | None = ".", include: Iterable[str | Path] = ()
               ) -> tuple[list[Diagnostic], dict[str, str]]:
    """All diagnostics of a file (or a shipped game, by name, as `load` takes it): syntax,
    checks, then (if those pass) its examples, and with `play`, the errors of that many
    games of random bots per number of players (their records written into `records`).
    `overrides` and `include` as `load` takes them."""
    with collector_paused():
        try:
            resolved = resolve(_named(path), include=include)
        except RulesError as err:
            return err.diagnostics, err.sources
        try:
            rules = _build(resolved, overrides)
        except RulesError as err:
            return err.diagnostics, resolved.sources
    return _examine(rules, run_examples, str(path), play, records), resolved.sources


def check_resolved(resolved: Resolved, run_examples: bool = True,
                   overrides: dict[str, Any] | None = None, path: str = "", play: int = 0,
                   records: str | Path | None = ".") -> list[Diagnostic]:
    """The diagnostics of a parsed and merged file: its checks, then (if those pass) its
    examples and, with `play`, the errors of that many games of random bots per number of
    players (their records written into `records`)."""
    try:
        with collector_paused():
            rules = _build(resolved, overrides)
    except RulesError as err:
        return err.diagnostics
    return _examine(rules, run_examples, path, play, records)


def _examine(rules: Rules, run_examples: bool, path: str, play: int,
             records: str | Path | None) -> list[Diagnostic]:
    """The checker's warnings, the failures of the file's examples, and of `play` games
    per number of players."""
    from .interpreter.examples import run_examples as run

    diags = list(rules.warnings)
    diags += run(rules) if run_examples else []
    if play:
        from .validate import play_check

        diags += play_check(rules, path or rules.path, play, records=records)
    return diags


__all__ = ["Analysis", "check_file", "check_resolved", "load", "load_named", "load_text",
           "native_backend"]
