"""One simulated game as a record, and a batch of them as a worker plays it.

Stage: analysis (it plays through the runner's `play_game`). Game n (from 1) of a run is
fixed by the run alone: its seed is `seed + (n - 1) // rotations` and its rotation
`(n - 1) % rotations` (the agents shifted that many seats), so a game's record does not
depend on which worker played it, nor when. A `Batch` is plain data: a process pool or a
Ray task plays it and hands back the records, and the first failure if a rule stopped a game.

With `Plan.coverage` the rules are compiled to count their coverage points (a rule's start, a
branch, a menu option, a trigger, a turn, an end of the game: compile/compiler.py) and
each game's record holds how often each fired, by seat (`GameRecord.fired`, see fired.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..agents import REGISTRY
from ..agents.play import AGENT_SEED_STRIDE, Failed, play_game
from ..interpreter.game import Game, Rules
from ..loader import backend_for
from .fired import play_counted


@dataclass
class GameRecord:
    """What one game came to: who played which seat, who started, the ranking, the scores,
    its length in decisions, how it ended, the statistics the rule file declares, and the
    decisions themselves (the seed and these replay the game)."""

    number: int
    seed: int
    rotation: int
    agents: list[str]
    first: int | None
    ranking: list[int]
    scores: list[int] | None
    decisions: int
    ended_by: str            # "rules" or "limit"
    ending: str              # the rule that ended it, as people read it
    stats: dict[str, Any] = field(default_factory=dict)
    steps: list[int] = field(default_factory=list)
    teams: list[list[int]] | None = None  # the run's teams (`teams of N`), not stored per game
    # coverage point -> how often it fired for each seat, then for no seat (fired.py);
    # None when the run did not count (stored apart from the game's row)
    fired: dict[int, list[int]] | None = None
    turns: int | None = None  # turns of `turns` loops taken, when the run counted them

    def fields(self) -> tuple[Any, ...]:
        """Its fields in order (`GameRecord(*fields)` makes it again): a third of the time
        of pickling the record itself, as a worker hands back a batch."""
        return (self.number, self.seed, self.rotation, self.agents, self.first, self.ranking,
                self.scores, self.decisions, self.ended_by, self.ending, self.stats,
                self.steps, self.teams, self.fired, self.turns)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["teams"], out["fired"]
        if self.turns is None:
            del out["turns"]
        return out

    @property
    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.ranking) if r == 1]

    @property
    def decisive(self) -> bool:
        """One player (in a game of teams: one team) alone in first place."""
        firsts = self.winners
        return firsts in self.teams if self.teams is not None else len(firsts) == 1

    def shares(self) -> list[float]:
        """Each seat's share of the win: 1 for a sole winner, 1/k to each of k players
        sharing first place (half a win each in a two-player draw), else 0."""
        firsts = self.winners
        return [1 / len(firsts) if p in firsts else 0.0 for p in range(len(self.ranking))]

    def position(self, seat: int) -> int | None:
        """The seat's place in the turn order (0: it started), when the game had turns."""
        if self.first is None:
            return None
        return (seat - self.first) % len(self.ranking)


@dataclass(frozen=True)
class Plan:
    """What a run plays: the rule file (and settings), players, agents cycled over the
    seats, the run's seed, and how many rotations of the agents each seed is played in."""

    path: str
    players: int
    agents: tuple[str, ...]
    seed: int = 1
    rotations: int = 1
    settings: tuple[tuple[str, Any], ...] = ()
    include: tuple[str, ...] = ()  # the folders `extends` may reach beyond the file's own
    native: bool = False  # the rules compiled with Cython (the same games, only faster)
    stats: str = ""          # statistics of the command line (`--stat`), one a line
    coverage: bool = False   # count the coverage points of each game, by seat

    def game_seed(self, number: int) -> int:
        return self.seed + (number - 1) // self.rotations

    def seat_agents(self, number: int) -> list[str]:
        return self._rotated[(number - 1) % self.rotations][:]

    @cached_property
    def _rotated(self) -> list[list[str]]:
        """The agent of each seat in each rotation (worked out once: every game asks)."""
        base = [self.agents[p % len(self.agents)] for p in range(self.players)]
        return [[base[(p + r) % self.players] for p in range(self.players)]
                for r in range(self.rotations)]


