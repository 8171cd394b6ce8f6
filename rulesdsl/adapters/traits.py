"""What the adapters need to know of a rule file before any game: its settings, whether it
shuffles or hides anything, how many players a game has by default, and how a ranking
becomes rewards.

Stage: tools over the Python API. Everything here reads the rule file's declarations (the
checked syntax tree and the compiled decision sites), never a game's state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError
from ..interpreter.game import Game, Rules
from ..loader import load


def nodes(tree: Any) -> Iterator[BaseModel]:
    """Every syntax node in a tree (a node, or lists and tuples of them), depth first."""
    if isinstance(tree, BaseModel):
        yield tree
        for name in type(tree).model_fields:
            yield from nodes(getattr(tree, name))
    elif isinstance(tree, (list, tuple)):
        for item in tree:
            yield from nodes(item)


def statements(rules: Rules) -> Iterator[BaseModel]:
    """Every node of the rule file's declarations but its examples (variants applied)."""
    for item in rules.tree.items:
        if not isinstance(item, A.ExampleDecl):
            yield from nodes(item)


@dataclass(frozen=True)
class Traits:
    """What a rule file declares about chance, information and payoffs.

    `draws`: a rule shuffles a zone or drops a component in a bag, drawing with the game's
    own random generator (no chance step of its own); `draw_size`, the most outcomes one
    such draw can have (the components of the largest kind). `rolls`: a rule rolls a die
    (a chance step with its outcomes). `hidden`: something is hidden from some seat: a
    zone that is not public, a set of dice under a cup (`owner` or `hidden`), a secret
    counter, a secret choice, a line said to some players only. `payoff`: the rule file
    says what each seat is paid at the end (its `payoff` line), with its bounds and
    whether the payoffs sum to zero; otherwise the ranking pays (`ranking_returns`),
    zero-sum, between -1 and 1."""

    draws: bool
    draw_size: int
    rolls: bool
    hidden: bool
    payoff: bool = False
    zero_sum: bool = True
    utility_range: tuple[float, float] = (-1.0, 1.0)

    @classmethod
    def of(cls, rules: Rules) -> Traits:
        found = list(statements(rules))
        bags = any(z.visibility == "bag" for z in rules.zones.values())
        draws = bags or any(isinstance(n, A.Shuffle) for n in found)
        said_to_some = any(isinstance(n, A.Say) and n.to is not None for n in found)
        hidden = (said_to_some
                  or any(z.visibility != "public" for z in rules.zones.values())
                  or any(d.visibility != "public" for d in rules.program.declared.dice.values())
                  or any(c.secret for c in rules.counters.values())
                  or bool(rules.secret_sites))
        rolls = any(site.kind in ("roll", "die") for site in rules.program.sites)
        draw_size = max((len(rules.components(k)) for k in rules.kinds), default=0) \
            if draws else 0
        payoff = rules.payoff
        if payoff is None:
            return cls(draws, draw_size, rolls, hidden)
        low, high, zero_sum = payoff
        return cls(draws, draw_size, rolls, hidden, True, zero_sum,
                   (float(low) if low is not None else -float("inf"),
                    float(high) if high is not None else float("inf")))


def settings(rules: Rules) -> dict[str, Any]:
    """The rule file's settings and their values in these rules (a number or yes/no)."""
    return {name: rules.value(name) for name in rules.setting_names}


def short_name(name: str) -> str:
    """The name OpenSpiel and PettingZoo know a rule file by: `rulesdsl_` and the file's
    name (or the game's, for rules loaded from a text), in lower case letters, digits and
    underscores."""
    return "rulesdsl_" + re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def default_players(rules: Rules) -> int:
    """The fewest players the rules allow, but two when a game for one is only one of the
    choices: rewards from a ranking mean nothing to a lone player."""
    low, high = rules.player_range
    return 2 if low == 1 and high >= 2 else low


def ranking_returns(ranking: list[int]) -> list[float]:
    """Each seat's reward from the final ranking (1 is best, ties share a rank): the seats
    it beat less the seats that beat it, over the number of other seats. A win of two
    players is +1 and -1, a draw 0 each; the rewards always sum to 0 and lie in [-1, 1]."""
    n = len(ranking)
    if n < 2:
        return [0.0] * n
    return [(sum(r > mine for r in ranking) - sum(r < mine for r in ranking)) / (n - 1)
            for mine in ranking]


def returns(game: Game) -> list[float]:
    """What each seat of a game that is over is paid: the rule file's `payoff` when it
    declares one (`Game.payoffs`), else its reward from the ranking."""
    paid = game.payoffs()
    if paid is not None:
        return [float(x) for x in paid]
    assert game.result is not None
    return ranking_returns(game.result.ranking)


_LOADED: dict[tuple[str, tuple[tuple[str, Any], ...]], Rules] = {}


def load_rules(path: str | Path, overrides: dict[str, Any] | None = None) -> Rules:
    """A rule file loaded with settings, once per process for each path and settings (an
    adapter's game makes states by the thousand)."""
    key = (str(Path(path).resolve()), tuple(sorted((overrides or {}).items())))
    if key not in _LOADED:
        _LOADED[key] = load(path, overrides or None)
    return _LOADED[key]


def check_players(rules: Rules, players: Any) -> int:
    """A number of players the rules allow, or a C002 error (as `Rules.new_game` says)."""
    if type(players) is not int:
        raise RulesError([Diagnostic("C002", f"the number of players must be a whole "
                                     f"number, not {players!r}")])
    return rules.check_players(players)
