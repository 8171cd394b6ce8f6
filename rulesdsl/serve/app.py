"""The web server: tables over HTTP and WebSockets, on Starlette (run under uvicorn).

Stage: serving. The host names the rule files it serves (`rulesdsl serve FILE...`); a
client can only pick among them. HTTP creates tables, lists them, seats people (a token
per seat, given once) and hands out a finished game's record; a WebSocket per client
carries the game: the server sends each client its own seat's messages (table.py), the
client sends moves. Every bad message is answered with an error message and changes
nothing; a client that floods is refused until it slows down; one table's trouble never
stops the others (each table has its own lock, bots think in worker threads).
docs/serve.md describes the protocol and the security model.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents import REGISTRY
from ..diagnostics import RulesError
from ..interpreter.game import Rules
from .table import PERSON, Refused, Table, encode

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 200          # tables kept at once; the oldest finished ones go first
MAX_MESSAGE = 4096        # characters in one message from a client
RATE = 20                 # messages a client may send per RATE_WINDOW seconds
RATE_WINDOW = 2.0
MAX_WATCHERS = 50         # connections to one table
HTTP_RATE = 30            # tables made or seats taken per address per HTTP_WINDOW seconds
HTTP_WINDOW = 60.0


@dataclass
class Served:
    """A rule file the host serves: its path as given and the checked rules."""

    file: str
    rules: Rules


@dataclass
class Live:
    """A table with its connections, lock and bot task."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[WebSocket, int | None] = field(default_factory=dict)
    bots: asyncio.Task | None = None
    created: float = field(default_factory=time.monotonic)


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

    def __init__(self, games: list[Served], bot_delay: float = 0.5):
        self.games = games
        self.tables: dict[str, Live] = {}
        self.bot_delay = bot_delay
        self.addresses: dict[str, Bucket] = {}   # HTTP allowances by client address

    def check_rate(self, request: Request) -> None:
        """Refuse an address that makes tables or takes seats too fast."""
        host = request.client.host if request.client is not None else "?"
        if len(self.addresses) > 10_000:   # forget quiet addresses
            self.addresses = {k: b for k, b in self.addresses.items() if b.times and
                              time.monotonic() - b.times[-1] < HTTP_WINDOW}
        bucket = self.addresses.setdefault(host, Bucket(lambda: HTTP_RATE,
                                                        lambda: HTTP_WINDOW))
        if not bucket.allow():
            raise TooMany(f"too many requests: at most {HTTP_RATE} in {HTTP_WINDOW:g} "
                          "seconds")

    # ---- tables --------------------------------------------------------------------

    def add(self, table: Table) -> str:
        """Seat a table on the server; returns its id."""
        if len(self.tables) >= MAX_TABLES:
            finished = [k for k, live in self.tables.items() if live.table.over
                        and not live.watchers]
            if not finished:
                raise Refused("the server has as many tables as it keeps: try again later")
            del self.tables[min(finished, key=lambda k: self.tables[k].created)]
        key = secrets.token_urlsafe(8)
        self.tables[key] = Live(table)
        return key

    def live(self, key: str) -> Live:
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
            await self.broadcast(live)

    # ---- HTTP ----------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def list_games(self, request: Request) -> Response:
        # a file by its name only: the host's folders are not the clients' business
        return JSONResponse({"games": [{"game": n, "name": g.rules.name,
                                        "file": Path(g.file).name,
                                        "players": list(g.rules.player_range)}
                                       for n, g in enumerate(self.games)],
                             "bots": sorted(REGISTRY.names())})

    async def list_tables(self, request: Request) -> Response:
        return JSONResponse([{"table": k, "game": live.table.rules.name,
                              "seats": [s.public() for s in live.table.seats],
                              "over": live.table.over}
                             for k, live in self.tables.items()])

    async def create(self, request: Request) -> Response:
        try:
            self.check_rate(request)
            data = await body(request)
            n, seats = data.get("game", 0), data.get("seats")
            if type(n) is not int or not 0 <= n < len(self.games):
                raise Refused(f"'game' must be a number from 0 to {len(self.games) - 1}")
            if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
                raise Refused("'seats' must be a list: \"person\" or a bot's name per seat")
            served = self.games[n]
            try:
                table = Table(served.rules, served.file, seats)
            except RulesError as err:
                raise Refused(err.diagnostics[0].message) from None
            key = self.add(table)
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
        """One client: `hello` (with a seat token, or none to watch), then moves."""
        await ws.accept()
        bucket = Bucket()
        try:
            live = self.live(ws.path_params["table"])
            if len(live.watchers) >= MAX_WATCHERS:
                raise Refused("this table has as many watchers as it takes")
        except Refused as err:
            await self.send(ws, {"type": "error", "message": str(err), "fatal": True})
            await ws.close(code=4404)
            return
        seat: int | None = None
        joined = False
        try:
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
                        if joined:
                            raise Refused("this connection has already said hello")
                        seat = live.table.seat_of(token_of(data))
                        joined = True
                        live.watchers[ws] = seat
                        await self.send(ws, live.table.welcome(seat))
                        await self.send(ws, live.table.update(seat))
                        self.wake_bots(live)   # a table made before the server ran
                    elif data["type"] == "move":
                        if not joined:
                            raise Refused("say hello first (with your seat token)")
                        async with live.lock:
                            live.table.move(seat, data.get("option"), data.get("turn"))
                        await self.broadcast(live)
                        self.wake_bots(live)
                    else:
                        raise Refused(f"unknown message type {str(data['type'])[:20]!r} "
                                      "(hello or move)")
                except Refused as err:
                    await self.send(ws, {"type": "error", "message": str(err)})
        except WebSocketDisconnect:
            return
        finally:
            live.watchers.pop(ws, None)


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


def make_app(games: list[Served], bot_delay: float = 0.5) -> Starlette:
    """The web application serving these rule files."""
    server = Server(games, bot_delay)
    app = Starlette(routes=[
        Route("/", server.page),
        Route("/t/{table}", server.page),
        Route("/api/games", server.list_games),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create, methods=["POST"]),
        Route("/api/tables/{table}/seats", server.take, methods=["POST"]),
        Route("/api/tables/{table}/record", server.record),
        WebSocketRoute("/ws/{table}", server.play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.server = server
    return app


__all__ = ["PERSON", "Served", "Server", "make_app"]
