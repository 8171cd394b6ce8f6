"""The code generator's tree optimisations (docs/performance.md has the figures): each
changes the generated code as it says, and the game plays as before."""

from __future__ import annotations

import ast
import json
import re

import pytest

import rulesdsl
from rulesdsl.compile.options import Options

from .conftest import ROOT

CALLS = """game "Calls"
players 2
counter total = 0
counter depth = 0
counter asked = 0
rule add_up(n):
    for each k in 1..n:
        add k to total
    if total >= 30:
        win player 2
rule twice(n):
    add_up(n)
    add_up(n)
rule countdown(n):
    if n > 0:
        add 1 to depth
        countdown(n - 1)
rule ask():
    choose x in 1..3 by player 1:
        add 1 to asked
        twice(x)
play:
    countdown(3)
    repeat:
        ask()
"""


def _function(code: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.parse(code).body
                if isinstance(n, ast.FunctionDef) and n.name == name)


def _frames(game: rulesdsl.Game) -> int:
    """How many frames the game's stack holds (from its saved position)."""
    return len(json.loads(game.state_key())["stack"])


def _pushes(fn: ast.AST) -> int:
    """The frames a generated function pushes on the state's stack."""
    return sum(1 for n in ast.walk(fn) if isinstance(n, ast.Attribute) and n.attr == "append"
               and isinstance(n.value, ast.Attribute) and n.value.attr == "stack")


def test_rules_that_never_pause_are_called_as_plain_functions():
    rules = rulesdsl.load_text(CALLS, "calls.rules")
    prog = rules.new_game(players=2, seed=1).program
    entry = {name: block for (kind, name), block in prog.entries.items() if kind == "rule"}
    # `twice` calls `add_up` twice as Python calls: no frame on the stack, one block
    twice = _function(prog.code, f"S{entry['twice']}")
    assert _pushes(twice) == 0
    called = [n.func.id for n in ast.walk(twice) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Name)]
    assert called.count(f"S{entry['add_up']}") == 2
    # a rule that waits for a decision, and one that calls itself, keep their frames
    play = _function(prog.code, f"S{prog.entries[('play', 'play')]}")
    assert _pushes(play) >= 1
    assert _pushes(_function(prog.code, f"S{entry['countdown']}")) == 1
    # `ask` calls `twice` plainly after its choice: the block after the choice ends in it
    resume = prog.sites[0].resume
    assert _pushes(_function(prog.code, f"S{resume}")) == 0


def test_a_plain_call_plays_as_a_call_did():
    rules = rulesdsl.load_text(CALLS, "calls.rules")
    game = rules.new_game(players=2, seed=1)
    assert game.counter("depth") == 3
    total = asked = 0
    for pick in (2, 0, 1, 2, 0, 2, 1):
        if total >= 30:
            break
        game.apply_index(pick)
        asked += 1
        for _ in range(2):  # twice(x) is add_up(x) twice; add_up wins from 30 on
            if total < 30:
                total += sum(range(1, pick + 2))
        assert game.counter("total") == total and game.counter("asked") == asked
        assert game.over == (total >= 30)
    assert game.over and game.result.ranking == [2, 1]  # a win inside a plain call


ROLLS = """game "Rolls"
players 1
die d6: faces 1..6
counter total = 0
rule throw():
    let r = roll d6
    add r to total
rule throws(n):
    repeat n times:
        throw()
play:
    choose x in 1..2 by player 1:
        pass
    throws(3)
    choose y in 1..2 by player 1:
        pass
"""


def test_rules_that_pause_only_for_rolls_run_at_once_while_rolls_are_automatic():
    rules = rulesdsl.load_text(ROLLS, "rolls.rules")
    game = rules.new_game(players=1, seed=3)
    prog = game.program
    entry = {name: block for (kind, name), block in prog.entries.items() if kind == "rule"}
    play = _function(prog.code, f"S{prog.sites[0].resume}")
    auto = [n for n in ast.walk(play) if isinstance(n, ast.If) and ast.unparse(n.test) == "st.auto"]
    # rolled at once: the rule's blocks run from here, no frame on the stack
    assert len(auto) == 1 and _pushes(ast.Module(body=auto[0].body, type_ignores=[])) == 0
    assert f"S{entry['throws']}" in ast.unparse(auto[0])
    game.apply_index(0)
    assert 3 <= game.counter("total") <= 18 and _frames(game) == 1
    # rolls that wait: the rules push frames and pause at each roll, as before
    game = rules.new_game(players=1, seed=3)
    game.auto_chance = False
    game.apply_index(0)
    for face, total in ((0, 1), (5, 7), (2, 10)):
        assert game.is_chance and _frames(game) == 3  # play, throws, throw
        game.apply_index(face)
        assert game.counter("total") == total
    assert not game.is_chance and _frames(game) == 1


GUARDS = """game "Guards"
players 1
counter left = 3
counter total = 0
define odd(n) = n % 2 == 1
play:
    while left > 0 and any(n in 1..9 where odd(n) and n > total):
        choose optional n in 1..9 where odd(n) and n > total by player 1
        if n == none:
            break
        set total = n
        subtract 1 from left
    if any(n in 1..9 where n > total):
        choose n in 1..9 where n < total by player 1
        set total = n
"""


