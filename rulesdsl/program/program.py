"""A compiled rule file, as the run side receives it: the `Program`, its decision sites
and its coverage points, and the two facts of the flow the run side reads off it (teams,
and the seats a simultaneous step still waits for).

Stage: the contract between compile and run. The code generator (`compile/`) makes a
`Program`; the run side (`interpreter/`) reads one, with what the rules declare
(`Program.declared`, declared.py), and imports nothing of compile/ or check/.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..valuetypes import ANY, Type
from .declared import Declared
from .display import Display
from .layout import Layout

# The step a game waits at (`State.pending`), as the generated code sets it: a plain tuple
# (site, who, options) read by these positions; `who` is a seat from 0, or CHANCE at a roll.
# A frame of the rule stack (`State.stack`): a list [block, locals] the generated code makes
# and changes in place. Both stay plain data: a state copies, saves and compares as lists.
SITE, WHO, OFFERED = 0, 1, 2
CHANCE = -1
BLOCK, LOCALS = 0, 1


@dataclass
class Site:
    """A place in the rules where a decision or a chance step happens."""

    kind: str            # choose, any, menu, roll, die
    proc: str
    span: Span
    type: Type = ANY     # the type of one option's value
    slot: int = -1       # where the chosen value goes in the frame's locals
    hidden: list[int] = field(default_factory=list)
    base: int = 0        # first counter slot of the dice set (kind "die")
    shown: int = -1      # the slot of its first die's revealed flag, for a set not public
    label: Any = None    # generated function (st, L, value) -> str, or None
    done_label: Any = None  # the same for the option 'done' of 'choose optional'
    secret: bool = False    # `choose ... secretly`: only the chooser learns the choice
    menu: list[tuple[str, Any]] = field(default_factory=list)  # (id, label) per option
    prompt: str = ""     # the rule line of the decision, as players read it
    offered_by: int = -1  # the answer to an offer: the local holding who made the offer
    resume: int = -1     # the block the deciding frame waits at (a saved game must agree)
    # generated function (st, L) -> the options offered, worked out again from the state
    # and the deciding frame (the sampler's, after it deals hidden components anew), or
    # None where they cannot be (a menu, the subsets of `choose any`, a roll)
    options: Any = None
    name: str = ""       # the name a choice binds (`choose t in ...`: t), for the display


@dataclass(frozen=True)
class Point:
    """A place coverage counts (compiled with `coverage=True`): the start of a rule
    ("rule", also "setup" and "play"), of a branch of an `if` ("branch"), of a menu
    option ("option"), of an 'as soon as' block ("trigger"), of each turn of a `turns`
    loop ("turn"), a statement that ends the game ("end"), and an `add` to the counter the
    game is ranked by ("points": it counts the points added, not the times it ran)."""

    kind: str
    span: Span
    proc: str
    name: str = ""   # a rule's or an option's name


@dataclass
class Program:
    """A compiled rule file: the blocks, sites and tables the runtime needs."""

    # the checker's whole `Analysis` (check/analysis.py), for the tools above check (the
    # language server, validate, balance): the run side reads `declared` and never this
    analysis: Any
    declared: Declared
    layout: Layout
    blocks: list[Any]  # by number; none where a block was left out (`live_blocks`)
    sites: list[Site]
    slots: list[int]  # per site: the local a chosen value goes to (-1: a die's face)
    entries: dict[tuple[str, str], int]
    nlocals: dict[tuple[str, str], int]
    spans: list[Span]
    span_procs: list[str]  # the name of the block of rules each span lies in
    block_sid: list[int]
    rank: Any
    display: Display
    make_code: Callable[[], str]  # makes `code` (the module generated again)
    init_counters: list[Any]
    score: Any = None  # st -> each player's first rank key, when the rank line has one
    filename: str = "<rules>"  # the name the generated code runs under
    line_sids: list[int] = field(default_factory=list)  # generated line -> span id (-1)
    block_proc: list[int] = field(default_factory=list)  # block -> its procedure's number
    # per procedure (in declared.procs order): the type of what each frame slot holds
    frame_types: list[dict[int, Type]] = field(default_factory=list)
    # block -> the locals naming the seats of the secret step or `all at once` round it is
    # in, and the one choosing now (see flow.py)
    together: dict[int, tuple[int, int]] = field(default_factory=dict)
    # point of the flow -> the frames a game started there has: (block, number of locals)
    starts: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    points: list[Point] = field(default_factory=list)  # coverage: what each hit counts
    hits: list[int] = field(default_factory=list)  # coverage: how often each point ran
    statistics: Any = None  # st -> the declared statistics by name (`stat ...`), or None
    heuristic: Any = None  # st -> each player's number from the `heuristic` line, if any
    payoff: Any = None     # st -> each player's payoff from the `payoff` line, if any
    # per procedure: the range of each frame slot that holds an item of `lo..hi` (bounds.py:
    # the code reads by it without a check, and a save is held to it)
    frame_ranges: list[dict[int, tuple[int, int]]] = field(default_factory=list)
    # per procedure: the name of the rules each frame slot holds (not the compiler's own)
    frame_names: list[dict[int, str]] = field(default_factory=list)
    # the blocks inside turns, where the code reads `current` without a test for none
    turns_blocks: frozenset[int] = frozenset()
    backend: str = "plain"  # what runs the generated module (backends.py)
    _code: str | None = field(default=None, repr=False)

    @property
    def code(self) -> str:
        """The generated Python, for reading and debugging: made when first asked for, by
        generating the module again (writing it out at every load took 0.05 s of
        Cromlech's; keeping the module's tree for it would nearly double what a loaded
        Cromlech holds)."""
        if self._code is None:
            self._code = self.make_code()
        return self._code

    def span_of_line(self, line: int | None) -> Span | None:
        """The rule a line of the generated code came from (None for an instruction of no
        line: Python gives some of the code it makes of a statement none)."""
        if line is not None and 0 < line < len(self.line_sids) and self.line_sids[line] >= 0:
            return self.spans[self.line_sids[line]]
        return None


def teams_of(players: int, size: int) -> list[list[int]]:
    """The seats of each team: teammates spread evenly round the table (seat p is in team
    p modulo the number of teams)."""
    count = players // size
    return [[p for p in range(players) if p % count == t] for t in range(count)]


def waiting(together: dict[int, tuple[int, int]], stack: list) -> tuple[int, ...]:
    """The seats still to choose in the secret step or `all at once` round a game is
    waiting in (the one deciding first); empty when it waits for one seat only."""
    for fr in reversed(stack):
        found = together.get(fr[BLOCK])
        if found is not None:
            seats, k = found
            return tuple(fr[LOCALS][seats][fr[LOCALS][k]:])
    return ()

