"""The figures of a run, each with its 95% interval: who wins by seat and by place in the
turn order, draws, how games end, their length, scores and margins, the Ludii-style
balance metrics, and the statistics the rule file declares.

Stage: analysis. A win is counted as a share (intervals.share): 1 to a sole winner, 1/k
to each of k players who share first place, so a two-player draw is half a win each and
every game hands out exactly one win. The metrics, after Ludii and Browne:
- decisiveness: games with a sole winner;
- drawishness: games the rules end with first place shared (a round limit included);
- timeouts: games stopped at the limit of decisions (`limit N decisions`); completion is
  the rest;
- balance: 1 - (the highest win share of a seat - the lowest); its interval comes from
  the seats' own intervals at 1 - 5%/players (Bonferroni: conservative);
- advantage of the first player: the win share of whoever took the first turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .. import intervals as I
from ..intervals import Estimate
from .games import GameRecord


@dataclass
class Figures:
    games: int
    players: int
    seat_share: list[Estimate]
    seat_wins: list[int]                   # sole wins
    position_share: list[Estimate] | None  # by place in the turn order (None: no turns)
    decisive: Estimate
    draws: Estimate
    timeouts: Estimate
    balance: Estimate
    position_balance: Estimate | None
    length: Estimate
    length_quantiles: list[float]
    scores: list[Estimate] | None
    margin: Estimate | None
    endings: dict[str, Estimate]
    stats: dict[str, Any] = field(default_factory=dict)
    teams: list[list[int]] | None = None
    team_share: list[Estimate] | None = None  # a team's share of the wins
    team_wins: list[int] | None = None         # the games a team won alone
    # with two agents or more: the share of the wins the seats an agent plays take, and
    # what an even game gives them (their seats' fraction of all seats)
    agent_share: dict[str, Estimate] | None = None
    agent_even: dict[str, float] | None = None

    def to_json(self) -> dict[str, Any]:
        def js(e: Any) -> Any:
            if isinstance(e, Estimate):
                return e.to_json()
            if isinstance(e, list):
                return [js(x) for x in e]
            if isinstance(e, dict):
                return {k: js(v) for k, v in e.items()}
            return e

        return {k: js(v) for k, v in self.__dict__.items()}


class Outcome(NamedTuple):
    """What a game's ranking, first player and agents come to, worked out once for each
    such game (a study's games come to a few): each seat's share of the win, each place
    in the turn order's (None without turns), each team's, each agent's, and the winners
    of a sole win (None when first place was shared)."""

    shares: list[float]
    places: list[float] | None
    teams: list[float]
    agents: dict[str, float]
    alone: tuple[int, ...] | None


def balance_level(players: int) -> float:
    """The level of each seat's interval that balance's comes from (Bonferroni)."""
    return 1 - (1 - I.LEVEL) / max(players, 1)


def quantiles_ahead(games: int, players: int) -> Iterator[None]:
    """Work out the t quantiles the figures of `games` games will ask for (intervals.py
    remembers them), one a step: the caller takes a step when it has time to spare (a
    study, while its worker plays). Each is a hundred steps of bisection, about 5 ms, that
    the figures would otherwise ask for after the last game: the means over the games (and
    over every seat's values, for a statistic per player), and the shares at balance's
    level."""
    for n, level in ((games, I.LEVEL), (games, balance_level(players)),
                     (games * players, I.LEVEL)):
        if n >= 2:
            I.t_critical(n, level)
            yield


def shares_and_balance(columns: list[list[float]], players: int, exact: bool
                       ) -> tuple[list[Estimate], Estimate]:
    """Each column's share (intervals.share), and the balance of the columns: each column
    gone over once for both."""
    both = [I.shares(c, exact, (I.LEVEL, balance_level(players))) for c in columns]
    return [e[0] for e in both], balance_from([e[1] for e in both], len(columns[0]))


def balance_from(ests: list[Estimate], n: int) -> Estimate:
    """1 - (max - min) of the mean win shares, with a Bonferroni interval: from the
    seats' shares, each at balance's level (`balance_level`)."""
    value = 1 - (max(e.value for e in ests) - min(e.value for e in ests))
    widest = max(e.high for e in ests) - min(e.low for e in ests)
    narrowest = max(0.0, max(e.low for e in ests) - min(e.high for e in ests))
    return Estimate(value, max(0.0, 1 - widest), 1 - narrowest, n)


def figures(records: list[GameRecord], players: int, stat_shapes: dict[str, str],
            exact: bool = False) -> Figures:
    tally = Tally(players, stat_shapes)
    tally.add(records)
    return tally.figures(exact)


class Tally:
    """The columns the figures are worked out from, added to game by game: a study adds
    each batch as it stores it, while its worker plays the next, and the figures after the
    last game are then sums over these lists (every figure is the same whatever order the
    games were added in: rates of whole counts, exact sums, sorted quantiles)."""

    def __init__(self, players: int, stat_shapes: dict[str, str]):
        self.players, self.shapes = players, stat_shapes
        self.n = self.limit = 0
        self.last = 0  # the largest game number added
        self.known: dict[tuple[tuple[int, ...], int | None, tuple[str, ...]], Outcome] = {}
        self.outcomes: list[Outcome] = []  # game by game
        self.turns = True  # every game had a first player
        self.alone: Counter[tuple[int, ...]] = Counter()  # the winners of a sole win
        self.lengths: list[int] = []
        self.scores: list[list[Any]] | None = [[] for _ in range(players)]
        self.margins: list[float] = []
        self.endings: Counter[str] = Counter()
        self.teams: list[list[int]] | None = None
        self.seats = 0  # the agents of a game (of the first one added)
        self.lineups: Counter[tuple[str, ...]] = Counter()  # the agents of the games
        self.stats: dict[str, list[Any]] = {name: [] for name in stat_shapes}
        self.stat_places: dict[str, list[list[Any]]] = {
            name: [[] for _ in range(players)] for name, shape in stat_shapes.items()
            if shape == "player"}

    def add(self, records: Iterable[GameRecord]) -> None:
        for g in records:
            if not self.n:
                self.teams, self.seats = g.teams, len(g.agents)
            self.n += 1
            self.last = max(self.last, g.number)
            lineup = tuple(g.agents)
            key = (tuple(g.ranking), g.first, lineup)
            got = self.known.get(key)
            if got is None:
                got = self.known[key] = self._outcome(g)
            self.outcomes.append(got)
            if got.alone is not None:
                self.alone[got.alone] += 1
            self.turns = self.turns and got.places is not None
            self.lineups[lineup] += 1
            self.limit += g.ended_by == "limit"
            self.lengths.append(g.decisions)
            self.endings[g.ending] += 1
            if self.scores is not None:
                self._scores(g.scores)
            if self.stats:
                self._stats(g)

    def _outcome(self, g: GameRecord) -> Outcome:
        share = g.shares()
        places = None
        if g.first is not None:  # each place in the turn order's share
            places = [0.0] * self.players
            for p in range(self.players):
                places[g.position(p)] = share[p]  # type: ignore[index]
        return Outcome(share, places, [sum(share[p] for p in team) for team in self.teams or ()],
                       {a: sum(share[p] for p, x in enumerate(g.agents) if x == a)
                        for a in set(g.agents)},
                       tuple(g.winners) if g.decisive else None)

    def _scores(self, scores: list[Any] | None) -> None:
        if scores is None:
            self.scores = None
            return
        for p, column in enumerate(self.scores or ()):
            column.append(scores[p])
        if self.players > 1:
            self.margins.append(_margin(scores))

    def _stats(self, g: GameRecord) -> None:
        for name, column in self.stats.items():
            value = g.stats.get(name)
            column.append(value)
            places = self.stat_places.get(name)
            if places is not None and value is not None and g.first is not None:
                for p in range(self.players):
                    places[g.position(p)].append(value[p])  # type: ignore[index]

    def figures(self, exact: bool = False) -> Figures:
        n, players = self.n, self.players
        by_seat = [[o.shares[p] for o in self.outcomes] for p in range(players)]
        seat_share, balance = shares_and_balance(by_seat, players, exact)
        # a seat's wins: the games it (its team) won alone
        seat_wins = [sum(k for won, k in self.alone.items() if p in won)
                     for p in range(players)]
        position_share = position_balance = None
        if n and self.turns:
            by_place = [[o.places[q] for o in self.outcomes]  # type: ignore[index]
                        for q in range(players)]
            position_share, position_balance = shares_and_balance(by_place, players, exact)
        sole = sum(self.alone.values())
        scores = margin = None
        if n and self.scores is not None:
            scores = [I.mean(column) for column in self.scores]
            if players > 1:
                margin = I.mean(self.margins)
        return Figures(
            n, players, seat_share, seat_wins, position_share,
            I.rate(sole, n, exact), I.rate(n - sole - self.limit, n, exact),
            I.rate(self.limit, n, exact),
            balance if n else Estimate(float("nan"), 0, 1, 0),
            position_balance, I.mean(self.lengths), I.quantiles(self.lengths), scores, margin,
            {label: I.rate(k, n, exact) for label, k in sorted(
                self.endings.items(), key=lambda kv: (-kv[1], kv[0]))},
            self._declared(exact), *self._teams(exact), *self._agents(exact))

    def _agents(self, exact: bool) -> tuple:
        """Each agent's share of the wins (of the seats it plays, added up), when the seats
        have different agents; with rotations, every agent sits in every seat in turn."""
        seated: Counter[str] = Counter()  # the seats each agent played, game by game
        for lineup, k in self.lineups.items():
            for a in lineup:
                seated[a] += k
        names = sorted(seated)
        if len(names) < 2:
            return None, None
        share = {a: I.share([o.agents.get(a, 0) for o in self.outcomes], exact)
                 for a in names}
        even = {a: seated[a] / (self.seats * self.n) for a in names}
        return share, even

    def _teams(self, exact: bool) -> tuple:
        """Each team's share of the wins (its players' shares added up) and its sole wins."""
        if self.teams is None:
            return None, None, None
        team_share = [I.share([o.teams[t] for o in self.outcomes], exact)
                      for t in range(len(self.teams))]
        return self.teams, team_share, [self.alone[tuple(team)] for team in self.teams]

    def _declared(self, exact: bool) -> dict[str, Any]:
        """Each declared statistic: a rate (true/false), or a mean with its interval and
        quantiles; one per seat and per place in the turn order for one kept per player."""
        out: dict[str, Any] = {}
        for name, shape in self.shapes.items():
            values = self.stats[name]
            if shape != "player":
                out[name] = {"per": "game", "all": _summary(
                    [v for v in values if v is not None], exact)}
                continue
            per_seat = [[v[p] for v in values if v is not None]
                        for p in range(self.players)]
            entry: dict[str, Any] = {"per": "player",
                                     "seat": [_summary(v, exact) for v in per_seat],
                                     "all": _summary([x for v in per_seat for x in v], exact)}
            if self.n and self.turns:
                entry["position"] = [_summary(v, exact) for v in self.stat_places[name]]
            out[name] = entry
        return out


def _margin(scores: list[int]) -> float:
    """The best score less the second best (0 when they tie)."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1]


def _summary(values: list[Any], exact: bool) -> dict[str, Any]:
    if values and all(isinstance(v, bool) for v in values):
        return {"kind": "rate", "estimate": I.rate(sum(values), len(values), exact)}
    nums = [float(v) for v in values if isinstance(v, (int, float)) and
            not isinstance(v, bool)]
    return {"kind": "mean", "estimate": I.mean(nums), "quantiles": I.quantiles(nums)}
