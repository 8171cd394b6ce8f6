"""Positions for tools that walk a game's tree (the OpenSpiel adapter): the chance a rule
draws inside a rule (a shuffle, a component dropped in a bag) as steps of its own, and a
canonical key of a position.

Stage: over the interpreter (it steps games and reads their state, for the adapters).

The engine draws a shuffle with the game's own generator (`State.rand(n)`: a number below
n, each as likely) in the middle of a rule, and the game never pauses there. Run through
`advance`, a step (the start of a game, a decision, a roll) draws its numbers from a list
instead: while the list lasts, each draw takes its next number; the first draw beyond it
stops the step, and the step is then a chance node with the n outcomes of that draw, each
1/n, exactly the odds the engine's own shuffle gives each swap. Choosing outcome k adds k
to the list and runs the step again from the position before it. A shuffle of m cards is
m - 1 chance nodes (m, m - 1, ... 2 outcomes): every order of the deck as likely as the
rules make it. The engine's own seeded play is untouched: only a game run here draws so.

`position_key` is what the rules can still tell apart in a position: the counters,
boards, zones, the pending step and the result, and the frames' locals that the rules may
read again (`interpreter/liveness.py`), not those left over from moves already made, nor
the generator (every draw is a chance node here). The count of decisions is in it: the
rules' limit reads it.
"""

from __future__ import annotations

import threading
from typing import Any

from ..program.program import SITE
from .game import Game
from .liveness import Liveness
from .state import State


class Draw(BaseException):
    """A step drew beyond its list: the chance node of that draw, n outcomes. (Not an
    Exception: nothing in the engine may catch it on the way out.)"""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class _Listed:
    __slots__ = ("draws", "at")

    def __init__(self, draws: list[int]):
        self.draws = draws
        self.at = 0

    def next(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.at == len(self.draws):
            raise Draw(n)
        k = self.draws[self.at]
        self.at += 1
        if not 0 <= k < n:
            raise ValueError(f"draw {k} of {n} outcomes: the list does not fit this step")
        return k


_HERE = threading.local()


class _DrawnState(State):
    """A state drawing from the list of the step being run (same layout as State, so a
    state's class can be swapped for the time of one step)."""

    __slots__ = ()

    def rand(self, n: int) -> int:
        listed: _Listed = _HERE.listed
        return listed.next(n)


def advance(before: Game, index: int | None, draws: list[int]) -> Game | int:
    """Step `before` (a copy of it: `before` is left as it is): option `index` of its
    pending step, or its start when `index` is None, drawing `draws`. The game after the
    step, or the number of outcomes of the draw that comes next."""
    game = before.copy(narrated=True)
    st = game.st
    st.__class__ = _DrawnState
    _HERE.listed = _Listed(draws)
    try:
        if index is None:
            game.start()
        else:
            game.apply_index(index)
    except Draw as draw:
        return draw.n
    finally:
        _HERE.listed = None
        if isinstance(game.st, _DrawnState):
            game.st.__class__ = State  # type: ignore[assignment]
    return game


def position_key(game: Game, live: Liveness, decisions: bool = True) -> str:
    """A canonical text of what the rules can still tell apart in this position (without
    `decisions`, as if the rules had no limit)."""
    st = game.st
    program = game.program
    frames: list[Any] = []
    if st.result is None:
        top_slot = -1
        if st.pending is not None:
            site = program.sites[st.pending[SITE]]
            top_slot = site.slot if site.slot not in live.common else -1
        for depth, (block, values) in enumerate(st.stack):
            kept = live.live(program.block_proc[block])
            top = depth == len(st.stack) - 1
            frames.append([block, [v if (kept is None or k in kept)
                                   and not (top and k == top_slot) else None
                                   for k, v in enumerate(values)]])
    # plain data (numbers, texts, none, lists of them): its repr is canonical
    return repr((st.v, st.b, st.z, frames, st.pending, st.result,
                 game.decisions if decisions else None))


def longest_game(start: Game, live: Liveness, budget: int) -> int | None:
    """The most decisions a game from `start` can take (chance steps not counted), found
    by visiting every position once (`position_key`); None when the positions number more
    than `budget` or a position can come back (the game need not end)."""
    depth: dict[str, int] = {}      # a position's longest way on, once known
    open_: set[str] = set()         # positions on the way down: one met again is a cycle
    first = position_key(start, live, False)
    todo: list[tuple[str, Game, list[tuple[str, Game, bool]] | None]] = [(first, start, None)]
    while todo:
        key, game, children = todo[-1]
        if children is None:  # first visit: its children, then them
            if key in depth:  # reached from another parent meanwhile
                todo.pop()
                continue
            if game.over:
                depth[key] = 0
                todo.pop()
                continue
            open_.add(key)
            children = []
            chance = game.is_chance
            for i in range(game.num_options()):
                child = game.copy()
                child.apply_index(i)
                children.append((position_key(child, live, False), child, not chance))
            todo[-1] = (key, game, children)
            for child_key, child, _ in reversed(children):  # the first option first
                if child_key in open_:
                    return None
                if child_key not in depth:
                    if len(depth) + len(open_) >= budget:
                        return None
                    todo.append((child_key, child, None))
            continue
        if any(k not in depth for k, _, _ in children):
            return None  # cannot happen: every child was visited before its parent ends
        depth[key] = max(depth[k] + counts for k, _, counts in children)
        open_.discard(key)
        todo.pop()
    return depth[first]
