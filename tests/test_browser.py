"""`rulesdsl serve` in a real browser: Playwright drives Debian's Chromium.

Two browser contexts (two people, each with their own storage and seat token) play a
whole game of tic-tac-toe by clicking the board, and a whole game of Cronberg against
each other and a bot by clicking their options; a person builds a stone on Solstice's
ring by clicking a position of its circle; a watcher sees Cromlech's circles drawn as
rings of their Gariadons. Each seed game is played several turns by two named people and
a bot, and its page checked for rule-file identifiers and rule source; Isle of Skye's
tiles are drawn before they are placed, and their turn previewed; a click on Cronberg's
board narrows the options; both Goofspiel seats bid at once. A screenshot of some games
is saved under test-output/ in the test's own folder. Skipped only when Chromium is not
installed (.ci/run installs it: `apt-get install chromium`).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
uvicorn = pytest.importorskip("uvicorn")
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from benchmarks.screens import create, play_a_few, seated  # noqa: E402
from rulesdsl.serve.app import Served, make_app  # noqa: E402

from .test_serve_security import in_a_thread  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed "
                                 "(apt-get install chromium; .ci/run installs it)"),
              pytest.mark.slow]  # a browser started for each test
FILES = ["games/tictactoe/tictactoe.rules", "games/cronberg/cronberg.rules",
         "games/solstice/solstice.rules", "games/cromlech/cromlech.rules",
         "games/isle_of_skye/isle_of_skye.rules", "games/goofspiel/goofspiel.rules",
         "games/cleromancy/cleromancy.rules", "games/yacht/yacht.rules",
         "tests/games/liars_dice.rules"]


@pytest.fixture(scope="module")
def server(load_rules) -> Iterator[str]:
    """A server on a free port of this machine, in a thread; its address. Every page of
    these tests comes from one address, making more tables and taking more seats a minute
    than a person would: the per-address allowances (tested in test_serve_security.py) are
    lifted for this server's life."""
    from rulesdsl.serve import app as served

    kept = served.HTTP_RATE, served.TABLES_PER_CLIENT
    served.HTTP_RATE, served.TABLES_PER_CLIENT = 10_000, 10_000
    app = make_app([Served(f, load_rules(ROOT / f)) for f in FILES], bot_delay=0)
    try:
        with in_a_thread(app) as base:
            yield base
    finally:
        served.HTTP_RATE, served.TABLES_PER_CLIENT = kept


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def wait_turn(page: Page, past: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.turn) > {past} || "
                           "document.body.dataset.over === 'true'")


def shot(page: Page, name: str) -> None:
    """A screenshot, into the test's own folder (the conftest runs each test in one)."""
    out = Path.cwd() / "test-output"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / name), full_page=True)


def test_two_people_play_tictactoe_by_clicking_the_board(server, browser):
    table = create(server, 0, ["person", "person"])
    one, two = seated(browser, server, table, 1), seated(browser, server, table, 2)
    assert one.inner_text("#status") == "Your turn" and one.title().startswith("● ")
    assert two.inner_text("#status") == "Player 1 decides"
    for turn, (page, cell) in enumerate([(one, "a1"), (two, "b1"), (one, "a2"),
                                          (two, "b2"), (one, "a3")]):
        page.wait_for_selector(f"rect.can[data-cell='{cell}']")
        page.click(f"rect[data-cell='{cell}']")
        wait_turn(one, turn)
        wait_turn(two, turn)
    for page in (one, two):
        assert page.inner_text("#status").startswith("Game over: player 1 wins")
        assert page.locator(".standings li").all_inner_texts() == ["player 1", "player 2"]
        assert page.inner_text(".standings .why") == "The game ended: three in a row"
    assert two.locator("rect.fresh").get_attribute("data-cell") == "a3"   # the last move
    assert two.title() == "Tic-tac-toe — rulesdsl"
    one.reload()   # a reload keeps the seat (its token is in the page's storage)
    one.wait_for_selector("body[data-seat='1'][data-over='true']")
    assert "download the game's record" in one.inner_text("#status")
    shot(one, "tictactoe.png")


