"""`rulesdsl serve`: the protocol over HTTP and WebSockets, with Starlette's TestClient.

Seat tokens, moves checked on the server, bad input of every kind answered with an error
while the game and the other tables go on, bots, records, and the information boundary
over the wire: two deals that differ only in what a seat cannot see send that seat
byte-identical messages.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from rulesdsl.interpreter.observation import Observation  # noqa: E402
from rulesdsl.interpreter.records import parse_record, replay  # noqa: E402
from rulesdsl.serve import app as serving  # noqa: E402
from rulesdsl.serve.app import Served, make_app  # noqa: E402
from rulesdsl.serve.guard import TOKEN_HEADER, token_in  # noqa: E402
from rulesdsl.serve.table import Table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FILES = ["games/tictactoe/tictactoe.rules", "games/cronberg/cronberg.rules",
         "games/cromlech/cromlech.rules"]
TICTACTOE, CRONBERG, CROMLECH = range(3)


@pytest.fixture(scope="module")
def served(load_rules) -> list[Served]:
    return [Served(f, load_rules(ROOT / f)) for f in FILES]


def app_of(games: list[Served]) -> Any:
    """A server of these games answering to the test client's host name (as
    `--allow-host testserver` would), whose bots do not wait."""
    return make_app(games, bot_delay=0, hosts=["testserver"])


@contextmanager
def page_client(app: Any) -> Iterator[TestClient]:
    """A client of the app as the page is one: its POSTs carry the request token the page
    does."""
    with TestClient(app) as c:
        token = token_in(c.get("/").text)
        assert token is not None
        c.headers[TOKEN_HEADER] = token
        yield c


@pytest.fixture
def client(served):
    with page_client(app_of(served)) as c:
        yield c


def create(client: TestClient, game: int, seats: list[str]) -> str:
    r = client.post("/api/tables", json={"game": game, "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()["table"]


def take(client: TestClient, table: str, seat: int) -> str:
    r = client.post(f"/api/tables/{table}/seats", json={"seat": seat, "name": f"P{seat}"})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def hello(ws: Any, token: str | None) -> tuple[dict, dict]:
    ws.send_json({"type": "hello", "token": token})
    welcome, view = ws.receive_json(), ws.receive_json()
    assert welcome["type"] == "welcome" and view["type"] == "view"
    return welcome, view


def options(view: dict) -> list[str]:
    return [o[0] for o in view["view"].get("decision", {}).get("options", [])]


def until_turn(ws: Any, turn: int) -> dict:
    """Read messages until the view of turn `turn` (bots may move in between)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "view" and (message["turn"] >= turn or message["over"]):
            return message
    raise AssertionError(f"no view of turn {turn}")


def test_two_people_play_tictactoe_and_the_record_replays(client, served):
    listed = client.get("/api/games").json()
    assert [g["name"] for g in listed["games"]] == ["Tic-tac-toe", "Cronberg", "Cromlech"]
    assert listed["bots"] == ["first", "greedy", "ismcts", "mcts", "random"]
    assert listed["games"][0]["file"] == "tictactoe.rules"   # not the host's folders
    table = create(client, TICTACTOE, ["person", "person"])
    one, two = take(client, table, 1), take(client, table, 2)
    assert one != two
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 409 and "not over" in r.json()["error"]
    with client.websocket_connect(f"/ws/{table}") as a, \
            client.websocket_connect(f"/ws/{table}") as b:
        welcome, va = hello(a, one)
        assert welcome["seat"] == 1 and welcome["screen"]["boards"][0]["kind"] == "square"
        _, vb = hello(b, two)
        assert options(va)[:3] == ["a1", "b1", "c1"] and options(vb) == []
        assert "seed" not in json.dumps(va) and one not in json.dumps(vb)
        turn = 0
        while True:
            ws, me = (a, va) if turn % 2 == 0 else (b, vb)
            ws.send_json({"type": "move", "option": options(me)[0], "turn": turn})
            va, vb = a.receive_json(), b.receive_json()
            turn += 1
            assert va["turn"] == vb["turn"] == turn
            if va["over"]:
                break
        assert va["view"]["result"]["ranking"] == [1, 2]   # a1 b1 a2 b2 a3: seat 1 wins
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = parse_record(r.json())
    game = replay(record, served[TICTACTOE].rules)
    assert game.over and game.result.ranking == [1, 2]


