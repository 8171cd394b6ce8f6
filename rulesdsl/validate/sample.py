"""Sampled games: many games with bots under a budget of decisions, for what exploration
cannot prove.

Stage: validate. Each game is played as `rulesdsl simulate` plays it (seed `seed + k`,
agents seeded from it), so any game found here is played again by `rulesdsl run` with the
same seed and agents, and by `rulesdsl replay` from its record. A game stops at the
budget (or at the rules' own limit, if that is smaller): the game that runs past the
budget is a game that may not end, and the decisions it repeats point at the loop.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from ..agents.play import play_game
from ..diagnostics import Diagnostic
from ..interpreter.game import Game, Rules

TAIL = 200  # the decisions looked at to find where an endless game loops


@dataclass
class Played:
    """One sampled game that did not end well: stopped by a rule, or at the budget."""

    players: int
    seed: int
    agents: list[str]            # the agent of each seat
    number: int                  # its number among the games of its player count
    steps: list[int]
    error: Diagnostic | None = None
    at_limit: bool = False       # it reached the rules' own limit
    site: int | None = None      # the decision site it repeats most near the end


@dataclass
class Sample:
    """What the sampled games of one player count came to."""

    players: int
    games: int = 0
    decisions: int = 0
    firsts: Counter = field(default_factory=Counter)  # seat -> games it ranked first in
    failed: list[Played] = field(default_factory=list)   # stopped by a rule
    endless: list[Played] = field(default_factory=list)  # past the budget
    limited: list[Played] = field(default_factory=list)  # at the rules' own limit

    @property
    def ended(self) -> int:
        """The games that ended by their rules (not stopped by an error or a limit)."""
        return self.games - len(self.failed) - len(self.endless) - len(self.limited)


def play(rules: Rules, players: int, agents: list[str], seeds: range, budget: int,
         out: Sample, first_number: int = 1) -> None:
    """Play one game per seed with these agents in the seats (cycled), adding what
    happened to `out`."""
    agents = [agents[p % len(agents)] for p in range(players)]
    tail: deque[int] = deque(maxlen=TAIL)

    def note(game: Game, i: int) -> None:
        if not game.is_chance:
            tail.append(game.step_site)  # type: ignore[arg-type]

    for number, seed in enumerate(seeds, start=first_number):
        tail.clear()
        game, failed = play_game(rules, players, seed, agents, budget, before=note)
        out.games += 1
        if failed is not None:
            out.failed.append(Played(players, seed, agents, number, failed.steps,
                                     failed.diagnostic))
            continue
        assert game is not None and game.result is not None
        out.decisions += game.decisions
        result = game.result
        if result.ended_by == "limit":
            site = Counter(tail).most_common(1)[0][0] if tail else None
            played = Played(players, seed, agents, number, list(game.history),
                            at_limit=game.limit == rules.limit, site=site)
            (out.limited if played.at_limit else out.endless).append(played)
            continue
        out.firsts.update(result.winners)
