"""Who sees what: which zones, components and counters a seat may see.

Stage: run. The rule file declares visibility: a zone is `public`, `hidden` or `owner`, a
counter may be `secret`, a set of dice `owner` or `hidden`, a choice may be made
`secretly`, a line may be said `to` some players. Views, observations and the sampler
all ask here, so that what a seat is shown and what the sampler re-deals for that seat
are one and the same thing.

A seat is a player's number from 0; `None` stands for an onlooker, who sees only what
everyone sees.
"""

from __future__ import annotations

from ..declarations import CounterInfo, ZoneInfo
from ..program.declared import Declared
from ..program.layout import Layout
from .state import State


def zone_seen(zone: ZoneInfo, owner: int | None, seat: int | None) -> bool:
    """Whether `seat` sees the components of `zone` (of `owner`, for a zone per player)."""
    if zone.visibility == "public":
        return True
    return zone.visibility == "owner" and owner is not None and owner == seat


def row_seen(info: CounterInfo, owner: int | None, seat: int | None) -> bool:
    """Whether `seat` sees a counter's values (those of `owner`, for a counter per
    player): a secret counter per player is its own player's, a shared one nobody's."""
    return not info.secret or (owner is not None and owner == seat)


def dice_unseen(a: Declared, layout: Layout, st: State,
                seat: int | None) -> dict[str, list[int]]:
    """Per set of dice, the dice (numbers in the set) of the game's seats whose faces
    `seat` cannot see: those of a set declared `hidden`, or of another player's set
    declared `owner`, that have not been revealed since they were last rolled."""
    out: dict[str, list[int]] = {}
    for name, info in a.dice.items():
        if info.visibility == "public":
            continue
        first = layout.shown[name]
        count = info.per_seat * st.np if info.per_seat else info.count
        out[name] = [d for d in range(count) if not st.v[first + d] and not (
            info.visibility == "owner" and seat is not None and d // info.per_seat == seat)]
    return out


def zone_lists(a: Declared, layout: Layout,
               st: State) -> list[tuple[ZoneInfo, int | None, int]]:
    """Every zone of the game: (zone, owner or None, index of its list in the state)."""
    out: list[tuple[ZoneInfo, int | None, int]] = []
    for name, zone in a.zones.items():
        base = layout.zone[name]
        if zone.per_player:
            out += [(zone, p, base + p) for p in range(st.np)]
        else:
            out.append((zone, None, base))
    return out


def hidden_lists(a: Declared, layout: Layout, st: State,
                 seat: int | None) -> list[tuple[ZoneInfo, int]]:
    """The zones `seat` cannot see: (zone, index of its list in the state)."""
    return [(zone, i) for zone, owner, i in zone_lists(a, layout, st)
            if not zone_seen(zone, owner, seat)]


def on_boards(a: Declared, layout: Layout, st: State) -> dict[str, set[int]]:
    """Per kind, the components standing on a board: boards are public."""
    out: dict[str, set[int]] = {}
    for name, holds in a.holding.items():
        if isinstance(holds, tuple) and holds[0] == "comp":
            cells = st.b[layout.board[name]]
            out.setdefault(holds[1], set()).update(c for c in cells if c is not None)
    return out


def unseen_components(a: Declared, layout: Layout, st: State,
                      seat: int | None) -> dict[str, set[int]]:
    """Per kind, the components `seat` cannot see: those in a zone it cannot see, unless
    they also stand on a board."""
    boards = on_boards(a, layout, st)
    out: dict[str, set[int]] = {}
    for zone, i in hidden_lists(a, layout, st, seat):
        if st.z[i]:
            out.setdefault(zone.kind, set()).update(st.z[i])
    for kind, placed in boards.items():
        if kind in out:
            out[kind] -= placed
    return out
