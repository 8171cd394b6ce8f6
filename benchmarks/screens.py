"""Screenshots of the seed games in the browser, for docs/serve.md: each game played a few
moves by two people (two Chromium contexts, Ann and Bob) and a greedy bot, then Ann's
page photographed. The helpers that drive the page are the browser tests' too.

A server runs under uvicorn in a thread on a free port of 127.0.0.1; Playwright drives
Debian's Chromium (/usr/bin/chromium). The pictures are the page's top (1000 by 760
pixels, a phone's 390 for one), reduced to 256 colours so that each stays small.

Usage, from the repository root:

    python -m benchmarks.screens [--out docs/screens] [--moves 16]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SEED_GAMES = ["cromlech", "cleromancy", "cronberg", "solstice", "isle_of_skye"]
# games whose pictures need more moves than the others to show what they draw: Solstice's
# first stones come after its colours, objectives and quarries (a stone in its builder's
# colour)
MORE_MOVES = {"solstice": 60}


@contextmanager
def serving(app: Any, **options: Any) -> Iterator[str]:
    """The app under uvicorn with these options, on a free port of this machine, in a
    thread; its address."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # log_config None: uvicorn's own would reconfigure logging, closing the handlers
    # pytest captures the logs of every test with
    server = uvicorn.Server(uvicorn.Config(app, **{"host": "127.0.0.1",
                                                   "log_level": "warning", **options,
                                                   "port": port, "log_config": None}))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def create(base: str, game: int, seats: list[str]) -> str:
    """A table made as the page makes one (JSON, with the page's request token)."""
    from rulesdsl.serve.guard import TOKEN_HEADER, token_in

    with urllib.request.urlopen(f"{base}/", timeout=10) as response:
        token = token_in(response.read().decode())
    assert token is not None
    request = urllib.request.Request(f"{base}/api/tables", method="POST",
                                     data=json.dumps({"game": game, "seats": seats}).encode(),
                                     headers={"Content-Type": "application/json",
                                              TOKEN_HEADER: token})
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.load(response)["table"])


def seated(browser: Any, base: str, table: str, seat: int, name: str = "",
           width: int = 1300, height: int = 900) -> Any:
    """A new person (a browser context of their own) takes a seat at the table, giving
    their name if `name`. The page's script errors are kept in `page.errors`."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{base}/t/{table}")
    if name:
        page.fill("#seat-name", name)
    page.click(f"[data-take='{seat}']")
    page.wait_for_selector(f"body[data-seat='{seat}']")
    return page


MAY_MOVE = ("document.querySelector('#options button[data-option]') || "
            "document.body.dataset.over === 'true' || "
            "document.querySelector('#status').textContent.includes('decides')")


def play_a_few(pages: list[Any], moves: int, seed: int) -> None:
    """The people play `moves` moves between them (the bots play their own), each clicking
    one of their options at random; a secret answer given ahead counts as a move."""
    chooser = random.Random(seed)
    for _ in range(moves):
        if pages[0].get_attribute("body", "data-over") == "true":
            return
        for page in pages:   # wait until someone may move, or the game is over
            page.wait_for_function(MAY_MOVE)
        mover = next((p for p in pages if p.locator("#options button[data-option]").count()),
                     None)
        if mover is None:   # a bot is thinking
            pages[0].wait_for_timeout(50)
            continue
        turn = int(mover.get_attribute("body", "data-turn") or 0)
        buttons = mover.locator("#options button[data-option]")
        buttons.nth(chooser.randrange(buttons.count())).click()
        mover.wait_for_function(f"Number(document.body.dataset.turn) > {turn} || "
                                "document.body.dataset.over === 'true' || "
                                "document.querySelector('#status').textContent.includes"
                                "('in secret')")


def small_png(path: Path) -> None:
    """The picture reduced to 256 colours (a page is flat colours: it loses nothing seen)."""
    from PIL import Image

    with Image.open(path) as image:
        image.convert("RGB").quantize(256).save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    parser.add_argument("--moves", type=int, default=16)
    args = parser.parse_args()
    if CHROMIUM is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    import rulesdsl
    from rulesdsl.serve.app import Served, make_app

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    files = [f"games/{g}/{g}.rules" for g in [*SEED_GAMES, "goofspiel"]]
    app = make_app([Served(f, rulesdsl.load(ROOT / f)) for f in files], bot_delay=0)
    with serving(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for n, game in enumerate(SEED_GAMES):
            table = create(base, n, ["person", "person", "greedy"])
            pages = [seated(browser, base, table, 1, "Ann", 1000, 760),
                     seated(browser, base, table, 2, "Bob", 390, 760)]
            play_a_few(pages, max(args.moves, MORE_MOVES.get(game, 0)), seed=n)
            for page in pages:
                page.evaluate("window.scrollTo(0, 0)")
            pages[0].wait_for_timeout(300)
            pages[0].screenshot(path=str(out / f"{game}.png"))
            small_png(out / f"{game}.png")
            if game == "isle_of_skye":   # and as a phone shows it
                pages[1].screenshot(path=str(out / f"{game}-phone.png"))
                small_png(out / f"{game}-phone.png")
            for page in pages:
                page.context.close()
            print(f"{game}: {out / f'{game}.png'}")
        browser.close()


if __name__ == "__main__":
    main()