def from_the_lobby(browser: Any, base: str) -> str:
    """A person starts a Cronberg table of two people and a bot on the lobby's form, under
    a name; the lobby lists it among their tables, and another person's lobby among the
    open ones, newest first."""
    page = browser.new_context().new_page()
    page.goto(base)
    page.fill("#your-name", "Cleo")
    page.select_option("#game", label="Cronberg (cronberg.rules)")
    page.select_option("#players", "3")
    page.select_option("[data-seat='2']", "person")
    page.select_option("[data-seat='3']", "greedy")
    page.fill("#table-name", "Friday's city")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.goto(base)
    assert page.input_value("#your-name") == "Cleo"   # kept for the next table
    page.wait_for_selector(f"#mine li[data-table='{table}']")
    assert page.inner_text(f"#mine li[data-table='{table}']").startswith("Friday's city")
    page.context.close()
    other = browser.new_context().new_page()
    other.goto(base)
    other.wait_for_selector(f"#tables li[data-table='{table}']")
    assert other.locator("#tables li").first.get_attribute("data-table") == table  # newest
    assert other.locator("#mine li[data-table]").count() == 0
    other.context.close()
    return table


def test_cronberg_two_people_and_a_bot(server, browser):
    table = from_the_lobby(browser, server)
    pages = [seated(browser, server, table, 1), seated(browser, server, table, 2)]
    # the first move on the board: a token on the crossing a1 of the triangle lattice
    pages[0].click("#options button[data-option='token']")
    pages[0].wait_for_selector("circle.can[data-cell='a1']")
    pages[0].click("circle[data-cell='a1']")
    pages[0].wait_for_selector("circle.disc.p1")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server}/t/{table}")
    watcher.wait_for_selector("body[data-turn]")
    moves = 0
    while pages[0].get_attribute("body", "data-over") != "true":
        turn = int(pages[0].get_attribute("body", "data-turn") or 0)
        for page in pages:
            wait_turn(page, turn - 1)
        mover = next((p for p in pages if p.inner_text("#status") == "Your turn"), None)
        if mover is None:   # the bot is thinking
            wait_turn(pages[0], turn)
            continue
        mover.click("#options button[data-option]")
        wait_turn(pages[0], turn)
        moves += 1
        assert moves < 400
    for page in pages:
        page.wait_for_selector("body[data-over='true']")
        assert page.inner_text("#status").startswith("Game over")
    watcher.wait_for_selector("body[data-over='true']")
    assert watcher.inner_text("#status").startswith("Game over")
    shot(pages[0], "cronberg.png")


def test_a_stone_is_built_by_clicking_a_position_of_a_ring(server, browser):
    table = create(server, 2, ["person", "random", "random"])
    page = seated(browser, server, table, 1)
    # a colour, then (the bots having chosen theirs) no skill, no quarry, a gold upright
    page.wait_for_selector("#options .prompt")
    assert page.inner_text("#options .prompt") == "Which colour are your first stones?"
    for option in ("Gold", "go_on", "done", "build", "Gold", "outer"):
        page.click(f"button[data-option='{option}']")
    # the first stone goes on the axis trilithon: outer1 and outer2 are the clickable ones
    page.wait_for_selector("svg[data-board='outer'] circle.can[data-cell='outer1']")
    assert page.locator("svg[data-board='outer'] circle.can").count() == 2
    page.click("svg[data-board='outer'] circle[data-cell='outer1']")
    page.wait_for_selector("svg[data-board='outer'] circle.taken[data-cell='outer1']")
    assert page.locator("svg[data-board='outer'] [data-piece='Gold']").count() >= 1  # bots go on
    # each stone in the colour of the player who built it (`owner outer by placer`)
    mine = page.locator("svg[data-board='outer'] g[data-placed-by='1'] circle.disc.p1")
    assert mine.count() >= 1
    assert "placed by player 1" in page.inner_text("#legend")
    shot(page, "solstice.png")


def test_a_watcher_sees_each_cromlech_circle_as_a_ring(server, browser):
    table = create(server, 3, ["random", "random"])
    page = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server}/t/{table}")   # no seat taken: a watcher
    page.wait_for_selector("body[data-over='true']")
    page.wait_for_selector("svg[data-ring='circle']")
    rings = page.locator("svg[data-ring='circle']")
    assert rings.count() >= 1
    assert rings.first.locator("circle.cell").count() == 8   # North inner ... West outer
    standing = page.locator("[data-zone^='circle of player'] [data-place] .card")
    assert standing.count() >= 1   # the stones still standing, listed by their place
    shot(page, "cromlech.png")


