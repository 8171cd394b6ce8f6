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
from collections.abc import Iterator
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


class Firsts(NamedTuple):
    """Who won a game, each seat's share of the win, and whether one player (team) won alone."""

    winners: list[int]
    shares: list[float]
    decisive: bool


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


def balance_of(shares: list[list[float]], players: int, exact: bool) -> Estimate:
    """1 - (max - min) of the mean win shares, with a Bonferroni interval."""
    level = balance_level(players)
    ests = [I.share(s, exact, level) for s in shares]
    value = 1 - (max(e.value for e in ests) - min(e.value for e in ests))
    widest = max(e.high for e in ests) - min(e.low for e in ests)
    narrowest = max(0.0, max(e.low for e in ests) - min(e.high for e in ests))
    return Estimate(value, max(0.0, 1 - widest), 1 - narrowest, len(shares[0]))


def figures(records: list[GameRecord], players: int, stat_shapes: dict[str, str],
            exact: bool = False) -> Figures:
    n = len(records)
    firsts = _firsts(records)
    shares = [o.shares for o in firsts]
    by_seat = [[s[p] for s in shares] for p in range(players)]
    seat_share = [I.share(v, exact) for v in by_seat]
    # a seat's wins: the games it (its team) won alone
    alone = Counter(tuple(o.winners) for o in firsts if o.decisive)
    seat_wins = [sum(k for won, k in alone.items() if p in won) for p in range(players)]
    position_share = position_balance = None
    if records and all(g.first is not None for g in records):
        by_place = [[0.0] * n for _ in range(players)]
        for i, g in enumerate(records):  # a seat's place in the turn order: g.position
            first, seats, share = g.first, len(g.ranking), shares[i]
            for p in range(players):
                by_place[(p - first) % seats][i] = share[p]  # type: ignore[operator]
        position_share = [I.share(v, exact) for v in by_place]
        position_balance = balance_of(by_place, players, exact)
    sole = sum(alone.values())
    limit = sum(1 for g in records if g.ended_by == "limit")
    lengths = [g.decisions for g in records]
    scores = margin = None
    if records and all(g.scores is not None for g in records):
        scores = [I.mean([g.scores[p] for g in records]) for p in range(players)]  # type: ignore[index]
        if players > 1:
            margin = I.mean([_margin(g.scores) for g in records])  # type: ignore[arg-type]
    endings = Counter(g.ending for g in records)
    return Figures(
        n, players, seat_share, seat_wins, position_share,
        I.rate(sole, n, exact), I.rate(n - sole - limit, n, exact), I.rate(limit, n, exact),
        balance_of(by_seat, players, exact) if n else Estimate(float("nan"), 0, 1, 0),
        position_balance, I.mean(lengths), I.quantiles(lengths), scores, margin,
        {label: I.rate(k, n, exact) for label, k in sorted(endings.items(),
                                                           key=lambda kv: (-kv[1], kv[0]))},
        declared(records, players, stat_shapes, exact), *_teams(records, alone, shares, exact),
        *_agents(records, shares, exact))


def _agents(records: list[GameRecord], shares: list[list[float]], exact: bool) -> tuple:
    """Each agent's share of the wins (of the seats it plays, added up), when the seats
    have different agents; with rotations, every agent sits in every seat in turn."""
    names = sorted({a for g in records for a in g.agents})
    if len(names) < 2:
        return None, None
    share = {a: I.share([sum(s[p] for p, x in enumerate(g.agents) if x == a)
                         for g, s in zip(records, shares)], exact) for a in names}
    seats = len(records[0].agents)
    even = {a: sum(g.agents.count(a) for g in records) / (seats * len(records))
            for a in names}
    return share, even


def _firsts(records: list[GameRecord]) -> list[Firsts]:
    """Each game's winners, shares and whether it was decisive, worked out once for each
    ranking the games came to (a study's games come to a few)."""
    known: dict[tuple[tuple[int, ...], int], Firsts] = {}
    out = []
    for g in records:
        key = (tuple(g.ranking), id(g.teams))
        got = known.get(key)
        if got is None:
            got = known[key] = Firsts(g.winners, g.shares(), g.decisive)
        out.append(got)
    return out


def _teams(records: list[GameRecord], alone: Counter[tuple[int, ...]],
           shares: list[list[float]], exact: bool) -> tuple:
    """Each team's share of the wins (its players' shares added up) and its sole wins."""
    teams = records[0].teams if records else None
    if teams is None:
        return None, None, None
    team_share = [I.share([sum(s[p] for p in team) for s in shares], exact) for team in teams]
    wins = [alone[tuple(team)] for team in teams]
    return teams, team_share, wins


def _margin(scores: list[int]) -> float:
    """The best score less the second best (0 when they tie)."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1]


def declared(records: list[GameRecord], players: int, shapes: dict[str, str],
             exact: bool = False) -> dict[str, Any]:
    """Each declared statistic: a rate (true/false), or a mean with its interval and
    quantiles; one per seat and per place in the turn order for one kept per player."""
    out: dict[str, Any] = {}
    for name, shape in shapes.items():
        values = [g.stats.get(name) for g in records]
        if shape == "player":
            per_seat = [[v[p] for v in values if v is not None] for p in range(players)]
            entry: dict[str, Any] = {"per": "player",
                                     "seat": [_summary(v, exact) for v in per_seat],
                                     "all": _summary([x for v in per_seat for x in v], exact)}
            if records and all(g.first is not None for g in records):
                per_place: list[list[Any]] = [[] for _ in range(players)]
                for g, v in zip(records, values):
                    if v is not None:
                        for p in range(players):
                            per_place[g.position(p)].append(v[p])  # type: ignore[index]
                entry["position"] = [_summary(v, exact) for v in per_place]
            out[name] = entry
        else:
            out[name] = {"per": "game", "all": _summary([v for v in values if v is not None],
                                                        exact)}
    return out


def _summary(values: list[Any], exact: bool) -> dict[str, Any]:
    if values and all(isinstance(v, bool) for v in values):
        return {"kind": "rate", "estimate": I.rate(sum(values), len(values), exact)}
    nums = [float(v) for v in values if isinstance(v, (int, float)) and
            not isinstance(v, bool)]
    return {"kind": "mean", "estimate": I.mean(nums), "quantiles": I.quantiles(nums)}