def test_a_guard_builds_the_options_of_the_choice_it_guards():
    rules = rulesdsl.load_text(GUARDS, "guards.rules")
    game = rules.new_game(players=1, seed=1)
    tree = ast.parse(game.program.code)
    kept = {n.target.id for n in ast.walk(tree) if isinstance(n, ast.NamedExpr)}
    offered = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
               and isinstance(n.targets[0], ast.Attribute) and n.targets[0].attr == "pending"]
    read = [{x.id for x in ast.walk(o) if isinstance(x, ast.Name)} for o in offered]
    # the `while` keeps the list its test built, and the choice offers it; the `if` asks
    # for other items than its choice offers: it is left as it was
    assert any(names & kept for names in read) and not all(names & kept for names in read)
    seen = []
    while not game.over:
        seen.append(game.num_options())
        game.apply_index(1 if len(seen) <= 3 else 0)  # 3, 7, done; then 1
    # 1 3 5 7 9 or done; 5 7 9 or done; 9 or done; then 1 to 6, below 7
    assert seen == [6, 4, 2, 6] and game.counter("total") == 1


DISTANCES = """game "Distances"
players 1
board plain: square 4 x 3 orthogonal
board royal: square 4 x 3 diagonal
board wide: square 20 x 20
counter plain_sum = 0
counter royal_sum = 0
counter wide_sum = 0
setup:
    for each a in plain:
        for each b in plain:
            add distance(a, b) to plain_sum
    for each a in royal:
        for each b in royal:
            add distance(a, b) to royal_sum
    add distance(cell(wide, 1, 1), cell(wide, 20, 7)) to wide_sum
play:
    end game
"""