def test_isle_of_skye_draws_each_territory_and_the_tiles_in_hand(server, browser):
    table = create(server, 4, ["person", "random"])
    page = seated(browser, server, table, 1)
    land = "[data-board='land']"
    page.wait_for_selector(f"{land} .territory[data-seat='2'] g[data-tile='castle_yellow']")
    castle = page.locator(f"{land} .territory[data-seat='1'] g[data-tile='castle_blue']")
    assert castle.get_attribute("data-cell") == "h8"
    assert castle.locator("line.road").count() == 3        # roads north, south and west
    assert castle.locator("polygon.edge").count() == 4
    assert page.locator(f"{land} .territory[data-seat='1'] rect[data-cell='h9']").count() == 1
    # the tiles not yet placed, in the market before each screen: drawn with their terrains,
    # each in the colour of the player it lies before
    market = page.locator("[data-zone='tiles in front of the screens'] .card.tile")
    assert market.count() == 6
    hand = page.locator("[data-zone='tiles in front of the screens'] .card.tile.p1")
    assert hand.count() == 3
    for k in range(6):
        terrains = market.nth(k).locator("polygon.edge").evaluate_all(
            "edges => edges.map((e) => e.dataset.terrain)")
        assert len(terrains) == 4 and all(terrains), terrains
    legend = page.inner_text("#legend")
    assert "Water" in legend and "road" in legend
    # a tile is discarded by a click on it: it is one of the options
    tile = hand.first.get_attribute("data-card")
    assert "can" in (hand.first.get_attribute("class") or "")
    options = page.locator("#options button[data-option]").evaluate_all(
        "bs => bs.map((b) => b.dataset.option)")
    assert tile in options
    hand.first.click()
    wait_turn(page, 0)
    shot(page, "isle_of_skye.png")


def test_a_tiles_turn_is_previewed_before_it_is_placed(server, browser):
    table = create(server, 4, ["person", "random"])
    page = seated(browser, server, table, 1)
    for _ in range(40):   # the person takes the first option until a tile is to be turned
        page.wait_for_function("document.querySelector('#options button[data-option]') || "
                               "document.body.dataset.over === 'true'")
        if page.locator("#options button.turn").count():
            break
        turn = int(page.get_attribute("body", "data-turn") or 0)
        page.click("#options button[data-option]")
        page.wait_for_function(f"Number(document.body.dataset.turn) > {turn} || "
                               "document.querySelector('#status').textContent.includes"
                               "('in secret')")
    turns = page.locator("#options button.turn")
    assert turns.count() >= 1
    assert turns.first.locator(".card.tile polygon.edge").count() == 4
    assert "How to turn" in page.inner_text("#options")


def test_dice_show_their_faces(server, browser):
    table = create(server, 7, ["person", "random"])
    page = seated(browser, server, table, 1)
    page.wait_for_selector("#dice .die.pips")
    dice = page.locator("#dice [data-dice='hand'] .die")
    assert dice.count() == 5
    for k in range(5):   # as many pips as the face says
        face = int(dice.nth(k).get_attribute("data-face") or 0)
        assert dice.nth(k).locator("circle.pip").count() == face


def test_each_person_sees_their_own_cup_and_the_others_dice_hidden(server, browser):
    table = create(server, 8, ["person", "person"])
    ann = seated(browser, server, table, 1, "Ann")
    bob = seated(browser, server, table, 2, "Bob")
    for page, mine, theirs in ((ann, 1, 2), (bob, 2, 1)):
        page.wait_for_selector(f"#dice [data-dice='cup'][data-seat='{mine}'] .die.pips")
        own = page.locator(f"#dice [data-dice='cup'][data-seat='{mine}'] .die")
        other = page.locator(f"#dice [data-dice='cup'][data-seat='{theirs}'] .die")
        assert own.count() == 5 and other.count() == 5
        assert own.locator("circle.pip").count() >= 5   # faces shown as pips
        assert other.locator("circle.pip").count() == 0
        assert all(other.nth(k).get_attribute("data-face") == "?" for k in range(5))
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]


def test_a_click_on_the_board_narrows_the_options(server, browser):
    table = create(server, 1, ["person", "person", "greedy"])
    page = seated(browser, server, table, 1)
    page.click("#options button[data-option='rhomb']")
    page.wait_for_selector("#option-search")   # many places: grouped, searchable
    every = page.locator("#options button[data-option]").count()
    assert every > 12
    triangle = page.locator("polygon.can[data-cell]").nth(5)
    cell = triangle.get_attribute("data-cell")
    triangle.click()
    page.wait_for_selector("#options button.all")
    ids = page.locator("#options button[data-option]").evaluate_all(
        "bs => bs.map((b) => b.dataset.option)")
    assert 1 < len(ids) < every and all(cell in i.split("+") for i in ids), ids
    page.click("#options button.all")
    page.fill("#option-search", f"{cell},")
    page.wait_for_function("document.querySelectorAll('#options button[data-option]').length"
                           f" < {every}")


