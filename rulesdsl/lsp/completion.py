"""Completion: keywords, declared and local names, built-ins with their signatures, enum
values, and the option ids of a `play "..."` line in an example.

Stage: editor support. What is offered depends on the text before the cursor: the start of
a top-level line (declarations), the start of an indented line (statements, rules to
call), a string after `play` (option ids), after `roll` (dice), anywhere else an
expression (names, built-ins, operators).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsprotocol import types

from ..check.analysis import LATTICE_DOCS
from ..check.tiles import TILE_DOCS
from ..check.types import BUILTIN_NAMES, BUILTINS, show
from ..grammar.lexical import CONSTANTS, OPERATOR_WORDS, builtin_words, leading_phrases
from ..program.declare import declare
from ..program.display import Display
from .hover import BUILTIN_DOCS
from .symbols import Index, Symbol

K = types.CompletionItemKind
KINDS = {
    "constant": K.Constant, "setting": K.Constant, "counter": K.Variable, "board": K.Struct,
    "enum": K.Enum, "enum value": K.EnumMember, "die": K.Value, "dice": K.Value,
    "definition": K.Function, "rule": K.Method, "kind": K.Class, "field": K.Field,
    "zone": K.Struct, "local": K.Variable, "parameter": K.Variable, "option": K.Value,
}
QUANTIFIER_DOCS = {
    "count": "count(x in xs where c): how many items of xs meet c",
    "any": "any(x in xs where c): whether some item of xs meets c",
    "all": "all(x in xs where c): whether every item of xs meets c",
    "first": "first(x in xs where c): the first item of xs that meets c, or none",
    "filter": "filter(x in xs where c): the items of xs that meet c",
    "sum": "sum(e for x in xs where c): e added up over the items of xs",
    "max": "max(e for x in xs where c): the largest e over the items of xs",
    "min": "min(e for x in xs where c): the smallest e over the items of xs",
}
EXPRESSION_WORDS = (*CONSTANTS, *OPERATOR_WORDS, "player", "if", "then", "else", "where",
                    "for")
_PLAY_STRING = re.compile(r'^\s*play\b(?:\s*"[^"]*"\s*,)*\s*"([^"]*)$')
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Context:
    """Where the cursor is: the text of its line before it, and the document's path."""

    file: str
    line: int
    column: int
    before: str  # the line's text before the cursor


def complete(index: Index | None, ctx: Context) -> list[types.CompletionItem]:
    before = ctx.before
    play = _PLAY_STRING.match(before)
    if play is not None:
        return option_ids(index) if index is not None else []
    stripped = before.lstrip()
    word = _WORD.search(before)
    prefix_only = stripped == (word.group() if word else "")
    if prefix_only and not before[:1].isspace():
        return _phrases("declaration")
    items: list[types.CompletionItem] = []
    if prefix_only:
        items += _phrases("statement")
        if index is not None:
            items += [_item(s) for s in index.symbols.values() if s.kind == "rule"]
    if re.search(r"\broll\s+\w*$", before):
        # the dice and dice sets, and the local names in scope (a die that is a component,
        # or a list of dice, is rolled by the name that holds it: `roll d`)
        if index is None:
            return []
        return [_item(s) for s in index.symbols.values() if s.kind in ("die", "dice")] + \
            [_item(s) for s in index.locals_at(ctx.file, ctx.line, ctx.column)]
    items += _expression(index, ctx)
    return items


def _phrases(where: str) -> list[types.CompletionItem]:
    return [types.CompletionItem(label=p, kind=K.Keyword)
            for p in leading_phrases()[where]]


def _expression(index: Index | None, ctx: Context) -> list[types.CompletionItem]:
    items = [types.CompletionItem(label=w, kind=K.Keyword) for w in EXPRESSION_WORDS]
    for name, t in BUILTIN_NAMES.items():
        items.append(types.CompletionItem(label=name, kind=K.Variable, detail=show(t),
                                          documentation=BUILTIN_DOCS.get(name)))
    docs = {**{n: b.doc for n, b in BUILTINS.items()}, **LATTICE_DOCS, **TILE_DOCS,
            **{n: QUANTIFIER_DOCS[n] for n in builtin_words()}}
    for name, doc in sorted(docs.items()):
        items.append(types.CompletionItem(label=name, kind=K.Function,
                                          detail=doc.split(":")[0], documentation=doc))
    if index is None:
        return items
    for sym in index.symbols.values():
        if sym.kind not in ("cell", "rule"):
            items.append(_item(sym))
    seen = {s.name for s in index.symbols.values()}
    for (_, name), sym in index.fields.items():
        if name not in seen:
            seen.add(name)
            items.append(_item(sym))
    for sym in index.locals_at(ctx.file, ctx.line, ctx.column):
        items.append(_item(sym))
    return items


def _item(sym: Symbol) -> types.CompletionItem:
    detail = sym.kind
    if sym.kind == "enum value":
        detail = f"value of {sym.owner}"
    elif sym.kind == "field":
        detail = f"field of {sym.owner}"
    elif sym.kind in ("local", "parameter"):
        detail = f"{sym.kind} ({sym.how})"
    return types.CompletionItem(label=sym.name, kind=KINDS.get(sym.kind, K.Text),
                                detail=detail)


def option_ids(index: Index) -> list[types.CompletionItem]:
    """The ids a `play "..."` may choose: menu options, 'done', and the ids of the values a
    choice can offer (enum values, cells, players, components, die faces)."""
    out: dict[str, str] = {}
    for oid, syms in index.options.items():
        out[oid] = f"option of the menu at line {syms[0].decl.span.line}"
    out.setdefault("done", "declines a 'choose optional'")
    a = index.analysis
    if a is not None:
        display = Display(declare(a))
        for enum in a.enums.values():
            for v in enum.values:
                out.setdefault(v, f"value of {enum.name}")
        for p in range(a.max_players):
            out.setdefault(display.option_id(p, "player"), f"player {p + 1}")
        for name, die in a.dies.items():
            for face in dict.fromkeys(die.faces):
                out.setdefault(display.option_id(face, die.face_type), f"a roll of {name}")
        for kind in a.kinds.values():
            for i in range(kind.count):
                out.setdefault(display.option_id(i, ("comp", kind.name)), f"a {kind.name}")
        for cell, boards in a.cells.items():
            out.setdefault(cell, f"cell of {', '.join(boards)}")
    return [types.CompletionItem(label=oid, kind=K.Value, detail=detail)
            for oid, detail in out.items()]
