"""What the search agents share: their parameters, the budget of a search, what a played-out
game is worth to each seat, and the rollout that plays a game out.

Stage: run (agents). MCTS and ISMCTS (`mcts.py`, `ismcts.py`) search games made up from a
seat's observation (`observation.sample_game`), never the real one, through the Game API
alone: who decides, the options, apply, chance steps and their odds, the result, and the
rules' `heuristic` line.

What a game is worth to a seat (its return) comes from the ranking: 1 for first place
alone, 0 for last place alone, shared places share (a draw between two is worth 1/2 each;
the returns of all seats add up to half their number). Where the game has scores, or the
rules a heuristic, a share `score` of the return comes from the seat's margin over the best
other seat instead, scaled between the smallest and the largest margin the search has seen
(in a game for one, the score is all there is). A rollout that is cut short (after `depth`
decisions, when the rules declare a heuristic) ranks the seats by the heuristic.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..interpreter.game import Game
from .parameters import Parameter

GREEDY_WIDTH = 32  # the greedy rollout tries every option only below this many

SEARCH_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("sims", "int", 1000, "simulations per move (the default budget)", 1),
    Parameter("time", "float", 0.0, "seconds per move at most (0: no limit); with a time, "
              "the same seed may not give the same moves", 0),
    Parameter("c", "float", 1.0, "exploration constant of UCT (returns are from 0 to 1)", 0),
    Parameter("rollout", ("random", "greedy"), "random",
              "how a simulation plays on from the tree: at random, or greedy (an option "
              "that wins at once, else the best by the heuristic, else at random)"),
    Parameter("depth", "int", 40, "decisions a rollout plays before the rules' heuristic "
              "judges it (only when the rules declare one; 0: judge at once)", 0),
    Parameter("score", "float", 0.1, "the share of a return that comes from the score or "
              "heuristic margin rather than the ranking", 0, 1),
    Parameter("bias", "float", 0.0, "progressive bias at the searching seat's first "
              "decision: each option's value gets bias * its prior / (visits + 1), the "
              "prior from the seat's margin one step on, by rank from 0 to 1", 0),
)

WIDENING_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("widen", "float", 0.0, "progressive widening: a decision opens a new "
              "option while it has fewer than widen * sqrt(visits) (0: every option "
              "at once)", 0),
    Parameter("wide", "int", 0, "with widen: only a decision of more than this many "
              "options is widened (0: every decision)", 0),
)


@dataclass(frozen=True)
class Settings:
    """A search's parameters (see SEARCH_PARAMETERS)."""

    sims: int = 1000
    time: float = 0.0
    c: float = 1.0
    rollout: str = "random"
    depth: int = 40
    score: float = 0.1
    bias: float = 0.0

    @classmethod
    def of(cls, params: dict[str, Any]) -> Settings:
        unknown = set(params) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown parameter(s): {', '.join(sorted(unknown))}")
        made = cls(**params)
        if made.sims < 1 or made.time < 0 or made.c < 0 or made.depth < 0 or \
                made.bias < 0 or not 0 <= made.score <= 1 or \
                made.rollout not in ("random", "greedy"):
            raise ValueError(f"a parameter is out of its range: {made}")
        return made


@dataclass(frozen=True)
class Report:
    """What the last search did: simulations run, seconds taken, and the worth (0 to 1) the
    search gives the option it chose."""

    simulations: int
    seconds: float
    value: float

    def describe(self) -> str:
        plural = "" if self.simulations == 1 else "s"
        return (f"{self.simulations:,} simulation{plural} in {self.seconds:.1f} s; "
                f"it rates its choice {self.value:.2f} (1: a sure win)")


class Budget:
    """Counts a search's simulations against `sims` and the clock against `time`."""

    def __init__(self, settings: Settings):
        self.sims = settings.sims
        self.limit = settings.time
        self.start = time.perf_counter()
        self.done = 0

    def more(self) -> bool:
        if self.done >= self.sims:
            return False
        if self.limit and self.done and time.perf_counter() - self.start >= self.limit:
            return False
        self.done += 1
        return True

    def report(self, value: float) -> Report:
        return Report(self.done, time.perf_counter() - self.start, value)


# ---- returns -------------------------------------------------------------------------------

Returns = tuple[list[float], list[float] | None]   # per seat: place, and margin if any


def place_returns(ranking: Sequence[int]) -> list[float]:
    """Per seat, what its place is worth: 1 first alone, 0 last alone, shared places
    shared (ranks are 1 + the number of seats strictly better)."""
    n = len(ranking)
    if n == 1:
        return [1.0]
    return [1 - (r - 1 + (ranking.count(r) - 1) / 2) / (n - 1) for r in ranking]


def ranking_of(values: Sequence[float]) -> list[int]:
    """Ranks by value, higher first; equal values share a rank."""
    return [1 + sum(1 for o in values if o > v) for v in values]


def margins(values: Sequence[float]) -> list[float]:
    """Per seat, its value less the best other seat's (its own value in a game for one)."""
    if len(values) == 1:
        return [float(values[0])]
    top = sorted(values, reverse=True)
    return [v - (top[1] if v == top[0] else top[0]) for v in values]


