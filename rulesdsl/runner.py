"""Playing whole games with agents: one narrated game, or many for statistics.

Used by `rulesdsl run`, `play`, `simulate`, `replay` and `validate`. Game k of a simulation
uses the game seed `seed + k` and agents seeded from it, so the results do not depend on how
many worker processes share the work. A game that a rule stops with an error is reported
with where it happened (the file, the game's number and seed, the turn and the seat) and a
record that `rulesdsl replay` plays again (`failure`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .agents import AgentSpec, make_agent
from .diagnostics import Diagnostic, RulesError
from .interpreter.game import Game, Rules
from .interpreter.observation import Observation, play_out
from .interpreter.records import Record, bad, make_record, write_record
from .loader import load

__all__ = ["Summary", "agents_for", "describe_result", "play_out", "seat_name", "simulate",
           "team_name", "wilson"]

AGENT_SEED_STRIDE = 7919


def agents_for(specs: Sequence[AgentSpec | str], players: int, seed: int) -> list[Any]:
    """One agent per seat: the agents named (specs, or their text such as `mcts:sims=400`)
    cycle over the seats; seat p's agent is seeded from the game's seed and p."""
    return [make_agent(specs[p % len(specs)], seed * AGENT_SEED_STRIDE + p)
            for p in range(players)]


@dataclass
class Summary:
    """What many games of one rule file came to."""

    file: str
    game: str
    games: int
    players: int
    wins: list[int]
    draws: int
    decisions: int
    scores: list[float] | None
    seconds: float
    limits: int = 0  # games that reached their limit of decisions
    agents: list[str] = field(default_factory=list)  # as named: mcts:sims=400, random
    # a game of teams: the seats of each team, and how often each team won (a seat's wins
    # are its team's)
    teams: list[list[int]] | None = None
    team_wins: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        out = self._json(n)
        if self.teams is not None and self.team_wins is not None:
            out["teams"] = self.teams
            out["team_wins"] = self.team_wins
            out["team_win_rates"] = [w / n for w in self.team_wins]
            out["team_win_intervals"] = [list(wilson(w, self.games)) for w in self.team_wins]
            if self.scores is not None:
                out["team_mean_scores"] = [self.scores[t[0]] / n for t in self.teams]
        return out

    def _json(self, n: int) -> dict[str, Any]:
        return {
            "file": self.file,
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "agents": self.agents,
            "wins": self.wins,
            "win_rates": [w / n for w in self.wins],
            "draws": self.draws,
            "mean_decisions": self.decisions / n,
            "mean_scores": [s / n for s in self.scores] if self.scores is not None else None,
            "limit_endings": self.limits,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Failed:
    """A game a rule stopped with an error: enough to report it and to record it (plain
    data, so that it comes back from a worker process)."""

    seed: int
    steps: list[int]
    diagnostic: Diagnostic


def play_game(rules: Rules, players: int, seed: int, agent_names: Sequence[AgentSpec | str],
              limit: int | None = None, before: Callable[[Game, int], None] | None = None
              ) -> tuple[Game | None, Failed | None]:
    """Play one game with agents (stopping at `limit` decisions if it is below the rules'
    own): the game when it ended, or what stopped it."""
    game = None
    try:
        game = rules.new_game(players=players, seed=seed)
        if limit is not None:
            game.limit = min(game.limit, limit)
        play_out(game, agents_for(agent_names, players, seed), before=before)
        return game, None
    except RulesError as err:
        steps = list(game.history) if game is not None else []
        return None, Failed(seed, steps, err.diagnostics[0])


def _play_chunk(args: tuple) -> tuple:
    path, overrides, players, seeds, agent_names = args
    rules = load(path, overrides)
    wins = [0] * players
    draws = decisions = limits = 0
    scores: list[float] | None = None
    for seed in seeds:
        game, failed = play_game(rules, players, seed, agent_names)
        if failed is not None:  # the games after it are not played: it is reported
            return wins, draws, decisions, scores, limits, failed
        assert game is not None and game.result is not None
        result = game.result
        firsts = result.winners
        if result.teams is not None and firsts in result.teams:  # a team alone in first
            for p in firsts:
                wins[p] += 1
        elif result.teams is None and len(firsts) == 1:
            wins[firsts[0]] += 1
        else:
            draws += 1
        limits += result.ended_by == "limit"
        decisions += game.decisions
        if result.scores is not None:
            if scores is None:
                scores = [0.0] * players
            for p, s in enumerate(result.scores):
                scores[p] += s
    return wins, draws, decisions, scores, limits, None


def simulate(path: str, players: int, games: int, seed: int,
             agent_names: Sequence[AgentSpec | str],
             workers: int = 1, overrides: dict[str, Any] | None = None,
             rules: Rules | None = None, records: str | Path | None = ".") -> Summary:
    """Play `games` games (seeds `seed`, `seed + 1`, ...). A game a rule stops ends the
    simulation with a RulesError for the first such seed (see `failure`)."""
    rules = rules or load(path, overrides)
    start = time.perf_counter()
    seeds = list(range(seed, seed + games))
    workers = max(1, min(workers, games))
    chunks = [seeds[i::workers] for i in range(workers)]
    jobs = [(path, overrides, players, chunk, agent_names) for chunk in chunks if chunk]
    if workers == 1:
        parts = [_play_chunk(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_play_chunk, jobs))
    failures = [part[5] for part in parts if part[5] is not None]
    if failures:
        # each worker stops at its first failure: the smallest seed among them is the
        # first failing game overall, whatever the number of workers
        first = min(failures, key=lambda f: f.seed)
        raise report_failure(rules, path, players, first, agent_names, first.seed - seed + 1,
                             records, total=games)
    wins = [0] * players
    draws = decisions = limits = 0
    scores: list[float] | None = None
    for w, d, n, s, lim, _ in parts:
        wins = [a + b for a, b in zip(wins, w)]
        draws += d
        decisions += n
        limits += lim
        if s is not None:
            scores = s if scores is None else [a + b for a, b in zip(scores, s)]
    teams = rules.teams(players)
    return Summary(str(Path(path)), rules.name, games, players, wins, draws, decisions,
                   scores, time.perf_counter() - start, limits,
                   [str(a) for a in agent_names], teams=teams,
                   team_wins=[wins[t[0]] for t in teams] if teams else None)


def seat_agents(names: Sequence[AgentSpec | str], players: int) -> list[str]:
    """The agent of each seat as named (`mcts:sims=400`), the names cycled over the seats."""
    return [str(names[p % len(names)]) for p in range(players)]


def report_failure(rules: Rules, path: str, players: int, failed: Failed,
                   agent_names: Sequence[AgentSpec | str], number: int | None,
                   records: str | Path | None,
                   chance: Literal["seeded", "chosen"] = "seeded", total: int | None = None,
                   context: str | None = None) -> RulesError:
    """The error that stopped a game, with where it happened (the file, the game's number
    of `total` and its seed, or else `context`; the turn and the seat) as notes, and its
    record written into `records`."""
    d = failed.diagnostic
    agents = seat_agents(agent_names, players) if agent_names else []
    record = make_record(rules, path, players, failed.seed, failed.steps, agents, number, d,
                         chance)
    game = "a game" if number is None else f"game {number}" + (
        f" (of {total})" if total is not None else "")
    who = f", agents {', '.join(agents)}" if agents else ""
    d.notes.append(context or f"in {game} of {path} ({players} "
                              f"player{'s' if players > 1 else ''}, seed {failed.seed}{who})")
    d.notes.append(where(rules, path, record))
    if records is not None:
        written = write_record(record, records)
        d.notes.append(f"replay it with: rulesdsl replay {written}"
                       if isinstance(written, Path) else str(written))
    return RulesError([d], rules.sources)


def where(rules: Rules, path: str, record: Record) -> str:
    """Where in the game a recorded failure happened: the turn, whose turn it was, and the
    last decision. Found by playing the record again with rules that count their turns
    (the coverage points of `turns` loops), so that games without an error pay nothing."""
    from .interpreter.records import start, step

    try:
        counted = load(path, rules.settings or None, coverage=True)
        game = start(record, counted)
    except RulesError:
        return "in the setup, before the first decision"
    last = ""
    try:
        for n in range(len(record.steps)):
            decision = game.decision
            if decision is not None:
                i = record.steps[n]
                last = f"{seat_name(decision.player)} chose '{decision.options[i].label}'"
            step(game, record, n)
    except RulesError:
        pass  # the error the record ends with: the game stands where it stopped
    prog = counted.program
    turn = sum(h for h, pt in zip(prog.hits, prog.points) if pt.kind == "turn")
    current = game.current
    place = f"turn {turn}" + (f" ({seat_name(current)}'s turn)" if isinstance(current, int)
                              and not isinstance(current, bool) else "")
    if not turn:
        place = "before the first turn"
    decisions = game.decisions
    after = f"after {decisions} decision{'s' if decisions != 1 else ''}"
    return f"{place}, {after}" + (f"; the last: {last}" if last else "")


class RecordEnded(Exception):
    """A replayed record has no more steps, and the game goes on."""


class Script:
    """Takes a record's steps in order: the agent of every seat of a replay, and its
    chance steps when the record chose their outcomes."""

    name = "replay"

    def __init__(self, record: Record):
        self.record = record
        self.taken = 0

    def choose(self, observation: Observation) -> int:
        return self.take(observation.num_options)

    def take(self, n: int) -> int:
        """The record's next step, one of n options."""
        if self.taken >= len(self.record.steps):
            raise RecordEnded()
        i = self.record.steps[self.taken]
        if i >= n:
            raise bad(f"step {self.taken + 1} of the record is option {i}, but the game "
                      f"has {n} options there: the record does not fit these rules")
        self.taken += 1
        return i

    def roll(self) -> Callable[[int], int] | None:
        """What play_out rolls chance with: the record's outcomes, or (None) the seed."""
        return self.take if self.record.chance == "chosen" else None


