"""Semantic highlighting: every token of a document by what it is, names by what they mean.

Stage: editor support. Keywords, strings, numbers, comments and operators come from the
grammar's words (`grammar.lexical`); a name takes its colour from the index (a rule, a
counter, a local...), which overrides the keyword reading of words such as `x` or
`players` where they are names. The names inside a string's `{...}` are coloured too.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from ..grammar.lexical import lexemes
from .symbols import Occurrence

TOKEN_TYPES = ["keyword", "string", "number", "comment", "operator", "variable", "parameter",
               "function", "method", "enum", "enumMember", "class", "property", "struct",
               "type", "event"]
MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=MODIFIERS)

BY_KIND = {
    "constant": ("variable", ["readonly"]), "setting": ("variable", ["readonly"]),
    "counter": ("variable", []), "board": ("struct", []), "enum": ("enum", []),
    "enum value": ("enumMember", []), "die": ("type", []), "dice": ("variable", []),
    "definition": ("function", []), "rule": ("method", []), "kind": ("class", []),
    "field": ("property", []), "zone": ("struct", []), "cell": ("enumMember", []),
    "local": ("variable", []), "parameter": ("parameter", []), "option": ("event", []),
    "example": ("string", []), "builtin": ("variable", ["defaultLibrary"]),
    "function": ("function", ["defaultLibrary"]),
}
BY_LEXEME = {"keyword": "keyword", "constant": "keyword", "operator": "operator",
             "string": "string", "number": "number", "comment": "comment"}


def tokens(text: str, occurrences: list[Occurrence], codec: PositionCodec) -> list[int]:
    """The LSP encoding of a document's tokens: five numbers a token, each relative to
    the one before. `occurrences` are the index's names in this document."""
    found: dict[tuple[int, int], tuple[int, str, list[str]]] = {}
    names: dict[int, list[tuple[int, int]]] = {}
    for occ in occurrences:
        s = occ.span
        if s.line != s.end_line:
            continue
        kind, mods = BY_KIND[occ.symbol.kind]
        if occ.declaration:
            mods = [*mods, "declaration"]
        found[(s.line, s.column)] = (s.end_column - s.column, kind, mods)
        names.setdefault(s.line, []).append((s.column, s.end_column))
    for lx in lexemes(text):
        what = BY_LEXEME.get(lx.kind)
        if what is None or (lx.line, lx.column) in found:
            continue
        if what == "string":
            _string(found, lx.line, lx.column, lx.column + lx.length, names.get(lx.line, []))
        else:
            found[(lx.line, lx.column)] = (lx.length, what, [])
    lines = text.split("\n")
    data: list[int] = []
    last_line, last_start = 1, 0
    for (line, column), (length, kind, mods) in sorted(found.items()):
        src = lines[line - 1] if line <= len(lines) else ""
        start = codec.client_num_units(src[:column - 1])
        width = codec.client_num_units(src[column - 1:column - 1 + length])
        delta_line = line - last_line
        data += [delta_line, start - last_start if delta_line == 0 else start, width,
                 TOKEN_TYPES.index(kind), sum(1 << MODIFIERS.index(m) for m in mods)]
        last_line, last_start = line, start
    return data


def _string(found: dict, line: int, start: int, end: int,
            names: list[tuple[int, int]]) -> None:
    """A string's pieces between the names written in its `{...}`."""
    at = start
    for a, b in sorted(n for n in names if start < n[0] < end):
        if a > at:
            found[(line, at)] = (a - at, "string", [])
        at = b
    if end > at:
        found[(line, at)] = (end - at, "string", [])
