"""Playing whole games with agents: one narrated game, or many for statistics.

Used by `rulesdsl run`, `play` and `simulate`. Game k of a simulation uses the game seed
`seed + k` and agents seeded from it, so the results do not depend on how many worker
processes share the work.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import AgentSpec, make_agent
from .interpreter.game import Game, Rules
from .interpreter.observation import play_out
from .loader import load

__all__ = ["Summary", "agents_for", "describe_result", "play_out", "seat_name", "simulate"]

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
    errors: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)  # as named: mcts:sims=400, random

    def to_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
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
            "seconds": round(self.seconds, 3),
        }


def _play_chunk(args: tuple) -> tuple:
    path, overrides, players, seeds, agent_names = args
    rules = load(path, overrides)
    wins = [0] * players
    draws = 0
    decisions = 0
    scores: list[float] | None = None
    for seed in seeds:
        game = rules.new_game(players=players, seed=seed)
        play_out(game, agents_for(agent_names, players, seed))
        result = game.result
        assert result is not None
        firsts = result.winners
        if len(firsts) == 1:
            wins[firsts[0]] += 1
        else:
            draws += 1
        decisions += len(game.history)
        if result.scores is not None:
            if scores is None:
                scores = [0.0] * players
            for p, s in enumerate(result.scores):
                scores[p] += s
    return wins, draws, decisions, scores


def simulate(path: str, players: int, games: int, seed: int,
             agent_names: Sequence[AgentSpec | str],
             workers: int = 1, overrides: dict[str, Any] | None = None,
             rules: Rules | None = None) -> Summary:
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
    wins = [0] * players
    draws = decisions = 0
    scores: list[float] | None = None
    for w, d, n, s in parts:
        wins = [a + b for a, b in zip(wins, w)]
        draws += d
        decisions += n
        if s is not None:
            scores = s if scores is None else [a + b for a, b in zip(scores, s)]
    return Summary(str(Path(path)), rules.name, games, players, wins, draws, decisions,
                   scores, time.perf_counter() - start, agents=[str(a) for a in agent_names])


def seat_name(p: int) -> str:
    return f"player {p + 1}"


def describe_result(game: Game) -> list[str]:
    result = game.result
    assert result is not None
    lines = []
    order = sorted(range(game.players), key=lambda p: result.ranking[p])
    for p in order:
        score = f", score {result.scores[p]}" if result.scores is not None else ""
        lines.append(f"  {result.ranking[p]}. {seat_name(p)}{score}")
    winners = result.winners
    if len(winners) == 1:
        head = f"{seat_name(winners[0])} wins"
    elif len(winners) == game.players:
        head = "a draw"
    else:
        head = "a shared win: " + ", ".join(seat_name(p) for p in winners)
    return [f"Result: {head}"] + lines
