"""The terminal's screens of Isle of Skye, Cronberg and Solstice, at 80 and 60 columns: no
identifier or rule source in the text, every line within the width (the width is passed,
never read from the terminal); long option lists narrowed by a typed coordinate; a
missing option explained; a hot seat's secret choices not shown to the next person."""

from __future__ import annotations

import io
import re

import pytest

import rulesdsl
from rulesdsl.agents.play import agents_for
from rulesdsl.terminal import play_at_terminal

# what must never reach a screen of each game: its ids and its rule source
RAW = {
    "isle_of_skye": [r"\bt\d\d\b", r"castle_", r"completed_mountains", r"_", r"\bvp\b",
                     r"choose \w+ in", r"spots\(", r"mine\("],
    "cronberg": [r"_", r"choose \w+ in", r"can_place"],
    "solstice": [r"_", r"\bouter\d", r"\binner\d", r"choose \w+ in", r"decider\(",
                 r"player \d+: show your"],
    # the engine's words, an option's label after the chooser ("player 2: summon the
    # Scion at g7"), where the rule file tells the decision in the third person
    "cleromancy": [r"_", r"choose \w+ in", r"player \d+: (place|give|summon|move|the )",
                   r"\bunits\(|\bdistance\("],
    "cromlech": [r"_", r"choose \w+ in", r"player \d+: (throw|resolve|re-roll|use|pair|rend|"
                 r"raise|replace|keep|no |place|put|attack|defend|heal|end)"],
}


def screens(game: str, players: int, width: int, answers: list[str],
            seats: set[int] | None = None) -> list[str]:
    rules = rulesdsl.load(game)
    played = rules.new_game(players=players, seed=2)
    out = io.StringIO()
    play_at_terminal(played, agents_for(["random"], players, 2), seats or {0},
                     stdin=io.StringIO("\n".join(answers) + "\n"), stdout=out, width=width)
    # an answer typed at "> " ends its line at a terminal: here the next line follows it
    return [line.removeprefix("> ") for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("game,players", [("isle_of_skye", 3), ("cronberg", 2),
                                          ("solstice", 3), ("cleromancy", 3),
                                          ("cromlech", 3)])
def test_screens_use_words_within_the_width(game, players, width):
    lines = screens(game, players, width, ["1"] * 30)
    assert len(lines) > 40
    long = [line for line in lines if len(line) > width]
    assert not long, long[:3]
    text = "\n".join(lines)
    for pattern in RAW[game]:
        found = re.search(pattern, text)
        assert found is None, (pattern, text[max(0, found.start() - 80):found.end() + 80])


def test_a_coordinate_narrows_a_long_list_and_the_board_stays():
    lines = screens("cronberg", 2, 60, ["token", "d4"])
    text = "\n".join(lines)
    assert "options: type a number, or a word or coordinate" in text
    assert "player 1 places a token at d4" in text
    # the list is grouped: no line per option, the board drawn above it
    assert sum(line.strip().startswith(("1.", "2.", "3.")) for line in lines) <= 4
    assert "city:" in text and "+ a free crossing" in " ".join(text.split())


def test_a_missing_option_is_explained():
    lines = screens("cronberg", 2, 80, ["token", "z9", "99", "quit"])
    text = "\n".join(lines)
    assert "no option names 'z9' now" in text
    assert "there is no option 99" in text


def test_the_final_position_and_result_are_drawn():
    lines = screens("tictactoe", 2, 80, ["1"] * 9)
    text = "\n".join(lines)
    assert "Result:" in text
    # why it ended, in the rule file's words
    assert re.search(r"the game ended: (three in a row|the grid is full without a line)", text)
    final = text.rindex("Result:")
    assert "grid" in text[:final].rsplit("player", 1)[0] or "a  b  c" in text[:final]


def test_a_hot_seat_secret_choice_is_not_shown_to_the_next_person():
    lines = screens("goofspiel", 2, 80, ["", "13", "", "1", "quit"], seats={0, 1})
    text = "\n".join(lines)
    before = text.index("pass the screen to player 2")
    after = text[before:]
    # player 1's bid was told to player 1 only; player 2's screen does not say it
    assert "bid 13" in text[:before]  # told at once to the seat that chose
    assert "player 1: bid 13" not in after.split("pass the screen to player 1")[0]


WORDS = '''game "Marks"
players 2

kind Card(id, title, stars):
    "c1", "the Sun", 2
    "c2", "the Moon", 0
zone hand per player: Card public
board track: ring 4

define start() = [track1]

display:
    label Card by title
    label track cells "space"
    feature Card stars "*" "star"
    mark start "S" "the start"
    ask play c "Which card do you play?"
    tell play c "plays {choice}"

setup:
    move Card[1] to hand of player 1
    move Card[2] to hand of player 2

play:
    turns:
        choose c in hand of current as "play {c}"
        choose s in track where s is empty as "put it at {s}"
        if current == player 2:
            end game
'''


def test_marks_features_and_words_reach_the_view_and_the_terminal():
    rules = rulesdsl.load_text(WORDS)
    game = rules.new_game(narrate=True)
    view = game.view(0)
    assert view["decision"]["prompt"] == "Which card do you play?"
    assert view["components"]["Card"]["c1"] == {"label": "the Sun", "counters": {},
                                                "features": {"star": 2}}
    assert rules.display["marks"] == {"track": [[["track1"], "S", "the start"]]}
    from rulesdsl.terminal import show_state
    drawn = "\n".join(show_state(view, rules, 60))
    assert " S" in drawn and "space 1 at the top" in drawn
    game.apply("c1")
    game.apply("track2")
    assert game.view(1)["log"] == ["player 1 plays the Sun", "player 1: put it at space 2"]
    assert game.log == ["player 1: play c1", "player 1: put it at track2"]


def test_tictactoe_marks_are_the_display_s_and_the_final_board_is_drawn():
    lines = screens("tictactoe", 2, 60, ["1"] * 9)
    final = lines.index(next(line for line in lines if line.startswith("Result:")))
    board = lines[:final]
    assert any(re.fullmatch(r"  [123] [XO.] [XO.] [XO.]", line) for line in board[-6:])
    assert not any(re.fullmatch(r"  [123] .*[12].*", line) for line in board)


def test_seat_colours_come_from_the_rules():
    rules = rulesdsl.load("isle_of_skye")
    assert rules.display["seats"]["colours"][0] == "blue"
    game = rules.new_game(players=2, seed=1)
    assert game.view(0)["components"]["Tile"][game.view(0)["zones"]["built"][0][0]][
        "label"] == "the blue castle"