def seat_name(p: int) -> str:
    return f"player {p + 1}"


def team_name(k: int, team: list[int]) -> str:
    return f"team {k + 1} (players {', '.join(str(p + 1) for p in team)})"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def describe_result(game: Game) -> list[str]:
    result = game.result
    assert result is not None
    if result.teams is not None:
        return _describe_teams(result.ranking, result.scores, result.teams)
    lines = []
    order = sorted(range(game.players), key=lambda p: result.ranking[p])
    for p in order:
        score = f", score {result.scores[p]}" if result.scores is not None else ""
        lines.append(f"  {result.ranking[p]}. {seat_name(p)}{score}")
    winners = result.winners
    if result.ended_by == "limit":
        head = (f"the game reached its limit of {game.limit:,} decisions without ending: "
                "nobody wins")
    elif len(winners) == 1:
        head = f"{seat_name(winners[0])} wins"
    elif len(winners) == game.players:
        head = "a draw"
    else:
        head = "a shared win: " + ", ".join(seat_name(p) for p in winners)
    return [f"Result: {head}"] + lines


def _describe_teams(ranking: list[int], scores: list[int] | None,
                    teams: list[list[int]]) -> list[str]:
    order = sorted(range(len(teams)), key=lambda k: ranking[teams[k][0]])
    lines = [f"  {ranking[teams[k][0]]}. {team_name(k, teams[k])}"
             + (f", score {scores[teams[k][0]]}" if scores is not None else "")
             for k in order]
    first = [k for k in order if ranking[teams[k][0]] == 1]
    head = f"{team_name(first[0], teams[first[0]])} wins" if len(first) == 1 else \
        "a shared win: " + ", ".join(team_name(k, teams[k]) for k in first)
    return [f"Result: {head}"] + lines
