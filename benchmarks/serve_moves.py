"""Measure a move's round trip through `rulesdsl serve`: from a client sending a move to
that client receiving the view that follows it, over a real WebSocket on this machine.

A server runs under uvicorn in a thread on a free port of 127.0.0.1; two clients play
whole games of a rule file against each other (each takes its first option), and every
move's round trip is timed. Prints the count, the median, the 95th percentile and the
mean with its 95% interval (normal approximation), in milliseconds. The limits on making
tables per address and on messages per client are lifted: this one client makes every
table and plays faster than people click.

Usage, from the repository root:

    python -m benchmarks.serve_moves [--file RULES] [--players N] [--games N]
"""

from __future__ import annotations

import argparse
import json
import math
import socket
import statistics
import threading
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import uvicorn
from websockets.sync.client import connect

import rulesdsl
from rulesdsl.serve import app as serving
from rulesdsl.serve.app import Served, make_app
from rulesdsl.serve.guard import TOKEN_HEADER, token_in

ROOT = Path(__file__).resolve().parent.parent


def post(url: str, data: dict) -> dict:
    """A POST as the page makes it: JSON, with the request token the page carries."""
    base = url.split("/api/")[0]
    with urllib.request.urlopen(f"{base}/", timeout=10) as response:
        token = token_in(response.read().decode()) or ""
    request = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              TOKEN_HEADER: token})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def play(base: str, players: int) -> list[float]:
    """One game between `players` clients; the round trip of each move, in seconds."""
    table = post(f"{base}/api/tables", {"game": 0, "seats": ["person"] * players})["table"]
    tokens = [post(f"{base}/api/tables/{table}/seats", {"seat": p + 1})["token"]
              for p in range(players)]
    with ExitStack() as stack:
        sockets = [stack.enter_context(connect(f"{base.replace('http', 'ws')}/ws/{table}"))
                   for _ in tokens]
        return moves(sockets, tokens)


def moves(sockets: list, tokens: list[str]) -> list[float]:
    views = []
    for ws, token in zip(sockets, tokens):
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.recv()
        views.append(json.loads(ws.recv()))
    times = []
    while not views[0]["over"]:
        seat = views[0]["view"]["decision"]["player"]
        option = views[seat]["view"]["decision"]["options"][0][0]
        start = time.perf_counter()
        sockets[seat].send(json.dumps({"type": "move", "option": option,
                                       "turn": views[0]["turn"]}))
        views[seat] = json.loads(sockets[seat].recv())
        assert views[seat]["type"] == "view", views[seat]["message"]
        times.append(time.perf_counter() - start)
        for p, ws in enumerate(sockets):
            if p != seat:
                views[p] = json.loads(ws.recv())
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default="games/tictactoe/tictactoe.rules")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    rules = rulesdsl.load(ROOT / args.file)
    app = make_app([Served(args.file, rules)], bot_delay=0)
    serving.HTTP_RATE = 10 ** 9   # this one client makes every table, and plays
    serving.RATE = 10 ** 9        # faster than a person clicks
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    times: list[float] = []
    for _ in range(args.games):
        times += play(f"http://127.0.0.1:{port}", args.players)
    server.should_exit = True
    thread.join(timeout=10)
    ms = sorted(t * 1000 for t in times)
    mean = statistics.fmean(ms)
    half = 1.96 * statistics.stdev(ms) / math.sqrt(len(ms))
    print(f"{rules.name}: {len(ms)} moves in {args.games} games; round trip median "
          f"{statistics.median(ms):.2f} ms, 95th percentile {ms[int(0.95 * len(ms))]:.2f} "
          f"ms, mean {mean:.2f} ms (95% interval {mean - half:.2f} to {mean + half:.2f})")


if __name__ == "__main__":
    main()
