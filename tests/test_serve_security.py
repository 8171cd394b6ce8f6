"""`rulesdsl serve` against hostile clients: tables that are never finished, forwarded
addresses, silent connections, other sites' pages and DNS rebinding, forged POSTs.

Each test is a reproducer of a hole an audit found (docs/security.md, "The server"): tables
expire and free their place, forwarded headers are believed only behind `--proxy`,
connections count from when they open and are closed if silent, a foreign Origin or Host
gets nothing, a POST must be JSON with the page's request token, and the lobby lists only
what it shows.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from rulesdsl.serve import app as serving  # noqa: E402
from rulesdsl.serve.app import Served, make_app  # noqa: E402
from rulesdsl.serve.guard import TOKEN_HEADER, same_site, split_host, token_in  # noqa: E402

from .test_serve import app_of, create, hello, page_client, take  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = "games/tictactoe/tictactoe.rules"
WS = "ws://localhost:8000"   # the served address, as the page opens a WebSocket to it


@pytest.fixture(scope="module")
def games(load_rules) -> list[Served]:
    return [Served(TICTACTOE, load_rules(ROOT / TICTACTOE))]


@pytest.fixture
def client(games):
    with page_client(app_of(games)) as c:
        yield c


class Clock:
    """The server's clock, turned forward by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ---- tables expire ----------------------------------------------------------------------

def test_idle_tables_expire_and_free_their_place(client, monkeypatch):
    """A full server takes a new table once an idle one is cleared: a table nobody joined
    after UNJOINED_IDLE, one whose players stopped moving after IDLE; a watcher of a
    cleared table is told why and its connection closed."""
    server = client.app.state.server
    clock = Clock()
    server.clock = clock
    monkeypatch.setattr(serving, "MAX_TABLES", 3)
    joined = create(client, 0, ["person", "person"])
    token = take(client, joined, 1)
    unjoined = [create(client, 0, ["person", "person"]) for _ in range(2)]
    r = client.post("/api/tables", json={"game": 0, "seats": ["person", "person"]})
    assert r.status_code == 400 and "as many tables" in r.json()["error"]
    clock.now += serving.UNJOINED_IDLE + 1   # nobody joined these two within the hour
    fresh = create(client, 0, ["person", "person"])
    assert set(server.tables) == {joined, fresh}
    r = client.post(f"/api/tables/{unjoined[0]}/seats", json={"seat": 1})
    assert r.status_code == 400 and "no such table" in r.json()["error"]
    with client.websocket_connect(f"/ws/{joined}") as ws:
        hello(ws, token)
        ws.send_json({"type": "move", "option": "a1", "turn": 0})
        ws.receive_json()
        clock.now += serving.IDLE - 10      # a move keeps the table another day
        create(client, 0, ["person", "person"])
        assert joined in server.tables
        clock.now += 20                     # a day without a move
        create(client, 0, ["person", "person"])
        assert joined not in server.tables
        message = ws.receive_json()
        assert message["fatal"] and "cleared" in message["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_a_client_may_keep_only_so_many_unfinished_tables(client, monkeypatch):
    monkeypatch.setattr(serving, "TABLES_PER_CLIENT", 2)
    create(client, 0, ["person", "person"])
    create(client, 0, ["person", "person"])
    r = client.post("/api/tables", json={"game": 0, "seats": ["person", "person"]})
    assert r.status_code == 429 and "2 unfinished tables" in r.json()["error"]
    server = client.app.state.server   # (the test client's address is "testclient")
    assert [live.creator for live in server.tables.values()] == ["testclient"] * 2


# ---- forwarded headers ------------------------------------------------------------------

@contextmanager
def in_a_thread(app: Any, **options: Any) -> Iterator[str]:
    """The app under uvicorn with these options, on a free port of this machine, in a
    thread; its address."""
    from benchmarks.screens import serving

    with serving(app, **options) as base:
        yield base


@contextmanager
def running(argv: list[str], monkeypatch: Any) -> Iterator[str]:
    """`rulesdsl serve ARGV` under uvicorn with the options the command gives it (see
    `in_a_thread`)."""
    import uvicorn

    from rulesdsl.cli import main

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append((app, kw)))
    assert main(["serve", str(ROOT / TICTACTOE), *argv]) == 0
    app, options = ran[0]
    with in_a_thread(app, **options) as base:
        yield base