def test_seat_tokens(client):
    table = create(client, TICTACTOE, ["person", "person"])
    other = create(client, TICTACTOE, ["person", "person"])
    token = take(client, table, 1)
    elsewhere = take(client, other, 1)
    r = client.post(f"/api/tables/{table}/seats", json={"seat": 1})
    assert r.status_code == 400 and "taken" in r.json()["error"]
    for bad in ["forged-token", elsewhere, token[:-1]]:
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": bad})
            assert ws.receive_json() == {
                "type": "error", "message": "this seat token is not valid at this table"}
            # the connection stays: it may still watch, and a watcher cannot move
            _, view = hello(ws, None)
            assert view["view"]["viewer"] is None and options(view) == []
            ws.send_json({"type": "move", "option": "a1", "turn": 0})
            assert ws.receive_json()["message"] == "spectators cannot move"
    with client.websocket_connect(f"/ws/{table}") as ws:
        welcome, view = hello(ws, token)   # a reload: the same token, the same seat
        assert welcome["seat"] == 1 and options(view)
    with client.websocket_connect("/ws/no-such-table") as ws:
        message = ws.receive_json()
        assert message["fatal"] and "no such table" in message["message"]


BAD = [
    ("not json", "the message is not JSON"),
    ("[1, 2]", "a message is a JSON object with a 'type'"),
    ('{"kind": "move"}', "a message is a JSON object with a 'type'"),
    ('{"type": "dance"}', "unknown message type 'dance' (hello or move)"),
    ('{"type": "move", "option": "z9", "turn": 0}', "'z9' is not one of your options"),
    ('{"type": "move", "option": 3, "turn": 0}', "a move names an option by its id (a string)"),
    ('{"type": "move", "option": "a1", "turn": 7}',
     "that move was for turn 7, but this is turn 0: the game has moved on"),
    ('{"type": "move", "option": "a1"}',
     "that move was for turn None, but this is turn 0: the game has moved on"),
    ('{"type": "hello", "token": null}', "this connection has already said hello"),
    ("[" * 100_000, "the message is too long (at most 4096 characters)"),
]


def test_bad_messages_are_answered_and_change_nothing(client):
    table = create(client, TICTACTOE, ["person", "person"])
    one, two = take(client, table, 1), take(client, table, 2)
    with client.websocket_connect(f"/ws/{table}") as a, \
            client.websocket_connect(f"/ws/{table}") as b:
        ws = client.websocket_connect(f"/ws/{table}")
        with ws as early:
            early.send_json({"type": "move", "option": "a1", "turn": 0})
            assert early.receive_json()["message"] == "say hello first (with your seat token)"
        hello(a, one)
        hello(b, two)
        for text, answer in BAD:
            a.send_text(text)
            assert a.receive_json() == {"type": "error", "message": answer}
        a.send_bytes(b"\x00\x01")
        assert a.receive_json()["message"] == "messages are JSON text, not binary"
        b.send_json({"type": "move", "option": "a1", "turn": 0})
        assert b.receive_json()["message"] == "it is not your turn: player 1 decides"
        a.send_json({"type": "move", "option": "b2", "turn": 0})   # nothing was lost
        assert a.receive_json()["turn"] == 1 and b.receive_json()["turn"] == 1