def returns_of(game: Game, use_margin: bool) -> Returns:
    """What a finished game, or one cut short, is worth to each seat."""
    result = game.result
    h = game.heuristic() if use_margin or result is None else None
    if result is not None:
        places = place_returns(result.ranking)
        values = h if h is not None else result.scores
    else:
        assert h is not None  # a rollout is cut only when the rules have a heuristic
        places = place_returns(ranking_of(h))
        values = h
    return places, (margins(values) if use_margin and values is not None else None)


class Scale:
    """The smallest and largest margin seen so far: margins are read between them."""

    __slots__ = ("lo", "hi")

    def __init__(self) -> None:
        self.lo = float("inf")
        self.hi = float("-inf")

    def see(self, margin: list[float]) -> None:
        for x in margin:
            if x < self.lo:
                self.lo = x
            if x > self.hi:
                self.hi = x

    def unit(self, m: float) -> float:
        """A mean margin as a number from 0 to 1."""
        span = self.hi - self.lo
        return (m - self.lo) / span if span > 0 else 0.5


def mean_worth(w: float, m: float, n: int, lam: float, scale: Scale) -> float:
    """The mean worth of `n` returns whose place returns add up to `w` and margins to
    `m`, a share `lam` of it from the margins."""
    if not n:
        return 0.0
    return (1 - lam) * w / n + lam * scale.unit(m / n) if lam else w / n


def score_share(settings: Settings, game: Game) -> float:
    """The share of returns from margins: none when the game has no scores and the rules
    no heuristic, all of it in a game for one (a place says nothing there)."""
    if game.heuristic() is None and not game.rules.has_scores:
        return 0.0
    return 1.0 if game.players == 1 else settings.score


# ---- rollouts ------------------------------------------------------------------------------

def rollout(game: Game, rng: random.Random, settings: Settings, has_heuristic: bool,
            use_margin: bool) -> Returns:
    """Play `game` on (it is changed) with the rollout policy until it ends, or, when the
    rules have a heuristic, for `depth` decisions; what it is then worth to each seat.
    Chance is rolled by the game's generator, given a fresh seed from `rng`."""
    game.auto_chance = True
    game.reseed(rng.getrandbits(64))
    if game.is_chance:
        game.roll_chance()
    left = settings.depth if has_heuristic else -1
    uniform = rng.random  # int(random() * n): a third of randrange's time
    if settings.rollout != "greedy":
        # the engine's own loop takes the steps (docs/performance.md, "Where a search's
        # time goes")
        game.play_by_number([lambda n: int(uniform() * n) if n > 1 else 0] * game.players,
                            left)
        return returns_of(game, use_margin)
    while not game.over and left != 0:
        n = game.num_options()
        if 1 < n <= GREEDY_WIDTH:
            game.apply_index(_greedy(game, n, rng, has_heuristic))
        else:
            game.apply_index(int(uniform() * n) if n > 1 else 0)
        left -= 1
    return returns_of(game, use_margin)


def _greedy(game: Game, n: int, rng: random.Random, has_heuristic: bool) -> int:
    """An option that wins at once; else the best for the decider by the heuristic (an
    option that ends the game counts by its place); ties at random."""
    me = game.decider
    assert me is not None
    best: list[int] = []
    top = (float("-inf"), float("-inf"))
    for i in range(n):
        after = game.copy()
        after.apply_index(i)
        result = after.result
        if result is not None:
            place = place_returns(result.ranking)[me]
            if place == 1.0 and after.players > 1:
                return i
            worth = (place, 0.0)
        elif has_heuristic:
            worth = (0.5, margins(after.heuristic() or [])[me])
        else:
            worth = (0.5, 0.0)
        if worth > top:
            top, best = worth, [i]
        elif worth == top:
            best.append(i)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def standing_worth(world: Game, options: Sequence[int], seat: int) -> dict[int, float]:
    """Each option's worth to `seat` one step on (its chance steps rolled): the seat's
    margin by the rules' heuristic or scores (`Game.standing`), or, where the option ends
    the game, its place far above any margin. The prior progressive widening opens a wide
    decision's options by, best first (empty where the game has no standing)."""
    if world.standing() is None:
        return {}
    worth = {}
    for i in options:
        after = world.copy()
        after.auto_chance = True
        after.apply_index(i)
        result = after.result
        if result is not None:
            worth[i] = (place_returns(result.ranking)[seat] - 0.5) * 1e9
        else:
            worth[i] = margins(after.standing() or [0.0] * after.players)[seat]
    return worth


def rank_prior(worth: dict[int, float]) -> dict[int, float]:
    """Worths as a prior from 0 (the worst) to 1 (the best), by rank (ties alike): a
    margin in points and an option that ends the game fit one scale."""
    levels = sorted(set(worth.values()))
    top = max(len(levels) - 1, 1)
    place = {w: k / top for k, w in enumerate(levels)}
    return {i: place[w] for i, w in worth.items()}