def test_a_balance_report_of_isle_of_skye_against_whisky_paying_double(browser, tmp_path):
    """The report page of a study of a house rule, opened in Chromium: no console error,
    and every plot drawn (base and variant overlaid among them)."""
    from rulesdsl.balance.report import write_report
    from rulesdsl.balance.statline import load_with_stats
    from rulesdsl.balance.study import Options, run_study

    files = [str(ROOT / "games/isle_of_skye/isle_of_skye.rules"),
             str(ROOT / "games/isle_of_skye/whisky_double.rules")]
    loaded = [load_with_stats(f, None, (), "", True) for f in files]
    db = str(tmp_path / "skye.db")
    run_study(files, loaded, Options(players=2, games=4, db=db, coverage=True,
                                     metric="first"))
    page_path = write_report(db, tmp_path / "report")
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    images = page.eval_on_selector_all(
        "img", "imgs => imgs.map(i => [i.getAttribute('src'), i.complete && i.naturalWidth])")
    names = {src for src, _ in images}
    assert all(width for _, width in images), images
    for plot in ("compare1-2.png", "compare1-2-length.png", "compare1-2-wins.png",
                 "compare1-2-fired.png", "run1-wins.png", "run2-length.png"):
        assert plot in names
    assert errors == []
    text = page.inner_text("body")
    assert "chosen in advance" in text and "Holm" in text
    assert "Every seat was played by random bots" in text
    assert "if whisky > 0:" in text  # the house rule's branch, counted
    assert page.locator("tr.chosen").count() == 1
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)


def test_the_isle_of_skye_study_with_the_good_bots_reads_in_chromium(browser, tmp_path):
    """The worked study of docs/balance.md, Isle of Skye against whisky paying double
    played by the `good` bots, as its page is checked in: no console error, every plot
    drawn, the bots named with their measured strength and no warning that they play at
    chance, and the house rule's branch counted."""
    page_path = ROOT / "docs/studies/skye-good-report/index.html"
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    images = page.eval_on_selector_all(
        "img", "imgs => imgs.map(i => [i.getAttribute('src'), i.complete && i.naturalWidth])")
    names = {src for src, _ in images}
    assert images and all(width for _, width in images), images
    for plot in ("compare1-2.png", "compare1-2-length.png", "compare1-2-wins.png",
                 "compare1-2-fired.png", "run1-wins.png", "run1-scores.png",
                 "run2-wins.png", "run2-length.png"):
        assert plot in names
    assert errors == []
    text = page.inner_text("body")
    assert "seat 1: mcts:sims=50,depth=10, seat 2: mcts:sims=50,depth=10" in text
    assert "against random bots" in text and "calibration" in text
    bots = text.split("The bots", 1)[1].split("What changed", 1)[0]
    assert "Warning" not in bots and "no better than random" not in bots  # they beat them
    assert "chosen in advance" in text and "Holm" in text
    assert "if whisky > 0:" in text  # the house rule's branch, counted
    assert page.locator("tr.chosen").count() == 1
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)


def test_both_goofspiel_seats_bid_at_once_and_see_each_others_names(server, browser):
    table = create(server, 5, ["person", "person"])
    ann = seated(browser, server, table, 1, "Ann")
    bob = seated(browser, server, table, 2, "Bob", width=390)
    for page in (ann, bob):   # both bid at once: the engine asks player 1 first
        page.wait_for_selector("#options button[data-option='13']")
        assert page.inner_text("#status").startswith("Your turn")
    assert "Bob" in ann.inner_text("#seats") and "Ann" in bob.inner_text("#seats")
    spent = ann.locator("[data-counter='spent'] table tr")   # a row per player, a card each
    assert spent.count() == 3 and spent.first.locator("th").count() == 14
    bob.click("#options button[data-option='13']")
    bob.wait_for_selector("#status:has-text('in secret')")
    assert "bid 13" in bob.inner_text("#status") and "Ann" in bob.inner_text("#status")
    assert "bids" not in ann.inner_text("#log")   # nothing of Bob's bid before the reveal
    ann.click("#options button[data-option='5']")
    for page in (ann, bob):
        wait_turn(page, 1)
        page.wait_for_selector("#log li:has-text('player 2 bids 13')")
    assert widest(bob) <= 390   # a phone's width
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]


# ---- the seed games, several turns each, with two people and a bot ------------------------