def test_http_bad_input(client):
    for payload, answer in [({"game": 9, "seats": ["person"]}, "'game' must be a number"),
                            ({"game": 0, "seats": "person"}, "'seats' must be a list"),
                            ({"game": 0, "seats": ["person"]}, "is for 2 players, not 1"),
                            ({"game": 0, "seats": ["person", "genius"]}, "unknown bot"),
                            # a stranger may not set a bot's budget: it would hold a worker
                            ({"game": 0, "seats": ["person", "mcts:sims=100000000"]},
                             "unknown bot")]:
        r = client.post("/api/tables", json=payload)
        assert r.status_code == 400 and answer in r.json()["error"], r.text
    as_json = {"Content-Type": "application/json"}
    r = client.post("/api/tables", content=b"{oops", headers=as_json)
    assert r.json() == {"error": "the request is not JSON"}
    r = client.post("/api/tables", content=b" " * 100_000, headers=as_json)
    assert r.json() == {"error": "the request is too long (at most 4096 bytes)"}
    table = create(client, TICTACTOE, ["person", "random"])
    for seat, answer in [(2, "played by a bot"), (3, "there is no seat 3"),
                         ("1", "give 'seat'")]:
        r = client.post(f"/api/tables/{table}/seats", json={"seat": seat})
        assert r.status_code == 400 and answer in r.json()["error"]
    assert client.get("/api/tables/nope/record").status_code == 404


def test_a_flood_is_refused_and_other_tables_go_on(client, monkeypatch):
    monkeypatch.setattr(serving, "RATE", 8)
    monkeypatch.setattr(serving, "RATE_WINDOW", 60.0)
    table = create(client, TICTACTOE, ["person", "person"])
    calm = create(client, TICTACTOE, ["person", "person"])
    token, calm_one = take(client, table, 1), take(client, calm, 1)
    calm_two = take(client, calm, 2)
    with client.websocket_connect(f"/ws/{table}") as flood, \
            client.websocket_connect(f"/ws/{calm}") as a, \
            client.websocket_connect(f"/ws/{calm}") as b:
        hello(flood, token)
        hello(a, calm_one)
        hello(b, calm_two)
        for _ in range(30):
            flood.send_json({"type": "move", "option": "zz", "turn": 0})
        answers = [flood.receive_json()["message"] for _ in range(30)]
        assert answers.count("'zz' is not one of your options") == 7
        assert answers.count("too many messages: slow down (at most 8 in 60 seconds)") == 23
        a.send_json({"type": "move", "option": "a1", "turn": 0})
        assert a.receive_json()["turn"] == 1 and b.receive_json()["turn"] == 1
    with client.websocket_connect(f"/ws/{table}") as again:   # the flood lost nothing
        _, view = hello(again, token)
        assert view["turn"] == 0 and options(view)[0] == "a1"


def test_a_person_against_a_bot_to_the_end(client):
    table = create(client, TICTACTOE, ["random", "person"])
    token = take(client, table, 2)
    with client.websocket_connect(f"/ws/{table}") as ws:
        _, view = hello(ws, token)
        if view["turn"] == 0:
            view = until_turn(ws, 1)   # the bot opens
        while not view["over"]:
            turn = view["turn"]
            ws.send_json({"type": "move", "option": options(view)[0], "turn": turn})
            view = until_turn(ws, turn + 2)
        assert view["view"]["result"]["ranking"]
        assert view["seats"][0]["bot"] == "random"
    assert client.get(f"/api/tables/{table}/record").status_code == 200