def test_distances_on_a_small_board_are_a_table():
    rules = rulesdsl.load_text(DISTANCES, "distances.rules")
    game = rules.new_game(players=1)
    xy = [(c % 4, c // 4) for c in range(12)]
    assert game.counter("plain_sum") == sum(abs(ax - bx) + abs(ay - by)
                                            for ax, ay in xy for bx, by in xy)
    assert game.counter("royal_sum") == sum(max(abs(ax - bx), abs(ay - by))
                                            for ax, ay in xy for bx, by in xy)
    assert game.counter("wide_sum") == 19 + 6
    calls = {n.func.id for n in ast.walk(ast.parse(game.program.code))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    # the two small boards look their distances up; the board of 400 cells works its one
    # out (as the rook steps: a sum of two differences)
    assert "abs" in calls and "max" not in calls


ZONES = """game "Zones"
players 2 to 4
const PICKS = [5, 4, 5]
kind Card(rank):
    1
    2
    3
    2
zone deck: Card
zone hand per player: Card
define others(p) = [q for q in players where q != p]
define low(p) = [c for c in hand of p where rank of c <= 2]
define ranks(p) = [rank of c for c in hand of p]
setup:
    for each c in Card:
        move c to deck
play:
    repeat 2 times:
        choose c in deck by player 1:
            move c from deck to hand of player 1
    choose c in low(player 1) by player 1
    choose r in ranks(player 1) by player 1
    choose q in others(player 1) by player 1
    choose n in [3, 1, 2] by player 1
    choose n in [2, 1, 2] by player 1
    choose r in PICKS by player 1
"""


def test_choices_among_distinct_items_and_loops_over_players():
    rules = rulesdsl.load_text(ZONES, "zones.rules")
    game = rules.new_game(players=3, seed=1)
    code = game.program.code
    # a zone, a filter of one, and the players offer each item once as they are; the
    # ranks of the cards in a hand may repeat
    # ranks of the cards in a hand may repeat, and so do the lists [2, 1, 2] and PICKS;
    # [3, 1, 2] does not
    dropping = [line for line in _without_options_functions(code) if "_uniq(" in line]
    assert len(dropping) == 3 and "K1[" in dropping[0]
    assert "[2, 1, 2]" in dropping[1] and "[3, 1, 2]" not in " ".join(dropping)
    # the players are at most 16: a loop over them is weighed before the game, not counted
    # item by item
    assert "st.pl" in code and "_w(st, st.pl" not in code
    game.apply_index(1)  # the second card, rank 2
    game.apply_index(2)  # the fourth, rank 2 again
    assert game.num_options() == 2
    game.apply_index(0)
    assert game.num_options() == 1  # rank 2, offered once
    game.apply_index(0)
    assert game.num_options() == 2  # players 2 and 3
    game.apply_index(0)
    assert [o.label for o in game.options()] == ["3", "1", "2"]
    game.apply_index(0)
    assert [o.label for o in game.options()] == ["2", "1"]  # each offered once
    game.apply_index(0)
    assert [o.label for o in game.options()] == ["5", "4"]


def test_constants_are_worked_out_at_compile_time():
    from rulesdsl.compile.fold import fold

    code = """
a = (x + 1) + 1
b = (x - 1) + 1
c = K[1 - 1] if 0 < 1 <= 8 else _pick(K, 1, 3, 'row')
d = 7 // 2 + 7 % 3
e = 7 // 0
f = x + 0 if not True else True
g = 'a' < 1
"""
    folded = [ast.unparse(s) for s in fold(ast.parse(code).body)]
    assert folded == ["a = x + 2", "b = x + 0", "c = K[0]", "d = 4", "e = 7 // 0",
                      "f = True", "g = 'a' < 1"]


POSITIONS = """game "Positions"
players 1
enum Side: North, East, South, West
enum Spot: n1, n2, e1, e2, s1, s2, w1, w2
counter turn = 0
counter far = 5
counter sides = 0
counter wrong = 0
define side_of(g) = Side[(index(g) + 1) / 2]
define facing() = Side[(turn - 1) % 4 + 1]
setup:
    for each g in Spot:
        if side_of(g) == South:
            add 1 to sides
    set turn = 7
    if facing() == South:
        add 10 to sides
play:
    set wrong = index(Side[far])
"""


def test_items_whose_position_stays_in_range_are_read_directly():
    rules = rulesdsl.load_text(POSITIONS, "positions.rules")
    code = rules.program.code
    # Side 1 to 4 whatever the spot or the turn: read directly; Side[far] is checked
    assert code.count("_idx(") == 1
    with pytest.raises(rulesdsl.RulesError, match="item 5 of a list of 4"):
        rules.new_game(players=1)


def test_items_read_directly_are_the_items_the_rules_ask_for():
    rules = rulesdsl.load_text(POSITIONS.replace("set wrong = index(Side[far])", "pass"),
                               "positions.rules")
    assert rules.new_game(players=1).counter("sides") == 12  # s1, s2; turn 7 faces South


MEMBERSHIP = """game "Membership"
players 2
kind Card(rank):
    5000 x 1
zone deck: Card
zone hand per player: Card
counter held = 0
counter missing = 0
setup:
    for each c in Card:
        move c to deck
play:
    repeat 3 times:
        choose c in [top(deck), Card[5000]] by player 1:
            move c from deck to hand of player 1
    for each c in [top(hand of player 1), Card[4999], top(hand of player 2)]:
        if c in hand of player 1:
            add 1 to held
        if c not in deck:
            add 1 to missing
    win player 1
"""


def test_membership_of_a_zone_asks_the_index():
    rules = rulesdsl.load_text(MEMBERSHIP, "membership.rules")
    game = rules.new_game(players=2, seed=1)
    code = game.program.code
    # `c in hand of p` and `c not in deck` look where c is, not through the zone's list
    # (blocks are copied into the blocks that jump to them: each test appears in several)
    assert code.count("st.at[0][") == code.count("== 1:") + code.count("== 0):") > 0
    assert " in Z[" not in code
    first = game.copy()
    for i in (0, 1, 0):
        game.apply_index(i)
    assert game.over
    # the first card of the hand is held, card 4999 is in the deck, and the third is none
    # (player 2's hand is empty), in no zone: held once; not in the deck: the card in hand
    # and none
    assert game.counter("held") == 1
    assert game.counter("missing") == 2
    first.apply_index(1)  # a copy's own moves are its own
    assert game.zone("hand", 0) != first.zone("hand", 0)


LINES = """game "Lines"
players 2
board grid: square 4 x 4
counter found = 0
play:
    turns:
        choose c in grid where c is empty
        place current at c
        if any(line in lines(grid, 3, c) where all(x in line where piece of x == current)):
            win current
        for each line in lines(grid, 3, c):
            add count(x in line where x is empty) to found
        if all(x in grid where x is not empty):
            draw
"""


def test_loops_over_the_lines_through_a_cell_are_weighed_before_the_game():
    rules = rulesdsl.load_text(LINES, "lines.rules")
    code = rules.new_game(players=2, seed=1).program.code
    # at most 12 lines of 3 cells through a cell of a 4 x 4 board: neither the lines nor
    # the cells of a line are counted one by one as the game runs
    tests = [fn for fn in ast.parse(code).body if isinstance(fn, ast.FunctionDef)
             and "_win(" in ast.unparse(fn)]
    assert tests and all("st.steps" not in ast.unparse(loop) for fn in tests
                          for loop in ast.walk(fn) if isinstance(loop, ast.For))
    game = rules.new_game(players=2, seed=1)
    for cell in ("a1", "a2", "b1", "b2", "c1"):
        game.apply(cell)
    assert game.result is not None and game.result.ranking == [1, 2]


def test_a_loop_over_lines_in_an_endless_loop_still_stops():
    endless = LINES.replace("    turns:\n", "    turns:\n        while true:\n"
                            "            for each line in lines(grid, 3, a1):\n"
                            "                add 1 to found\n")
    rules = rulesdsl.load_text(endless, "endless.rules")
    with pytest.raises(rulesdsl.RulesError) as err:
        rules.new_game(players=2, seed=1)
    assert err.value.diagnostics[0].code == "R001"


def _counting_rules() -> str:
    ops = ["<", "<=", ">", ">=", "==", "!="]
    lines = [f"        if count(t in box where value of t >= 2) {op} {k}:\n"
             f"            add 1 to hits\n"
             f"        if {k} {op} length([t for t in box where value of t >= 2]):\n"
             f"            add 10 to hits\n"
             for op in ops for k in range(5)]
    return ('game "Counting"\nplayers 1\nkind Token(value):\n    1\n    2\n    3\n'
            "zone box: Token\ncounter hits = 0\nplay:\n    for each t in Token:\n"
            "        move t to box\n    if true:\n" + "".join(lines) + "    end game\n")


def test_a_count_compared_with_a_number_stops_once_it_is_decided():
    rules = rulesdsl.load_text(_counting_rules(), "counting.rules")
    game = rules.new_game(players=1, seed=1)
    code = game.program.code
    # each count stops at k + 1 items: `if n >= k + 1: return n` in its loop
    assert sorted({int(x) for x in re.findall(r"if n >= (\d+):", code)}) == [1, 2, 3, 4, 5]
    # the answers are the whole count's: 2 tokens of value 2 or more
    ops = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
           "==": int.__eq__, "!=": int.__ne__}
    want = sum(1 for f in ops.values() for k in range(5) if f(2, k)) + \
        sum(10 for f in ops.values() for k in range(5) if f(k, 2))
    assert game.counter("hits") == want


CHEAP = """game "Cheap"
players 2
kind Card(name, value):
    "Two", 2
    "Three", 3
    "Four", 4
counter seen = 0
define even(n) = n == 0 or n == 2 or n == 4
play:
    for each c in Card:
        if even(value of c):
            add 1 to seen
    end game
"""


def test_a_definition_reading_a_cheap_argument_twice_is_written_in_place():
    """`even(value of c)` reads its argument three times; the argument is a read of a
    table by a read of a slot (emit.is_cheap), so the definition is written in place
    rather than called."""
    rules = rulesdsl.load_text(CHEAP, "cheap.rules")
    game = rules.new_game(players=2)
    tree = ast.parse(game.program.code)
    definition = next(n.name for n in tree.body if isinstance(n, ast.FunctionDef)
                      and n.name.startswith("D"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id == definition]
    assert calls == []
    assert game.counter("seen") == 2   # Two and Four, not Three


TOLD = """game "Told"
players 2
counter total = 0
rule gain(n, why):
    add n to total
    say "{current} gains {n} for {why}"
rule gain_and_keep(n, why):
    add n to total
    say "{current} gains {n} for {why}"
    expect why != ""
play:
    turns:
        choose k in 1..3 as "take {k}":
            gain(k, "the pick of {k} by {current}")
            gain_and_keep(k, "the pick of {k} by {current}")
        if total >= 10:
            end game
"""


def test_a_parameter_only_said_is_worked_out_only_while_narrated():
    """A plain rule's parameter read only by `say` lines is worked out at the call only
    while the game keeps a log; one read anywhere else is worked out always; the log and
    the game are the same."""
    rules = rulesdsl.load_text(TOLD, "told.rules")
    entry = {name: block for (kind, name), block in rules.program.entries.items()
             if kind == "rule"}
    tree = ast.parse(rules.program.code)
    frames = {}
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
            for name, block in entry.items():
                if call.func.id == f"S{block}":
                    frames[name] = call.args[1].elts[1].elts   # [block, [locals]]
    lazy = ast.unparse(frames["gain"][1])
    assert lazy.endswith("if st.log is not None else None") and "_show" in lazy
    assert "st.log" not in ast.unparse(frames["gain_and_keep"][1])
    told = rules.new_game(players=2, seed=3, narrate=True)
    quiet = rules.new_game(players=2, seed=3)
    for pick in (2, 0, 2, 1, 2):
        for game in (told, quiet):
            if not game.over:
                game.apply_index(pick)
    assert told.state_key() == quiet.state_key() and told.over
    assert "player 1 gains 3 for the pick of 3 by player 1" in told.log
    assert "player 2 gains 1 for the pick of 1 by player 2" in told.log


# five cards in a deck, and `low()`, a filter of them, written in place where it is read
LOW_CARDS = """players 1
kind Card(name, value):
    "One", 1
    "Two", 2
    "Three", 3
    "Four", 4
    "Five", 5
zone deck: Card
counter kept = 0
counter found = 0
define low() = [c for c in deck where value of c < 5]
setup:
    for each c in Card:
        move c to deck
"""

FILTERS = 'game "Filters"\n' + LOW_CARDS + """play:
    choose c in low() where value of c != 2 by player 1 as "take {c}":
        set kept = value of c
    end game
"""


def test_a_filter_of_a_filter_is_one_filter():
    """The options of `choose c in low() where ...`, with `low()` written in place, filter
    a filter: one loop tests both conditions, with no list in between."""
    rules = rulesdsl.load_text(FILTERS, "filters.rules")
    game = rules.new_game(players=1)
    assert [o.label for o in game.options()] == ["take One", "take Three", "take Four"]
    tree = ast.parse(game.program.code)
    offering = [f for f in tree.body if isinstance(f, ast.FunctionDef) and any(
        isinstance(n, ast.Attribute) and n.attr == "pending" and isinstance(n.ctx, ast.Store)
        for n in ast.walk(f))]
    # the options are built by one loop (unroll.py): both tests, then the append
    loops = [n for f in offering for n in f.body if isinstance(n, ast.For)]
    assert loops
    for loop in loops:
        assert not any(isinstance(n, ast.ListComp) for n in ast.walk(loop))
        (outer,) = loop.body
        (inner,) = outer.body
        (append,) = inner.body
        assert isinstance(outer, ast.If) and isinstance(inner, ast.If)
        assert ast.unparse(append).endswith(f".append({loop.target.id})")
    game.apply_index(1)
    assert game.over and game.counter("kept") == 3


QUANTIFIED = 'game "Quantified"\n' + LOW_CARDS + """play:
    if any(c in low() where value of c == 3):
        add 1 to found
    if all(c in low() where value of c < 5):
        add 10 to found
    if first(c in low() where value of c > 1) == Card[2]:
        add 100 to found
    add 1000 * count(c in low() where value of c != 2) to found
    end game
"""


def test_a_test_over_a_filter_loops_over_its_items_and_stops_at_the_first_that_decides():
    """`any(c in low() where ...)`, `low()` a filter written in place: the loop goes over
    the zone and skips what the filter leaves out, with no list built first; every kind
    of test answers as before."""
    rules = rulesdsl.load_text(QUANTIFIED, "quantified.rules")
    game = rules.new_game(players=1)
    assert game.counter("found") == 3111
    tree = ast.parse(game.program.code)
    testing = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name[0] in "QS"]
    # each loop goes over the zone itself, its items counted before it (unroll.py)
    zones = {(f.name, a.targets[0].id) for f in testing for a in ast.walk(f)
             if isinstance(a, ast.Assign) and isinstance(a.targets[0], ast.Name)
             and ast.unparse(a.value).startswith("Z[")}
    loops = [n for f in testing for n in ast.walk(f) if isinstance(n, ast.For)
             and isinstance(n.iter, ast.Name) and (f.name, n.iter.id) in zones]
    assert len(loops) == 4   # in the block (any, all) and in loop functions (first, count)
    for f in testing:
        assert not any(isinstance(n, ast.ListComp) for n in ast.walk(f)), ast.unparse(f)


# ---- lists built by loops (unroll.py) -------------------------------------------------------

UNROLLED = """game "Unrolled"
players 1
counter total = 0

play:
    let odd = [n for n in 1..9 where n % 2 == 1]
    set total = count(n in odd where n > 3)
    choose n in 1..4 where 12 / (n - 3) > 0 as "take {n}":
        add n to total
"""


def test_a_comprehension_a_statement_starts_with_is_a_loop():
    rules = rulesdsl.load_text(UNROLLED, "unrolled.rules")
    tree = ast.parse(rules.program.code)
    appends = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and
               isinstance(n.func, ast.Attribute) and n.func.attr == "append"]
    assert len(appends) >= 2  # the list `odd` and the options
    with pytest.raises(rulesdsl.RulesError) as info:  # 12 / 0 in the filter, at n = 3
        rules.new_game(players=1)
    (d,) = info.value.diagnostics
    assert d.code == "R003" and "division by zero" in d.message and d.span.line == 8


def test_a_comprehension_whose_name_is_used_elsewhere_is_left_as_it_is():
    from rulesdsl.compile.unroll import unroll

    def code(text: str) -> str:
        body = ast.parse(text).body
        module = ast.Module(body=unroll(body, ["a0"]), type_ignores=[])
        return ast.unparse(ast.fix_missing_locations(module))

    assert code("t1 = [c1 for c1 in a0 if c1]\nreturn t1") == \
        "t1 = []\nfor c1 in a0:\n    if c1:\n        t1.append(c1)\nreturn t1"
    assert code("L[2] = [c1 * 2 for c1 in a0]") == \
        "x1 = []\nfor c1 in a0:\n    x1.append(c1 * 2)\nL[2] = x1"
    assert code("if not (t2 := [c1 for c1 in a0]):\n    return 1") == \
        "t2 = []\nfor c1 in a0:\n    t2.append(c1)\nif not t2:\n    return 1"
    assert code("for c1 in _w(st, Z[3], 2, 17):\n    pass") == \
        "x1 = Z[3]\nst.steps += len(x1) * 2\nif st.steps > 5000000:\n    raise _stuck(17)\n" \
        "for c1 in x1:\n    pass"
    for kept in ("for c1 in a0:\n    t1 = [c1 for c1 in c1]",  # a loop's own name
                 "t1 = [a0 for a0 in t1]",  # a parameter's
                 "while not (t2 := [c1 for c1 in a0]):\n    pass",  # tested again
                 "t1 = f([c1 for c1 in a0])"):  # inside an expression
        assert code(kept) == ast.unparse(ast.parse(kept))


# ---- small results: a filter of a small domain, a definition that gives one ------------------

SMALL_RESULTS = """game "Small results"
players 2 to 4
counter score per player = 0
counter cards = 0
kind Card(name):
    "A"
    "B"
zone deck: Card
define others(p) = [q for q in players where q != p]
define in_deck() = [c for c in deck where name of c != "B"]
setup:
    for each c in Card:
        move c to deck
play:
    for each q in others(player 1):
        add 1 to score of q
    if any(q in others(player 1) where score of q > 0):
        set cards = count(c in in_deck() where name of c == "A")
    end game
"""


def test_a_loop_over_a_filter_of_the_players_is_not_counted_item_by_item():
    """`others(p)` is a filter of the players: never more than 64 items, known before the
    game, so a loop over it is weighed before the game (sizes.py `small`), as a loop
    over the players is; a filter of a zone is counted as it runs."""
    rules = rulesdsl.load_text(SMALL_RESULTS, "small.rules")
    game = rules.new_game(players=3)
    assert game.over and game.counter("score", 1) == 1 and game.counter("cards") == 1
    functions = rules.program.code.split("\ndef ")
    over_players = [f for f in functions if "in st.pl" in f]
    assert over_players and not any("steps" in f for f in over_players)
    assert any("x1 = Z[0]\n    st.steps += len(x1)" in f for f in functions)


@pytest.mark.slow
def test_no_jump_goes_to_a_block_that_only_returns():
    """A block that only returns (a rule's end after a loop) is written in place of every
    jump to it, however deep the jump stands in code copied from other blocks."""
    tree = ast.parse(rulesdsl.load(ROOT / "games" / "cromlech" / "cromlech.rules").program.code)
    blocks = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    ends = {name for name, f in blocks.items() if name[0] == "S" and len(f.body) == 1
            and isinstance(f.body[0], ast.Return)}
    assert ends  # the blocks stay, for the frames that resume there
    jumps = [n.value.value for f in blocks.values() if f.name[0] == "S" for n in ast.walk(f)
             if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant)
             and isinstance(n.value.value, int) and n.value.value >= 0]
    assert jumps and not {f"S{j}" for j in jumps} & ends