@dataclass(frozen=True)
class Batch:
    """Some game numbers of a plan; `run` names the run they go to (its id)."""

    plan: Plan
    numbers: tuple[int, ...]
    keep_steps: bool = True
    run: int = 0


@dataclass
class BatchResult:
    run: int
    records: list[GameRecord]
    failed: tuple[int, Failed] | None = None  # the game number, and what stopped it
    # the rows the store writes, when the worker made them (rows.py): then `records` are
    # the games as the store keeps them
    rows: tuple[list[tuple], list[tuple]] | None = None
    # the records as their fields, as a worker sends them (rows.py: `play_to_send`)
    fields: list[tuple[Any, ...]] | None = None


_LOADED: dict[tuple[str, tuple, tuple, bool, str, bool], Rules] = {}


def _key(plan: Plan) -> tuple[str, tuple, tuple, bool, str, bool]:
    return (plan.path, plan.settings, plan.include, plan.native, plan.stats, plan.coverage)


def rules_of(plan: Plan) -> Rules:
    """The plan's rules, compiled once per process."""
    from .statline import load_with_stats

    key = _key(plan)
    if key not in _LOADED:
        _LOADED[key] = load_with_stats(plan.path, dict(plan.settings) or None, plan.include,
                                       plan.stats, plan.coverage,
                                       backend_for(plan.native))
    return _LOADED[key]


def remember(plan: Plan, rules: Rules) -> None:
    """The rules the command has loaded already serve the plan's games in this process
    (and in the workers a pool forks from it): the rule file is parsed and compiled once."""
    _LOADED[_key(plan)] = rules


_LABELS: dict[tuple[str, int, int], str] = {}


def ending_label(rules: Rules, game: Game) -> str:
    """How a game ended, as a designer reads it: the rule line that ended it with the
    condition it sits under, `the end of play`, or the limit of decisions."""
    if game.ended_by == "limit":
        return f"the limit of {game.limit:,} decisions"
    span = game.ended_at
    if span is None:
        return "the end of play"
    key = (rules.digest, span.line, span.column)
    if key not in _LABELS:
        _LABELS[key] = _rule_line(rules, span)
    return _LABELS[key]


def _rule_line(rules: Rules, span: Any) -> str:
    lines = rules.sources.get(span.file, "").splitlines()
    if not 1 <= span.line <= len(lines):
        return f"line {span.line}"
    text = lines[span.line - 1].strip()
    indent = len(lines[span.line - 1]) - len(lines[span.line - 1].lstrip())
    under = ""
    for above in reversed(lines[:span.line - 1]):
        stripped = above.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(above) - len(above.lstrip()) < indent:
            if stripped.split()[0] in ("if", "elif", "else:", "option", "while"):
                under = f" ({stripped.rstrip(':')})"
            break
    return f"{Path(span.file).name}:{span.line} {text}{under}"


def play_one(plan: Plan, rules: Rules, number: int, keep_steps: bool = True
             ) -> GameRecord | Failed:
    seed = plan.game_seed(number)
    names = plan.seat_agents(number)
    agents = [REGISTRY.maker(name)(seed * AGENT_SEED_STRIDE + p) for p, name in enumerate(names)]
    fired: dict[int, list[int]] | None = None
    if plan.coverage:
        game, failed, fired = play_counted(rules, plan.players, seed, agents)
    else:
        game, failed = play_game(rules, plan.players, seed, [], agents=agents)
    if failed is not None:
        return failed
    assert game is not None
    turns = None
    if fired is not None:
        kinds = rules.program.points
        turns = sum(sum(row) for n, row in fired.items() if kinds[n].kind == "turn")
    result = game.result
    assert result is not None
    return GameRecord(number, seed, (number - 1) % plan.rotations, names, game.first_player,
                      result.ranking, result.scores, game.decisions, result.ended_by,
                      ending_label(rules, game), game.statistics(),
                      game.history if keep_steps else [], rules.teams(plan.players), fired, turns)


def play_batch(batch: Batch) -> BatchResult:
    """Play a batch's games in order; a game a rule stops ends the batch (the games after
    it are not played: the failure is reported)."""
    rules = rules_of(batch.plan)
    out = BatchResult(batch.run, [])
    for number in batch.numbers:
        got = play_one(batch.plan, rules, number, batch.keep_steps)
        if isinstance(got, Failed):
            out.failed = (number, got)
            break
        out.records.append(got)
    return out