# what nobody may read on a game's page: rule-file identifiers (names with underscores,
# component ids with their numbers), rule source (an option's template, a choose
# statement), and each game's own internal names
SOURCE = [r"[{}]", r"\bchoose \w+ in\b", r"\bby p as\b", r"\bNone\b", r"\bnull\b",
          r"\bundefined\b", r"\[object"]
RAW = [r"\b[a-z]+_[a-z0-9_]+\b", r"\b[a-z]+(?:-[a-z]+)*-\d+\b", *SOURCE]
SEED = {   # game: (its place in FILES, its own names that must not show)
    "cromlech": (3, [r"wound_supply", r"first_player", r"lintel_deck", r"stone_pile"]),
    "cleromancy": (6, [r"keep_placed", r"turns_taken", r"first_roll", r"\bscion\b"]),
    "cronberg": (1, [r"games_played", r"\bdeck\b", r"\bcoats_of_arms\b"]),
    "solstice": (2, [r"objective_deck", r"secret_card", r"skills_offered",
                     r"outer_lintels\d?", r"turn_number"]),
    "isle_of_skye": (4, [r"castle_(blue|red|yellow|white|green)", r"completed_mountains",
                         r"features_\w+", r"per_\w+", r"road_groups"]),
}


# what the log must not say: a decision in the engine's words, the option's label after the
# chooser ("player 2: summon the Scion at g7"), where the rule file tells it in the third
# person ("player 2 places it at g7")
TOLD = {
    "cleromancy": [r"player \d+: (place|give|summon|move|the )"],
    "cromlech": [r"player \d+: (throw|resolve|re-roll|use|pair|rend|raise|replace|keep|no |"
                 r"place|put|attack|defend|heal|end)"],
    "solstice": [r"player \d+: (take|show|buy|go on|quarry|build|ask|lend|choose|send)"],
    "cronberg": [r"player \d+: (place|draw)", r"places place"],
    "isle_of_skye": [r"player \d+: (discard|put|buy|build|turn)"],
}


def visible_text(page: Page, said: bool) -> str:
    """What a person reads: the page's own words, its pictures' words and tooltips
    (`said` False), or what the rule file says through the page (`said`: the log and the
    options' labels, which its narration and `as` templates make)."""
    return page.evaluate("""(said) => {
        const rules = [...document.querySelectorAll('#log li, #options button[data-option]')];
        if (said) return rules.map((n) => n.innerText).join('\\n');
        const box = document.body.cloneNode(true);
        box.querySelectorAll('#log, #options button[data-option]').forEach((n) => n.remove());
        const pictures = [...document.querySelectorAll('svg text, svg title')];
        return [box.innerText, ...pictures.map((n) => n.textContent)].join('\\n');
    }""", said)


def widest(page: Page) -> float:
    """How far right anything on the page reaches, in pixels (the page's width is more
    than the window's when something does not fit)."""
    return page.evaluate("""() => Math.max(document.documentElement.scrollWidth,
        ...[...document.querySelectorAll('#table *')].map((n) =>
            n.getBoundingClientRect().right + window.scrollX))""")


def assert_words_only(page: Page, own: list[str]) -> None:
    """The page draws no identifier or rule source; what the rule file says through it
    (log, option labels) holds no rule source."""
    for text, patterns in ((visible_text(page, False), RAW + own),
                           (visible_text(page, True), SOURCE)):
        for pattern in patterns:
            found = re.search(pattern, text)
            assert found is None, f"{pattern!r} matches {found.group(0)!r} on the page"


@pytest.mark.parametrize("game", sorted(SEED))
def test_a_seed_game_shows_the_rulebooks_words(server, browser, game):
    n, own = SEED[game]
    table = create(server, n, ["person", "person", "greedy"])
    pages = [seated(browser, server, table, 1, "Ann"),
             seated(browser, server, table, 2, "Bob", width=390)]   # Bob has a phone
    play_a_few(pages, 14, seed=n)
    assert widest(pages[1]) <= 390
    assert int(pages[0].get_attribute("body", "data-turn") or 0) >= 8   # it was played
    for page in pages:
        assert_words_only(page, own)
        told = page.locator("#log li").all_inner_texts()
        assert any(re.fullmatch(r"(Ann|Bob|player \d).+", line) for line in told)
        for pattern in TOLD[game]:
            found = [line for line in told if re.search(pattern, line)]
            assert not found, found[:3]
        assert "Ann" in page.inner_text("#seats") and "Bob" in page.inner_text("#seats")
        assert page.errors == []  # type: ignore[attr-defined]
