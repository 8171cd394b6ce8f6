"""Reading a saved game: every field is checked, a corrupt save is a diagnostic.

Stage: run. A save (`Game.to_json`) holds the rules' digest, the seed, the chosen option
indices, the whole state and, for a narrated game, its log with who was told each line,
so a game resumes exactly where it stopped. This module turns a save into those parts;
`Rules.load_game` makes the game of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, RulesError
from .compiler import Program
from .state import MASK, State

SAVE_FORMAT = "rulesdsl-game/1"


@dataclass
class Saved:
    """The parts of a saved game, checked."""

    seed: int
    history: list[int]
    state: State


def _bad(message: str) -> RulesError:
    return RulesError([Diagnostic("G001", f"corrupt saved game: {message}")])


def _field(data: dict, name: str, kind: type | tuple) -> Any:
    if name not in data:
        raise _bad(f"the field '{name}' is missing")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _bad(f"the field '{name}' has the wrong kind of value")
    return value


def _plain(value: Any, where: str) -> None:
    if isinstance(value, list):
        for item in value:
            _plain(item, where)
    elif not isinstance(value, (int, str, type(None))):
        raise _bad(f"{where} holds a value that is not plain data")


def read_save(data: Any, prog: Program, digest: str,
              check_players: Callable[[int], int]) -> Saved:
    """The parts of a save made by `Game.to_json` with rules of this digest."""
    if not isinstance(data, dict):
        raise _bad("it is not a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise _bad(f"the format is not '{SAVE_FORMAT}'")
    saved_with = _field(data, "rules", str)
    if saved_with != digest:
        raise RulesError([Diagnostic("G003", f"this game was saved with other rules "
                                     f"(digest {saved_with}, these rules are {digest})")])
    seed = _field(data, "seed", int)
    history = _field(data, "history", list)
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in history):
        raise _bad("the history must be a list of option numbers")
    s = _field(data, "state", dict)
    np = _field(s, "players", int)
    check_players(np)
    v = _field(s, "counters", list)
    if len(v) != len(prog.init_counters):
        raise _bad(f"it has {len(v)} counters, these rules have {len(prog.init_counters)}")
    _plain(v, "a counter")
    boards = _field(s, "boards", list)
    a = prog.analysis
    sizes = [b.size for b in a.boards.values()]
    if len(boards) != len(sizes) or any(not isinstance(b, list) or len(b) != n
                                        for b, n in zip(boards, sizes)):
        raise _bad("the boards do not have the size these rules give them")
    _plain(boards, "a board")
    stack = _field(s, "stack", list)
    for fr in stack:
        if not (isinstance(fr, list) and len(fr) == 2 and isinstance(fr[0], int)
                and 0 <= fr[0] < len(prog.blocks) and isinstance(fr[1], list)):
            raise _bad("a frame of the rule stack is malformed")
        _plain(fr[1], "a frame")
    rng = _field(s, "rng", int)
    if not 0 < rng <= MASK:
        raise _bad("the random generator's state is out of range")
    pending = s.get("pending")
    if pending is not None:
        if not (isinstance(pending, list) and len(pending) == 3 and isinstance(pending[0], int)
                and 0 <= pending[0] < len(prog.sites) and isinstance(pending[1], int)
                and -1 <= pending[1] < np and isinstance(pending[2], list) and pending[2]):
            raise _bad("the pending decision is malformed")
        _plain(pending[2], "the pending decision")
        if not stack:
            raise _bad("a decision is pending but the rule stack is empty")
    result = s.get("result")
    if result is not None and not (isinstance(result, list) and len(result) == np and
                                   all(isinstance(r, int) and 1 <= r <= np for r in result)):
        raise _bad("the result is malformed")
    if pending is not None and result is not None:
        raise _bad("the game is over yet a decision is pending")
    if pending is None and result is None:
        raise _bad("the game is neither over nor waiting for a decision")
    zones = s.get("zones", [])
    layout = prog.layout
    if not isinstance(zones, list) or len(zones) != layout.nzones:
        raise _bad(f"it has {len(zones) if isinstance(zones, list) else 'no'} zones, these "
                   f"rules have {layout.nzones}")
    counts = {n: a.kinds[kind].count for n, kind in enumerate(layout.zone_kind)}
    for i, zone in enumerate(zones):
        if not (isinstance(zone, list) and all(
                type(c) is int and 0 <= c < counts[i] for c in zone)):
            raise _bad("a zone holds something that is not one of its components")
    st = State(np, v, boards, stack, rng, zones)
    st.pending = tuple(pending) if pending is not None else None
    st.result = result
    st.log = _log(data.get("log"), np)
    return Saved(seed, list(history), st)


def _log(log: Any, np: int) -> list | None:
    """A narrated game's log: [to, text] per line, `to` null (everyone) or seat numbers."""
    if log is None:
        return None
    if not isinstance(log, list):
        raise _bad("the log is not a list of lines")
    out = []
    for entry in log:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
            raise _bad("a line of the log is not [to, text]")
        to = entry[0]
        if to is not None and not (isinstance(to, list) and all(
                type(p) is int and 0 <= p < np for p in to)):
            raise _bad("a line of the log is told to something that is not a list of seats")
        out.append((tuple(to) if to is not None else None, entry[1]))
    return out