def post_as(base: str, forwarded_for: str) -> int:
    """Make a table, the request claiming to be forwarded for another address; the
    status."""
    with urllib.request.urlopen(f"{base}/", timeout=10) as page:
        token = token_in(page.read().decode()) or ""
    request = urllib.request.Request(
        f"{base}/api/tables", method="POST",
        data=json.dumps({"game": 0, "seats": ["person", "person"]}).encode(),
        headers={"Content-Type": "application/json", TOKEN_HEADER: token,
                 "X-Forwarded-For": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


def test_forwarded_headers_are_ignored_unless_behind_a_proxy(monkeypatch, capsys):
    """A local client that claims a new address at each request is still one client (the
    fourth table past a limit of three is refused); behind `--proxy 127.0.0.1` the
    proxy's word is taken, and each forwarded address has its own allowance."""
    monkeypatch.setattr(serving, "HTTP_RATE", 3)
    with running([], monkeypatch) as base:
        assert [post_as(base, f"10.0.0.{n}") for n in range(4)] == [200, 200, 200, 429]
    with running(["--proxy", "127.0.0.1"], monkeypatch) as base:
        assert [post_as(base, f"10.0.0.{n}") for n in range(4)] == [200] * 4
    capsys.readouterr()


# ---- connections ------------------------------------------------------------------------

def test_silent_connections_count_and_are_closed(client, monkeypatch):
    """A connection counts against the table's cap from when it opens, hello or not; one
    that stays silent is closed after HELLO_TIMEOUT seconds, and its place is free."""
    monkeypatch.setattr(serving, "MAX_WATCHERS", 3)
    table = create(client, 0, ["person", "person"])
    with client.websocket_connect(f"/ws/{table}"), client.websocket_connect(f"/ws/{table}"), \
            client.websocket_connect(f"/ws/{table}") as third:
        with client.websocket_connect(f"/ws/{table}") as fourth:
            fourth.send_json({"type": "hello", "token": None})
            message = fourth.receive_json()   # the refusal, sent before any hello is read
            assert message["fatal"] and "as many watchers" in message["message"]
        hello(third, None)   # the silent ones hold their places meanwhile
    monkeypatch.setattr(serving, "HELLO_TIMEOUT", 0.2)
    with client.websocket_connect(f"/ws/{table}") as silent:
        message = silent.receive_json()
        assert message == {"type": "error", "message": "say hello within 0.2 seconds",
                           "fatal": True}
        with pytest.raises(WebSocketDisconnect) as closed:
            silent.receive_json()
        assert closed.value.code == 4408
    assert not client.app.state.server.tables[table].connections
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, None)


# ---- other sites, DNS rebinding, forged POSTs -------------------------------------------

@pytest.fixture
def local(games):
    """A server as `rulesdsl serve` makes it by default (127.0.0.1), reached as
    http://localhost:8000 by its own page."""
    with TestClient(make_app(games, bot_delay=0), base_url="http://localhost:8000") as c:
        c.headers[TOKEN_HEADER] = token_in(c.get("/").text) or ""
        yield c


def test_a_foreign_host_gets_nothing(local):
    """A page of another name resolved to this machine (DNS rebinding) sends its own name
    as Host: the page, the API and the WebSocket are all refused."""
    table = create(local, 0, ["person", "person"])
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example",
                 "127.0.0.1.nip.io:8000", "", "[::1"):
        for path in ("/", "/api/tables", f"/t/{table}", "/static/app.js"):
            r = local.get(path, headers={"host": host})
            assert r.status_code in (400, 403), (host, path)
        r = local.post("/api/tables", json={"game": 0, "seats": ["person", "person"]},
                       headers={"host": host})
        assert r.status_code in (400, 403)
        with pytest.raises(WebSocketDisconnect):
            with local.websocket_connect(f"{WS}/ws/{table}", headers={"host": host}):
                pass
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST.:8000"):
        assert local.get("/api/tables", headers={"host": host}).status_code == 200
    assert len(local.get("/api/tables").json()) == 1


