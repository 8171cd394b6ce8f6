"""rulesdsl: a language for tabletop game rules, its checker, and an interpreter.

    import rulesdsl
    rules = rulesdsl.load("games/pig/pig.rules")
    game = rules.new_game(players=2, seed=1)
    while not game.over:
        decision = game.decision          # who decides, and the options (id, label)
        game.apply(decision.options[0].id)
    print(game.result.ranking)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .diagnostics import Diagnostic, RulesError, Span
    from .interpreter.game import Chance, Decision, Game, Option, Result, Rules
    from .interpreter.observation import Observation
    from .interpreter.public import Line
    from .loader import check_file, load, load_text

# Each name is imported from its module when first used: the command line's `--help` and
# its argument errors do not load the parser, the checker and the compiler.
_WHERE = {
    "Diagnostic": ".diagnostics", "RulesError": ".diagnostics", "Span": ".diagnostics",
    "Chance": ".interpreter.game", "Decision": ".interpreter.game",
    "Game": ".interpreter.game", "Option": ".interpreter.game",
    "Result": ".interpreter.game", "Rules": ".interpreter.game",
    "Observation": ".interpreter.observation", "Line": ".interpreter.public",
    "check_file": ".loader", "load": ".loader", "load_text": ".loader",
}

__all__ = [
    "Chance", "Decision", "Diagnostic", "Game", "Line", "Observation", "Option", "Result",
    "Rules", "RulesError", "Span", "check_file", "load", "load_text",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'rulesdsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value
