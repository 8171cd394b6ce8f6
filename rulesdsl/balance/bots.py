"""How strong the bots of a study are: each agent's win share against random bots, with its
interval, and a plain warning when they play no better than random.

Stage: analysis. A study's figures are only as good as its players: bots at chance level
make every seat look even and every house rule look harmless. Before its own games a study
measures each of its agents (other than `random`) in a short calibration run: the agent in
one seat, random bots in the others, the seats rotated, `games` games (20 by default per
seat), stored in the study's database as a run of its own and linked to the study's run
(store.py: `calibrations`). The agent's share of the wins is compared with what an even game
gives it (1 / players): when the interval reaches down to that, the report says the bots
may play no better than random.

A measured strength comes from a `StrengthSource`. Calibration is one; a ladder of rated
bots (a table of results kept elsewhere) is another: anything with `strength(rules,
players, agent) -> Strength | None` can stand in for it, and `bots_section` shows what it
gives as it shows a calibration (docs/balance.md, "The bots").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..intervals import Estimate, share
from .games import GameRecord

RANDOM = "random"


@dataclass(frozen=True)
class Strength:
    """An agent's win share against `against` (random bots) and the share an even game
    gives it; `source` says where the figure comes from, as people read it."""

    agent: str
    share: Estimate
    even: float
    against: str = RANDOM
    source: str = "calibration"

    @property
    def at_chance(self) -> bool:
        """The interval reaches the even share: no better than `against`, as far as the
        games can tell."""
        return self.share.low <= self.even

    def text(self) -> str:
        return (f"{self.agent}: {self.share.text(True)} of the wins against {self.against} "
                f"bots, even being {self.even:.1%} ({self.share.n} games, {self.source})")

    def to_json(self) -> dict[str, object]:
        return {"agent": self.agent, "against": self.against, "share": self.share.to_json(),
                "even": self.even, "source": self.source, "at_chance": self.at_chance}


class StrengthSource(Protocol):
    """Where a bot's strength comes from: a calibration run, or a ladder of rated bots."""

    def strength(self, rules: str, players: int, agent: str) -> Strength | None: ...


def calibration_agents(agents: tuple[str, ...]) -> list[str]:
    """The study's agents that need measuring: each once, random bots excepted."""
    out: list[str] = []
    for a in agents:
        if a != RANDOM and a not in out:
            out.append(a)
    return out


def measured(agent: str, records: list[GameRecord], players: int,
             source: str = "calibration") -> Strength:
    """The agent's strength from a calibration run's games: the win share of the seats it
    played (a shared first place counting 1/k)."""
    shares = [g.shares()[p] for g in records for p, a in enumerate(g.agents) if a == agent]
    return Strength(agent, share(shares), 1 / players, source=source)


def warnings(agents: list[str], strengths: list[Strength]) -> list[str]:
    """The plain warnings the bots' section starts with."""
    out: list[str] = []
    if all(a == RANDOM for a in agents):
        out.append("Every seat was played by random bots: the figures say what the rules do "
                   "to players who choose at random, not to people. An even game here may "
                   "be uneven between players who plan.")
    weak = [s.agent for s in strengths if s.at_chance]
    if weak:
        out.append(f"{', '.join(weak)} played no better than random bots as far as "
                   "the calibration can tell (its interval reaches the even share): the "
                   "figures may say little about players who plan. Use stronger bots "
                   "(--agents), or more calibration games (--calibrate) to tell.")
    return out