COLUMNS = """game "Columns"
players 1
board grid: square 3 x 2
counter seen = 0
counter high = 0
play:
    for each k in 1..3:
        if column(grid, k)[2] is empty:
            add 1 to seen
    choose k in 1..3 where column(grid, k)[1] is empty by player 1 as "column {k}":
        place player 1 at column(grid, k)[1]
    add count(x in row(grid, 1) where x is not empty) to high
    win player 1
"""


def test_a_column_of_an_item_of_a_range_is_read_directly():
    """k taken from 1..3 (a loop's, a choice's) is a column of a 3-column board, and item
    1 or 2 of a column of 2 cells is in it: no call checks either."""
    rules = rulesdsl.load_text(COLUMNS, "columns.rules")
    code = rules.program.code
    assert "_pick(" not in code and "_idx(" not in code
    assert "B0[K1[c2 - 1][0]] is None" in code  # the choice's filter
    game = rules.new_game(players=1)
    assert game.counter("seen") == 3
    assert [o.label for o in game.options()] == ["column 1", "column 2", "column 3"]
    game.apply_index(1)
    assert game.over and game.counter("high") == 1
    assert game.cells("grid") == [None, 0, None, None, None, None]  # b1: column 2, row 1


def test_without_range_items_a_column_of_an_item_of_a_range_is_checked():
    """Options(range_items=False) (a switch for measuring, given to the compiler, never a
    setting of the process): the same rules, every column and item checked by a call, the
    same game."""
    rules = rulesdsl.load_text(COLUMNS, "columns.rules", options=Options(range_items=False))
    assert "_pick(" in rules.program.code
    game = rules.new_game(players=1)
    assert game.counter("seen") == 3
    game.apply_index(1)
    assert game.cells("grid") == [None, 0, None, None, None, None]
    assert "_pick(" not in rulesdsl.load_text(COLUMNS, "columns.rules").program.code


