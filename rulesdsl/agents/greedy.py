"""The greedy agent: one decision ahead, judged by the rules' heuristic or the scores.

Stage: run (agents). Greedy decides from its seat's observation only: it asks the
observation for `samples` made-up games (`sample_game`: hidden cards dealt afresh, other
seats' secret choices drawn afresh, a new future), tries each of its options on each of
them, and takes the option whose mean worth is highest:

- an option that ends the game is worth its place (1 first alone, 0 last alone, shared
  places shared), less 1/2: a win alone is +1/2, a loss -1/2, and that comes first;
- otherwise, where the rules have a `heuristic` (or the game has scores), an option is
  worth the seat's margin after it: its standing less the best other seat's
  (`Game.standing`), the mean over the made-up games;
- where they have neither, an option after which the next player can win at once (tried
  on the same made-up game) counts as a loss, so greedy blocks the threats it sees;
- ties are broken at random (its own seeded generator).

Where a decision has more than `width` options, `width` of them, drawn at random, are
tried. Chance after an option is rolled by the made-up game's own future, which is why
several made-up games are averaged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..interpreter.game import Game
from ..interpreter.observation import Observation
from .parameters import Parameter
from .search import margins, place_returns

THREAT_WIDTH = 64  # the next player's options tried for a win at once only below this many
TIE = 1e-9


class GreedyAgent:
    """One decision ahead on made-up games, by the heuristic or the scores.

    See the module's docstring."""

    name = "greedy"
    PARAMETERS: tuple[Parameter, ...] = (
        Parameter("samples", "int", 4, "made-up games each option is tried on (the mean "
                  "decides)", 1, 256),
        Parameter("width", "int", 256, "options tried at most at one decision (above it, "
                  "that many drawn at random)", 1),
        Parameter("turn", "int", 8, "decisions of its own turn it plays on after an "
                  "option before judging it (each the best by one step; 0: judge at once)",
                  0),
    )

    def __init__(self, seed: int = 0, samples: int = 4, width: int = 256, turn: int = 8):
        self.rng = random.Random(seed)
        if samples < 1 or width < 1 or turn < 0:
            raise ValueError("samples and width must be at least 1, turn at least 0")
        self.samples = samples
        self.width = width
        self.turn = turn

    def choose(self, observation: Observation) -> int:
        n = observation.num_options
        if n == 1:
            return 0
        tried = list(range(n)) if n <= self.width else \
            sorted(self.rng.sample(range(n), self.width))
        me = observation.seat
        ends = [0.0] * n
        worth = [0.0] * n
        for _ in range(self.samples):
            world = observation.sample_game(self.rng)
            world.auto_chance = True  # chance after an option: the made-up game's future
            for i in tried:
                end, margin = self._try(world, i, me)
                ends[i] += end or 0.0
                worth[i] += margin
        return self._best(tried, ends, worth)

    def _try(self, world: Game, i: int, me: int) -> tuple[float | None, float]:
        """What option `i` is worth on one made-up game: its place less 1/2 if it ends the
        game (None if not), and the seat's margin after it (0 without a standing)."""
        after = world.copy()
        after.apply_index(i)
        self._play_on(after, me)
        result = after.result
        if result is not None:
            place = place_returns(result.ranking)[me] - 0.5
            if after.players == 1:
                standing = after.standing()
                return place, standing[me] if standing is not None else 0.0
            return place, 0.0
        standing = after.standing()
        if standing is not None:
            return None, _margin(standing, me)
        return (-0.5 if self._threatened(after, me) else None), 0.0

    def _play_on(self, game: Game, me: int) -> None:
        """While the seat still decides (its turn goes on), up to `turn` decisions: each
        the option with the best margin one step on (ties: the first), so that an option
        is judged by what the turn it begins can make of it."""
        for _ in range(self.turn):
            if game.over or game.decider != me:
                return
            n = game.num_options()
            if n > THREAT_WIDTH:
                return
            best, top = 0, float("-inf")
            for j in range(n):
                step = game.copy()
                step.apply_index(j)
                value = self._glance(step, me)
                if value > top:
                    best, top = j, value
            # the steps were tried on one future: the one that follows is another, or the
            # turn would be played by a seat that knew the next roll
            game.reseed(self.rng.getrandbits(64))
            game.apply_index(best)

    def _glance(self, game: Game, me: int) -> float:
        """A game one step on, as a number for the seat: its place if it is over (far
        above or below any margin), else its margin, else 0."""
        result = game.result
        if result is not None:
            return (place_returns(result.ranking)[me] - 0.5) * 1e9
        standing = game.standing()
        return _margin(standing, me) if standing is not None else 0.0

    def _threatened(self, game: Game, me: int) -> bool:
        """Whether the next player, another seat, can win alone at once."""
        other = game.decider
        if other is None or other == me or game.num_options() > THREAT_WIDTH:
            return False
        for j in range(game.num_options()):
            reply = game.copy()
            reply.apply_index(j)
            result = reply.result
            if result is not None and result.ranking[other] == 1 and \
                    result.ranking.count(1) == 1:
                return True
        return False

    def _best(self, tried: Sequence[int], ends: list[float], worth: list[float]) -> int:
        top = max((ends[i], worth[i]) for i in tried)
        best = [i for i in tried if ends[i] >= top[0] - TIE and worth[i] >= top[1] - TIE]
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]


def _margin(standing: Sequence[float], me: int) -> float:
    return margins(standing)[me]
