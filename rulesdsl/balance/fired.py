"""What fired in a game: the coverage points of the rules (a rule's start, a branch of an
`if`, a menu option, an `as soon as` block, a turn, an end of the game), counted by seat.

Stage: analysis (it plays through the interpreter's `play_out`). The rules are compiled with
`coverage=True` (compile/compiler.py): every point adds 1 to its counter each time it
runs. The counters are shared by everything that runs the program in the process, bots that
look ahead included, so a game is counted step by step: the counters are zeroed just before
a step is taken and read just after, and what the bots tried while choosing is never counted.

Who a hit is counted to: the seat whose decision the step was; a chance step's hits go to
the seat that decided last (the roll happened in the course of its play), and what ran
before the first decision (the setup) to no seat. A record keeps, for each point that fired,
one count per seat and a last one for no seat.
"""

from __future__ import annotations

from operator import add
from pathlib import Path
from typing import Any

from ..agents.play import Failed
from ..diagnostics import RulesError
from ..interpreter.game import Game, Rules
from ..interpreter.observation import play_out


def play_counted(rules: Rules, players: int, seed: int, agents: list[Any]
                 ) -> tuple[Game | None, Failed | None, dict[int, list[int]] | None]:
    """Play one game as `runner.play_game` does, counting each point's hits by seat: the
    game (or what stopped it) and {point: [hits of seat 1, ..., of no seat]}."""
    hits = rules.program.hits
    zero = [0] * len(hits)
    by_seat = [zero[:] for _ in range(players + 1)]
    deciding = [players]  # the seat the hits of the step being taken go to
    last = [players]      # the seat that decided last

    def before(game: Game, _choice: int) -> None:
        hits[:] = zero
        seat = game.decider
        if seat is not None:
            last[0] = seat
        deciding[0] = seat if seat is not None else last[0]

    def after(_game: Game) -> None:
        by_seat[deciding[0]] = list(map(add, by_seat[deciding[0]], hits))

    game = None
    hits[:] = zero
    try:
        game = rules.new_game(players=players, seed=seed)
        by_seat[players] = hits[:]
        play_out(game, agents, on_step=after, before=before)
    except RulesError as err:
        steps = list(game.history) if game is not None else []
        return None, Failed(seed, steps, err.diagnostics[0]), None
    fired = {n: [row[n] for row in by_seat] for n in range(len(zero))
             if any(row[n] for row in by_seat)}
    return game, None, fired


def point_rows(rules: Rules) -> list[tuple[int, str, str, str, str, str, int]]:
    """Each coverage point of the rules as stored: (number, kind, block of rules, name, the
    rule line as written (`rule income():`, `if ...`), the file's name, the line). A base's
    point and a variant's are matched by (kind, block, name, the line's text)."""
    out = []
    for n, pt in enumerate(rules.program.points):
        lines = rules.sources.get(pt.span.file, "").splitlines()
        text = lines[pt.span.line - 1].strip() if 1 <= pt.span.line <= len(lines) else ""
        out.append((n, pt.kind, pt.proc, pt.name, text, Path(pt.span.file).name,
                    pt.span.line))
    return out