def seat_messages(client: TestClient, tables: list[str], tokens: list[list[str | None]],
                  moves: list[tuple[int, str]], watcher: int,
                  start: int = 0) -> list[list[str]]:
    """Play the same moves (seat, option id) at each table; the texts seat `watcher` is
    sent at each."""
    out = []
    for table, seat_tokens in zip(tables, tokens):
        sockets = [client.websocket_connect(f"/ws/{table}") for _ in seat_tokens]
        texts: list[str] = []
        entered = [s.__enter__() for s in sockets]
        try:
            for ws, token in zip(entered, seat_tokens):
                ws.send_json({"type": "hello", "token": token})
                got = [ws.receive_text(), ws.receive_text()]
                if ws is entered[watcher]:
                    texts += got
            for turn, (seat, option) in enumerate(moves):
                entered[seat].send_json({"type": "move", "option": option,
                                         "turn": start + turn})
                for n, ws in enumerate(entered):
                    text = ws.receive_text()
                    assert json.loads(text)["type"] == "view", text
                    if n == watcher:
                        texts.append(text)
        finally:
            for s in sockets:
                s.__exit__(None, None, None)
        out.append(texts)
    return out


def two_deals(client: TestClient, served: Served, players: int, seat: int, zone: str,
              owner: int | None) -> tuple[list[str], list[list[str | None]]]:
    """Two tables whose games differ only in what `seat` cannot see (a game made up for
    the seat by the sampler), checked to differ in `zone`."""
    server = client.app.state.server  # type: ignore[attr-defined]
    real = served.rules.new_game(players=players, seed=3, narrate=True)
    rng = random.Random(3)
    while not real.zone(zone, owner):   # play on to a deal
        assert not real.over
        real.apply_index(rng.randrange(real.num_options()))
    for n in range(20):
        made_up = Observation(real, seat).sample_game(random.Random(n))
        if made_up.zone(zone, owner) != real.zone(zone, owner):
            break
    else:
        raise AssertionError("the sampler never dealt differently")
    tables: list[str] = []
    tokens: list[list[str | None]] = []
    for game in (real.copy(narrated=True), made_up):
        table = Table(served.rules, served.file, ["person"] * players, game=game)
        key = server.add(table)
        tables.append(key)
        tokens.append([table.take(p) for p in range(players)])
    return tables, tokens


def test_cronberg_deck_never_crosses_the_wire(client, served):
    moves = [(0, "token"), (0, "a1"), (1, "token"), (1, "d4"), (0, "token"), (0, "g1")]
    for watcher in (0, 1, 2):   # each player, and a spectator
        tables, tokens = two_deals(client, served[CRONBERG], 2, watcher % 2, "deck", None)
        tokens = [seat_tokens + [None] for seat_tokens in tokens]
        first, second = seat_messages(client, tables, tokens, moves, watcher)
        assert len(first) == 2 + len(moves) and first == second


def test_cromlech_drafts_never_cross_the_wire(client, served):
    # player 1 has drawn two stones into a drafting hand: players 2 and 3 cannot see them
    for watcher in (1, 2):
        tables, tokens = two_deals(client, served[CROMLECH], 3, watcher, "hand", 0)
        server = client.app.state.server  # type: ignore[attr-defined]
        real, made_up = (server.tables[t].table.game for t in tables)
        assert real.zone("hand", 0) != made_up.zone("hand", 0)
        first, second = seat_messages(client, tables, tokens, [], watcher,
                                      len(real.history))
        assert len(first) == 2 and first == second
        view = json.loads(first[1])["view"]
        assert view["zones"]["hand"][0] == {"size": 2}


BROKEN = '''game "Broken"
players 2
counter n = 0
play:
    turns:
        choose by current:
            option go "go":
                set n = 10 / n
'''


def test_a_rule_that_goes_wrong_stops_the_game_and_its_record_says_why(tmp_path):
    import rulesdsl
    from rulesdsl.interpreter.records import start

    path = tmp_path / "broken.rules"
    path.write_text(BROKEN)
    rules = rulesdsl.load(path)
    with page_client(app_of([Served(str(path), rules)])) as client:
        table = create(client, 0, ["person", "person"])
        token = take(client, table, 1)
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, token)
            ws.send_json({"type": "move", "option": "go", "turn": 0})
            view = ws.receive_json()
            assert view["over"] and view["error"] == "division by zero"
            ws.send_json({"type": "move", "option": "go", "turn": 1})
            assert ws.receive_json()["message"] == "the game is over"
        record = parse_record(client.get(f"/api/tables/{table}/record").json())
    assert record.error is not None and record.error["code"] == "R003"
    game = start(record, rules)
    with pytest.raises(rulesdsl.RulesError, match="division by zero"):
        game.apply_index(record.steps[0])


