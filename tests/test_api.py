"""Reading a game without its state: counters, zones, cells, dice, the state key, who
decides; and what the rules declare. Misuse is a clear KeyError, not a crash."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.boards.grids import SquareBoard
from rulesdsl.interpreter.public import DiceShape

from .conftest import ROOT

GAME = """game "Reading"
players 2 to 3

enum Gem: Ruby, Jade
kind Card(name):
    "Ace"
    2 x "Two"
die d6: faces 1..6
dice pair: 2 d6
board grid: square 2 x 2 holding player
zone deck: Card hidden
zone hand per player: Card owner
setting GOAL = 10 between 5 and 20
counter found per player per Gem = 0
counter marked per Card = false
counter best = none holding Card
counter round = 1 secret

setup:
    for each c in Card:
        move c to deck
    move Card[2] to hand of player 2

play:
    turns:
        choose c in grid where c is empty as "mark {c}"
        place current at c
        add 2 to found of (current, Jade)
        set marked of Card[3] = true
        roll pair
        if count(c in grid where c is empty) == 0:
            end game
"""


@pytest.fixture
def game():
    game = rulesdsl.load_text(GAME, "reading.rules").new_game(players=2, seed=4)
    game.apply("a1")
    return game


def test_counters_by_name_and_keys(game):
    assert game.counter("found", 0, "Jade") == 2
    assert game.counter("found", 0, 1) == 2 and game.counter("found", 1, "Ruby") == 0
    assert game.counter("marked", "two-2") is True and game.counter("marked", 0) is False
    assert game.counter("best") is None and game.counter("round") == 1
    with pytest.raises(KeyError, match="no counter named 'nope'"):
        game.counter("nope")
    with pytest.raises(KeyError, match="takes 2 key"):
        game.counter("found", 0)
    with pytest.raises(KeyError, match="'Opal' is not a Gem"):
        game.counter("found", 0, "Opal")
    with pytest.raises(KeyError, match="2 is not a seat"):
        game.counter("found", 2, "Jade")  # two players: seats 0 and 1


def test_zones_cells_dice_and_who_decides(game):
    assert game.zone("deck") == [0, 2] and game.zone("hand", 1) == [1]
    assert game.zone("hand", 0) == []
    with pytest.raises(KeyError, match="one per player: give a seat"):
        game.zone("hand")
    with pytest.raises(KeyError, match="shared: no owner"):
        game.zone("deck", 0)
    assert game.cells("grid") == [0, None, None, None]
    assert all(1 <= f <= 6 for f in game.dice("pair"))
    assert game.current == 1 and game.decider == 1 and not game.is_chance
    assert game.players == 2


def test_the_state_key_compares_positions(game):
    again = rulesdsl.load_text(GAME, "reading.rules").new_game(players=2, seed=4)
    assert again.state_key() != game.state_key()
    again.apply("a1")
    assert again.state_key() == game.state_key()
    assert game.copy().state_key() == game.state_key()


def test_what_the_rules_declare():
    rules = rulesdsl.load_text(GAME, "reading.rules")
    assert rules.counters["found"].keys == ("player", "Gem")
    assert rules.counters["round"].secret and rules.counters["round"].initial == 1
    assert rules.counters["best"].keys == () and rules.counters["best"].initial is None
    assert rules.zones["hand"].per_player and rules.zones["deck"].visibility == "hidden"
    assert rules.zones["deck"].kind == "Card"
    grid = rules.boards["grid"]
    assert isinstance(grid.geometry, SquareBoard) and grid.holding == "player"
    assert rules.components("Card") == ["ace", "two-1", "two-2"]
    assert rules.value("GOAL") == 10
    assert rules.examples == []
    assert rules.counters["found"].type == "int" and rules.counters["marked"].type == "bool"
    assert rules.counters["best"].type == ("comp", "Card")
    assert rules.dice == {"pair": DiceShape("d6", 2, (1, 2, 3, 4, 5, 6))}
    assert rules.dies == {"d6": 6}
    assert rules.kinds == ["Card"] and rules.enum("Gem") == ["Ruby", "Jade"]
    assert rules.setting_names == ["GOAL"]
    assert rules.tree.items[0].name == "Reading"  # the syntax tree: `game "Reading"`
    with pytest.raises(KeyError):
        rules.enum("Card")
    with pytest.raises(KeyError):
        rules.components("Gem")
    with pytest.raises(KeyError):
        rules.value("NOPE")


def test_the_tests_and_tools_read_no_state():
    """Outside the interpreter, nothing reads a game's state; nothing but the static tools
    (the checker and the language server) reads the checker's analysis."""
    offenders = []
    for path in sorted((ROOT / "rulesdsl").rglob("*.py")) + sorted(ROOT.glob("tests/*.py")):
        if "interpreter" in path.parts or path.parent.name == "check":
            continue
        if path.name == "test_api.py":
            continue
        text = path.read_text(encoding="utf-8")
        static = "lsp" in path.parts or "validate" in path.parts or \
            path.name.startswith("test_lsp")
        for needle in (".st.", ".st)", "game.st\n") + (() if static else (".analysis.",)):
            if needle in text:
                offenders.append(f"{path.relative_to(ROOT)}: {needle!r}")
    assert offenders == []


def test_the_interpreter_modules_import_each_other_in_one_direction():
    """No circle among the interpreter's modules (game, saves and views used to import
    each other), counting imports inside functions and for type checking too."""
    import re

    folder = ROOT / "rulesdsl" / "interpreter"
    graph = {p.stem: set(re.findall(r"^\s*from \.(\w+) import", p.read_text(), re.M))
             for p in folder.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import circle: " + " -> ".join(path + (module,))
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, path + (module,))
        done.add(module)

    for module in graph:
        visit(module, ())
    assert {"saves", "views"} <= graph["game"] and "game" not in graph["views"]
