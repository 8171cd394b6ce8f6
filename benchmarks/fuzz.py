"""A long fuzzing run: thousands of hostile and broken inputs of every kind (see
tests/fuzzing.py), with the figures docs/robustness.md reports.

    python benchmarks/fuzz.py                      # the run of docs/robustness.md
    python benchmarks/fuzz.py --rules 200 --seed 7 # another, smaller one

For each kind of input it prints how many were tried, how many ended in a Python
traceback or a hang (each listed, with its input), and the slowest case. The inputs come
from a seeded generator: the same command finds the same cases.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulesdsl  # noqa: E402
from tests import fuzzing as F  # noqa: E402


def damaged(rng: random.Random, sources: dict, least: int, most: int) -> tuple[str, str]:
    """A file of games/, damaged `least` to `most` times, and its path in the repository."""
    path, text = rng.choice(list(sources.items()))
    return F.damaged(rng, text, least, most), str(path.relative_to(F.ROOT))


def rule_files(rng: random.Random, n: int, sources: dict) -> list[F.Outcome]:
    out = []
    for _ in range(n):
        text, rel = damaged(rng, sources, 1, 3)
        out.append(F.guarded("rule files", partial(F.run_text, text, rel), given=text))
    return out


def soup(rng: random.Random, n: int) -> list[F.Outcome]:
    out = []
    for _ in range(n):
        text = F.token_soup(rng)
        out.append(F.guarded("token soup", partial(F.run_text, text, "soup.rules"), given=text))
    return out


def saved(rng: random.Random, n: int, kind: str) -> list[F.Outcome]:
    """Corrupted saves (or records) of games at random points, a fifth of the saves made
    by another game with these rules' digest forged in; each serves for ten inputs."""
    loaded = {p: rulesdsl.load(p) for p in F.GAME_FILES}
    out: list[F.Outcome] = []
    while len(out) < n:
        path = rng.choice(F.GAME_FILES)
        rules = loaded[path]
        game = F.games_to_corrupt(rng, rules)
        good = game.to_json() if kind == "saves" else F.record_of(game, path)
        if kind == "saves" and rng.random() < 0.2:  # another game's save, digest forged
            rules, good = F.forged(rng, loaded)
        for _ in range(min(10, n - len(out))):
            data = F.corrupt(rng, good) if rng.random() < 0.9 else good
            if kind == "saves":
                out.append(F.guarded(kind, partial(F.run_save, rules, data), given=data))
            else:
                out.append(F.guarded(kind, partial(F.run_record, rules, data), given=data))
    return out


def command_lines(rng: random.Random, n: int) -> list[F.Outcome]:
    tmp = Path(tempfile.mkdtemp(prefix="rulesdsl-fuzz-"))
    (tmp / "binary.rules").write_bytes(b"\xff\xfe\x00junk")
    (tmp / "save.json").write_text('{"format": "rulesdsl-game/1"}')
    (tmp / "record.json").write_text('{"format": "rulesdsl-record/1", "steps": [1]}')
    files = {"ttt": str(F.ROOT / "games/tictactoe/tictactoe.rules"),
             "pig": str(F.ROOT / "games/pig/pig.rules"), "missing": str(tmp / "nowhere"),
             "dir": str(tmp), "binary": str(tmp / "binary.rules"),
             "save": str(tmp / "save.json"), "record": str(tmp / "record.json")}
    here = os.getcwd()
    os.chdir(tmp)  # records of failed games land here
    try:
        out = []
        for _ in range(n):
            argv = F.bad_argv(rng, files)
            out.append(F.guarded("command lines", partial(F.run_cli, argv), given=argv))
        return out
    finally:
        os.chdir(here)


def editor(rng: random.Random, n: int, sources: dict) -> list[F.Outcome]:
    """Damaged rule files (none to two damages) opened in the language server, thirty
    requests at random places of each."""
    out = []
    for _ in range(n):
        text, rel = damaged(rng, sources, 0, 2)
        requests = F.editor_requests(rng, text)
        out.append(F.guarded("editor requests", partial(F.run_editor, text, rel, requests),
                             given=(text, requests)))
    return out


def report(outcomes: list[F.Outcome], seconds: float) -> int:
    kind = outcomes[0].kind if outcomes else "?"
    bad = [o for o in outcomes if o.traceback]
    slowest = max(outcomes, key=lambda o: o.seconds) if outcomes else None
    print(f"{kind}: {len(outcomes)} inputs, {len(bad)} tracebacks or hangs, slowest "
          f"{slowest.seconds:.2f} s, {seconds:.0f} s in all" if slowest else kind)
    for o in bad[:20]:
        print(f"    TRACEBACK {o.traceback}\n      input: {str(o.input)[:300]!r}")
    if slowest is not None:
        print(f"    slowest input: {str(slowest.input)[:200]!r}")
    return len(bad)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", type=int, default=3000, help="damaged rule files")
    p.add_argument("--soup", type=int, default=10000, help="token soups")
    p.add_argument("--saves", type=int, default=3000, help="corrupted saved games")
    p.add_argument("--records", type=int, default=3000, help="corrupted game records")
    p.add_argument("--cli", type=int, default=3000, help="bad command lines")
    p.add_argument("--editor", type=int, default=1000,
                   help="damaged rule files in the language server, 30 requests each")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    sources = F.sources()
    runs = [("rules", lambda: rule_files(rng, args.rules, sources)),
            ("soup", lambda: soup(rng, args.soup)),
            ("saves", lambda: saved(rng, args.saves, "saves")),
            ("records", lambda: saved(rng, args.records, "records")),
            ("cli", lambda: command_lines(rng, args.cli)),
            ("editor", lambda: editor(rng, args.editor, sources))]
    bad = total = 0
    for name, run in runs:
        if not getattr(args, name):
            continue
        start = time.perf_counter()
        outcomes = run()
        total += len(outcomes)
        bad += report(outcomes, time.perf_counter() - start)
    print(f"in all: {total} inputs, {bad} tracebacks or hangs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
