"""Where things live in the state: the layout of counters, dice, boards and zones.

Stage: the contract between compile and run. The checker says what the rules declare
(copied for the run side in `Declared`); this module decides where each thing is kept in
a `State`: slot 0 of the counters list is the current player, then each dice set's faces
(and, for a set not seen by everyone, whether each die is revealed)
and each counter's values in the order of declaration (a counter kept per player, per
die, per enum value or per component takes one slot per key); each board is a list of
cells; each zone a list of components (a zone kept per player takes one list per seat,
for the largest number of players). Views, saved games and the compiler read the state
through this layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast as A
from .declared import Declared


@dataclass
class Layout:
    """The places of one rule file's things in a `State`."""

    nslots: int = 1                                        # slot 0: the current player
    counter: dict[str, int] = field(default_factory=dict)  # counter -> its first slot
    dice: dict[str, int] = field(default_factory=dict)     # dice set -> its first die's slot
    # a set seen by its owner or nobody -> the slot of its first die's flag: 1 while the
    # die is revealed (`reveal`), 0 once rolled again
    shown: dict[str, int] = field(default_factory=dict)
    board: dict[str, int] = field(default_factory=dict)    # board -> its number in st.b
    zone: dict[str, int] = field(default_factory=dict)     # zone -> its first number in st.z
    nzones: int = 0
    zone_kind: list[str] = field(default_factory=list)     # zone number -> its kind

    @property
    def kinds(self) -> list[str]:
        """The kinds zones hold, numbered in the order their first zone comes (the state's
        index of where each component is, `State.at`, has one list per kind)."""
        return list(dict.fromkeys(self.zone_kind))

    def zone_numbers(self, name: str, per_player: bool, seats: int) -> list[int]:
        """The numbers of a zone: one, or one per seat."""
        base = self.zone[name]
        return [base + p for p in range(seats)] if per_player else [base]


def layout_of(declared: Declared) -> Layout:
    """Lay out the state of a checked rule file (one without errors)."""
    out = Layout()
    for item in declared.tree.items:
        # dice sets and counters share the counters list, in the order of the file
        if isinstance(item, A.DiceDecl) and item.name in declared.dice:
            info = declared.dice[item.name]
            out.dice[item.name] = out.nslots
            out.nslots += info.count
            if info.visibility != "public":
                out.shown[item.name] = out.nslots
                out.nslots += info.count
        elif isinstance(item, (A.CounterDecl, A.StatDecl)) and item.name in declared.counters:
            # a statistic's tally (`stat n`) is a counter too
            out.counter[item.name] = out.nslots
            out.nslots += declared.counters[item.name].size
    for n, name in enumerate(declared.boards):
        out.board[name] = n
    for name, zone in declared.zones.items():
        out.zone[name] = out.nzones
        count = declared.max_players if zone.per_player else 1
        out.zone_kind += [zone.kind] * count
        out.nzones += count
    return out
