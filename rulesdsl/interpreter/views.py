"""Per-seat views: what one player may see of a game, as plain JSON data.

Stage: run. A view shows values as people read them: numbers and yes/no as they are,
players, cells, enum values and components by their names ("player 2", "b3", "Rune",
"Fire Trilithon"), nothing as None. What the rule file hides stays hidden (see
`visibility.py`): a secret counter shows "?" to everyone but its own player (a shared
one to everyone); a zone the viewer cannot see shows only its size; a component the
viewer cannot see is not listed, nor are its counters. Boards are public; a die the
viewer cannot see (of a set declared `owner` or `hidden`, not revealed) shows "?". The
pending decision's options are shown to the player who decides; the others see who
decides (and, in a simultaneous step, every seat still to choose; for the answer to an
offer, who made it). The log holds the lines the viewer was told.

Zones name their components by id (the ids options use, "fire-trilithon-3");
`components[kind][id]` gives each component the viewer may see: its label and the counters
kept per component.
"""

from __future__ import annotations

from typing import Any

from ..boards.territory import TerritoryBoard, TurnBoard, turns_name
from ..declarations import CounterInfo
from ..program.declared import Declared
from ..program.display import Display
from ..program.layout import Layout
from ..valuetypes import Type
from .drawing import territory_view
from .public import Decision, Result
from .state import State
from .visibility import dice_unseen, row_seen, unseen_components, zone_seen
from .words import Words

HIDDEN = "?"


def shown(disp: Display, value: Any, t: Type) -> Any:
    """A value as a view shows it: plain numbers, yes/no and none stay JSON values."""
    if value is None or (isinstance(value, (int, bool)) and not isinstance(t, tuple)
                         and t != "player"):
        return value
    return disp.show(value, t)


def screen(a: Declared, disp: Display) -> dict[str, Any]:
    """How a screen shows the game, from its `display:` blocks, as plain data to read beside
    a view: the counters and zones it does not draw (`hidden`), what it calls some
    (`labels`), the titled `groups` it draws together, the `glyphs` of pieces (per kind, by
    component id; per enum, by the value as views show it) and, per kind, the counter that
    holds a piece's `owner`; the boards whose pieces are their `placers`'; the zones
    drawn as `rings`, each with the counter that places its components and the places
    round the ring, clockwise from the top."""
    d = a.display
    glyphs: dict[str, dict[str, str]] = {}
    for name, marks in d.glyphs.items():
        if name in a.kinds:
            ids = disp.components[name][0]
            glyphs[name] = {ids[c]: g for c, g in enumerate(marks) if g}
        else:
            labels = a.enums[name].labels
            glyphs[name] = {labels[v]: g for v, g in enumerate(marks) if g}
    return {"hidden": list(d.hidden), "labels": dict(d.labels),
            "groups": [[title, list(names)] for title, names in d.groups],
            "glyphs": glyphs, "owners": dict(d.owners), "placers": list(d.placers),
            "cells": dict(d.cells),
            "names": dict(d.names),
            "seats": {"marks": list(d.seat_marks), "colours": list(d.seat_colours)},
            "features": {kind: [[glyph, word] for _, glyph, word in fs]
                         for kind, fs in d.features.items()},
            "marks": {board: [[[a.boards[board].names[c] for c in cells], glyph, word]
                              for cells, glyph, word in ms]
                      for board, ms in d.marks.items()},
            "rings": {zone: {"by": by, "places": list(a.enums[_enum_of(a, by)].labels)}
                      for zone, by in d.rings.items()}}


def _enum_of(a: Declared, counter: str) -> str:
    """The enum whose values a counter holds (the checker made sure it holds one)."""
    t = a.counters[counter].type
    assert isinstance(t, tuple)
    return str(t[1])


def per_component(info: CounterInfo) -> str | None:
    """The kind a counter is kept per, when that is its only key."""
    if len(info.dims) == 1 and info.dims[0][0] == "kind":
        return info.dims[0][1]
    return None


