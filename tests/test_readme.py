"""The README opens with the two set-up commands, and CI runs exactly the second."""

from __future__ import annotations

import re

from .conftest import ROOT


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_opens_with_two_commands():
    text = (ROOT / "README.md").read_text()
    first, second = readme_commands()
    assert text.index(first) < text.index(second) < text.index("## ")
    assert "rulesdsl play" in first and "pytest" in second


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci/run").read_text().splitlines()
    assert readme_commands()[1] in ci


def test_the_readme_rule_file_runs():
    import rulesdsl
    from rulesdsl.interpreter.examples import run_examples

    text = (ROOT / "README.md").read_text()
    block = re.findall(r"```rules\n(.+?)\n```", text, re.DOTALL)[0]
    assert run_examples(rulesdsl.load_text(block + "\n", "README.md")) == []


def test_the_first_command_plays_tictactoe_by_name():
    from rulesdsl.resolve.catalogue import find_game

    first = readme_commands()[0]
    assert first.endswith("rulesdsl play tictactoe")
    assert find_game("tictactoe") == (ROOT / "games" / "tictactoe" / "tictactoe.rules").resolve()


# the commands that take rule files, and their options that take a value
FILE_COMMANDS = {"check", "validate", "run", "play", "simulate", "diff", "perft", "ast", "serve"}


def test_the_tour_names_games_by_their_names():
    """Each command of the tour that reads a rule file names a shipped game, as a user who
    installed the package would (the lines for a clone's folders say `--include` or
    `games/`), and each name is one the catalogue has."""
    from rulesdsl.resolve.catalogue import find_game

    text = (ROOT / "README.md").read_text()
    tour = text[text.index("## A short tour"):text.index("`rulesdsl lsp` needs")]
    named = 0
    for line in re.findall(r"^rulesdsl (.+?)(?:\s+#.*)?$", tour, re.MULTILINE):
        words = line.split()
        if words[0] not in FILE_COMMANDS or "games/" in line:
            continue
        files = []
        for word in words[1:]:
            if word.startswith("-"):
                break
            files.append(word)
        assert files, line
        for name in files:
            assert find_game(name) is not None, f"{name} in: rulesdsl {line}"
            named += 1
    assert named >= 25


def test_the_quick_part_of_the_suite_is_documented():
    text = (ROOT / "README.md").read_text()
    assert '.venv/bin/python -m pytest -n auto -m "not slow"' in text
    assert "slow" in (ROOT / "pyproject.toml").read_text()