@pytest.mark.parametrize("change, error", [
    # the range is wider than the board
    (("for each k in 1..3:", "for each k in 1..4:"), "there is no column 4 (1 to 3)"),
    # the loop's name is changed: no longer an item of its range
    (("        if column(grid, k)[2] is empty:",
      "        set k = k + 2\n        if column(grid, k)[2] is empty:"),
     "there is no column 4 (1 to 3)"),
    # the item is past the end of a column
    (("column(grid, k)[2] is empty", "column(grid, k)[3] is empty"),
     "item 3 of a list of 2 (lists count from 1)"),
])
def test_a_position_that_may_be_out_of_range_is_still_checked(change, error):
    rules = rulesdsl.load_text(COLUMNS.replace(*change), "columns.rules")
    with pytest.raises(rulesdsl.RulesError, match=re.escape(error)):
        rules.new_game(players=1)


def test_a_value_of_an_optional_choice_is_not_taken_for_an_item_of_its_range():
    text = COLUMNS.replace("choose k in", "choose optional k in").replace(
        "place player 1 at column(grid, k)[1]",
        "if k != none:\n            place player 1 at column(grid, k)[1]")
    code = rulesdsl.load_text(text, "columns.rules").program.code
    assert code.count("_pick(") == 1  # the place: k may be none there


