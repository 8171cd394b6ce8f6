"""Hover: what a name is (its declaration and type, a rule's parameters and doc comment), and
for a die or a roll its exact outcome distribution.

Stage: editor support. Reads the index (symbols.py), the checker's Analysis and the source
texts; the doc comment of a declaration is the comment lines right above it and a comment
at the end of its first line.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from .. import ast as A
from ..check.analysis import LATTICE_DOCS, Analysis
from ..check.tiles import TILE_DOCS
from ..check.types import BUILTIN_NAMES, BUILTINS, Type, show
from .symbols import Index, Occurrence, Symbol

BUILTIN_DOCS = {
    "current": "the player whose turn it is (in a `turns` block), or who last had one",
    "players": "every player, in seat order",
    "player_count": "how many players this game has",
    "winner": "the player who won, once the game is over",
    "winners": "the players in first place once the game is over (a team, or a tie)",
    "game_over": "whether the game has ended",
    "face": "`face of d`: the face die d shows",
    "piece": "`piece of c`: what cell c holds (none when it is empty)",
}
MOST_OUTCOMES = 40  # a longer distribution is summed up, not listed


def hover(index: Index, sources: dict[str, str], occ: Occurrence) -> str:
    """Markdown for the name at an occurrence."""
    sym = occ.symbol
    a = index.analysis
    parts = [_code(_declaration_text(sym, sources) or sym.name)]
    kind = sym.kind
    if kind in ("local", "parameter"):
        t = index.type_of(occ.node) if occ.node is not None else None
        where = f"{sym.how} {sym.owner}".strip() if kind == "parameter" else sym.how
        line = f"{kind} of `{where}`" if kind == "parameter" else f"local name, bound by `{where}`"
        if t is not None and t != "any":
            line += f": {show(t)}"
        parts = [_code(sym.name), line]
    elif kind == "builtin":
        t = BUILTIN_NAMES.get(sym.name)
        parts = [_code(sym.name), "built-in" + (f": {show(t)}" if t else ""),
                 BUILTIN_DOCS.get(sym.name, "")]
    elif kind == "function":
        doc = (BUILTINS[sym.name].doc if sym.name in BUILTINS
               else {**LATTICE_DOCS, **TILE_DOCS}[sym.name])
        parts = [_code(doc.split(":")[0]), "built-in function: " + doc]
    elif kind == "enum value":
        parts.append(f"value of enum `{sym.owner}`")
    elif kind == "field":
        t = a.kinds[sym.owner].types.get(sym.name) if a and sym.owner in a.kinds else None
        parts.append(f"field of kind `{sym.owner}`" + (f": {show(t)}" if t else ""))
    elif kind == "cell":
        parts = [_code(sym.name), f"cell of board `{sym.owner}`"]
    elif kind == "option":
        parts = [_code(f"option {sym.name}"),
                 f"an option of the menu at line {sym.decl.span.line}"]
    elif a is not None:
        parts += _about(sym, a, index)
    doc = doc_comment(sym, sources)
    if doc:
        parts.append(doc)
    return "\n\n".join(p for p in parts if p)


def _about(sym: Symbol, a: Analysis, index: Index) -> list[str]:
    """What the checker learnt about a declaration."""
    name = sym.name
    if sym.kind in ("constant", "setting") and name in a.values:
        t = _type(index, sym, a.values[name])
        return [f"{sym.kind}: {show(t)}, value `{_value(a, a.values[name], t)}`"]
    if sym.kind == "counter" and name in a.counters:
        info = a.counters[name]
        per = " per ".join(d[1] for d in info.dims)
        return [f"counter of {show(info.type)}" + (f", one per {per}" if per else "")
                + (", secret" if info.secret else "")]
    if sym.kind == "rule":
        return [_parameters(sym, index)]
    if sym.kind == "definition":
        results = {show(i.result) for i in a.define_instances if i.name == name}
        return [_parameters(sym, index),
                f"gives {' or '.join(sorted(results))}" if results else ""]
    if sym.kind == "die" and name in a.dies:
        return [distribution(a, name)]
    if sym.kind == "dice" and name in a.dice:
        dice = a.dice[name]
        seen = {"owner": ", seen by their player only", "hidden": ", seen by nobody"}.get(
            dice.visibility, "")
        if dice.per_seat:
            return [f"{dice.per_seat} dice of `{dice.die}` per player{seen}, each:",
                    distribution(a, dice.die, dice.per_seat)]
        return [f"{dice.count} dice of `{dice.die}`{seen}, each:",
                distribution(a, dice.die, dice.count)]
    if sym.kind == "kind" and name in a.kinds:
        return [f"{a.kinds[name].count} components"]
    if sym.kind == "board" and name in a.boards:
        return [f"{len(a.boards[name].names)} cells"]
    if sym.kind == "enum" and name in a.enums:
        return [", ".join(f"`{v}`" for v in a.enums[name].values)]
    if sym.kind == "zone" and name in a.zones:
        z = a.zones[name]
        return [f"zone of {z.kind}" + (", one per player" if z.per_player else "")
                + f", {z.visibility}"]
    return []


def _type(index: Index, sym: Symbol, value: Any) -> Type:
    """A constant's type, as the checker saw it where it is used (enum values are kept as
    numbers: their uses tell), else from its value."""
    for occ in index.references(sym):
        if occ.node is not None and index.type_of(occ.node) != "any":
            return index.type_of(occ.node)
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "text" if isinstance(value, str) else "any"


def _parameters(sym: Symbol, index: Index) -> str:
    """A rule's or definition's parameters, with the types it is called with."""
    params = index.params.get(sym.name, [])
    if not params:
        return ""
    types: list[set[str]] = [set() for _ in params]
    for occ in index.references(sym):
        args = getattr(occ.node, "args", None)
        if isinstance(occ.node, (A.CallRule, A.Call)) and args is not None:
            for i, arg in enumerate(args[:len(params)]):
                t: Type = index.type_of(arg)
                if t != "any":
                    types[i].add(show(t))
    lines = []
    for p, ts in zip(params, types):
        lines.append(f"- `{p.name}`" + (f": {' or '.join(sorted(ts))}" if ts else ""))
    return "parameters:\n" + "\n".join(lines)


def distribution(a: Analysis, die: str, count: int = 1) -> str:
    """The exact chances of a die's faces, and of the sum of `count` such dice."""
    info = a.dies[die]
    chances = {face: Fraction(n, len(info.faces)) for face, n in Counter(info.faces).items()}
    out = ["| face | chance |", "|---|---|"]
    for face, p in chances.items():
        out.append(f"| {_face(a, info.face_type, face)} | {_chance(p)} |")
    if info.face_type == "int":
        mean = sum(f * p for f, p in chances.items())
        out.append(f"\nmean {_number(mean)}")
        if count > 1:
            total: dict[int, Fraction] = {0: Fraction(1)}
            for _ in range(count):
                step: dict[int, Fraction] = {}
                for s, p in total.items():
                    for f, q in chances.items():
                        step[s + f] = step.get(s + f, Fraction(0)) + p * q
                total = step
            out.append(f"\nthe sum of {count} dice (mean {_number(mean * count)}):\n")
            out.append("| sum | chance |\n|---|---|")
            rows = sorted(total.items())
            if len(rows) > MOST_OUTCOMES:
                out.append(f"| {rows[0][0]} to {rows[-1][0]} | {len(rows)} sums |")
            else:
                out += [f"| {s} | {_chance(p)} |" for s, p in rows]
    return "\n".join(out)


