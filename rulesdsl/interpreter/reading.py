"""Reading a game without touching its state: the current player, who decides, a counter,
a zone, a board's cells, dice, the state key and the log.

Stage: run. `Game` takes these methods from `Reading`; tools and tests call them instead
of reading `State` fields. Values come as the rules hold them: a player is a seat number
from 0, an enum value, a component or a cell its number.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Span
from ..program.program import CHANCE, OFFERED, SITE, WHO, Program
from .public import Line, told
from .state import State


class Reading:
    """The read-only part of a game's API (mixed into `Game`)."""

    __slots__ = ()
    st: State
    program: Program
    ended_by: str
    limit: int

    @property
    def players(self) -> int:
        return self.st.np

    @property
    def current(self) -> int | None:
        """The current player (a seat number from 0), or None outside turns."""
        return self.st.v[0]

    @property
    def first_player(self) -> int | None:
        """The seat whose turn came first in this game (the first player of the first
        `turns` loop to start), or None before any turn; turn order goes on in seat order
        from there, so a seat's place in the turn order is `(seat - first) % players`."""
        return self.st.first

    @property
    def ended_at(self) -> Span | None:
        """The rule that ended the game (its `win`, `draw` or `end game` line), or None:
        the game is on, or it ended at the end of `play` or at its limit of decisions."""
        n = self.st.ending
        if self.st.result is None or n < 0:
            return None
        return self.program.spans[n]

    @property
    def why_ended(self) -> str | None:
        """Why the game ended, in the rule file's words (`ended RULE "words"` in its
        display), or the limit of decisions; None while it is on, or when the display
        does not say."""
        if self.st.result is None:
            return None
        if self.ended_by == "limit":
            return f"the game reached its limit of {self.limit:,} decisions"
        span = self.ended_at
        if span is None:
            return None
        return self.program.declared.display.endings.get(
            f"{span.file}:{span.line}:{span.column}")

    @property
    def decider(self) -> int | None:
        """The seat that decides now; None at a chance step and once the game is over."""
        p = self.st.pending
        if p is None or p[WHO] == CHANCE or self.st.result is not None:
            return None
        return p[WHO]

    @property
    def step_site(self) -> int | None:
        """The number of the place in the rules (a decision or a roll) the pending step is
        at, as `Rules.site_span` knows it; None once the game is over."""
        p = self.st.pending
        return p[SITE] if p is not None and self.st.result is None else None

    @property
    def is_chance(self) -> bool:
        p = self.st.pending
        return p is not None and p[WHO] == CHANCE and self.st.result is None

    def num_options(self) -> int:
        """How many options the pending step has (call it only while the game is on)."""
        return len(self.st.pending[OFFERED])  # type: ignore[index]  # the fast path: no check

    def counter(self, name: str, *keys: Any) -> Any:
        """A counter's value, as the rules hold it: a player is a seat number from 0, an
        enum value, a component or a cell its number. Give one key per `per` of the
        counter: a seat, an enum value (its name or number), a die of the set (from 0), a
        component (its id or number), a number of its range (`per 2..12`: 2 to 12)."""
        info = self.program.declared.counters.get(name)
        if info is None:
            raise KeyError(f"{self.program.declared.game_name} has no counter named {name!r}")
        if len(keys) != len(info.dims):
            raise KeyError(f"counter {name} takes {len(info.dims)} key(s), not {len(keys)}")
        index, stride = self.program.layout.counter[name], info.size
        for key, (kind, what, size, low) in zip(keys, info.dims):
            stride //= size
            index += self._key(name, key, kind, what, size, low) * stride
        return self.st.v[index]

    def _key(self, name: str, key: Any, kind: str, what: str, size: int, low: int) -> int:
        if kind == "number":
            if type(key) is int and low <= key < low + size:
                return key - low
            raise KeyError(f"{key!r} is not a number from {what} (a key of counter {name})")
        if isinstance(key, str) and kind in ("enum", "kind"):
            names = (self.program.declared.enums[what].values if kind == "enum"
                     else self.program.display.components[what][0])
            if key in names:
                return names.index(key)
        elif type(key) is int and 0 <= key < (self.st.np if kind == "player" else size):
            return key
        raise KeyError(f"{key!r} is not a {'seat' if kind == 'player' else what} "
                       f"(a key of counter {name})")

    def zone(self, name: str, owner: int | None = None) -> list[int]:
        """The components in a zone (of `owner`, for a zone per player), by number, in
        order: the first is the top."""
        zone = self.program.declared.zones.get(name)
        if zone is None:
            raise KeyError(f"{self.program.declared.game_name} has no zone named {name!r}")
        if zone.per_player != (owner is not None) or (
                owner is not None and not (type(owner) is int and 0 <= owner < self.st.np)):
            want = "one per player: give a seat" if zone.per_player else "shared: no owner"
            raise KeyError(f"zone {name} is {want}")
        return self.st.z[self.program.layout.zone[name] + (owner or 0)][:]

    def cells(self, board: str) -> list[Any]:
        """What stands on each cell of a board (None: empty), by cell number."""
        if board not in self.program.layout.board:
            raise KeyError(f"{self.program.declared.game_name} has no board named {board!r}")
        return self.st.b[self.program.layout.board[board]][:]

    def dice(self, name: str) -> list[Any]:
        """The faces a set of dice shows."""
        d = self.program.declared.dice.get(name)
        if d is None:
            raise KeyError(f"{self.program.declared.game_name} has no dice named {name!r}")
        base = self.program.layout.dice[name]
        return self.st.v[base:base + d.count]

    def state_key(self) -> str:
        """A canonical text of the whole position (not the log), for hashing and
        comparing: equal keys, equal games from here on."""
        return self.st.key()

    # ---- the log -----------------------------------------------------------------------

    @property
    def narrated(self) -> bool:
        return self.st.log is not None

    def narrate(self) -> None:
        """Keep a log from now on (a game started with `narrate=True` has one)."""
        if self.st.log is None:
            self.st.log = []

    @property
    def log(self) -> list[str]:
        """Every line of the log, whoever was told it (for tools and tests; a player is
        shown `log_for(seat)`)."""
        return [text for _, text in self.st.log] if self.st.log is not None else []

    def log_for(self, seat: int | None, since: int = 0) -> list[str]:
        """The lines `seat` was told (None: an onlooker, told only what everyone is), from
        line `since` of the whole log on."""
        if self.st.log is None:
            return []
        return [text for to, text in self.st.log[since:] if told(to, seat)]

    def lines(self, since: int = 0) -> list[Line]:
        """The log from line `since` on, each line with who was told it."""
        return [Line(text, to) for to, text in (self.st.log or [])[since:]]

