"""Sampled games are games: a check any rules can be put through.

A game the sampler makes up for a seat (`Observation.sample_game`) must be a legal
continuation of what the seat has seen: played on to its end by random agents, it must
end as a real game does, never stop with an error of the rules (a card moved out of a
hand that no longer holds it, a choice with no option left). `continuations` plays a real
game with random agents and, at many points of it (the first steps, every secret
decision, and then every few steps), makes up games for a seat and plays each to its
end, counting those that end and those a rule stops (with the place, to reproduce them).
The real game is played on from every such point too: a point where the real game itself
cannot go on says nothing about the sampler and is not counted.

Used by tests/test_sampled_games.py (small budgets) and benchmarks/sampled_games.py (the
fraction of sampled continuations that end, with its interval).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl import Game, Observation, Rules
from rulesdsl.diagnostics import RulesError

LIMIT = 5_000   # decisions a continuation may take before it counts as not ended


@dataclass
class Stopped:
    """A sampled continuation a rule stopped: where it was made up, and the error."""

    players: int
    seed: int            # the real game's
    step: int            # its steps before the point
    seat: int
    sample_seed: int     # the sampler's generator was random.Random(sample_seed)
    error: str


@dataclass
class Tally:
    """What the sampled continuations came to."""

    tried: int = 0       # continuations played from a point the real game goes on from
    ended: int = 0       # played to their end (or to the limit) without an error
    stopped: list[Stopped] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.tried += other.tried
        self.ended += other.ended
        self.stopped += other.stopped


def play_on(game: Game, rng: random.Random, limit: int = LIMIT) -> str | None:
    """Play a game on with random choices, to its end or for `limit` decisions: None, or
    the error of the rules that stopped it. (A game random agents have not ended within
    the limit is not counted against the sampler: a real game may be as long.)"""
    game.auto_chance = True
    try:
        for _ in range(limit):
            if game.over:
                return None
            game.apply_index(rng.randrange(game.num_options()))
    except RulesError as err:
        d = err.diagnostics[0]
        place = f"{Path(d.span.file).name}:{d.span.line}" if d.span is not None else "?"
        return f"{place}: error[{d.code}]: {d.message}"
    return None


def points(game: Game, step: int, every: int) -> bool:
    """Whether a step of the real game is a point to sample at."""
    decision = game.decision
    return step < 3 or step % every == 0 or (decision is not None and decision.secret)


def continuations(rules: Rules, players: int, seed: int, samples: int = 2, every: int = 7,
                  seats: str = "deciding", limit: int = LIMIT) -> Tally:
    """Play a random game of `rules`; at its points, make up `samples` games for the
    deciding seat (or, with seats="all", for every seat) and play each to its end."""
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    tally = Tally()
    step = 0
    while not game.over:
        if game.is_chance:
            game.roll_chance()
            continue
        if points(game, step, every) and play_on(game.copy(), random.Random(step),
                                                  limit) is None:
            who = range(players) if seats == "all" else [game.decider]
            for seat in who:
                for k in range(samples):
                    sample_seed = seed * 1_000_003 + step * 101 + seat * 11 + k
                    tally.tried += 1
                    error = _sampled(game, seat, sample_seed, limit)
                    if error is None:
                        tally.ended += 1
                    else:
                        tally.stopped.append(Stopped(players, seed, step, seat,
                                                     sample_seed, error))
        game.apply_index(rng.randrange(game.num_options()))
        step += 1
    return tally


def _sampled(game: Game, seat: int, sample_seed: int, limit: int) -> str | None:
    """Make up a game for `seat` and play it to its end: None, or what stopped it."""
    try:
        world = Observation(game, seat).sample_game(random.Random(sample_seed))
    except RulesError as err:   # the sampler's own replays met a rule's error
        return f"while sampling: {err.diagnostics[0].message}"
    return play_on(world, random.Random(sample_seed), limit)
