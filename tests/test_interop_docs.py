"""docs/interop.md: every Python example on the page runs (from the repository's root, as
the page says), and what it prints is what the page says it prints."""

from __future__ import annotations

import re

import pytest

from .conftest import ROOT

DOC = ROOT / "docs" / "interop.md"


def examples() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", DOC.read_text(encoding="utf-8"),
                      re.MULTILINE | re.DOTALL)


def test_the_page_has_its_examples():
    assert len(examples()) == 5


@pytest.mark.parametrize("n", range(5), ids=["random", "mcts", "cfr", "perft", "pettingzoo"])
def test_an_example_runs(n, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    code = examples()[n]
    exec(compile(code, f"docs/interop.md#example{n + 1}", "exec"), {})  # noqa: S102
    printed = capsys.readouterr().out.splitlines()
    if n == 1:
        assert printed == ["[1.0, -1.0]"]
    if n == 2:
        assert float(printed[0]) < 0.02 and printed[1] == "0.33"
    if n == 3:
        assert printed == ["[9, 72, 504, 3024]"]
    if n == 4:
        assert any(line.startswith("ranking: player 1: ") for line in printed)
        assert printed[-1] in ("{'player_1': 1.0, 'player_2': -1.0}",
                           "{'player_1': -1.0, 'player_2': 1.0}",
                           "{'player_2': 1.0, 'player_1': -1.0}",
                           "{'player_2': -1.0, 'player_1': 1.0}",
                           "{'player_1': 0.0, 'player_2': 0.0}",
                           "{'player_2': 0.0, 'player_1': 0.0}")
