"""How strong agents are: a round robin on one rule file, with 95% intervals.

Stage: run (measuring the bots). For every pair of agents A and B, A takes one seat and B
every other seat; A's seat moves round from game to game (game k: seat k mod players), and
game k of every pair is dealt from the same seed, `seed + k` (paired seeds), its agents
seeded from it as `simulate` seeds them. A game scores A 1 for a first place alone, 1/k
for a first place shared by k, 0 otherwise, so chance is 1/players. With two players the
pair (B, A) is the same games seen from the other side, and is not played again.

An agent's rating is its mean score over all its games as the seated agent, against every
other agent, with its 95% interval; each pair's score has its own. Thinking time is the
process's CPU seconds per decision with more than one option (on a shared machine the
clock counts other programs' work too).

`rulesdsl strength FILE` prints it (`cli.py`); `ladder()` returns it as data for reports.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..interpreter.game import Rules
from ..interpreter.observation import Observation
from . import make_agent, parse_agents
from .play import AGENT_SEED_STRIDE, wilson
from .registry import preset_of

Z95 = 1.96
DEFAULT_AGENTS = "random,greedy,mcts:sims=30,mcts:sims=100"


@dataclass(frozen=True)
class Game1:
    """One game's outcome for the seated agent: its score, and its thinking (seconds and
    decisions) and the other agents' (the same)."""

    score: float
    seconds: float
    decisions: int
    other_seconds: float
    other_decisions: int
    alone: bool = False            # a first place alone
    points: float | None = None    # its score in the game, where the game keeps one
    longest: float = 0.0           # its longest decision (CPU seconds)
    length: int = 0                # the game's decisions, every seat's


@dataclass
class Pairing:
    """Agent `agent` seated with `against` in every other seat: its scores game by game."""

    agent: str
    against: str
    scores: list[float] = field(default_factory=list)

    def estimate(self) -> tuple[float, float, float]:
        return mean_interval(self.scores)


@dataclass
class Rating:
    """An agent's mean score over all its pairings, its 95% interval, and its thinking
    time per decision (CPU seconds)."""

    agent: str
    score: float
    low: float
    high: float
    games: int
    seconds_per_move: float


@dataclass
class Ladder:
    """A round robin's outcome: the pairings, the ratings, what chance would score."""

    file: str
    players: int
    games: int
    pairings: list[Pairing]
    ratings: list[Rating]

    @property
    def chance(self) -> float:
        return 1 / self.players

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "players": self.players, "games": self.games,
            "chance": round(self.chance, 4),
            "ratings": [{"agent": r.agent, "preset": preset_of(r.agent),
                         "score": round(r.score, 4),
                         "interval": [round(r.low, 4), round(r.high, 4)], "games": r.games,
                         "seconds_per_move": round(r.seconds_per_move, 5)}
                        for r in self.ratings],
            "pairings": [{"agent": p.agent, "against": p.against, "games": len(p.scores),
                          "score": round(p.estimate()[0], 4),
                          "interval": [round(x, 4) for x in p.estimate()[1:]]}
                         for p in self.pairings],
        }


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of scores from 0 to 1 and its 95% interval: Wilson's when every score is 0
    or 1, else the normal one from the sample's spread."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = sum(values) / n
    if all(v in (0, 1) for v in values):
        return (mean, *wilson(round(mean * n), n))
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    half = Z95 * (var / n) ** 0.5
    return mean, max(0.0, mean - half), min(1.0, mean + half)


Job = tuple[str, dict[str, Any] | None, tuple[str, ...], bool, int, int, int, str, str]


def play_one(job: Job) -> Game1:
    """One game: `agent` at seat `me`, `against` at every other seat (the rules loaded
    in a worker, built with Cython if `native`: kept in the cache, so only loaded)."""
    from ..loader import backend_for, load

    path, settings, include, native, players, seed, me, agent, against = job
    rules = load(path, settings or None, include=include, backend=backend_for(native))
    return play_game(rules, players, seed, me, agent, against)


def play_game(rules: Rules, players: int, seed: int, me: int, agent: str,
              against: str) -> Game1:
    game = rules.new_game(players=players, seed=seed)
    bots = [make_agent(agent if p == me else against, seed * AGENT_SEED_STRIDE + p)
            for p in range(players)]
    mine = [0.0, 0]
    others = [0.0, 0]
    longest = 0.0
    while not game.over:
        seat = game.decider
        if seat is None:
            game.roll_chance()
            continue
        n = game.num_options()
        start = time.process_time()
        i = bots[seat].choose(Observation(game, seat, n))
        if n > 1:
            spent = time.process_time() - start
            tally = mine if seat == me else others
            tally[0] += spent
            tally[1] += 1
            if seat == me:
                longest = max(longest, spent)
        game.apply_index(i)
    result = game.result
    assert result is not None
    firsts = result.winners
    score = 1 / len(firsts) if me in firsts else 0.0
    return Game1(score, mine[0], int(mine[1]), others[0], int(others[1]), firsts == [me],
                 result.scores[me] if result.scores is not None else None, longest,
                 len(game.history))


