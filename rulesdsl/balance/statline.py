"""Statistics given on the command line: `simulate --stat NAME=EXPR` (or `--stat 'NAME of
p=EXPR'`, one for each player), written in the rules language and compiled with each rule
file of the study as if the file declared `stat NAME = EXPR` (language.md, Statistics).

Stage: analysis (before any game: it goes through the checker like a rule file's own
declarations). Each `--stat` is a line of a small source of its own, named `--stat`, so
that a mistake is reported at its place (`--stat:2:13: error[E010]: unknown name ...`) and
the texts count in the rules' digest (a run with other statistics is another run). Only
a measured statistic is taken (a tally needs rules that add to it); a text that is not
one such declaration is refused (C004) before anything is parsed further.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .. import ast as A
from ..compile.backends import PLAIN, Backend
from ..diagnostics import Diagnostic, RulesError, Span
from ..grammar import parse
from ..interpreter.game import Rules
from ..loader import build
from ..resolve.variants import resolve

SOURCE = "--stat"


def stat_source(texts: Sequence[str]) -> str:
    """The source the `--stat` texts make: `stat TEXT`, one a line ("" for none)."""
    for n, text in enumerate(texts, 1):
        if "\n" in text or "\r" in text or "=" not in text:
            raise RulesError([Diagnostic(
                "C004", f"--stat {text!r}: a statistic is NAME=EXPR or 'NAME of p=EXPR', "
                "on one line", Span(file=SOURCE, line=n, column=1, end_line=n, end_column=1))])
    return "".join(f"stat {text}\n" for text in texts)


def stat_declarations(source: str) -> list[A.StatDecl]:
    """The declarations of a `--stat` source: a RulesError for anything else."""
    if not source:
        return []
    file = parse(source, SOURCE)
    out = []
    for item in file.items:
        if not isinstance(item, A.StatDecl) or item.value is None:
            raise RulesError([Diagnostic(
                "C004", "--stat takes a measured statistic, NAME=EXPR or 'NAME of p=EXPR'",
                item.span)], {SOURCE: source})
        out.append(item)
    return out


def load_with_stats(path: str | Path, settings: dict[str, Any] | None,
                    include: Iterable[str | Path], source: str, coverage: bool,
                    backend: Backend = PLAIN) -> Rules:
    """A rule file loaded with the `--stat` statistics added to its declarations, its
    generated code run by `backend` (the plain path, or the native one)."""
    resolved = resolve(path, include=include)
    extra = stat_declarations(source)
    if extra:
        resolved.file = resolved.file.model_copy(update={"items": [*resolved.file.items,
                                                                    *extra]})
        resolved.sources[SOURCE] = source
    return build(resolved, settings, coverage, backend, include=include)
