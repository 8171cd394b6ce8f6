"""Who placed each piece on the boards a display gives to their placers.

Stage: run. `owner BOARD by placer` in a rule file's `display:` draws each piece on the
board in the colour of the player who placed it (Solstice's stones, which the rules keep
as colours alone). The rules' state does not hold it, and need not: a narrated game notes,
after each decision, the cells of those boards that it filled, and gives them to the
player who decided; a chance step goes on with the decision before it (a roll in a
player's turn), whether chance is rolled at once or waits as a step of its own. A cell
filled by the setup or by a secret decision has no placer (a secret decision's placer is
not for every screen); a cell emptied or changed by another's step loses or changes its
placer. The notes go with a save,
and replaying a record notes them again: records and the state stay the rules' own.
"""

from __future__ import annotations

from typing import Any

from .state import State

Boards = list[tuple[str, int]]   # each placer board's name and its number in the state


def cells_before(st: State, boards: Boards) -> list[list[Any]]:
    """The placer boards' cells as they are before a step."""
    return [st.b[n][:] for _, n in boards]


def note_placers(placed: dict[tuple[str, int], int], boards: Boards,
                 before: list[list[Any]], st: State, who: int | None) -> None:
    """Give each cell the step changed to `who` (None: to nobody)."""
    for (name, n), old in zip(boards, before, strict=True):
        if old == st.b[n]:  # most steps change no cell of a board
            continue
        for c, (was, now) in enumerate(zip(old, st.b[n], strict=True)):
            if was == now:
                continue
            if now is None or who is None:
                placed.pop((name, c), None)
            else:
                placed[(name, c)] = who


def placed_view(placed: dict[tuple[str, int], int], names: dict[str, list[str]]
                ) -> dict[str, dict[str, str]]:
    """The placers as a view shows them: per board, each cell's name and its placer."""
    out: dict[str, dict[str, str]] = {}
    for (board, c), seat in sorted(placed.items()):
        out.setdefault(board, {})[names[board][c]] = f"player {seat + 1}"
    return out