def pairs(agents: Sequence[str], players: int) -> list[tuple[str, str]]:
    """The pairings of a round robin: every ordered pair, or with two players every
    unordered one (the other order is the same games)."""
    out = []
    for a, x in enumerate(agents):
        for b, y in enumerate(agents):
            if a != b and (players > 2 or a < b):
                out.append((x, y))
    return out


def ladder(path: str, agents: Sequence[str], players: int | None, games: int,
           seed: int = 1, workers: int = 1, settings: dict[str, Any] | None = None,
           progress: Callable[[Pairing], None] | None = None,
           rules: Rules | None = None, include: Sequence[str] = (),
           native: bool = False) -> Ladder:
    """Play the round robin among `agents` (spec texts or preset names, checked here
    before any game) on the rule file `path` with `settings`, reaching the folders
    `include` beyond its own (`rules`: the rules already loaded so), built with Cython
    if `native` (the same games, only faster)."""
    names = [str(spec) for text in agents for spec in parse_agents(text)]
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError("a round robin needs at least two different agents")
    if rules is None:
        from ..loader import backend_for, load

        rules = load(path, settings or None, include=include, backend=backend_for(native))
    players = rules.check_players(players)
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    plan = pairs(names, players)
    jobs: list[Job] = [(path, settings, rules.include, native, players, seed + k,
                        k % players, a, b) for a, b in plan for k in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            done = list(_gather(pool.map(play_one, jobs, chunksize=1), plan, games,
                                progress))
    else:
        done = list(_gather((play_game(rules, *job[4:]) for job in jobs), plan, games,
                            progress))
    return _rate(path, players, games, names, done)


def _gather(results: Any, plan: list[tuple[str, str]], games: int,
            progress: Callable[[Pairing], None] | None) -> Any:
    """The pairings with their games, each handed to `progress` as soon as it is done."""
    it = iter(results)
    for a, b in plan:
        pairing = Pairing(a, b)
        played = [next(it) for _ in range(games)]
        pairing.scores = [g.score for g in played]
        if progress is not None:
            progress(pairing)
        yield pairing, played


def _rate(path: str, players: int, games: int, names: list[str],
          done: list[tuple[Pairing, list[Game1]]]) -> Ladder:
    scores: dict[str, list[float]] = {n: [] for n in names}
    thinking: dict[str, list[float]] = {n: [0.0, 0] for n in names}
    for pairing, played in done:
        for g in played:
            scores[pairing.agent].append(g.score)
            thinking[pairing.agent][0] += g.seconds
            thinking[pairing.agent][1] += g.decisions
            thinking[pairing.against][0] += g.other_seconds
            thinking[pairing.against][1] += g.other_decisions
            if players == 2:  # the same game, seen from the other seat
                scores[pairing.against].append(1 - g.score)
    ratings = []
    for n in names:
        mean, low, high = mean_interval(scores[n])
        secs, count = thinking[n]
        ratings.append(Rating(n, mean, low, high, len(scores[n]),
                              secs / count if count else 0.0))
    return Ladder(path, players, games, [p for p, _ in done], ratings)


def describe(out: Ladder) -> str:
    """The ladder as people read it: ratings, then every pairing, each with its interval."""
    lines = [f"{out.file}: {out.players} players, {out.games} games a pairing; chance "
             f"scores {out.chance:.2f}", "", "ratings (mean share of first places seated "
             "with the others, 95% interval; CPU seconds a decision):"]
    ranked = sorted(out.ratings, key=lambda r: -r.score)
    names = [f"{r.agent} ({p})" if (p := preset_of(r.agent)) else r.agent for r in ranked]
    width = max(map(len, names), default=0)
    for r, name in zip(ranked, names):
        lines.append(f"  {name:<{width}}  {r.score:.3f} ({r.low:.3f} to {r.high:.3f}) over "
                     f"{r.games} games; {r.seconds_per_move:.4f} s a decision")
    lines += ["", "pairings (the first agent in one seat, the second in every other):"]
    lines += [describe_pairing(p) for p in out.pairings]
    return "\n".join(lines)


def describe_pairing(p: Pairing) -> str:
    mean, low, high = p.estimate()
    return (f"  {p.agent} with {p.against}: {mean:.3f} ({low:.3f} to {high:.3f}) over "
            f"{len(p.scores)} games")
