"""The web server: tables over HTTP and WebSockets, on Starlette (run under uvicorn).

Stage: serving. The host names the rule files it serves (`rulesdsl serve FILE...`); a
client can only pick among them. HTTP creates tables, lists them, seats people (a token
per seat, given once) and hands out a finished game's record; a WebSocket per client
carries the game: the server sends each client its own seat's messages (table.py), the
client sends moves. Every bad message is answered with an error message and changes
nothing; a client that floods is refused until it slows down; one table's trouble never
stops the others (each table has its own lock, bots think in worker threads). A table
nobody moves at for a day is cleared, one nobody joined within the hour sooner; a client
may keep only so many unfinished tables. Who may talk to the server at all (its host
names, same-site pages, the page's request token) is guard.py's.
docs/serve.md describes the protocol and the security model.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents import REGISTRY
from ..diagnostics import RulesError
from ..interpreter.forced import POLICIES
from ..interpreter.game import Rules
from .guard import LOOPBACK, Guard
from .table import PERSON, Refused, Seat, Table, encode

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 200          # tables kept at once; the oldest finished ones go first
MAX_MESSAGE = 4096        # characters in one message from a client
RATE = 20                 # messages a client may send per RATE_WINDOW seconds
RATE_WINDOW = 2.0
MAX_WATCHERS = 50         # connections to one table, counted from when they open
HELLO_TIMEOUT = 10.0      # seconds a new connection has to say hello before it is closed
HTTP_RATE = 30            # tables made or seats taken per address per HTTP_WINDOW seconds
HTTP_WINDOW = 60.0
TABLES_PER_CLIENT = 20    # unfinished tables of one address's making kept at once
IDLE = 24 * 3600.0        # seconds without a move after which a table is cleared
UNJOINED_IDLE = 3600.0    # sooner for a table that no person ever joined
PAGE = (STATIC / "index.html").read_text(encoding="utf-8")


@dataclass
class Served:
    """A rule file the host serves: its path as given and the checked rules."""

    file: str
    rules: Rules


@dataclass
class Live:
    """A table with its connections, lock and bot task; when it was made and last moved
    at (by the server's clock), whether a person ever joined it, and who made it."""

    table: Table
    created: float
    moved: float
    creator: str | None = None
    joined: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[WebSocket, int | None] = field(default_factory=dict)
    connections: set[WebSocket] = field(default_factory=set)   # open, hello or not
    bots: asyncio.Task | None = None

    def idle(self, now: float) -> bool:
        """Whether the table has waited longer than it is kept: IDLE seconds since its
        last move, UNJOINED_IDLE since it was made if no person ever joined it."""
        return now - self.moved > IDLE or (not self.joined and now - self.created >
                                           UNJOINED_IDLE)


class Bucket:
    """An allowance: `rate()` events per `window()` seconds (read when asked, so that
    tests can change the limits)."""

    def __init__(self, rate: Callable[[], int] = lambda: RATE,
                 window: Callable[[], float] = lambda: RATE_WINDOW) -> None:
        self.times: list[float] = []
        self.rate, self.window = rate, window

    def allow(self) -> bool:
        now = time.monotonic()
        self.times = [t for t in self.times if now - t < self.window()]
        if len(self.times) >= self.rate():
            return False
        self.times.append(now)
        return True


class TooMany(Refused):
    """A client past its allowance (HTTP status 429)."""


def error(err: Refused | str, status: int = 400) -> JSONResponse:
    if isinstance(err, TooMany):
        status = 429
    return JSONResponse({"error": str(err)}, status_code=status)


async def body(request: Request) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():   # read no more than the limit
        raw += chunk
        if len(raw) > MAX_MESSAGE:
            raise Refused(f"the request is too long (at most {MAX_MESSAGE} bytes)")
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise Refused("the request is not JSON") from None
    if not isinstance(data, dict):
        raise Refused("the request must be a JSON object")
    return data


class Server:
    """The tables of one server and the rule files it serves."""

    def __init__(self, games: list[Served], bot_delay: float = 0.5, token: str = ""):
        self.games = games
        self.tables: dict[str, Live] = {}
        self.bot_delay = bot_delay
        self.addresses: dict[str, Bucket] = {}   # HTTP allowances by client address
        self.token = token                       # the pages' request token (guard.py)
        self.clock: Callable[[], float] = time.monotonic   # tests turn it forward
        self.closing: set[asyncio.Task] = set()   # connections of cleared tables

    def check_rate(self, request: Request) -> None:
        """Refuse an address that makes tables or takes seats too fast."""
        host = address(request)
        if len(self.addresses) > 10_000:   # forget quiet addresses
            self.addresses = {k: b for k, b in self.addresses.items() if b.times and
                              time.monotonic() - b.times[-1] < HTTP_WINDOW}
        bucket = self.addresses.setdefault(host, Bucket(lambda: HTTP_RATE,
                                                        lambda: HTTP_WINDOW))
        if not bucket.allow():
            raise TooMany(f"too many requests: at most {HTTP_RATE} in {HTTP_WINDOW:g} "
                          "seconds")

    # ---- tables --------------------------------------------------------------------

    def add(self, table: Table, creator: str | None = None) -> str:
        """Seat a table on the server, made by the client at address `creator` (None: the
        host); returns its id."""
        self.expire()
        if creator is not None and sum(
                1 for live in self.tables.values()
                if live.creator == creator and not live.table.over) >= TABLES_PER_CLIENT:
            raise TooMany(f"you have {TABLES_PER_CLIENT} unfinished tables on this server: "
                          "finish one, or wait for one to be cleared")
        if len(self.tables) >= MAX_TABLES:
            finished = [k for k, live in self.tables.items() if live.table.over
                        and not live.watchers]
            if not finished:
                raise Refused("the server has as many tables as it keeps: try again later")
            del self.tables[min(finished, key=lambda k: self.tables[k].created)]
        key = secrets.token_urlsafe(8)
        now = self.clock()
        self.tables[key] = Live(table, now, now, creator)
        return key

    def expire(self) -> None:
        """Clear the tables that waited longer than they are kept (`Live.idle`): their
        connections are told why and closed."""
        now = self.clock()
        for key in [k for k, live in self.tables.items() if live.idle(now)]:
            live = self.tables.pop(key)
            if live.bots is not None:
                live.bots.cancel()
            for ws in list(live.connections):
                task = asyncio.ensure_future(self.close(
                    ws, "this table was cleared: nobody had moved at it for too long"))
                self.closing.add(task)
                task.add_done_callback(self.closing.discard)

    async def close(self, ws: WebSocket, message: str, code: int = 4404) -> None:
        """Tell a client why its connection ends, and end it."""
        await self.send(ws, {"type": "error", "message": message, "fatal": True})
        try:
            await ws.close(code=code)
        except (RuntimeError, OSError):
            pass

    def moved(self, live: Live) -> None:
        live.moved = self.clock()

    def live(self, key: str) -> Live:
        self.expire()
        live = self.tables.get(key)
        if live is None:
            raise Refused("there is no such table (it may have ended and been cleared)")
        return live

    async def send(self, ws: WebSocket, message: dict[str, Any]) -> None:
        try:
            await ws.send_text(encode(message))
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the client has gone; its connection is dropped when its loop ends

    async def broadcast(self, live: Live) -> None:
        for ws, seat in list(live.watchers.items()):
            await self.send(ws, live.table.update(seat))

    def wake_bots(self, live: Live) -> None:
        if live.table.bot_to_move() and (live.bots is None or live.bots.done()):
            live.bots = asyncio.create_task(self.run_bots(live))

    async def run_bots(self, live: Live) -> None:
        """Bots move one after another, each in a worker thread, until a person decides or
        the game ends; each move is shown before the next (after `bot_delay`)."""
        while True:
            await asyncio.sleep(self.bot_delay)
            async with live.lock:
                if not live.table.bot_to_move():
                    return
                await anyio.to_thread.run_sync(live.table.bot_move)
                self.moved(live)
            await self.broadcast(live)

    # ---- HTTP ----------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        # the request token goes in the page: a page of this site can read it, another
        # site cannot (guard.py)
        return HTMLResponse(PAGE.replace("{request_token}", self.token),
                            headers={"Cache-Control": "no-store"})

    async def list_games(self, request: Request) -> Response:
        # a file by its name only: the host's folders are not the clients' business
        return JSONResponse({"games": [{"game": n, "name": g.rules.name,
                                        "file": Path(g.file).name,
                                        "players": list(g.rules.player_range)}
                                       for n, g in enumerate(self.games)],
                             "bots": sorted(REGISTRY.names())})

    async def list_tables(self, request: Request) -> Response:
        """What the lobby shows: the tables still being played, newest first, each with its
        game, the name its maker gave it (if any) and whether each seat is free, taken or a
        bot's (no person's name, no finished tables)."""
        self.expire()
        return JSONResponse([lobby_entry(k, live) for k, live in
                             reversed(self.tables.items()) if not live.table.over])

    async def one_table(self, request: Request) -> Response:
        """One table as the lobby lists it, finished or not (the lobby's "your tables":
        the page knows their addresses)."""
        try:
            key = request.path_params["table"]
            live = self.live(key)
        except Refused as err:
            return error(err, 404)
        return JSONResponse({**lobby_entry(key, live), "over": live.table.over})

    async def create(self, request: Request) -> Response:
        try:
            self.check_rate(request)
            data = await body(request)
            n, seats, name = data.get("game", 0), data.get("seats"), data.get("name", "")
            forced = data.get("forced", "rules")
            if forced not in POLICIES:
                raise Refused("'forced' is one of: " + ", ".join(POLICIES))
            if type(n) is not int or not 0 <= n < len(self.games):
                raise Refused(f"'game' must be a number from 0 to {len(self.games) - 1}")
            if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
                raise Refused("'seats' must be a list: \"person\" or a bot's name per seat")
            if not isinstance(name, str):
                raise Refused("a table's 'name' is a string")
            served = self.games[n]
            try:
                table = Table(served.rules, served.file, seats, name=name, forced=forced)
            except RulesError as err:
                raise Refused(err.diagnostics[0].message) from None
            key = self.add(table, address(request))
        except Refused as err:
            return error(err)
        self.wake_bots(self.tables[key])
        return JSONResponse({"table": key})

    async def take(self, request: Request) -> Response:
        try:
            self.check_rate(request)
            live = self.live(request.path_params["table"])
            data = await body(request)
            seat, name = data.get("seat"), data.get("name", "")
            if type(seat) is not int or not isinstance(name, str):
                raise Refused("give 'seat' (a number from 1) and, if you like, 'name'")
            async with live.lock:
                token = live.table.take(seat - 1, name)
                live.joined = True
                self.moved(live)
        except Refused as err:
            return error(err)
        await self.broadcast(live)
        return JSONResponse({"seat": seat, "token": token})

    async def record(self, request: Request) -> Response:
        try:
            live = self.live(request.path_params["table"])
            data = live.table.record()
        except Refused as err:
            return error(str(err), 409 if "not over" in str(err) else 404)
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": "attachment; filename="
                                 f"\"{request.path_params['table']}.record.json\""})

    # ---- the game over a WebSocket -------------------------------------------------

    async def play(self, ws: WebSocket) -> None:
        """One client: `hello` (with a seat token, or none to watch) within HELLO_TIMEOUT
        seconds, then moves. The connection counts against the table's MAX_WATCHERS from
        the moment it opens."""
        try:
            live = self.live(ws.path_params["table"])
            if len(live.connections) >= MAX_WATCHERS:
                raise Refused("this table has as many watchers as it takes")
        except Refused as err:
            await ws.accept()
            await self.close(ws, str(err))
            return
        live.connections.add(ws)   # counted at once: no await between the check and this
        bucket = Bucket()
        try:
            await ws.accept()
            if await self.greet(ws, live, bucket):
                await self.moves(ws, live, bucket)
        except WebSocketDisconnect:
            return
        finally:
            live.watchers.pop(ws, None)
            live.connections.discard(ws)

    async def greet(self, ws: WebSocket, live: Live, bucket: Bucket) -> bool:
        """Wait for the client's `hello` (answering anything else with an error) and seat
        it among the table's watchers (`live.watchers`, with its seat or None); False if
        it left, or stayed silent too long (then it is closed)."""
        deadline = time.monotonic() + HELLO_TIMEOUT
        while True:
            try:
                message = await asyncio.wait_for(ws.receive(),
                                                 max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                await self.close(ws, f"say hello within {HELLO_TIMEOUT:g} seconds", 4408)
                return False
            if message["type"] == "websocket.disconnect":
                return False
            try:
                if not bucket.allow():
                    raise Refused(f"too many messages: slow down (at most {RATE} in "
                                  f"{RATE_WINDOW:g} seconds)")
                data = parse(message)
                if data["type"] != "hello":
                    raise Refused("say hello first (with your seat token)")
                seat = live.table.seat_of(token_of(data))
            except Refused as err:
                await self.send(ws, {"type": "error", "message": str(err)})
                continue
            if seat is not None:
                live.joined = True
            live.watchers[ws] = seat
            await self.send(ws, live.table.welcome(seat))
            await self.send(ws, live.table.update(seat))
            self.wake_bots(live)   # a table made before the server ran
            return True

    async def moves(self, ws: WebSocket, live: Live, bucket: Bucket) -> None:
        """A client that said hello: its moves, until it leaves."""
        seat = live.watchers[ws]
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                if not bucket.allow():
                    raise Refused("too many messages: slow down (at most "
                                  f"{RATE} in {RATE_WINDOW:g} seconds)")
                data = parse(message)
                if data["type"] == "hello":
                    raise Refused("this connection has already said hello")
                if data["type"] != "move":
                    raise Refused(f"unknown message type {str(data['type'])[:20]!r} "
                                  "(hello or move)")
                async with live.lock:
                    live.table.move(seat, data.get("option"), data.get("turn"))
                    self.moved(live)
                await self.broadcast(live)
                self.wake_bots(live)
            except Refused as err:
                await self.send(ws, {"type": "error", "message": str(err)})


def address(request: Request) -> str:
    """The client's address: the connection's own, or the one a trusted proxy forwarded
    (uvicorn's proxy headers, on only with `rulesdsl serve --proxy`)."""
    return request.client.host if request.client is not None else "?"


def lobby_entry(key: str, live: Live) -> dict[str, Any]:
    """A table as the lobby lists it: its game, its name when its maker gave one, and
    whether each seat is free, taken or a bot's."""
    entry: dict[str, Any] = {"table": key, "game": live.table.rules.name,
                             "seats": [seat_state(s) for s in live.table.seats]}
    if live.table.name:
        entry["name"] = live.table.name
    return entry


def seat_state(seat: Seat) -> str:
    """A seat as the lobby shows it."""
    return "bot" if seat.kind != PERSON else "taken" if seat.taken else "free"


def parse(message: Any) -> dict[str, Any]:
    """A client's message as a JSON object with a type, or Refused."""
    text = message.get("text")
    if text is None:
        raise Refused("messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise Refused(f"the message is too long (at most {MAX_MESSAGE} characters)")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("the message is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refused("a message is a JSON object with a 'type'")
    return data


def token_of(data: dict[str, Any]) -> str | None:
    token = data.get("token")
    if token is not None and not isinstance(token, str):
        raise Refused("a seat token is a string")
    return token


def make_app(games: list[Served], bot_delay: float = 0.5,
             hosts: Iterable[str] = LOOPBACK, any_address: bool = False) -> Starlette:
    """The web application serving these rule files, answering to the host names `hosts`
    (and any IP address if `any_address`: see guard.py)."""
    token = secrets.token_urlsafe(18)
    server = Server(games, bot_delay, token)
    guard = Middleware(Guard, names=list(hosts), any_address=any_address, token=token)
    app = Starlette(middleware=[guard], routes=[
        Route("/", server.page),
        Route("/t/{table}", server.page),
        Route("/api/games", server.list_games),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create, methods=["POST"]),
        Route("/api/tables/{table}", server.one_table, methods=["GET"]),
        Route("/api/tables/{table}/seats", server.take, methods=["POST"]),
        Route("/api/tables/{table}/record", server.record),
        WebSocketRoute("/ws/{table}", server.play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.server = server
    return app


__all__ = ["PERSON", "Served", "Server", "make_app"]