def roll_at(index: Index, file: str, line: int, column: int) -> tuple[str, int] | None:
    """The die (and how many dice) a `roll` written at a place rolls."""
    a = index.analysis
    if a is None:
        return None
    for occ in index.occurrences:
        node = occ.node
        if node is None or occ.span.file != file or occ.span.line != line:
            continue
        word_end = occ.span.column - 1  # 'roll' ends just before the die's name
        if not word_end - 6 <= column <= word_end:
            continue
        if occ.symbol.kind == "die" and occ.symbol.name in a.dies:
            return occ.symbol.name, 1
        if occ.symbol.kind == "dice" and occ.symbol.name in a.dice:
            dice = a.dice[occ.symbol.name]
            return dice.die, dice.per_seat or dice.count
    return None


def component_roll_at(index: Index, file: str, line: int, column: int) -> str | None:
    """What a `roll` of a die that is a component (`roll d`, d of a kind with faces)
    rolls: each component its own faces, so the chances of each set of faces, with the
    components that carry it."""
    a = index.analysis
    if a is None:
        return None
    for occ in index.occurrences:
        node = occ.node
        if node is None or occ.span.file != file or occ.span.line != line:
            continue
        if not occ.span.column - 7 <= column <= occ.span.column - 1:
            continue
        t = a.type_of(node)
        if not (isinstance(t, tuple) and t[0] == "comp" and t[1] in a.kinds
                and "faces" in a.kinds[t[1]].fields):
            continue
        kind = a.kinds[t[1]]
        faces = kind.columns["faces"]
        label = kind.columns.get("name") or kind.columns[kind.fields[0]]
        groups: dict[tuple, list[str]] = {}
        for i, f in enumerate(faces):
            groups.setdefault(tuple(f), []).append(_face(a, kind.types.get(kind.fields[0],
                                                                           "int"), label[i]))
        face_type = kind.types.get("faces")
        inner = face_type[1] if isinstance(face_type, tuple) else "int"
        out = [f"roll a {kind.name}: each rolls its own faces"]
        for fs, who in groups.items():
            names = ", ".join(dict.fromkeys(who))
            chances = {f: Fraction(n, len(fs)) for f, n in Counter(fs).items()}
            out.append(f"\n**{names}**\n\n| face | chance |\n|---|---|")
            out += [f"| {_face(a, inner, f)} | {_chance(p)} |" for f, p in chances.items()]
        return "\n".join(out)
    return None