def test_the_serve_command(monkeypatch, capsys):
    import uvicorn

    from rulesdsl.cli import main

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append((app, kw)))
    assert main(["serve", str(ROOT / FILES[TICTACTOE]), "--seats", "person,greedy",
                 "--port", "8123"]) == 0
    out = capsys.readouterr().out
    assert "open http://localhost:8123/ in a browser" in out
    key = out.split("/t/")[1].split()[0]
    app, options_ = ran[0]
    assert options_ == {"host": "127.0.0.1", "port": 8123, "log_level": "warning",
                        "ws_max_size": 65536, "proxy_headers": False,
                        "forwarded_allow_ips": ""}
    assert [s.kind for s in app.state.server.tables[key].table.seats] == ["person", "greedy"]
    assert main(["serve", str(ROOT / FILES[TICTACTOE]), "--seats", "person,genius"]) == 2
    assert "--seats: unknown bot 'genius'" in capsys.readouterr().err
    assert main(["serve", str(ROOT / FILES[TICTACTOE]), "--bot-delay", "100"]) == 2
    assert main(["serve", "no-such.rules"]) == 1
    assert "no-such.rules" in capsys.readouterr().err


def test_the_screen_takes_the_display_declaration(load_rules):
    from rulesdsl.serve.screen import screen

    cleromancy = load_rules(ROOT / "games/cleromancy/cleromancy.rules")
    drawn = screen(cleromancy)
    assert drawn["display"]["owners"] == {"Die": "owner"}   # its one counter holding a player
    assert drawn["boards"][0]["kind"] == "square" and drawn["boards"][0]["diagonal"]
    cronberg = load_rules(ROOT / "games/cronberg/cronberg.rules")
    city, crossings = screen(cronberg)["boards"]
    assert (city["kind"], len(city["cells"]), len(city["corners"])) == ("triangles", 54, 37)
    assert crossings["kind"] == "corners" and crossings["of"] == "city"
    assert [p for n, p in crossings["cells"]] == [p for n, p in city["corners"]]
    cromlech = screen(load_rules(ROOT / "games/cromlech/cromlech.rules"))["display"]
    assert cromlech["rings"]["circle"]["by"] == "spot"      # `ring circle by spot`
    assert cromlech["rings"]["circle"]["places"][:2] == ["North inner", "North outer"]

    skye = screen(load_rules(ROOT / "games/isle_of_skye/isle_of_skye.rules"))["boards"]
    assert [b["kind"] for b in skye] == ["territory"]
    assert skye[0]["per_player"] and len(skye[0]["cells"]) == 15 * 15
    assert skye[0]["tiles"]["castle_blue"] == {
        "edges": ["Pasture", "Water", "Pasture", "Mountain"], "centre": "Pasture",
        "roads": [0, 2, 3]}

    class Declared:   # rules whose `display:` says more than the game file does
        components, fields, kinds, tree, labels, enum = (
            cleromancy.components, cleromancy.fields, cleromancy.kinds, cleromancy.tree,
            cleromancy.labels, cleromancy.enum)
        boards, zones, counters, name = (cleromancy.boards, cleromancy.zones,
                                         cleromancy.counters, cleromancy.name)
        display = {"hidden": ["turns_taken"], "labels": {"mana": "mana crystals"},
                   "groups": [], "glyphs": {}, "owners": {}}

    shown = screen(Declared())  # type: ignore[arg-type]
    assert shown["display"]["hidden"] == ["turns_taken"]
    assert shown["display"]["labels"] == {"mana": "mana crystals"}
    assert shown["display"]["owners"] == {"Die": "owner"}


