"""rulesdsl: a language for tabletop game rules, its checker, and an interpreter.

    import rulesdsl
    rules = rulesdsl.load("pig")           # a shipped game by name, or a rule file's path
    game = rules.new_game(players=2, seed=1)
    while not game.over:
        decision = game.decision          # who decides, and the options (id, label)
        game.apply(decision.options[0].id)
    print(game.result.ranking)

The public names are those of `__all__`, each described in docs/api.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .diagnostics import Diagnostic, RulesError, Span
    from .interpreter.game import Chance, Decision, Game, Option, Result, Rules
    from .interpreter.observation import Observation
    from .interpreter.public import Line
    from .loader import load, load_text
    from .resolve.catalogue import Entry, find_game, shipped_games
    from .validate.checking import check_file

# Each name is imported from its module when first used: the command line's `--help` and
# its argument errors do not load the parser, the checker and the compiler.
_WHERE = {
    "Diagnostic": ".diagnostics", "RulesError": ".diagnostics", "Span": ".diagnostics",
    "Chance": ".interpreter.game", "Decision": ".interpreter.game",
    "Game": ".interpreter.game", "Option": ".interpreter.game",
    "Result": ".interpreter.game", "Rules": ".interpreter.game",
    "Observation": ".interpreter.observation", "Line": ".interpreter.public",
    "check_file": ".validate.checking", "load": ".loader", "load_text": ".loader",
    "Entry": ".resolve.catalogue", "find_game": ".resolve.catalogue",
    "shipped_games": ".resolve.catalogue",
}

__all__ = [
    "Chance", "Decision", "Diagnostic", "Entry", "Game", "Line", "Observation", "Option",
    "Result", "Rules", "RulesError", "Span", "__version__", "check_file", "find_game", "load",
    "load_text", "shipped_games",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'rulesdsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value