STARTS = """game "Starts"
players 2
counter score per player = 0
counter before = 0
define leader() = first(p in players where score of p > 5)
define own() = score of current
setup:
    if score of current == 0:
        add 1 to before
play:
    turns from player 2:
        add 1 to score of current
        add own() to score of current
        if score of current > 3:
            win current
"""


def test_inside_the_turns_current_is_not_tested_for_none():
    """The turns set `current` before their first statement and never to none: their
    statements read it as it is. A definition (called from anywhere) and the setup test
    it; the first player of the turns is tested once, where the turns start."""
    rules = rulesdsl.load_text(STARTS.replace("    if score of current == 0:\n"
                                              "        add 1 to before\n", "    pass\n"),
                               "starts.rules")
    code = rules.program.code
    play = code[code.index("def S1("):]
    # the only tests left in the turns are own()'s, written in place of its calls
    own = "+ V[1 + (V[0] if V[0] is not None else _need(None, "
    assert play.count("_need(") == play.count(own) > 0
    assert "V[1 + V[0]] = _n(V[1 + V[0]] + 1, " in play
    assert "_win(st, V[0])" in play
    game = rules.new_game(players=2)
    assert game.over and [game.counter("score", p) for p in (0, 1)] == [2, 6]


def test_the_setup_and_the_first_player_of_the_turns_are_still_tested():
    with pytest.raises(rulesdsl.RulesError, match="8:17: error.R003.: the player is none here"):
        rulesdsl.load_text(STARTS, "starts.rules").new_game(players=2)
    text = STARTS.replace("    if score of current == 0:\n        add 1 to before\n",
                          "    pass\n").replace("from player 2", "from leader()")
    with pytest.raises(rulesdsl.RulesError, match="the first player is none here"):
        rulesdsl.load_text(text, "starts.rules").new_game(players=2)


