"""A seat's view as a vector of numbers of a fixed length, for learning agents.

Stage: tools over the Python API. The tensor is made from `Game.view(seat)` alone (the
JSON a seat is shown), laid out from the rule file's declarations, so it can hold nothing
the view hides. Its parts, in order, each a flat block of float32:

- `viewer`, `current`, `decider`: one-hot over the seats (all zero when nobody);
  `over`: 1 once the game has ended;
- `counter <name>`: each value the counter holds (kept per component: see components):
  a number as itself, yes/no as 1/0, a player, an enum value, a component, a cell or a
  die one-hot over what it can be; a secret counter adds a 1 per value the view shows;
  counters holding lists or text are left to the observation string;
- `board <name>`: per cell, one-hot over what may stand there (a board that does not say
  what it holds: over the seats, and one more for anything else); `territory <name>`:
  per seat and cell, 1 if a tile lies there, the tile's number, its turn one-hot;
- `dice <name>`: per die, one-hot over its die's faces;
- `zone <name>` (per player: one block per seat): 1 if the viewer sees its components,
  its size, then a 1 for each component of its kind it holds, when seen;
- `components <kind>`: per component, 1 if the viewer sees it, then its counters.

The order of a zone (which card is on top) is not in the tensor; the observation string
has it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..boards.territory import TerritoryBoard
from ..interpreter.game import Rules
from ..interpreter.public import CounterShape
from ..interpreter.views import HIDDEN

Writer = Callable[[Any, np.ndarray, int], None]


class ViewTensor:
    """The layout of one rule file's tensor for a number of players."""

    def __init__(self, rules: Rules, players: int):
        self.rules = rules
        self.players = players
        self.parts: list[tuple[str, int]] = []
        self._fill: list[tuple[int, Callable[[dict[str, Any], np.ndarray, int], None]]] = []
        seats = _places(f"player {p + 1}" for p in range(players))
        self._add("viewer", players, partial(_seat, "viewer"))
        self._add("current", players, partial(_seat, "current"))
        self._add("decider", players, _decider)
        self._add("over", 1, _over)
        kinds = rules.kinds
        kept: dict[str, list[tuple[str, CounterShape]]] = {}
        for name, counter in rules.counters.items():
            if len(counter.keys) == 1 and counter.keys[0] in kinds:
                if not counter.secret:
                    kept.setdefault(counter.keys[0], []).append((name, counter))
                continue
            self._counter(name, counter)
        for name, shape in rules.boards.items():
            size, write = self._board_cell(shape.holding, seats)
            if isinstance(shape.geometry, TerritoryBoard):
                # per seat, per cell: 1 if a tile lies there, the tile's number (its place
                # among the components, from 1), then its turn (four places): a compact
                # board, where one place per tile would make tens of thousands
                board = shape.geometry
                cells = _places(board.names[:board.cells_per_seat])
                tiles = _places(rules.components(shape.holding)) \
                    if shape.holding in kinds else {}
                self._add(f"territory {name}", board.seats * len(cells) * 6,
                          partial(_territory, name, cells, tiles))
                continue
            cells = _places(shape.geometry.names)
            self._add(f"board {name}", size * len(cells),
                      partial(_board, name, cells, size, write))
        for name, dice in rules.dice.items():
            faces = _places(dice.faces)
            self._add(f"dice {name}", dice.count * len(faces), partial(_dice, name, faces))
        for name, zone in rules.zones.items():
            ids = _places(rules.components(zone.kind))
            owners = players if zone.per_player else 1
            self._add(f"zone {name}", owners * (2 + len(ids)),
                      partial(_zones, name, ids, zone.per_player))
        for kind in kinds:
            ids = _places(rules.components(kind))
            counters = [(name, *self._value(c.type)) for name, c in kept.get(kind, [])]
            width = 1 + sum(size for _, size, _ in counters)
            self._add(f"components {kind}", len(ids) * width,
                      partial(_components, kind, ids, counters, width))
        self.size = sum(size for _, size in self.parts)

    def _add(self, name: str, size: int,
             fill: Callable[[dict[str, Any], np.ndarray, int], None]) -> None:
        offset = sum(s for _, s in self.parts)
        self.parts.append((name, size))
        self._fill.append((offset, fill))

    def _counter(self, name: str, counter: CounterShape) -> None:
        size, write = self._value(counter.type)
        if size == 0:
            return
        slots = 1
        for key in counter.keys:
            slots *= self._key_count(key)
        secret = counter.secret
        width = size + secret  # a secret value says whether the viewer sees it

        def fill(v: dict[str, Any], t: np.ndarray, o: int) -> None:
            for k, x in enumerate(_flat(v["counters"][name])[:slots]):
                at = o + k * width
                if x != HIDDEN:
                    write(x, t, at)
                    if secret:
                        t[at + size] = 1.0
        self._add(f"counter {name}", slots * width, fill)

    def _key_count(self, key: str) -> int:
        """How many values a counter's key has: seats, dice of a set, components of a
        kind, or values of an enum."""
        rules = self.rules
        if key == "player":
            return self.players
        if key in rules.dice:
            return rules.dice[key].count
        if key in rules.kinds:
            return len(rules.components(key))
        return len(rules.enum(key))

    def _value(self, t: Any) -> tuple[int, Writer]:
        """How a value of type t is written: its width and a writer."""
        domain = self._domain(t)
        if domain is not None:
            return len(domain), lambda x, tt, oo: _one_hot_of(tt, oo, domain, x)
        if t in ("int", "bool"):
            return 1, _number
        return 0, lambda x, tt, oo: None

    def _domain(self, t: Any) -> dict[str, int] | None:
        """What a value of type t can be shown as, when that is a fixed list."""
        disp = self.rules.program.display
        if t == "player":
            return _places(f"player {p + 1}" for p in range(self.players))
        if isinstance(t, tuple) and t[0] in ("cell", "enum", "comp", "die"):
            n = {"cell": lambda: len(disp.boards[t[1]]),
                 "enum": lambda: len(disp.enums[t[1]][0]),
                 "comp": lambda: len(disp.components[t[1]][0]),
                 "die": lambda: self.rules.dice[t[1]].count}[t[0]]()
            return _places(disp.show(i, t) for i in range(n))
        return None

    def _board_cell(self, holding: str | None, seats: dict[str, int]) -> tuple[int, Writer]:
        """What a cell of a board may hold: components by id, else as views show it."""
        if holding is None:  # raw values: the terminal draws them as seats
            n = self.players

            def raw(x: Any, tt: np.ndarray, oo: int) -> None:
                tt[oo + (x if type(x) is int and 0 <= x < n else n)] = 1.0
            return n + 1, raw
        if holding in self.rules.kinds:
            ids = _places(self.rules.components(holding))
            return len(ids), lambda x, tt, oo: _one_hot_of(tt, oo, ids, x)
        if holding == "player":
            return len(seats), lambda x, tt, oo: _one_hot_of(tt, oo, seats, x)
        try:
            enum = _places(self.rules.enum(holding))
        except KeyError:  # numbers or text
            return 1, _number
        return len(enum), lambda x, tt, oo: _one_hot_of(tt, oo, enum, x)

    def encode(self, view: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The tensor of a view (written into `out` when given, which is zeroed first)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        for offset, fill in self._fill:
            fill(view, out, offset)
        return out


def _one_hot(t: np.ndarray, o: int, seat: int | None) -> None:
    if seat is not None:
        t[o + seat] = 1.0


def _places(values: Any) -> dict[Any, int]:
    """Each distinct value with its place, in order (equal labels share one place)."""
    out: dict[Any, int] = {}
    for value in values:
        out.setdefault(value, len(out))
    return out


def _one_hot_of(t: np.ndarray, o: int, domain: dict[Any, int], value: Any) -> None:
    at = domain.get(value) if isinstance(value, (str, int)) else None
    if at is not None:  # none, and a hidden value, have no place: all zero
        t[o + at] = 1.0


def _number(x: Any, t: np.ndarray, o: int) -> None:
    if isinstance(x, (int, float)):
        t[o] = float(x)


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [y for x in value for y in _flat(x)]
    return [value]


def _seat(key: str, v: dict[str, Any], t: np.ndarray, o: int) -> None:
    _one_hot(t, o, v[key])


def _decider(v: dict[str, Any], t: np.ndarray, o: int) -> None:
    _one_hot(t, o, v.get("decision", {}).get("player"))


def _over(v: dict[str, Any], t: np.ndarray, o: int) -> None:
    t[o] = float("result" in v)


def _board(name: str, names: dict[str, int], width: int, write: Writer,
           v: dict[str, Any], t: np.ndarray, o: int) -> None:
    for cell, piece in v["boards"][name].items():
        write(piece, t, o + names[cell] * width)


def _territory(name: str, names: dict[str, int], tiles: dict[str, int],
               v: dict[str, Any], t: np.ndarray, o: int) -> None:
    shown = v["boards"][name]
    for k, placed in enumerate(shown if isinstance(shown, list) else [shown]):
        for cell, (tile, degrees) in placed.items():
            at = o + (k * len(names) + names[cell]) * 6
            t[at] = 1.0
            t[at + 1] = float(tiles.get(tile, -1) + 1)
            t[at + 2 + degrees // 90 % 4] = 1.0


def _dice(name: str, faces: dict[Any, int], v: dict[str, Any], t: np.ndarray,
          o: int) -> None:
    shown = v["dice"][name]
    if shown and isinstance(shown[0], list):  # a set per player: by seat, one after another
        shown = [f for seat in shown for f in seat]
    for k, face in enumerate(shown):
        _one_hot_of(t, o + k * len(faces), faces, face)


def _zones(name: str, ids: dict[str, int], per_player: bool, v: dict[str, Any],
           t: np.ndarray, o: int) -> None:
    shown = v["zones"][name]
    width = 2 + len(ids)
    for k, items in enumerate(shown if per_player else [shown]):
        at = o + k * width
        if isinstance(items, dict):
            t[at + 1] = float(items["size"])
            continue
        t[at] = 1.0
        t[at + 1] = float(len(items))
        for cid in items:
            t[at + 2 + ids[cid]] = 1.0


def _components(kind: str, ids: dict[str, int], counters: list[tuple[str, int, Writer]],
                width: int, v: dict[str, Any], t: np.ndarray, o: int) -> None:
    for cid, facts in v["components"][kind].items():
        at = o + ids[cid] * width
        t[at] = 1.0
        at += 1
        for name, size, write in counters:
            write(facts["counters"][name], t, at)
            at += size
