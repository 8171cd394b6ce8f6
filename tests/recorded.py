"""Recorded games: what each game under games/ does for seeds 1-20, as digests.

A refactoring of the engine or a rewrite of a rule file must leave every game identical move
for move. For each rule file, for its smallest and largest player count and seeds 1-20, a
random policy (seeded from the game's seed) plays a whole narrated game that pauses at chance
steps; the record keeps digests of the options offered at every step (ids, labels, prompt,
who decides), of the choices, of the narration, and the result. tests/test_records.py replays
them; `python tests/recorded.py` writes tests/records/*.json anew (review the diff).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulesdsl  # noqa: E402

SEEDS = range(1, 21)
RECORDS = Path(__file__).resolve().parent / "records"


def _digest(parts: list[str]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


def record(rules: rulesdsl.Rules, players: int, seed: int) -> dict:
    """Play one game and describe it by digests."""
    game = rules.new_game(players=players, seed=seed, narrate=True, auto_chance=False)
    rng = random.Random(seed * 1000 + players)
    steps: list[str] = []
    choices: list[str] = []
    while not game.over:
        chance = game.chance
        if chance is not None:
            options = [o for o, _ in chance.outcomes]
            steps.append("chance|" + "|".join(f"{o.id}={o.label}" for o in options))
        else:
            decision = game.decision
            assert decision is not None
            options = decision.options
            steps.append(f"{decision.player}|{decision.prompt}|"
                         + "|".join(f"{o.id}={o.label}" for o in options))
        i = rng.randrange(len(options))
        choices.append(str(i))
        game.apply_index(i)
    result = game.result
    assert result is not None
    return {
        "players": players,
        "seed": seed,
        "steps": len(steps),
        "options": _digest(steps),
        "choices": _digest(choices),
        "log": _digest(list(game.log)),
        "ranking": result.ranking,
        "scores": result.scores,
    }


def counts(rules: rulesdsl.Rules) -> list[int]:
    low, high = rules.player_range
    return sorted({low, high})


def records_of(path: Path) -> list[dict]:
    rules = rulesdsl.load(path)
    return [record(rules, n, seed) for n in counts(rules) for seed in SEEDS]


def record_file(path: Path) -> Path:
    rel = path.relative_to(ROOT / "games")
    return RECORDS / (str(rel.with_suffix("")).replace("/", "--") + ".json")


def main(names: list[str]) -> int:
    RECORDS.mkdir(exist_ok=True)
    for path in sorted(ROOT.glob("games/*/*.rules")):
        if names and path.stem not in names:
            continue
        out = record_file(path)
        out.write_text(json.dumps(records_of(path), indent=0) + "\n", encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