PARAMETERS = """game "Parameters"
players 2
board grid: square 4 x 4
counter found = 0
counter all_found = 0

define full(l) = all(x in l where x is not empty)
define filled(l) = count(x in l where x is not empty)

play:
    turns:
        choose c in grid where c is empty as "mark {c}"
        place current at c
        if any(line in lines(grid, 3) where full(line)):
            win current
        for each line in lines(grid, 3, c):
            add filled(line) to found
        SECOND
        if all(x in grid where x is not empty):
            draw
"""


def _loop_functions(code: str) -> dict[str, str]:
    """The text of each generated function that takes a parameter `a0` and loops."""
    return {fn.name: ast.unparse(fn) for fn in ast.parse(code).body
            if isinstance(fn, ast.FunctionDef) and "a0" in [a.arg for a in fn.args.args]
            and any(isinstance(n, ast.For) for n in ast.walk(fn))}


def test_a_loop_over_a_parameter_every_call_gives_a_small_list_is_weighed_before_the_game():
    """`full(line)` for each line of `lines(grid, 3)`, `filled(line)` for each line
    through a cell: every call gives the parameter a line of 3 cells, so the loops over it
    are weighed before the game (sizes.py, `argument_size`), not counted as they
    run; when one call gives `filled` a list of unknown length, its loop is counted as it
    runs. The game is the same as with the parameters' loops all counted."""
    plain = rulesdsl.load_text(PARAMETERS.replace("        SECOND\n", ""), "p.rules",
                               options=Options(argument_sizes=False))
    assert all("st.steps" in text for text in _loop_functions(plain.program.code).values())
    weighed = rulesdsl.load_text(PARAMETERS.replace("        SECOND\n", ""), "p.rules")
    loops = _loop_functions(weighed.program.code)
    assert len(loops) == 2 and not any("st.steps" in text for text in loops.values())
    counted = rulesdsl.load_text(PARAMETERS.replace(
        "        SECOND\n", "        let cells = [x for x in grid]\n"
        "        add filled(cells) to all_found\n"), "p.rules")
    loops = _loop_functions(counted.program.code)
    assert len(loops) == 2 and sum("st.steps" in text for text in loops.values()) == 1
    found = []
    for rules in (plain, weighed, counted):
        game = rules.new_game(players=2, seed=1)
        for cell in ("a1", "a2", "b1", "b2", "c1"):
            game.apply(cell)
        assert game.result is not None and game.result.ranking == [1, 2]
        found.append(game.counter("found"))
    assert found[0] > 0 and found == [found[0]] * 3


