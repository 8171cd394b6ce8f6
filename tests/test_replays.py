"""Game records made before the information boundary still replay, bit for bit.

tests/replays/states.json holds, for every rule file under games/, random games as
records (players, seed, the option chosen at each decision), written by
`tests/regen_replays.py` from the code before the boundary, with a digest of the option
ids chosen, a digest of the final state (counters, boards, zones, the rule stack, the
random generator) and the ranking. Replaying each record from its seed must choose the
same options and end in the very same state: what a saved game or a record means does
not change. (tests/test_records.py checks, step by step, the options, choices, narration
and results of seeds 1-20.)
"""

from __future__ import annotations

import json

import pytest

from .conftest import ROOT
from .regen_replays import digest, state_digest

RECORDS = json.loads((ROOT / "tests" / "replays" / "states.json").read_text(encoding="utf-8"))


def test_every_game_has_records():
    files = {str(p.relative_to(ROOT)) for p in ROOT.glob("games/*/*.rules")}
    assert {r["file"] for r in RECORDS} == files


@pytest.mark.parametrize("record", RECORDS,
                         ids=lambda r: f"{r['file'][6:]}-{r['players']}p-seed{r['seed']}")
def test_a_record_replays_bit_for_bit(record, load_rules):
    rules = load_rules(ROOT / record["file"])
    game = rules.new_game(players=record["players"], seed=record["seed"])
    ids = []
    for i in record["history"]:
        ids.append(game.decision.options[i].id)
        game.apply_index(i)
    assert game.over
    assert digest("\n".join(ids)) == record["ids"]
    assert state_digest(game) == record["state"]
    assert game.result.ranking == record["ranking"]
