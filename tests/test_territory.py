"""Territories of tiles: placements always match, territories per player stay apart, views
and saves carry each tile's turn, and the terminal draws them tile by tile."""

from __future__ import annotations

import random

import pytest

from rulesdsl import Game
from rulesdsl.loader import load_text
from rulesdsl.terminal import show_state, territories

ISLANDS = """game "Islands"
players 2

enum Land: Grass, Water, Rock
kind Tile(name, n, e, s, w, roads):
    "keep", Grass, Water, Grass, Rock, ["n", "s"]
    "keep", Grass, Water, Grass, Rock, ["n", "s"]
    4 x "bay", Water, Water, Grass, Grass, ["s"]
    4 x "ridge", Rock, Grass, Rock, Grass, ["e", "w"]
    4 x "shore", Grass, Water, Water, Water, []
zone bag: Tile bag
zone drawn: Tile public
board land per player: territory 7 x 7 of Tile edges n, e, s, w roads roads

setup:
    for each p in players:
        place Tile[index_of(p)] at start(territory(land, p))
    for each t in Tile where name of t != "keep":
        move t to bag

define index_of(p) = if p == player 1 then 1 else 2

play:
    turns:
        let t = top(bag)
        if t == none:
            end game
        move t from bag to drawn
        let here = spots(territory(land, current), t)
        if here is not empty:
            choose c in here as "put the {name of t} at {c}"
            choose r in turns(c, t) as "turned {r}"
            place t at c turned r
"""


def islands() -> Game:
    rules = load_text(ISLANDS, "islands.rules")
    return rules.new_game(players=2, seed=7)


def sides(view_cells: dict[str, list], edges: dict[str, list[str]]) -> dict[str, list[str]]:
    """The terrain each placed tile shows north, east, south, west."""
    out = {}
    for cell, (tile, degrees) in view_cells.items():
        q = degrees // 90
        printed = edges[tile]
        out[cell] = [printed[(d - q) % 4] for d in range(4)]
    return out


def neighbour(cell: str, d: int) -> str:
    x, y = ord(cell[0]) - ord("a"), int(cell[1:]) - 1
    dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[d]
    return f"{chr(ord('a') + x + dx)}{y + dy + 1}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_shared_edge_matches(seed: int) -> None:
    game = islands()
    rng = random.Random(seed)
    while not game.over:
        game.apply_index(rng.randrange(game.num_options()))
    edges = {tile: looks[0] for tile, looks in game.rules.tiles("land").items()}
    view = game.view(None)["boards"]["land"]
    assert len(view) == 2
    placed = 0
    for seat in view:
        shown = sides(seat, edges)
        placed += len(shown)
        for cell, s in shown.items():
            for d in range(4):
                other = shown.get(neighbour(cell, d))
                if other is not None:
                    assert s[d] == other[(d + 2) % 4], (cell, d)
    assert placed > 2


def test_views_and_saves_keep_the_turns() -> None:
    game = islands()

    def turned_tiles() -> int:
        return sum(1 for cells in game.view(None)["boards"]["land"]
                   for _, turn in cells.values() if turn != 0)
    while not turned_tiles():
        options = game.options()
        turned = [i for i, o in enumerate(options) if o.id in ("90", "180", "270")]
        game.apply_index(turned[0] if turned else 0)
    again = game.rules.load_game(game.to_json())
    seat = game.view(None)["boards"]["land"]
    assert any(turn != 0 for cells in seat for _, turn in cells.values())
    assert again.view(None)["boards"]["land"] == seat


def test_the_territories_stay_apart() -> None:
    game = islands()
    view = game.view(None)["boards"]["land"]
    assert view == [{"d4": ["keep-1", 0]}, {"d4": ["keep-2", 0]}]
    # player 1's first tile lands next to player 1's keep, never in player 2's territory
    game.apply_index(0)
    assert game.view(None)["boards"]["land"][1] == {"d4": ["keep-2", 0]}


def test_the_terminal_draws_each_territory() -> None:
    game = islands()
    lines = territories(game.view(0), game.rules)
    assert lines == [
        "land of player 1:",
        "     G",
        "  4 r*w",
        "     G",
        "     d ",
        "land of player 2:",
        "     G",
        "  4 r*w",
        "     G",
        "     d ",
        "    (a letter per edge and the centre: its terrain; a capital: a road ends there)",
    ]
    assert lines[0] in show_state(game.view(0), game.rules)


def open_side(shown: dict[str, list[str]], cell: str, d: int) -> bool:
    """Whether side d of a tile borders no tile of a 7 x 7 territory (or its rim)."""
    other = neighbour(cell, d)
    inside = "a" <= other[0] <= "g" and 1 <= int(other[1:]) <= 7
    return not inside or other not in shown


def test_open_edges_count_the_edges_that_border_no_tile_and_the_rim() -> None:
    """`open_edges` against a count made here from the view: every side of a placed tile,
    as turned, whose neighbour is empty or beyond the rim (7 x 7)."""
    text = ISLANDS.replace("zone bag:", "counter open per player = 0\n"
                           "counter open_water per player = 0\nzone bag:")
    text += ("            set open of current = open_edges(territory(land, current))\n"
             "            set open_water of current = open_edges(territory(land, current), "
             "Water)\n")
    rules = load_text(text, "islands.rules")
    edges = {tile: looks[0] for tile, looks in rules.tiles("land").items()}
    for seed in (1, 2):
        game = rules.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply_index(rng.randrange(game.num_options()))
        view = game.view(None)
        for seat, cells in enumerate(view["boards"]["land"]):
            shown = sides(cells, edges)

            every = sum(open_side(shown, c, d) for c in shown for d in range(4))
            water = sum(open_side(shown, c, d) and s[d] == "Water"
                        for c, s in shown.items() for d in range(4))
            counters = view["counters"]
            assert counters["open"][seat] == every and counters["open_water"][seat] == water
            assert 0 < water < every
