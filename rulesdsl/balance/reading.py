"""What a study says and how far to trust it, put together from the database for the
tables of `simulate` and the page of `report`: the bots and their strength, and for each
variant the metrics with the chosen one apart, Holm's correction, the smallest detectable
difference, pairing's gain, and how play changed.

Stage: analysis (between the statistics and their presentation: show.py and report.py
render what this gathers, so the terminal and the page say the same).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..intervals import Estimate, mean_sd
from .bots import Strength, measured, warnings
from .changes import PointChange, barely_lines, play_changes
from .compare import Comparison, pairs
from .games import GameRecord
from .store import Run, Store
from .trust import Trust, games_needed, same_rankings, trusts

DELTA = 0.05  # the difference worth finding when a study did not name one


@dataclass
class Bots:
    """Which agents played which seats, their measured strength, and the warnings."""

    seats: list[str]
    rotated: bool
    strengths: list[Strength]
    warnings: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "rotated": self.rotated,
                "strengths": [s.to_json() for s in self.strengths],
                "warnings": self.warnings}


def bots(store: Store, run: Run) -> Bots:
    """A run's bots: their seats, and each agent's strength (calibrated, or given)."""
    seats = [run.agents[p % len(run.agents)] for p in range(run.players)]
    strengths = [measured(agent, store.games(calibration), run.players)
                 for agent, calibration in store.calibrations(run.id).items()]
    strengths += [Strength(agent, Estimate(v["value"], v["low"], v["high"], int(v["n"])),
                           v["even"], source=source)
                  for agent, source, v in store.strengths(run.id)]
    return Bots(seats, run.rotations > 1, strengths, warnings(seats, strengths))


@dataclass
class Reading:
    """A variant against its base: each metric with its trust, the games needed for the
    chosen difference, the games that kept their ranking, and how play changed."""

    chosen: str
    delta: float
    comparisons: list[Comparison]
    trusts: list[Trust]
    kept: int
    games: int
    needed: int | None
    changes: list[PointChange] = field(default_factory=list)
    barely: list[str] = field(default_factory=list)
    points: list[PointChange] = field(default_factory=list)  # points a game by source

    def trust(self, metric: str) -> Trust:
        return next(t for t in self.trusts if t.metric == metric)

    def to_json(self) -> dict[str, Any]:
        return {"chosen": self.chosen, "delta": self.delta, "games_needed": self.needed,
                "same_ranking": self.kept, "games": self.games,
                "trust": [t.to_json() for t in self.trusts],
                "play": [{"point": c.label, "kind": c.kind, "changed": c.changed,
                          "base": c.base.to_json(), "variant": c.variant.to_json(),
                          "difference": c.difference.to_json(), "p": c.p,
                          "seats": {"base": c.base_seats, "variant": c.variant_seats},
                          "agents": {"base": c.base_agents, "variant": c.variant_agents}}
                         for c in self.changes],
                "points": [{"source": c.label, "changed": c.changed, "base": c.base.to_json(),
                            "variant": c.variant.to_json(),
                            "difference": c.difference.to_json(), "p": c.p}
                           for c in self.points],
                "barely": self.barely}


def reading(store: Store, base_run: int, variant_run: int, base: list[GameRecord],
            variant: list[GameRecord], comparisons: list[Comparison], chosen: str,
            delta: float = DELTA) -> Reading:
    ts = trusts(comparisons, chosen, base, variant)
    kept, games = same_rankings(base, variant)
    xs, ys = pairs(base, variant, chosen)
    _, sd = mean_sd([y - x for x, y in zip(xs, ys)])
    needed = games_needed(delta, sd) if sd > 0 and delta > 0 else None
    changes = play_changes(store, base_run, variant_run, base, variant)
    fired = [c for c in changes if c.kind != "points"]
    points = sorted((c for c in changes if c.kind == "points"),
                    key=lambda c: -max(abs(c.base.value), abs(c.variant.value)))
    return Reading(chosen, delta, comparisons, ts, kept, games, needed, fired,
                   barely_lines(fired), points)
