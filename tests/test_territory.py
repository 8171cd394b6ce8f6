"""Territories of tiles: placements always match, territories per player stay apart, views
and saves carry each tile's turn, and the terminal draws them tile by tile."""

from __future__ import annotations

import ast
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl import Game
from rulesdsl.boards.territory import TerritoryBoard, geometry
from rulesdsl.loader import load_text
from rulesdsl.program.helpers import tiles
from rulesdsl.program.helpers.faults import Faults
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
        "    (g Grass, r Rock, w Water)",
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


# ---- where a tile fits, against the rule written out -------------------------------------

TERRAINS = "GWR"


def fits_by_the_rule(board: TerritoryBoard, edges: list[str], cells: list, turns: list,
                     cell: int, tile: int, q: int) -> bool:
    """The rule as the rulebooks give it: a tile goes on an empty cell next to a placed
    tile, turned so that every edge it shares with one shows the same terrain (edges are
    strings of four terrains, north first; a tile turned q quarter turns shows its printed
    side i towards side (i + q) % 4)."""
    if cells[cell] is not None:
        return False
    touching = False
    for d, n in enumerate(board.step[cell]):
        if n is None or cells[n] is None:
            continue
        touching = True
        facing = edges[cells[n]][((d + 2) % 4 - turns[n]) % 4]
        if edges[tile][(d - q) % 4] != facing:
            return False
    return touching


def random_territory(data: st.DataObject, seats: int, centres: bool = False) -> tuple:
    """A territory board of a few cells a seat, random tiles (four terrains each, and a
    centre or none), placed on random cells at random turns (not a legal layout: the
    helpers answer for any): (board, edges, centres, geometry, cells, turns)."""
    width = data.draw(st.integers(1, 5), "width")
    height = data.draw(st.integers(1, 5), "height")
    board = TerritoryBoard("land", width, height, seats, "Tile", ["n", "e", "s", "w"])
    edges = data.draw(st.lists(st.text(TERRAINS, min_size=4, max_size=4), min_size=1,
                               max_size=6), "tiles")
    middles = data.draw(st.lists(st.sampled_from([None, *TERRAINS, "X"]), min_size=len(edges),
                                 max_size=len(edges)), "centres") if centres else None
    geo = geometry(board, [[e[i] for e in edges] for i in range(4)], middles,
                   [[] for _ in edges])
    cells: list = [None] * board.size
    turns: list = [None] * board.size
    for cell in data.draw(st.sets(st.integers(0, board.size - 1)), "placed"):
        cells[cell] = data.draw(st.integers(0, len(edges) - 1))
        turns[cell] = data.draw(st.integers(0, 3))
    return board, edges, middles, geo, cells, turns


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_spots_and_turns_are_where_the_rule_lets_a_tile_go(data: st.DataObject) -> None:
    """`spots` and `turns` (the helpers `_tspots` and `_tturns`) against `fits_by_the_rule`,
    over random territories: a few sizes, one or two seats, random tiles placed at random
    turns (not a legal layout: the helpers answer for any)."""
    seats = data.draw(st.integers(1, 2), "seats")
    board, edges, _, geo, cells, turns = random_territory(data, seats)
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    tile = data.draw(st.integers(0, len(edges) - 1), "tile")
    for seat in range(seats):
        xs = list(range(seat * board.cells_per_seat, (seat + 1) * board.cells_per_seat))
        # in order (a whole territory, as `territory(board, p)` gives it), or shuffled, or
        # with two cells inside swapped (its ends and length those of the whole), or some
        # of its cells
        swapped = [xs[0], xs[2], xs[1], *xs[3:]] if len(xs) >= 4 else xs
        xs = data.draw(st.one_of(st.just(xs), st.permutations(xs), st.just(swapped),
                                 st.lists(st.sampled_from(xs), max_size=len(xs) + 2)),
                       "the territory's cells, in some order")
        if all(cells[c] is None for c in xs):   # no tile among them: the start only
            start = board.start(seat if xs else 0)
            assert helpers["_tspots"](geo, cells, turns, xs, tile) == [start]
            assert helpers["_thas_spot"](geo, cells, turns, xs, tile)
            whole = range(seat * board.cells_per_seat, (seat + 1) * board.cells_per_seat)
            if xs and all(cells[c] is None for c in whole):  # any turn on an empty territory
                assert helpers["_tturns"](geo, cells, turns, start, tile) == [0, 90, 180, 270]
            continue
        spots = [c for c in xs if any(fits_by_the_rule(board, edges, cells, turns, c, tile, q)
                                      for q in range(4))]
        assert helpers["_tspots"](geo, cells, turns, xs, tile) == spots
        assert helpers["_thas_spot"](geo, cells, turns, xs, tile) == bool(spots)
        for c in xs:
            assert helpers["_tturns"](geo, cells, turns, c, tile) == [
                q * 90 for q in range(4)
                if fits_by_the_rule(board, edges, cells, turns, c, tile, q)]


