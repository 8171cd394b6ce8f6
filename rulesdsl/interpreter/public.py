"""The plain values the game hands out: options, decisions, chance steps, results, lines of
the log, and the shapes of a rule file's counters, zones and boards.

Stage: run. These frozen classes are what tools, agents and views read instead of the
state; they sit below `game.py` and `views.py` so that both can use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Audience = tuple[int, ...] | None   # the seats told a line of the log; None: everyone


@dataclass(frozen=True)
class Option:
    """One legal option: a stable id and a readable label."""

    id: str
    label: str


@dataclass(frozen=True)
class Decision:
    """Who decides now, and between what; a secret decision is one the others learn only
    was made (`choose ... secretly`, and every decision of a secret step). In a
    simultaneous step (`each p in players chooses in secret`, a round of `turns ... all
    at once`), `simultaneous` names every seat that has still to play its part in it,
    the one whose part it is first: the engine asks one seat at a time, and in a secret
    step none sees another's choice before all are in. The answer to an offer names who
    made it (`offered_by`)."""

    player: int
    options: list[Option]
    prompt: str
    secret: bool = False
    simultaneous: tuple[int, ...] = ()
    offered_by: int | None = None


@dataclass(frozen=True)
class Chance:
    """A chance step: its outcomes, each with its probability."""

    outcomes: list[tuple[Option, float]]


@dataclass(frozen=True)
class Result:
    """The end of a game: rank per seat (1 is best, ties share a rank), scores, and how the
    game ended: "rules" (a rule ended it) or "limit" (it reached its limit of decisions
    without ending by itself, and every player shares first place). In a game of teams,
    `teams` lists the seats of each team; teammates share their team's rank (counted by
    teams: 1, 2, ...) and score."""

    ranking: list[int]
    scores: list[int] | None
    ended_by: str = "rules"
    teams: list[list[int]] | None = None
    why: str | None = None  # why it ended, in the rule file's words (`Game.why_ended`)

    @property
    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.ranking) if r == 1]


@dataclass(frozen=True)
class Line:
    """A line of a game's log and who was told it (`to` is None when everyone was)."""

    text: str
    to: Audience

    def told(self, seat: int | None) -> bool:
        """Whether `seat` was told the line; None stands for an onlooker, who is told only
        what everyone is."""
        return told(self.to, seat)


def told(to: Audience, seat: int | None) -> bool:
    """Whether `seat` (None: an onlooker) was told a line said to `to`."""
    return to is None or (seat is not None and seat in to)


@dataclass(frozen=True)
class CounterShape:
    """A counter as declared: what each of its keys is ("player", or the name of an enum,
    a set of dice or a kind of component), whether it is secret, its first value (as
    views show values), the type of its values as the checker names it ("int",
    "bool", "player", "text", ("enum", name), ("comp", kind), ("cell", board), ("die",
    dice), ("list", type), ...), and what it holds when that is a player, an enum's value
    or a component ("player", the enum's or the kind's name; None for numbers, yes/no and
    the rest)."""

    keys: tuple[str, ...]
    secret: bool
    initial: Any
    type: Any = "int"
    holds: str | None = None


@dataclass(frozen=True)
class DiceShape:
    """A set of dice as declared: the die it is made of, how many, and that die's faces
    (as views show them)."""

    die: str
    count: int
    faces: tuple[Any, ...]


@dataclass(frozen=True)
class ZoneShape:
    """A zone as declared: the kind it holds, whether each player has one, and who sees
    its components (public, hidden or owner)."""

    kind: str
    per_player: bool
    visibility: str


@dataclass(frozen=True)
class BoardShape:
    """A board as declared: its geometry (cells, names, neighbours) and what its cells hold
    ("player", an enum's or a kind's name, or None when the rule file does not say)."""

    geometry: Any
    holding: str | None
