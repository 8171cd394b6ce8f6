"""Loading a saved game: every field is checked, a corrupt save is a diagnostic.

Stage: run. A save (`Game.to_json`) holds the rules' digest, the seed, the chosen option
indices and the whole state, so a game resumes exactly where it stopped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, RulesError
from .state import MASK, State

if TYPE_CHECKING:
    from .game import Game, Rules


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


def load_game(rules: Rules, data: Any) -> Game:
    from .game import SAVE_FORMAT, Game

    if not isinstance(data, dict):
        raise _bad("it is not a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise _bad(f"the format is not '{SAVE_FORMAT}'")
    digest = _field(data, "rules", str)
    if digest != rules.digest:
        raise RulesError([Diagnostic("G003", f"this game was saved with other rules "
                                     f"(digest {digest}, these rules are {rules.digest})")])
    seed = _field(data, "seed", int)
    history = _field(data, "history", list)
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in history):
        raise _bad("the history must be a list of option numbers")
    s = _field(data, "state", dict)
    prog = rules.program
    np = _field(s, "players", int)
    rules.check_players(np)
    v = _field(s, "counters", list)
    if len(v) != len(prog.init_counters):
        raise _bad(f"it has {len(v)} counters, these rules have {len(prog.init_counters)}")
    _plain(v, "a counter")
    boards = _field(s, "boards", list)
    sizes = [b.size for b in rules.analysis.boards.values()]
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
    a = rules.analysis
    layout = rules.layout
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
    game = Game(rules, st, seed)
    game.history = list(history)
    if pending is not None:
        _check_pending(game)
    return game


def _check_pending(game: Game) -> None:
    """The pending options must have labels and a place in the top frame to go: a save
    whose frame or options do not fit the rules would otherwise fail later, mid-game."""
    st = game.st
    assert st.pending is not None
    site = game.program.sites[st.pending[0]]
    locals_ = st.stack[-1][1]
    try:
        game.options()
        if site.slot >= 0:
            ok = site.slot < len(locals_)
        else:
            lst, idx = site.hidden
            ok = 0 <= site.base + locals_[lst][locals_[idx]] < len(st.v)
    except Exception:
        ok = False
    if not ok:
        raise _bad("the pending decision does not fit the rule stack")
