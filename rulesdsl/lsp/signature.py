"""Signature help: while the arguments of a call are typed, its parameters, the one being
typed marked.

Stage: editor support. The call is found in the text before the cursor (the last bracket
not yet closed, and the name before it), so it works on a line that does not parse yet.
Rules and definitions take their parameters from the index; built-ins from the checker's
table.
"""

from __future__ import annotations

import re

from lsprotocol import types

from ..check.analysis import LATTICE_DOCS
from ..check.tiles import TILE_DOCS
from ..check.types import BUILTINS
from .completion import QUANTIFIER_DOCS
from .symbols import Index

_CALLEE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*$")
_SIGNATURE = re.compile(r"^\w+\((.*?)\)")


def open_call(before: str) -> tuple[str, int] | None:
    """The name of the call whose arguments the cursor is in, and which argument (from 0)."""
    depth, commas = 0, 0
    in_string = False
    for i in range(len(before) - 1, -1, -1):
        ch = before[i]
        if ch == '"' and (i == 0 or before[i - 1] != "\\"):
            in_string = not in_string
        elif in_string:
            continue
        elif ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                if ch == "[":
                    return None
                name = _CALLEE.search(before[:i])
                return (name.group(1), commas) if name else None
            depth -= 1
        elif ch == "," and depth == 0:
            commas += 1
    return None


def signature(index: Index | None, before: str) -> types.SignatureHelp | None:
    found = open_call(before)
    if found is None:
        return None
    name, active = found
    doc = ""
    params: list[str] = []
    sym = index.symbols.get(name) if index is not None else None
    if sym is not None and sym.kind in ("rule", "definition"):
        params = [p.name for p in index.params.get(name, [])] if index is not None else []
        label = f"{name}({', '.join(params)})"
        doc = f"{'rule' if sym.kind == 'rule' else 'definition'} {name}"
    else:
        text = (BUILTINS[name].doc if name in BUILTINS else {**LATTICE_DOCS, **TILE_DOCS}.get(name)
                or QUANTIFIER_DOCS.get(name))
        if text is None:
            return None
        label, _, doc = text.partition(": ")
        m = _SIGNATURE.match(label)
        params = [p.strip() for p in m.group(1).split(",")] if m and m.group(1) else []
    return types.SignatureHelp(
        signatures=[types.SignatureInformation(
            label=label, documentation=doc or None,
            parameters=[types.ParameterInformation(label=p) for p in params])],
        active_signature=0, active_parameter=min(active, max(len(params) - 1, 0)))