def _face(a: Analysis, t: Type, face: Any) -> str:
    if isinstance(t, tuple) and t[0] == "enum" and t[1] in a.enums:
        return a.enums[t[1]].labels[face]
    return str(face)


def _chance(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ({float(p):.2%})" if p != 1 else "1 (certain)"


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x} ({float(x):.3g})"


def _value(a: Analysis, v: Any, t: Type) -> str:
    """A constant's value as the rule file writes it (an enum value by its name)."""
    if isinstance(v, list):
        item = t[1] if isinstance(t, tuple) and t[0] == "list" else "any"
        return "[" + ", ".join(_value(a, x, item) for x in v) + "]"
    if isinstance(t, tuple) and t[0] == "enum" and t[1] in a.enums and isinstance(v, int):
        return a.enums[t[1]].values[v]
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    return f'"{v}"' if isinstance(v, str) else str(v)


def _code(text: str) -> str:
    return f"```rules\n{text}\n```"


def _declaration_text(sym: Symbol, sources: dict[str, str]) -> str:
    """The first line of a declaration (from its name's line: after `replace`)."""
    decl = sym.decl
    if decl is None or not isinstance(decl, A.Node):
        return ""
    lines = sources.get(decl.span.file, "").split("\n")
    first = decl.span.line
    if not 1 <= first <= len(lines):
        return ""
    text = lines[first - 1][decl.span.column - 1:].split("#")[0].rstrip()
    if isinstance(decl, A.DefineDecl) and text.endswith("("):
        more = lines[first:decl.span.end_line]
        text = "\n".join([text, *(m.rstrip() for m in more if m.strip()
                                   and not m.lstrip().startswith("#"))])
    return text


def doc_comment(sym: Symbol, sources: dict[str, str]) -> str:
    """The comment lines right above a declaration, and the comment ending its first line."""
    decl = sym.decl
    if sym.kind in ("local", "builtin", "function", "cell", "option") or decl is None:
        return ""
    if sym.kind in ("enum value", "field") and sym.span is not None:
        lines = sources.get(sym.span.file, "").split("\n")
        line = lines[sym.span.line - 1] if sym.span.line <= len(lines) else ""
        return _trailing(line) if sym.kind == "enum value" else ""
    lines = sources.get(decl.span.file, "").split("\n")
    n = decl.span.line - 1
    if not 0 <= n < len(lines):
        return ""
    above = []
    i = n - 1
    while i >= 0 and lines[i].startswith("#"):
        text = lines[i][1:].strip()
        if text.startswith("---"):  # a section's heading: the documentation ends above it
            break
        above.append(text)
        i -= 1
    text = " ".join(reversed(above))
    trailing = _trailing(lines[n])
    return "\n\n".join(t for t in (text, trailing) if t)


def _trailing(line: str) -> str:
    """The comment at the end of a line (a '#' outside a string)."""
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[i + 1:].strip()
    return ""
