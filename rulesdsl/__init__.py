"""rulesdsl: a language for tabletop game rules, its checker, and an interpreter.

    import rulesdsl
    rules = rulesdsl.load("games/pig/pig.rules")
    game = rules.new_game(players=2, seed=1)
    while not game.over:
        decision = game.decision          # who decides, and the options (id, label)
        game.apply(decision.options[0].id)
    print(game.result.ranking)
"""

from .diagnostics import Diagnostic, RulesError, Span
from .interpreter.game import Chance, Decision, Game, Option, Result, Rules
from .interpreter.observation import Observation
from .interpreter.public import Line
from .loader import check_file, load, load_text

__all__ = [
    "Chance", "Decision", "Diagnostic", "Game", "Line", "Observation", "Option", "Result",
    "Rules", "RulesError", "Span", "check_file", "load", "load_text",
]
