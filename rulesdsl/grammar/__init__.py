"""Parse a rule file into the typed AST (stage 1 of the pipeline).

`parser.py` holds the parser (lark, LALR, positions kept, recovery at the next top-level
declaration); `builder.py` turns lark's tree into `rulesdsl.ast` nodes; `treecache.py` keeps
the trees between runs and `incremental.py` parses again after an edit. This package's own
names are the ones the other stages use: `parse` and `parse_file`.
"""

from __future__ import annotations

from pathlib import Path

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError
from ..files.paths import Unreadable, read_text
from .parser import (
    GRAMMAR,
    PlacingLark,
    RulesIndenter,
    brackets_too_deep,
    build,
    cache_name,
    parse,
    recover,
    too_large,
)
from .treecache import parse_remembered


def parse_file(path: str | Path) -> tuple[A.RulesFile, str]:
    """Read and parse a file; returns the AST and the source text."""
    text = read_rules(path)
    # a file parsed before with the same text is not parsed again (treecache.py)
    return parse_remembered(text, str(path), parse), text


def read_rules(path: str | Path) -> str:
    """The text of a rule file, read as every file is (paths.read_text: a regular file
    under the cap), or E000."""
    try:
        text = read_text(path)  # a regular file under the cap (paths.py)
    except FileNotFoundError:
        raise RulesError([Diagnostic("E000", f"no such rule file: {path}")]) from None
    except Unreadable as err:
        raise RulesError([Diagnostic("E000", f"cannot read {path}: {err.reason}")]) from None
    return text


__all__ = ["GRAMMAR", "PlacingLark", "RulesIndenter", "brackets_too_deep", "build",
           "cache_name", "parse", "parse_file", "read_rules", "recover", "too_large"]
