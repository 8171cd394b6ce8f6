"""Every game under games/ plays as recorded (tests/recorded.py): the same options, labels,
prompts, choices, narration and result, step for step, for seeds 1-20 at the smallest and
largest player counts. A change that alters a game on purpose regenerates the records with
`python tests/recorded.py NAME` and shows the change in review."""

from __future__ import annotations

import json

import pytest

from .conftest import GAME_FILES, game_id
from .recorded import record, record_file


@pytest.mark.parametrize("path", GAME_FILES, ids=game_id)
def test_games_play_as_recorded(path, load_rules):
    stored = record_file(path)
    assert stored.exists(), f"no record for {path.name}: run python tests/recorded.py"
    rules = load_rules(path)
    for expected in json.loads(stored.read_text(encoding="utf-8")):
        got = record(rules, expected["players"], expected["seed"])
        assert got == expected, (expected["players"], expected["seed"])
