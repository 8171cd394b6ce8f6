"""Go to definition, find references, highlight and rename.

Stage: editor support. A variant is indexed merged with its bases, so a name used in the
variant leads to its declaration in the base, and the references of a base's name include
its uses in the variant. Rename changes one file: it is refused for a name declared in
another file, or used in another file of the chain or in a variant that extends this one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Span
from ..grammar.lexical import keywords
from .symbols import Index, Occurrence, Symbol
from .workspace import norm

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
RENAMEABLE = ("constant", "setting", "counter", "board", "enum", "enum value", "die", "dice",
              "definition", "rule", "kind", "field", "zone", "local", "parameter", "option")


class RenameError(Exception):
    """Why a rename cannot be done, for the editor to show."""


@dataclass
class Edit:
    span: Span
    text: str


def group(index: Index, sym: Symbol) -> list[Symbol]:
    """The symbols that are one name: the options of that id in every menu, else itself."""
    if sym.kind == "option":
        return index.options.get(sym.name, [sym])
    return [sym]


def definitions(index: Index, occ: Occurrence) -> list[Span]:
    """Where the name at `occ` is declared: its declaration, and in a variant the base's
    declaration it replaces too. Asked on a declaration (`replace define f ...`), the other
    declarations: the base's."""
    spans: list[Span] = []
    for sym in group(index, occ.symbol):
        found = [sym.span] if sym.span is not None else []
        found += [o.span for o in index.references(sym) if o.declaration]
        for span in found:
            if span not in spans:
                spans.append(span)
    others = [s for s in spans if not (occ.declaration and s == occ.span)]
    return others or spans


def references(index: Index, occ: Occurrence, with_declaration: bool = True) -> list[Occurrence]:
    """Every place of the name, once each (a `play "roll"` names every menu's 'roll')."""
    out: dict[tuple[str, int, int], Occurrence] = {}
    for sym in group(index, occ.symbol):
        for o in index.references(sym):
            if with_declaration or not o.declaration:
                out.setdefault((o.span.file, o.span.line, o.span.column), o)
    return [out[k] for k in sorted(out)]


def rename(index: Index, occ: Occurrence, new: str, file: str,
           variants: dict[str, str]) -> list[Edit]:
    """The edits that rename the name at `occ` in `file`, or a RenameError. `variants` are
    the texts of the files that extend this one (by path)."""
    sym = occ.symbol
    if sym.kind not in RENAMEABLE:
        raise RenameError(f"'{sym.name}' is built in: it cannot be renamed")
    if not NAME.match(new) or new in keywords():
        raise RenameError(f"'{new}' is not a name: a name is letters, digits and '_', "
                          "and not a keyword")
    if sym.kind != "option" and new in index.symbols and index.symbols[new] is not sym:
        raise RenameError(f"'{new}' is already declared ({index.symbols[new].kind})")
    occs = references(index, occ)
    elsewhere = sorted({Path(o.span.file).name for o in occs if norm(o.span.file) != norm(file)})
    if elsewhere:
        raise RenameError(f"'{sym.name}' is also declared or used in {', '.join(elsewhere)}: "
                          "rename changes one file")
    if sym.is_global:
        word = re.compile(rf"\b{re.escape(sym.name)}\b")
        users = sorted(Path(p).name for p, text in variants.items() if word.search(text))
        if users:
            raise RenameError(f"'{sym.name}' is used by {', '.join(users)}, which extends this "
                              "file: rename changes one file")
    edits = []
    for o in occs:
        span = o.span
        if span.end_column - span.column == len(sym.name) + 2:  # a quoted option id
            span = span.model_copy(update={"column": span.column + 1,
                                           "end_column": span.end_column - 1})
        edits.append(Edit(span, new))
    return edits