def test_a_ring_is_sent_as_a_circle_of_positions_and_played_by_their_names(load_rules):
    from rulesdsl.serve.screen import screen

    path = "games/solstice/solstice.rules"
    boards = {b["name"]: b for b in screen(load_rules(ROOT / path))["boards"]}
    outer, inner = boards["outer"], boards["inner"]
    assert (outer["kind"], outer["open"], len(outer["cells"])) == ("ring", False, 36)
    assert outer["cells"][0] == ["outer1", [0.0, -1.0]]      # the first at the top
    assert outer["cells"][9] == ["outer10", [1.0, 0.0]]      # a quarter of the way round
    assert (inner["kind"], inner["open"], len(inner["cells"])) == ("ring", True, 10)
    assert inner["cells"][0][1] != inner["cells"][-1][1]      # the arc's ends stand apart
    with page_client(app_of([Served(path, load_rules(ROOT / path))])) as c:
        table = create(c, 0, ["person", "person", "person"])
        tokens = [take(c, table, seat) for seat in (1, 2, 3)]
        with c.websocket_connect(f"/ws/{table}") as ws:
            welcome, view = hello(ws, tokens[0])
            assert {b["kind"] for b in welcome["screen"]["boards"]} == {"ring"}
            turn = view["turn"]
            # each player takes a colour; player 1 then builds an upright on the ring
            for seat, pick in ((1, "Gold"), (2, "Gold"), (3, "Gold")):
                if seat != 1:
                    with c.websocket_connect(f"/ws/{table}") as other:
                        hello(other, tokens[seat - 1])
                        other.send_json({"type": "move", "option": pick, "turn": turn})
                else:
                    ws.send_json({"type": "move", "option": pick, "turn": turn})
                turn += 1
                view = until_turn(ws, turn)
            # player 1 starts the first month: no skill, no quarry, a gold upright outside
            for pick in ("go_on", "done", "build", "Gold", "outer"):
                ws.send_json({"type": "move", "option": pick, "turn": view["turn"]})
                view = until_turn(ws, view["turn"] + 1)
            assert set(options(view)) == {"outer1", "outer2"}   # the axis trilithon
            ws.send_json({"type": "move", "option": "outer2", "turn": view["turn"]})
            view = until_turn(ws, view["turn"] + 1)
            assert view["view"]["boards"]["outer"] == {"outer2": "Gold"}


def test_a_bot_that_fails_stops_its_own_table_only(client, monkeypatch):
    from rulesdsl.agents import FirstAgent

    def broken(self: Any, observation: Any) -> int:
        raise ValueError("out of ideas")

    monkeypatch.setattr(FirstAgent, "choose", broken)
    table = create(client, TICTACTOE, ["person", "first"])
    calm = create(client, TICTACTOE, ["person", "random"])
    token, calm_token = take(client, table, 1), take(client, calm, 1)
    with client.websocket_connect(f"/ws/{table}") as ws, \
            client.websocket_connect(f"/ws/{calm}") as other:
        hello(ws, token)
        hello(other, calm_token)
        ws.send_json({"type": "move", "option": "a1", "turn": 0})
        ws.receive_json()
        view = ws.receive_json()
        assert view["over"] and view["error"] == "the bot of player 2 failed: out of ideas"
        other.send_json({"type": "move", "option": "a1", "turn": 0})
        assert until_turn(other, 2)["turn"] == 2   # the other table's bot answered


def test_an_address_that_makes_tables_too_fast_is_refused(client, monkeypatch):
    monkeypatch.setattr(serving, "HTTP_RATE", 3)
    for _ in range(3):
        create(client, TICTACTOE, ["person", "person"])
    r = client.post("/api/tables", json={"game": 0, "seats": ["person", "person"]})
    assert r.status_code == 429
    assert r.json() == {"error": "too many requests: at most 3 in 60 seconds"}
    assert client.get("/api/tables").status_code == 200   # looking on is not limited