def test_a_foreign_origin_gets_nothing(local):
    """A page of another site (or a sandboxed one, Origin null) can neither open a
    WebSocket to a table nor POST; the server's own page can."""
    table = create(local, 0, ["person", "person"])
    for origin in ("http://evil.example", "http://localhost:9999", "null",
                   "http://localhost:8000.evil.example", "file://"):
        with pytest.raises(WebSocketDisconnect):
            with local.websocket_connect(f"{WS}/ws/{table}", headers={"origin": origin}):
                pass
        r = local.post("/api/tables", json={"game": 0, "seats": ["person", "person"]},
                       headers={"origin": origin})
        assert r.status_code == 403 and "another site" in r.json()["error"]
        r = local.post(f"/api/tables/{table}/seats", json={"seat": 1},
                       headers={"origin": origin})
        assert r.status_code == 403
    assert len(local.get("/api/tables").json()) == 1
    with local.websocket_connect(f"{WS}/ws/{table}", headers={"origin": "http://localhost:8000"}) \
            as ws:
        hello(ws, None)


def test_a_post_must_be_json_with_the_page_token(local):
    """A plain form or a text/plain body (what another site's page can send without
    asking) is refused, and so is JSON without the request token or with another."""
    body = json.dumps({"game": 0, "seats": ["person", "person"]})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 ""):
        r = local.post("/api/tables", content=body, headers={"content-type": kind})
        assert r.status_code == 415 and "must be JSON" in r.json()["error"]
    for token in ("", "forged", local.headers[TOKEN_HEADER][:-1]):
        r = local.post("/api/tables", content=body,
                       headers={"content-type": "application/json", TOKEN_HEADER: token})
        assert r.status_code == 403 and "request token" in r.json()["error"]
    assert local.get("/api/tables").json() == []
    r = local.post("/api/tables", content=body,
                   headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_every_address_answers_to_ip_addresses_and_named_hosts(games):
    """`--host 0.0.0.0` answers to any IP address (a name can be rebound, an address
    cannot) and to the names `--allow-host` gives, not to other names."""
    from rulesdsl.serve.guard import served_names

    names, every = served_names("0.0.0.0", ["games.example.org"])
    with TestClient(make_app(games, hosts=names, any_address=every)) as c:
        for host in ("192.168.1.5:8000", "[fe80::1]:8000", "games.example.org",
                     "localhost:8000"):
            assert c.get("/api/tables", headers={"host": host}).status_code == 200, host
        for host in ("evil.example", "testserver"):
            assert c.get("/api/tables", headers={"host": host}).status_code == 403
    assert served_names("192.168.1.5", []) == (
        ["localhost", "127.0.0.1", "::1", "192.168.1.5"], False)


def test_hosts_and_origins_are_compared_as_sites():
    assert split_host("LocalHost.:8000") == ("localhost", 8000)
    assert split_host("[::1]:80") == ("::1", 80) and split_host("[::1]") == ("::1", None)
    for bad in ("", ":80", "a:b", "[::1", "[::1]x", "a:123456"):
        assert split_host(bad) is None
    assert same_site("http://localhost:8000", ("localhost", 8000))
    assert same_site("https://games.example.org", ("games.example.org", None))
    assert same_site("http://games.example.org", ("games.example.org", 80))
    assert not same_site("https://games.example.org", ("games.example.org", 80))
    assert not same_site("http://localhost:8000", ("localhost", 8001))
    for bad in ("null", "file://", "http://", "http://localhost:x", "ftp://localhost"):
        assert not same_site(bad, ("localhost", None))


# ---- the lobby --------------------------------------------------------------------------

def test_the_lobby_lists_only_what_it_shows(client):
    """Each table still being played, its game and whether each seat is free, taken or a
    bot's: no person's name, no finished table."""
    playing = create(client, 0, ["person", "random"])
    client.post(f"/api/tables/{playing}/seats", json={"seat": 1, "name": "Ann Smith"})
    free = create(client, 0, ["person", "person"])
    over = create(client, 0, ["random", "random"])
    for _ in range(500):
        if client.app.state.server.tables[over].table.over:
            break
        time.sleep(0.01)
    listed = client.get("/api/tables")
    assert "Ann" not in listed.text
    assert sorted(listed.json(), key=lambda t: t["table"] != playing) == [
        {"table": playing, "game": "Tic-tac-toe", "seats": ["taken", "bot"]},
        {"table": free, "game": "Tic-tac-toe", "seats": ["free", "free"]}]
