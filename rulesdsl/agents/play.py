"""Playing whole games with agents: one game (`play_game`), and what to report when a rule
stops one.

Used by `rulesdsl run`, `play`, `simulate` (through rulesdsl.balance), `replay` and
`validate`. Agents are seeded from the game's seed and their seat, so a game does not
depend on which process plays it. A game that a rule stops with an error is reported
with where it happened (the file, the game's number and seed, the turn and the seat) and a
record that `rulesdsl replay` plays again (`failure`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..diagnostics import Diagnostic, RulesError
from ..interpreter.game import Game, Rules
from ..interpreter.observation import Observation, play_out
from ..interpreter.records import Record, bad, make_record, replay_note, write_record
from ..loader import load
from . import AgentSpec, make_agent

__all__ = ["agents_for", "describe_result", "play_game", "play_out", "seat_name", "team_name",
           "wilson"]

AGENT_SEED_STRIDE = 7919


def agents_for(specs: Sequence[AgentSpec | str], players: int, seed: int) -> list[Any]:
    """One agent per seat: the agents named (specs, or their text such as `mcts:sims=400`)
    cycle over the seats; seat p's agent is seeded from the game's seed and p."""
    return [make_agent(specs[p % len(specs)], seed * AGENT_SEED_STRIDE + p)
            for p in range(players)]


@dataclass
class Failed:
    """A game a rule stopped with an error: enough to report it and to record it (plain
    data, so that it comes back from a worker process)."""

    seed: int
    steps: list[int]
    diagnostic: Diagnostic
    made_up: dict[str, Any] | None = None   # it happened in a game a bot made up


def play_game(rules: Rules, players: int, seed: int, agent_names: Sequence[AgentSpec | str],
              limit: int | None = None, before: Callable[[Game, int], None] | None = None,
              agents: list[Any] | None = None) -> tuple[Game | None, Failed | None]:
    """Play one game with agents (the names given cycled over the seats, or `agents` made
    already), stopping at `limit` decisions if it is below the rules' own: the game when
    it ended, or what stopped it."""
    game = None
    try:
        game = rules.new_game(players=players, seed=seed)
        if limit is not None:
            game.limit = min(game.limit, limit)
        play_out(game, agents or agents_for(agent_names, players, seed), before=before)
        return game, None
    except RulesError as err:
        steps = list(game.history) if game is not None else []
        return None, Failed(seed, steps, err.diagnostics[0], err.made_up)


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
                         chance, failed.made_up)
    game = "a game" if number is None else f"game {number}" + (
        f" (of {total})" if total is not None else "")
    who = f", agents {', '.join(agents)}" if agents else ""
    d.notes.append(context or f"in {game} of {path} ({players} "
                              f"player{'s' if players > 1 else ''}, seed {failed.seed}{who})")
    d.notes.append(where(rules, path, record))
    if records is not None:
        written = write_record(record, records)
        d.notes.append(replay_note(written, record, rules.include))
    return RulesError([d], rules.sources)


def where(rules: Rules, path: str, record: Record) -> str:
    """Where in the game a recorded failure happened: the turn, whose turn it was, and the
    last decision. Found by playing the record again with rules that count their turns
    (the coverage points of `turns` loops), so that games without an error pay nothing."""
    from ..interpreter.records import start, step

    try:
        counted = load(path, rules.settings or None, coverage=True, include=rules.include)
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


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k / n (intervals.wilson)."""
    from ..intervals import wilson as interval

    est = interval(k, n)
    return est.low, est.high


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
    why = [f"  the game ended: {result.why}"] if result.why and result.ended_by != "limit" \
        else []
    return [f"Result: {head}"] + why + lines


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