def test_a_list_with_the_ends_of_a_territory_but_not_its_order_is_looked_at_cell_by_cell():
    """A whole territory, in order, is looked at through its tiles (`_whole`); a list of
    as many cells with the same first and last cell, two inside swapped, is not whole:
    its spots come in its own order."""
    board = TerritoryBoard("land", 3, 3, 1, "Tile", ["n", "e", "s", "w"])
    geo = geometry(board, [["G"] for _ in range(4)], None, [[]])
    cells: list = [None] * board.size
    turns: list = [None] * board.size
    for c in (4, 5):  # the middle row's middle and right: cells 1 and 2 touch them
        cells[c], turns[c] = 0, 0
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    spots = helpers["_tspots"]
    whole = helpers["_tland"](board.size, 0)
    assert whole == list(range(board.size))
    whole.reverse()  # a list of the rules' own: the next is made anew
    whole = helpers["_tland"](board.size, 0)
    assert whole == list(range(board.size))
    swapped = [0, 2, 1, *range(3, board.size)]
    found = spots(geo, cells, turns, whole, 0)
    assert found.index(1) < found.index(2)
    assert spots(geo, cells, turns, swapped, 0) == [c for c in swapped if c in found]


def test_a_test_of_spots_for_emptiness_stops_at_the_first_and_plays_the_same() -> None:
    """`spots(...) is not empty` is compiled to the helper that stops at the first cell
    found (`_thas_spot`), not to the list; the game it plays is the same, choice for
    choice, as the one that keeps the list and tests it."""
    asked = ISLANDS.replace("        if here is not empty:\n",
                            "        if spots(territory(land, current), t) is not empty:\n")
    assert asked != ISLANDS
    kept, tested = (load_text(text, "islands.rules") for text in (ISLANDS, asked))
    calls = {n.func.id for n in ast.walk(ast.parse(tested.program.code))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "_thas_spot" in calls
    assert "_thas_spot" not in kept.program.code
    for seed in (1, 2, 3):
        games = [rules.new_game(players=2, seed=seed) for rules in (kept, tested)]
        rng = random.Random(seed)
        while not games[0].over:
            assert games[0].options() == games[1].options()
            pick = rng.randrange(games[0].num_options())
            for game in games:
                game.apply_index(pick)
        assert games[1].over and games[0].state_key() == games[1].state_key()


def areas_by_the_rule(board: TerritoryBoard, edges: list[str], centres: list, cells: list,
                      turns: list, xs: list) -> list[tuple[str, list[int], bool]]:
    """The areas of the tiles of `xs` as the rulebooks draw them, found by flooding:
    a tile's sides next to each other with the same terrain are one area, its centre
    joins the sides of its own terrain, and two facing sides of the same terrain join
    across the edge. (terrain, cells, whether every side of it faces a tile), by the
    first part of each (a part: cell and side, 4 the centre)."""
    return [(terrain, sorted({c for c, _ in area}), closed)
            for terrain, area, closed in flooded(board, edges, centres, cells, turns, xs)]


def flooded(board: TerritoryBoard, edges: list[str], centres: list, cells: list,
            turns: list, xs: list) -> list[tuple[str, list[tuple[int, int]], bool]]:
    """`areas_by_the_rule` with each area's parts."""
    placed = {c for c in xs if cells[c] is not None}

    def shows(c: int, d: int) -> str:
        return centres[cells[c]] if d == 4 else edges[cells[c]][(d - turns[c]) % 4]

    parts = sorted((c, d) for c in placed for d in range(5)
                   if d < 4 or centres[cells[c]] is not None)
    seen: set[tuple[int, int]] = set()
    found = []
    for first in parts:
        if first in seen:
            continue
        area, todo = [], [first]
        seen.add(first)
        while todo:
            c, d = todo.pop()
            area.append((c, d))
            near = [(c, e) for e in range(5) if (e < 4 or centres[cells[c]] is not None)
                    and e != d and (d == 4 or e == 4 or (e - d) % 4 in (1, 3))]
            n = board.step[c][d] if d < 4 else None
            if n in placed:
                near.append((n, (d + 2) % 4))
            for part in near:
                if part not in seen and shows(*part) == shows(c, d):
                    seen.add(part)
                    todo.append(part)
        closed = all(d == 4 or board.step[c][d] is not None and
                     cells[board.step[c][d]] is not None for c, d in area)
        found.append((shows(*first), area, closed))
    return found


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_areas_are_what_flooding_the_tiles_finds(data: st.DataObject) -> None:
    """`areas` (the helper `_tareas`: every area, those of one terrain, the completed ones)
    against `areas_by_the_rule`, over random territories with and without centres."""
    board, edges, centres, geo, cells, turns = random_territory(data, 1, centres=True)
    xs = data.draw(st.permutations(range(board.size)), "cells")
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    expected = areas_by_the_rule(board, edges, centres, cells, turns, xs)
    assert helpers["_tareas"](geo, cells, turns, xs, False) == [c for _, c, _ in expected]
    assert helpers["_tareas"](geo, cells, turns, xs, True) == [
        c for _, c, closed in expected if closed]
    assert helpers["_tareas"](geo, cells, turns, xs, False, "G") == [
        c for t, c, _ in expected if t == "G"]
    assert helpers["_tareas"](geo, cells, turns, xs, True, "G") == [
        c for t, c, closed in expected if t == "G" and closed]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_the_areas_of_some_cells_join_only_the_tiles_among_them(data: st.DataObject) -> None:
    """`areas` of a list of cells that is not a whole territory: the tiles in those cells,
    joined across the edges they share with each other (a tile next to them outside the
    list is not looked at), as flooding finds them; asked again after a tile is put down
    or taken away, the answer is that of the tiles then."""
    board, edges, centres, geo, cells, turns = random_territory(data, 1, centres=True)
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    for _ in range(3):
        xs = data.draw(st.lists(st.integers(0, board.size - 1), unique=True), "cells")
        expected = areas_by_the_rule(board, edges, centres, cells, turns, xs)
        assert helpers["_tareas"](geo, cells, turns, xs, False) == [c for _, c, _ in expected]
        cell = data.draw(st.integers(0, board.size - 1), "changed")
        cells[cell] = None if cells[cell] is not None else 0
        turns[cell] = None if cells[cell] is None else data.draw(st.integers(0, 3), "turn")


def test_the_areas_kept_are_those_of_their_own_geometry() -> None:
    """Two territories of other tiles, the same cells holding the same tile numbers at the
    same turns: each gets its own areas (what is kept is kept with its geometry)."""
    board = TerritoryBoard("land", 2, 1, 1, "Tile", ["n", "e", "s", "w"])
    one = geometry(board, [["G"], ["G"], ["G"], ["G"]], None, [[]])
    other = geometry(board, [["G"], ["W"], ["G"], ["G"]], None, [[]])
    cells, turns = [0, 0], [0, 0]
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    for geo, edges in ((one, ["GGGG"]), (other, ["GWGG"]), (one, ["GGGG"])):
        expected = areas_by_the_rule(board, edges, [None], cells, turns, [0, 1])
        assert helpers["_tareas"](geo, cells, turns, [0, 1], False) == [
            c for _, c, _ in expected]
    assert helpers["_tareas"](one, cells, turns, [0, 1], False) == [[0, 1]]
    assert helpers["_tareas"](other, cells, turns, [0, 1], False) == [[0], [0], [1], [1]]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_centre_is_completed_when_the_flooded_area_around_it_is_closed(
        data: st.DataObject) -> None:
    """`completed_at(cell)` (the helper `_tcentre_done`): the area of the tile's centre,
    flooded as the rulebooks draw it, faces a tile on every side; false on an empty cell
    and on a tile without a centre."""
    board, edges, centres, geo, cells, turns = random_territory(data, 1, centres=True)
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    areas = flooded(board, edges, centres, cells, turns, list(range(board.size)))
    done = {part[0]: closed for _, area, closed in areas for part in area if part[1] == 4}
    for cell in range(board.size):
        assert helpers["_tcentre_done"](geo, cells, turns, cell) == done.get(cell, False)


def longest_road_by_the_rule(board: TerritoryBoard, roads: list, cells: list, turns: list,
                             xs: list) -> int:
    """The most tiles on one continuous road, as the Druids' rulebook counts it ("each tile
    can only be counted once, even if the road passes through twice"; junctions' other arms
    not counted): every walk that crosses between facing road ends and, inside a tile,
    from one end of a road to another end of the same road, never taking an end twice,
    explored breadth first from every road end (a tile with a road is a road of one)."""
    ends = {}
    for c in set(xs):
        if cells[c] is None:
            continue
        for group in roads[cells[c]]:
            shown = [(i + turns[c]) % 4 for i in group]
            for e in shown:
                ends[(c, e)] = shown
    if not ends:
        return 0
    best = 1
    todo = [(c, (e,), frozenset(), frozenset([c])) for c, e in ends]
    seen = set(todo)
    while todo:
        here, exits, used, tiles = todo.pop(0)
        best = max(best, len(tiles))
        for e in exits:
            n = board.step[here][e]
            entry = (n, (e + 2) % 4)
            if n is None or (here, e) in used or entry not in ends or entry in used:
                continue
            state = (n, tuple(ends[entry]), used | {(here, e), entry}, tiles | {n})
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return best


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_longest_road_counts_a_tile_once_even_where_the_road_passes_it_twice(
        data: st.DataObject) -> None:
    """`longest_road` (the helper `_tlongest`) against `longest_road_by_the_rule`, over
    random territories of tiles with random roads (none, a dead end, bends, straights,
    junctions, two roads on one tile), placed at random turns."""
    width = data.draw(st.integers(1, 4), "width")
    height = data.draw(st.integers(1, 4), "height")
    board = TerritoryBoard("land", width, height, 1, "Tile", ["n", "e", "s", "w"])
    count = data.draw(st.integers(1, 5), "tiles")
    roads = []
    for _ in range(count):
        sides = data.draw(st.permutations(range(4)), "sides")
        cuts = sorted(data.draw(st.sets(st.integers(0, 4), max_size=3), "cuts") | {0, 4})
        groups = [sides[a:b] for a, b in zip(cuts, cuts[1:]) if sides[a:b]]
        roads.append(data.draw(st.lists(st.sampled_from(groups), max_size=len(groups),
                                        unique_by=tuple), "roads"))
    geo = geometry(board, [["G"] * count for _ in range(4)], None, roads)
    cells: list = [None] * board.size
    turns: list = [None] * board.size
    for cell in data.draw(st.sets(st.integers(0, board.size - 1)), "placed"):
        cells[cell] = data.draw(st.integers(0, count - 1))
        turns[cell] = data.draw(st.integers(0, 3))
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    xs = list(range(board.size))
    assert helpers["_tlongest"](geo, cells, turns, xs) == longest_road_by_the_rule(
        board, roads, cells, turns, xs)


def test_a_road_through_a_tile_twice_counts_every_tile_it_reaches():
    """A road that leaves a tile by one road, goes round and comes back through the same
    tile by its other road: every tile on the way counts, that tile once (the search that
    never entered a tile twice stopped at its second pass)."""
    board = TerritoryBoard("land", 3, 4, 1, "Tile", ["n", "e", "s", "w"])
    # a tile with two roads (north-west and south-east bends), then bends and straights
    # round the east: (0,1) west end -> (1,1) twice
    straight_we, bend_ws, bend_nw, two_bends, bend_es, straight_ns = range(6)
    roads = [[[3, 1]], [[3, 2]], [[0, 3]], [[0, 3], [1, 2]], [[1, 2]], [[0, 2]]]
    geo = geometry(board, [["G"] * 6 for _ in range(4)], None, roads)
    cells: list = [None] * board.size
    turns: list = [0] * board.size
    w = board.width

    def at(x: int, y: int) -> int:  # y grows to the north, as the board's steps go
        return y * w + x

    north = board.step[at(1, 1)][0]
    assert north == at(1, 2), "the board's steps are as this test reads them"
    cells[at(0, 1)] = straight_we   # the road comes in from the west
    cells[at(1, 1)] = two_bends     # west -> north, and later east -> south
    cells[at(1, 2)] = bend_es       # from the south, round to the east
    cells[at(2, 2)] = bend_ws       # from the west, down to the south
    cells[at(2, 1)] = bend_nw       # from the north, back west into (1, 1)
    cells[at(1, 0)] = straight_ns   # out of (1, 1) to the south
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    assert helpers["_tlongest"](geo, cells, turns, list(range(board.size))) == 6
    assert longest_road_by_the_rule(board, roads, cells, turns, list(range(board.size))) == 6


class _CountedSteps(list):
    """A board's table of neighbours that counts how often a road end is followed."""

    reads = 0

    def __getitem__(self, cell):  # type: ignore[override]
        _CountedSteps.reads += 1
        return super().__getitem__(cell)


def test_the_longest_road_search_stays_small_on_a_grid_of_crossroads(monkeypatch):
    """The longest road is a hard search: on a grid of crossroads with dead ends in its
    corners (no road takes every tile) it tries a great many roads (4 x 4: 63,222 ends
    followed to find 14). It stops when a road takes every tile with a road, and in any
    case after MAX_ROAD_STEPS steps, with the longest found by then."""
    helpers = tiles.bind(Faults(lambda code, message, sid: ValueError(message), []))
    size = 4
    board = TerritoryBoard("land", size, size, 1, "Tile", ["n", "e", "s", "w"])
    crossroads, dead_end = 0, 1
    geo = geometry(board, [["G", "G"] for _ in range(4)], None, [[[0, 1, 2, 3]], [[0]]])
    geo = dataclasses.replace(geo, steps=_CountedSteps(board.step))
    xs = list(range(board.size))
    turns: list = [0] * board.size
    cells: list = [crossroads] * board.size
    _CountedSteps.reads = 0
    assert helpers["_tlongest"](geo, cells, turns, xs) == size * size
    assert _CountedSteps.reads <= 4 * size * size  # the first road takes every tile: done
    for corner in (0, size - 1, board.size - size, board.size - 1):
        cells[corner] = dead_end
    monkeypatch.setattr(tiles, "MAX_ROAD_STEPS", 1000)
    _CountedSteps.reads = 0
    found = helpers["_tlongest"](geo, cells, turns, xs)
    assert size * size - 6 <= found <= size * size - 2  # two dead ends at most on one road
    assert _CountedSteps.reads <= 4 * (1000 + 4 * len(xs))  # a few ends read a step
