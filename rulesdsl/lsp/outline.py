"""The outline of a document: its declarations (rules, constants, zones, examples...) with
their parts (an enum's values, a kind's fields, a menu's options), and folding ranges.

Stage: editor support. Only the document's own declarations are listed: for a variant,
what it adds, replaces and removes.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from .. import ast as A
from ..diagnostics import Span
from .positions import Places

S = types.SymbolKind
KINDS: dict[type, tuple[str, types.SymbolKind]] = {
    A.ConstDecl: ("const", S.Constant), A.SettingDecl: ("setting", S.Constant),
    A.CounterDecl: ("counter", S.Variable), A.BoardDecl: ("board", S.Struct),
    A.EnumDecl: ("enum", S.Enum), A.DieDecl: ("die", S.Object), A.DiceDecl: ("dice", S.Array),
    A.DefineDecl: ("define", S.Function), A.RuleDecl: ("rule", S.Function),
    A.KindDecl: ("kind", S.Class), A.ZoneDecl: ("zone", S.Array),
    A.ExampleDecl: ("example", S.Event), A.SetupDecl: ("setup", S.Module),
    A.PlayDecl: ("play", S.Module), A.RankDecl: ("rank", S.Operator),
    A.HeuristicDecl: ("heuristic", S.Operator), A.PayoffDecl: ("payoff", S.Operator),
    A.TriggerDecl: ("as soon as", S.Event), A.GameDecl: ("game", S.File),
    A.PlayersDecl: ("players", S.Number), A.DisplayDecl: ("display", S.Module),
    A.TeamsDecl: ("teams", S.Number), A.LimitDecl: ("limit", S.Number),
    A.StatDecl: ("stat", S.Variable),
}


def outline(file: A.RulesFile, places: Places) -> list[types.DocumentSymbol]:
    out = []
    for item in file.items:
        sym = _symbol(item, places)
        if sym is not None:
            out.append(sym)
    return out


def _symbol(item: Any, places: Places) -> types.DocumentSymbol | None:
    detail = ""
    if isinstance(item, A.Replace):
        item, detail = item.decl, "replaces the base's"
    if isinstance(item, A.Extends):
        written = f'extends game "{item.path}"' if item.game else f'extends "{item.path}"'
        return _make(written, S.Module, item.span, item.span, places)
    if isinstance(item, A.Remove):
        what = f"{item.what} {item.name or ''}".strip()
        return _make(f"remove {what}", S.Null, item.span, item.span, places)
    if isinstance(item, A.Change):
        changed = f'"{item.name}"' if item.what == "example" else item.name or ""
        return _make(f"change {item.what} {changed}".strip(), S.Event, item.span, item.span,
                     places, "edits the base's")
    word, kind = KINDS[type(item)]
    name = getattr(item, "name", None)
    if isinstance(item, A.TriggerDecl):
        name = item.var
    if isinstance(item, A.ExampleDecl):
        name = f'"{item.name}"'
    if isinstance(item, A.TeamsDecl):
        name = f"of {item.size}"
    if isinstance(item, A.LimitDecl):
        name = f"{item.decisions} decisions"
    if isinstance(item, (A.GameDecl, A.PlayersDecl)):
        name = f'"{item.name}"' if isinstance(item, A.GameDecl) else (
            str(item.low) if item.low == item.high else f"{item.low} to {item.high}")
    label = f"{word} {name}" if name is not None and word not in ("rule", "define") else \
        str(name or word)
    if isinstance(item, (A.RuleDecl, A.DefineDecl)):
        label = f"{name}({', '.join(item.params)})"
        detail = " ".join(x for x in (word, detail) if x)
    sym = _make(label, kind, item.span, getattr(item, "name_span", None) or item.span, places,
                detail)
    parts: list[types.DocumentSymbol] = []
    if isinstance(item, A.EnumDecl):
        parts = [_make(v.name, S.EnumMember, v.span, v.name_span or v.span, places)
                 for v in item.values]
    elif isinstance(item, A.KindDecl):
        parts = [_make(f, S.Field, s, s, places) for f, s in zip(item.fields, item.field_spans)]
    else:
        parts = [_make(f"option {o.id}", S.EnumMember, o.span, o.name_span or o.span, places)
                 for o in _options(item)]
    sym.children = parts or None
    return sym


def _options(node: Any) -> list[A.MenuOption]:
    out = []
    for child in A.child_nodes(node):
        if isinstance(child, A.MenuOption):
            out.append(child)
        out += _options(child)
    return out


def _make(name: str, kind: types.SymbolKind, whole: Span, selection: Span, places: Places,
          detail: str = "") -> types.DocumentSymbol:
    full = places.range(_trimmed(whole, places))
    sel = places.range(selection)
    if (sel.start.line, sel.start.character) < (full.start.line, full.start.character) or \
            (sel.end.line, sel.end.character) > (full.end.line, full.end.character):
        sel = full
    return types.DocumentSymbol(name=name, kind=kind, range=full, selection_range=sel,
                                detail=detail or None)


def _trimmed(span: Span, places: Places) -> Span:
    """A declaration's span without the blank and comment lines it runs on to."""
    lines = places.lines.get(span.file, [])
    end = span.end_line
    if span.end_column == 1 and end > span.line:
        end -= 1
        while end > span.line and (not lines[end - 1].strip()
                                   or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        return span.model_copy(update={"end_line": end,
                                        "end_column": len(lines[end - 1]) + 1})
    return span


def folding(file: A.RulesFile, places: Places) -> list[types.FoldingRange]:
    """A fold for each declaration of several lines, and for each block inside one."""
    out = []
    for item in file.items:
        for node in [item, *_blocks(item)]:
            span = _trimmed(node.span, places)
            if span.end_line > span.line and span.file == file.path:
                out.append(types.FoldingRange(start_line=span.line - 1,
                                              end_line=span.end_line - 1))
    return out


def _blocks(node: Any) -> list[Any]:
    out = []
    for child in A.child_nodes(node):
        if hasattr(child, "body") or isinstance(child, (A.If, A.ChooseMenu)):
            out.append(child)
            out += _blocks(child)
    return out
