"""Write tests/replays/states.json: a game record (seed and decisions) for each rule file
under games/, with what the game came to, so that `test_replays.py` can check that every
record still replays to the same game, bit for bit.

Run from the repository root: `python tests/regen_replays.py`. The stored records are the
contract: regenerate them only when a change of the rules or the engine is meant to change
the games, and review the diff.
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

OUT = ROOT / "tests" / "replays" / "states.json"
SEEDS = (0, 1)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def state_digest(game: rulesdsl.Game) -> str:
    """The game's state: counters, boards, zones, the random generator, the result. Not
    the position in the compiled rules (the rule stack), whose numbering belongs to the
    compiler and changes with it."""
    state = game.to_json()["state"]
    kept = {k: v for k, v in state.items() if k not in ("stack", "pending")}
    return digest(json.dumps(kept, sort_keys=True, separators=(",", ":")))


def record(rules: rulesdsl.Rules, path: str, players: int, seed: int) -> dict:
    """A random game: the option chosen at each decision, and the ids of the options."""
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    ids = []
    while not game.over:
        options = game.decision.options
        i = rng.randrange(len(options))
        ids.append(options[i].id)
        game.apply_index(i)
    return {"file": path, "players": players, "seed": seed, "history": game.history,
            "ids": digest("\n".join(ids)), "state": state_digest(game),
            "ranking": game.result.ranking}


def main() -> int:
    records = []
    for file in sorted(ROOT.glob("games/*/*.rules")):
        path = str(file.relative_to(ROOT))
        rules = rulesdsl.load(file)
        low, high = rules.player_range
        for players in sorted({low, high}):
            for seed in SEEDS:
                records.append(record(rules, path, players, seed))
    OUT.write_text(json.dumps(records, separators=(",", ":")).replace("},{", "},\n{") + "\n",
                   encoding="utf-8")
    print(f"wrote {len(records)} records to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