def test_a_loop_over_a_small_parameter_in_an_endless_loop_still_stops():
    endless = PARAMETERS.replace("        SECOND\n", "").replace(
        "    turns:\n", "    turns:\n        while true:\n"
        "            for each line in lines(grid, 3, a1):\n"
        "                add filled(line) to found\n")
    rules = rulesdsl.load_text(endless, "endless.rules")
    assert not any("st.steps" in text for text in _loop_functions(rules.program.code).values())
    with pytest.raises(rulesdsl.RulesError) as err:
        rules.new_game(players=2, seed=1)
    assert err.value.diagnostics[0].code == "R001"


PAIRS = """game "Pairs"
players 2
board hex: hexagon 2 of triangles
define free(p) = all(t in p where t is empty)
play:
    turns:
        if not any(p in pairs(hex) where free(p)):
            end game
        choose p in pairs(hex) where free(p) as "cover {p}"
        for each t in p:
            place current at t
"""


def test_a_loop_over_a_pair_of_triangles_given_to_a_definition_is_not_counted():
    """`pairs(b)` gives pairs of triangles: a definition given one at every call loops
    over two items, weighed before the game."""
    rules = rulesdsl.load_text(PAIRS, "pairs.rules")
    loops = _loop_functions(rules.program.code)
    assert loops and not any("st.steps" in text for text in loops.values())
    game = rules.new_game(players=2, seed=1)
    while not game.over:
        game.apply_index(0)
    assert game.decisions > 3


LINE_CHOICES = """game "Line choices"
players 2
board grid: square 3 x 3
board hex: hexagon 1 of triangles
play:
    turns:
        choose p in pairs(hex) by current
        choose l in lines(grid, 3) where all(c in l where c is empty) by current
        choose m in lines(grid, 3, b2) by current
        choose k in lines(grid, 1) by current
        end game
"""


def test_choices_among_pairs_and_lines_are_offered_as_they_are():
    """The pairs of a board of triangles, its lines of 3 cells and the lines through a cell
    never repeat an item (distinct.py): offered without the pass that drops repeats; the
    lines of one cell hold each cell four times (one per direction) and keep it."""
    rules = rulesdsl.load_text(LINE_CHOICES, "lines.rules")
    code = rules.program.code
    dropping = [line for line in _without_options_functions(code) if "_uniq(" in line]
    assert len(dropping) == 1 and "K" in dropping[0]
    game = rules.new_game(players=2, seed=1)
    counts = []
    while not game.over:
        labels = [o.label for o in game.options()]
        assert len(labels) == len(set(labels))
        counts.append(len(labels))
        game.apply_index(0)
    assert counts == [6, 8, 4, 9]


@pytest.mark.parametrize("path,players", [
    ("games/tictactoe/tictactoe.rules", 2), ("games/pig/pig.rules", 2),
    ("games/cromlech/cromlech.rules", 3), ("games/cronberg/cronberg.rules", 2),
    ("games/solstice/solstice.rules", 3), ("games/isle_of_skye/druids.rules", 3)])
def test_blocks_only_jumped_to_are_left_out_and_the_games_are_the_same(path, players):
    """A block that no jump is left to once short blocks are copied in place of the jumps,
    and where the game never waits, is not written into the module (assembly.py,
    `live_blocks`): BLOCKS holds none at its number. Every block the games reach is there,
    and they play as with every block kept, decision for decision."""
    whole = rulesdsl.load(ROOT / path, options=Options(live_only=False))
    whole_code = whole.program.code
    live = rulesdsl.load(ROOT / path)
    assert None not in whole.program.blocks
    left_out = {n for n, block in enumerate(live.program.blocks) if block is None}
    assert left_out and len(live.program.blocks) == len(whole.program.blocks)
    code = live.program.code
    defined = {int(n) for n in re.findall(r"^def S(\d+)\(", code, re.M)}
    assert defined == set(range(len(live.program.blocks))) - left_out
    assert len(code) < len(whole_code)
    # where a game may wait: each rule's first block, after a decision, a call, a point
    waits = {*live.program.entries.values(), *(site.resume for site in live.program.sites)}
    assert not waits & left_out
    for seed in range(3):
        games = [rules.new_game(players=players, seed=seed) for rules in (whole, live)]
        while not games[0].over:
            n = games[0].num_options()
            assert games[1].num_options() == n
            index = (seed * 7 + games[0].decisions * 5) % n
            saved = []
            for game in games:
                game.apply_index(index)
                saved.append(game.to_json())
                assert all(frame[0] not in left_out for frame in saved[-1]["state"]["stack"])
            assert saved[0]["state"] == saved[1]["state"]
        assert games[1].over and games[0].result == games[1].result
        assert games[0].history == games[1].history


def _without_options_functions(code: str) -> list[str]:
    """The lines of a generated module but those of its OPTIONS functions, which work a
    choice's options out again from the state (for a made-up game) with the same code as
    the choice's block: each choice is counted once."""
    import ast as pyast

    tree = pyast.parse(code)
    kept = [node for node in tree.body
            if not (isinstance(node, pyast.FunctionDef) and node.name.startswith("OPTIONS"))]
    return pyast.unparse(pyast.Module(body=kept, type_ignores=[])).splitlines()
