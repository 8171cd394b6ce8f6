"""Base against variant: paired differences on common random numbers.

Stage: analysis. Two runs with the same seed, players, agents and rotations play game n
with the same seed, the same agents in the same seats (and the same rotation of them): the
same dice as far as the rules draw the same way, the same bots' coin flips. Each figure is
then compared game by game, D_n = variant_n - base_n, and the mean of D has a paired t
interval and a p-value: the noise the two runs share cancels, so a paired comparison
needs fewer games than two separate runs (docs/balance.md measures how many).

A metric is a number per game:
- `first`: the win share of the player who took the first turn (`seat:K`, `position:K`:
  of seat K, of the K-th player in turn order, from 1);
- `draw`: 1 when no player (no team) ranks first alone; `length`: decisions; `turns`: the
  turns of `turns` loops (counted when the run counts what fired); `margin`: the best score
  less the second;
- `stat:NAME`: a statistic the rule file declares (`stat:NAME:K` for seat K of one kept
  per player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import intervals as I
from ..intervals import Estimate
from .games import GameRecord


class UnknownMetric(ValueError):
    """A metric that is not one of the forms above, or not measured in these runs."""


def metric_value(metric: str, g: GameRecord) -> float | None:
    """The metric's value in one game (None: the game does not have it)."""
    kind, _, arg = metric.partition(":")
    n = len(g.ranking)
    if kind == "first":
        return g.shares()[g.first] if g.first is not None else None
    if kind in ("seat", "position"):
        k = _number(arg, n, metric)
        if kind == "seat":
            return g.shares()[k]
        if g.first is None:
            return None
        return g.shares()[(g.first + k) % n]
    if kind == "draw":
        return float(not g.decisive)
    if kind == "length":
        return float(g.decisions)
    if kind == "turns":
        return float(g.turns) if g.turns is not None else None
    if kind == "margin":
        if g.scores is None or n < 2:
            return None
        top = sorted(g.scores, reverse=True)
        return float(top[0] - top[1])
    if kind == "stat":
        name, _, seat = arg.partition(":")
        if name not in g.stats:
            return None
        value = g.stats[name]
        if isinstance(value, list):
            if not seat:
                raise UnknownMetric(f"statistic {name} is kept per player: name a seat, "
                                    f"as stat:{name}:1")
            value = value[_number(seat, n, metric)]
        return float(value) if value is not None else None
    raise UnknownMetric(f"unknown metric {metric!r} (metrics: first, seat:K, position:K, "
                        "draw, length, turns, margin, stat:NAME)")


def _number(text: str, players: int, metric: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= players:
        raise UnknownMetric(f"{metric}: a number from 1 to {players} after the colon")
    return int(text) - 1


def check_metric(metric: str, players: int, stats: Sequence[dict[str, bool]] = ()) -> None:
    """A metric's form, checked before any game is played; a statistic against each rule
    file's declared ones (`stats`: name -> kept per player), so that it is known in every
    file, and named with a seat exactly when it is kept per player."""
    fake = GameRecord(1, 1, 0, [], 0, [1] + [2] * (players - 1), [0] * players, 1, "rules",
                      "", {})
    kind = metric.partition(":")[0]
    if kind == "stat":
        name, _, seat = metric.partition(":")[2].partition(":")
        if not name:
            raise UnknownMetric("stat: name the statistic, as stat:NAME")
        for shapes in stats:
            if name not in shapes:
                raise UnknownMetric(f"no statistic named {name!r} in every rule file "
                                    f"(declare it in each, or give it with --stat)")
            if shapes[name] and not seat:
                raise UnknownMetric(f"statistic {name} is kept per player: name a seat, "
                                    f"as stat:{name}:1")
            if not shapes[name] and seat:
                raise UnknownMetric(f"statistic {name} is one per game: stat:{name}, "
                                    "without a seat")
        if seat:
            _number(seat, players, metric)
        return
    metric_value(metric, fake)


def default_metric(records: list[GameRecord]) -> str:
    """The first player's win share when every game had turns, else seat 1's."""
    return "first" if records and all(g.first is not None for g in records) else "seat:1"


def pairs(base: list[GameRecord], variant: list[GameRecord], metric: str
          ) -> tuple[list[float], list[float]]:
    """The metric in the games both runs hold and both measure, paired by number."""
    theirs = {g.number: g for g in variant}
    xs: list[float] = []
    ys: list[float] = []
    for g in base:
        other = theirs.get(g.number)
        if other is None:
            continue
        x, y = metric_value(metric, g), metric_value(metric, other)
        if x is not None and y is not None:
            xs.append(x)
            ys.append(y)
    return xs, ys


def differences(base: list[GameRecord], variant: list[GameRecord], metric: str
                ) -> list[float]:
    xs, ys = pairs(base, variant, metric)
    return [y - x for x, y in zip(xs, ys)]


@dataclass(frozen=True)
class Comparison:
    metric: str
    base: Estimate
    variant: Estimate
    difference: Estimate
    p: float

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "base": self.base.to_json(),
                "variant": self.variant.to_json(), "difference": self.difference.to_json(),
                "p": self.p}


def compare(base: list[GameRecord], variant: list[GameRecord], metric: str) -> Comparison:
    xs, ys = pairs(base, variant, metric)
    diff, p = I.paired([y - x for x, y in zip(xs, ys)])
    if metric.partition(":")[0] in ("first", "seat", "position", "draw"):
        # a win share or a rate: its interval stays within [0, 1]
        return Comparison(metric, I.share(xs), I.share(ys), diff, p)
    return Comparison(metric, I.mean(xs), I.mean(ys), diff, p)


def metrics_for(records: list[GameRecord], shapes: dict[str, str]) -> list[str]:
    """The metrics worth showing for these games: each seat's and place's win share, the
    draws, the length, the margin, and each declared statistic (per game, or seat 1's)."""
    if not records:
        return []
    n = len(records[0].ranking)
    out = [f"seat:{k}" for k in range(1, n + 1)]
    if all(g.first is not None for g in records):
        out = ["first"] + out + [f"position:{k}" for k in range(2, n + 1)]
    out += ["draw", "length"]
    if all(g.turns for g in records):
        out.append("turns")
    if all(g.scores is not None for g in records) and n > 1:
        out.append("margin")
    for name, shape in shapes.items():
        if shape == "player":
            out += [f"stat:{name}:{k}" for k in range(1, n + 1)]
        else:
            out.append(f"stat:{name}")
    return out
