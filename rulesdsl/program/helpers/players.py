"""Run-time helpers of players: the winners, teams.

Stage: program (see helpers/__init__.py). The code generation of `team`, `next`,
`previous` and `index` is compile/builtins.py's; `winner` and `winners` are names every
rule file knows (check/types.py BUILTIN_NAMES).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .faults import Faults


def _winners(st: Any) -> list[int]:
    return [p for p, r in enumerate(st.result) if r == 1] if st.result is not None else []


def _winner(st: Any) -> Any:
    if st.result is None:
        return None
    firsts = [p for p, r in enumerate(st.result) if r == 1]
    return firsts[0] if len(firsts) == 1 else None


def _win(st: Any, p: int, team: int = 0) -> list[int]:
    if team:  # teams of this size: p's team wins
        return [1 if q in _teams(st, team)[p % (st.np // team)] else 2
                for q in range(st.np)]
    return [1 if q == p else 2 for q in range(st.np)]


def _teams(st: Any, size: int) -> list[list[int]]:
    """The seats of each team, teammates spread evenly round the table."""
    count = st.np // size
    return [[p for p in st.pl if p % count == t] for t in range(count)]


def _team(st: Any, p: int, size: int) -> list[int]:
    return _teams(st, size)[p % (st.np // size)]


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    return {"_winners": _winners, "_winner": _winner, "_win": _win, "_teams": _teams,
            "_team": _team}
