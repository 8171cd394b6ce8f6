"""The table without the web: a secret simultaneous step asked of every seat at once.

Goofspiel's bids are `each p in players chooses in secret`: the engine asks player 1 and
then player 2, but at the table both have their options at once; an answer given ahead is
held, told to nobody else, and played when the rules come to its seat.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.serve.table import Refused, Table, encode

ROOT = Path(__file__).resolve().parent.parent
GOOFSPIEL = ROOT / "games/goofspiel/goofspiel.rules"


def goofspiel(load_rules, seats: list[str] | None = None) -> Table:
    return Table(load_rules(GOOFSPIEL), str(GOOFSPIEL), seats or ["person", "person"], seed=7)


def test_both_seats_have_their_options_at_once(load_rules):
    table = goofspiel(load_rules)
    one, two = table.update(0), table.update(1)
    assert [o[0] for o in one["view"]["decision"]["options"]][:3] == ["1", "2", "3"]
    assert "ahead" not in one
    assert [o[0] for o in two["ahead"]] == [str(v) for v in range(1, 14)]
    assert "options" not in two["view"]["decision"]   # the engine asks player 1 first


def test_an_answer_given_ahead_is_held_in_secret_and_played_in_its_place(load_rules):
    tables = [goofspiel(load_rules), goofspiel(load_rules)]
    tables[0].move(1, "13", 0)
    tables[1].move(1, "2", 0)
    for table in tables:
        assert table.turn == 0 and table.held == {1: table.held[1]}
        assert table.update(1)["held"] in ("bid 13", "bid 2")
        assert "ahead" not in table.update(1)
        assert table.update(0)["chosen"] == [2]
    # player 1 and a watcher learn that player 2 chose, and nothing of what
    for seat in (0, None):
        assert encode(tables[0].update(seat)) == encode(tables[1].update(seat))
    with pytest.raises(Refused, match="chosen already"):
        tables[0].move(1, "5", 0)
    tables[0].move(0, "7", 0)
    assert tables[0].turn == 2 and tables[0].held == {}
    log = tables[0].update(0)["view"]["log"]
    assert "player 1 bids 7" in log and "player 2 bids 13" in log
    assert tables[0].game.history[:2] == [6, 12]


def test_an_answer_ahead_is_checked_like_any_other(load_rules):
    table = goofspiel(load_rules)
    with pytest.raises(Refused, match="not one of your options"):
        table.move(1, "14", 0)
    with pytest.raises(Refused, match="game has moved on"):
        table.move(1, "3", 5)
    table.move(0, "3", 0)          # player 1 bids first: player 2 is asked in its place
    assert table.update(1)["view"]["decision"]["player"] == 1
    assert "ahead" not in table.update(1)
    with pytest.raises(Refused, match="not your turn"):
        table.move(0, "4", 1)       # nothing asks player 1 ahead of its place


def test_a_bot_answers_when_the_rules_come_to_it(load_rules):
    table = goofspiel(load_rules, ["random", "person"])
    assert table.bot_to_move()
    table.move(1, "1", 0)          # the person bids while the bot thinks
    table.bot_move()
    assert table.turn == 2 and "player 2 bids 1" in table.update(1)["view"]["log"]


def test_the_lobby_lists_named_tables_newest_first(load_rules):
    pytest.importorskip("starlette")
    from rulesdsl.serve.app import Served, make_app

    from .test_serve import page_client

    app = make_app([Served(str(GOOFSPIEL), load_rules(GOOFSPIEL))], bot_delay=0,
                   hosts=["testserver"])
    with page_client(app) as client:
        made = [client.post("/api/tables", json={"game": 0, "seats": ["person", "person"],
                                                 "name": name}).json()["table"]
                for name in ("  Friday's   game ", "", "x" * 60)]
        listed = client.get("/api/tables").json()
        assert [t["table"] for t in listed] == made[::-1]
        assert [t.get("name") for t in listed] == ["x" * 40, None, "Friday's game"]
        one = client.get(f"/api/tables/{made[0]}").json()
        assert one == {"table": made[0], "game": "Goofspiel", "name": "Friday's game",
                       "seats": ["free", "free"], "over": False}
        assert client.get("/api/tables/nothere").status_code == 404
        bad = client.post("/api/tables", json={"game": 0, "seats": ["person"] * 2, "name": 3})
        assert bad.status_code == 400 and "name" in bad.json()["error"]


def test_the_screen_gives_each_components_face_and_the_special_spaces(load_rules):
    from rulesdsl.serve.screen import screen

    skye = screen(load_rules(ROOT / "games/isle_of_skye/isle_of_skye.rules"))["faces"]
    assert skye["Tile"]["t01"] == {"text": [], "facts": [["whisky", "1"], ["ship", "2"]]}
    assert skye["Tile"]["t04"]["facts"] == [["scroll", "per broch"]]   # a word, in words
    assert ["income", "5"] in skye["Tile"]["castle_blue"]["facts"]      # not a landscape's
    assert ["back", "castle"] in skye["Tile"]["castle_blue"]["facts"]
    assert "t20" in skye["Tile"] and "back" not in str(skye["Tile"]["t20"])
    assert skye["Scoring"]["sheep"] == {"text": ["1 VP per sheep"], "facts": []}
    cromlech = screen(load_rules(ROOT / "games/cromlech/cromlech.rules"))["faces"]
    assert ["element", "Fire"] in cromlech["Stone"]["fire-trilithon-1"]["facts"]  # an enum's first
    cronberg = screen(load_rules(ROOT / "games/cronberg/cronberg.rules"))
    assert cronberg["faces"]["Rhomb"]["prison"]["facts"] == [["point", "-3"], ["side", "-6"]]
    assert cronberg["special"] == {"city": [
        ["parks", ["A4", "B9", "C7", "D6", "E3", "F4"]], ["coats of arms", ["B5", "D10", "F1"]],
        ["guards", ["B2", "C3", "E8"]]]}


def test_a_counter_kept_per_a_key_has_its_headings(load_rules):
    from rulesdsl.serve.screen import screen

    counters = {c["name"]: c for c in screen(load_rules(GOOFSPIEL))["counters"]}
    assert counters["spent"]["headings"] == [str(v) for v in range(1, 14)]
    assert counters["score"]["headings"] is None   # per player only
    solstice = screen(load_rules(ROOT / "games/solstice/solstice.rules"))["counters"]
    by_name = {c["name"]: c["headings"] for c in solstice}
    assert by_name["quarry"] == by_name["supply"] == ["Gold", "White", "Green"]
    assert by_name["took_part"] is None   # two keys besides none: drawn as before


def test_the_rules_say_what_each_component_shows(load_rules):
    rules = load_rules(ROOT / "games/cronberg/cronberg.rules")
    assert rules.labels("Rhomb")[:3] == ["City hall", "Church", "Cathedral"]
    fields = rules.fields("Rhomb")
    assert list(fields) == ["name", "point", "side"]
    assert (fields["point"][2], fields["side"][2]) == (4, 8)   # numbers as they are
    cromlech = load_rules(ROOT / "games/cromlech/cromlech.rules")
    assert cromlech.fields("Stone")["element"][0] == "Fire"     # an enum's value by name
    with pytest.raises(KeyError):
        rules.fields("Nothing")
    with pytest.raises(KeyError):
        rules.labels("Nothing")


PASSED = ROOT / "tests" / "games" / "forced.rules"


@pytest.mark.parametrize("forced, asked", [("rules", "keep"), ("pass", "take"),
                                           ("ask", "take")])
def test_a_forced_decision_passes_as_the_table_chooses(forced: str, asked: str,
                                                       load_rules) -> None:
    """`pass forced in play n`: player 1's forced "take 2" is taken for them at a table
    that follows the rules (and "keep 3", not named, is asked); at a table that passes
    every forced decision, both are, and player 2 is asked next; at one that asks, none
    is. A passed step is in the record and the log as any other."""
    rules = load_rules(PASSED)
    table = Table(rules, str(PASSED), ["person", "person"], seed=1,
                  forced=forced)  # type: ignore[arg-type]
    view = table.update(0)["view"]
    labels = [label for _, label in view.get("decision", {}).get("options", [])]
    if forced == "pass":
        assert table.game.decider == 1 and table.game.history == [0, 0]
        assert "player 1: take 2" in view["log"] and "player 1: keep 3" in view["log"]
    else:
        assert table.game.decider == 0 and labels[0].startswith(asked)
    if forced == "rules":
        assert table.game.history == [0] and "player 1: take 2" in view["log"]
        table.move(0, "3", table.turn)
        assert table.game.decider == 1


def test_a_table_refuses_an_unknown_way_with_forced_decisions(load_rules) -> None:
    from starlette.testclient import TestClient

    from rulesdsl.serve.app import Served, make_app
    from rulesdsl.serve.guard import TOKEN_HEADER, token_in

    app = make_app([Served(str(GOOFSPIEL), load_rules(GOOFSPIEL))], bot_delay=0,
                   hosts=["testserver"])
    with TestClient(app) as client:
        client.headers[TOKEN_HEADER] = token_in(client.get("/").text) or ""
        r = client.post("/api/tables", json={"game": 0, "seats": ["person", "person"],
                                             "forced": "sometimes"})
        assert r.status_code == 400 and "'forced' is one of: rules, pass, ask" in r.text
        r = client.post("/api/tables", json={"game": 0, "seats": ["person", "person"],
                                             "forced": "pass"})
        assert r.status_code == 200