def view(st: State, a: Declared, layout: Layout, disp: Display, seat: int | None,
         decision: Decision | None, result: Result | None, log: list[str],
         words: Words | None = None, asked: str = "",
         placed: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """What `seat` sees, in the words of the rules' display (`words`: option labels and
    components as the screen names them, the question the decision asks; `placed`: who
    placed the pieces of the boards the display gives to their placers, placing.py)."""
    words = words if words is not None else Words(a, disp, [])
    unseen = unseen_components(a, layout, st, seat)
    out: dict[str, Any] = {
        "game": a.game_name,
        "viewer": seat,
        "players": st.np,
        "current": st.v[0],
        "counters": _counters(st, a, layout, disp, seat, unseen),
        # the table's layout: counters that belong to nobody, and the headings of the keys
        # after the player of a counter kept per player and per something else
        "shared": [n for n, info in a.counters.items() if not info.stat
                   and per_component(info) is None and not any(
                       d[0] == "player" for d in info.dims)],
        "headings": {n: [_keys(a, words, d) for d in info.dims[1:]]
                     for n, info in a.counters.items() if not info.stat and
                     len(info.dims) > 1 and info.dims[0][0] == "player"},
        "boards": _boards(st, a, layout, disp),
        **({"placed": placed or {}} if a.display.placers else {}),
        "dice": _dice(st, a, layout, disp, seat),
        "zones": _zones(st, a, layout, disp, seat),
        "components": _components(st, a, layout, disp, unseen, words),
    }
    if decision is not None:
        out["decision"] = {"player": decision.player}
        if decision.simultaneous:  # a simultaneous step: who has still to choose in it
            out["decision"]["simultaneous"] = list(decision.simultaneous)
        if decision.offered_by is not None:
            out["decision"]["offered_by"] = decision.offered_by
        if decision.player == seat:
            out["decision"]["options"] = [[o.id, words.say(o.label)]
                                          for o in decision.options]
            out["decision"]["prompt"] = asked or ("Your secret choice" if decision.secret
                                                  else "Your choice")
    out["log"] = log
    if result is not None:
        out["result"] = {"ranking": result.ranking, "scores": result.scores,
                         "ended_by": result.ended_by,
                         **({"why": result.why} if result.why else {})}
    return out


def _keys(a: Declared, words: Words, dim: tuple[str, str, int, int]) -> list[str]:
    """The headings of one key of a counter: an enum's values, the components of a kind
    as the screen calls them, numbers."""
    kind, name, size, low = dim
    if kind == "enum":
        return list(a.enums[name].labels)
    if kind == "kind":
        return [words.component(name, c) for c in range(size)]
    if kind == "player":
        return [f"player {p + 1}" for p in range(size)]
    return [str(low + k) for k in range(size)]


def _counters(st: State, a: Declared, layout: Layout, disp: Display, seat: int | None,
              unseen: dict[str, set[int]]) -> dict[str, Any]:
    """Every counter but those kept per component (shown with their components). A counter
    per player is a list by seat; other keys make a flat list (in key order)."""
    out: dict[str, Any] = {}
    for name, info in a.counters.items():
        if per_component(info) is not None or info.stat:  # a statistic is not the game's
            continue
        base = layout.counter[name]
        values = st.v[base:base + info.size]
        if not info.dims:
            out[name] = HIDDEN if info.secret else shown(disp, values[0], info.type)
            continue
        hide = _unseen_keys(info, unseen)
        if info.dims[0][0] != "player":
            out[name] = [HIDDEN if info.secret or j in hide else shown(disp, x, info.type)
                         for j, x in enumerate(values)]
            continue
        per = info.size // info.dims[0][2]
        rows = []
        for p in range(st.np):
            row = [HIDDEN if not row_seen(info, p, seat) or j in hide
                   else shown(disp, x, info.type)
                   for j, x in enumerate(values[p * per:(p + 1) * per])]
            rows.append(row[0] if per == 1 else row)
        out[name] = rows
    return out


def _unseen_keys(info: CounterInfo, unseen: dict[str, set[int]]) -> set[int]:
    """Positions (within a player's row, or the whole list) that belong to a component the
    viewer cannot see, for a counter with a kind among several keys."""
    dims = info.dims[1:] if info.dims[0][0] == "player" else info.dims
    size = 1
    for d in dims:
        size *= d[2]
    hide: set[int] = set()
    stride = size
    for kind, name, n, _ in dims:
        stride //= n
        if kind == "kind" and unseen.get(name):
            hide.update(j for j in range(size) if (j // stride) % n in unseen[name])
    return hide


def _dice(st: State, a: Declared, layout: Layout, disp: Display,
          seat: int | None) -> dict[str, Any]:
    """Each set's faces ("?" for a die the seat cannot see); a set per player as a list
    by seat."""
    unseen = dice_unseen(a, layout, st, seat)
    out: dict[str, Any] = {}
    for name, d in a.dice.items():
        base, hidden = layout.dice[name], set(unseen.get(name, ()))
        count = d.per_seat * st.np if d.per_seat else d.count
        faces = ["?" if k in hidden else shown(disp, st.v[base + k], a.dies[d.die].face_type)
                 for k in range(count)]
        out[name] = [faces[p * d.per_seat:(p + 1) * d.per_seat]
                     for p in range(st.np)] if d.per_seat else faces
    return out


def _boards(st: State, a: Declared, layout: Layout, disp: Display) -> dict[str, Any]:
    """Each board's pieces by cell name: a component by its id (as in zones), anything
    else as shown; a board that does not say what it holds shows the raw value."""
    out = {}
    for name, board in a.boards.items():
        if isinstance(board, TurnBoard):
            continue   # shown with its territory
        if isinstance(board, TerritoryBoard):
            out[name] = territory_view(board, st.b[layout.board[name]],
                                       st.b[layout.board[turns_name(name)]],
                                       disp.components[board.kind][0], st.np)
            continue
        cells = st.b[layout.board[name]]
        holds = a.holding.get(name)
        ids = disp.components[holds[1]][0] if isinstance(holds, tuple) and \
            holds[0] == "comp" else None
        out[name] = {board.names[c]: (ids[piece] if ids is not None else
                                      disp.show(piece, holds) if holds is not None else piece)
                     for c, piece in enumerate(cells) if piece is not None}
    return out


def _zones(st: State, a: Declared, layout: Layout, disp: Display,
           seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, zone in a.zones.items():
        ids = disp.components[zone.kind][0]
        owners: list[int | None] = list(range(st.np)) if zone.per_player else [None]
        listed: list[Any] = []
        for owner in owners:
            items = st.z[layout.zone[name] + (owner or 0)]
            listed.append([ids[c] for c in items] if zone_seen(zone, owner, seat)
                          else {"size": len(items)})
        out[name] = listed if zone.per_player else listed[0]
    return out


def _components(st: State, a: Declared, layout: Layout, disp: Display,
                unseen: dict[str, set[int]], words: Words) -> dict[str, Any]:
    """Each component the viewer may see: its label and its counters (not the secret
    ones: a secret counter kept per component is nobody's)."""
    kept: dict[str, list[CounterInfo]] = {}
    for info in a.counters.values():
        kind = per_component(info)
        if kind is not None and not info.secret:
            kept.setdefault(kind, []).append(info)
    out: dict[str, Any] = {}
    for kind, components in a.kinds.items():
        ids = disp.components[kind][0]
        hidden = unseen.get(kind, set())
        counters = kept.get(kind, [])
        features = a.display.features.get(kind, [])
        out[kind] = {ids[c]: {"label": words.component(kind, c),
                              **({"features": {word: components.columns[f][c]
                                               for f, _, word in features
                                               if components.columns[f][c]}}
                                 if features else {}),
                              "counters": {k.name: shown(disp, st.v[layout.counter[k.name]
                                                                     + c], k.type)
                                           for k in counters}}
                     for c in range(components.count) if c not in hidden}
    return out
