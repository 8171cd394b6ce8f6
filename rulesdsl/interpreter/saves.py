"""Reading a saved game: its shape against the schema, then its contents against the rules.

Stage: run. A save (`Game.to_json`) holds the rules' digest, the seed, the chosen option
indices, the whole state and, for a narrated game, its log with who was told each line, so
a game resumes exactly where it stopped. A save is read from a file a person may have
edited: after the schema (schema.py) has checked its shape, every value is checked against
what these rules allow (a counter's type and bounds, what a board's cells hold, each zone's
components, each frame's block and locals, the pending options), so that a corrupt save is
a G001 diagnostic, never a failure later in the game. This module turns a save into those
parts; `Rules.load_game` makes the game of them and looks at its pending options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..diagnostics import Diagnostic, RulesError
from ..program.program import BLOCK, Program
from ..valuetypes import BOOL, INT, PLAYER, TEXT, Type
from .schema import SAVE_FORMAT, SavedGame, SavedState, problem
from .state import State

__all__ = ["SAVE_FORMAT", "Saved", "corrupt", "fits", "read_save"]


@dataclass
class Saved:
    """The parts of a saved game, checked."""

    seed: int
    history: list[int]
    decisions: int
    ended_by: str
    state: State
    told: dict[int, str]
    placed: dict[tuple[str, int], int]


def corrupt(message: str) -> RulesError:
    return RulesError([Diagnostic("G001", f"corrupt saved game: {message}")])


def fits(value: Any, t: Type, prog: Program, players: int) -> bool:
    """Whether a plain value can be a value of type t in a game of these rules."""
    if value is None:
        return True
    if t == INT:
        return type(value) is int
    if t == BOOL:
        return type(value) is bool
    if t == TEXT:
        return type(value) is str
    if t == PLAYER:
        return type(value) is int and 0 <= value < players
    if not isinstance(t, tuple):
        return True  # "any": plain data is all the schema allows
    a = prog.declared
    kind = t[0]
    sizes = {
        "cell": lambda: a.boards[t[1]].size,
        "enum": lambda: len(a.enums[t[1]].values),
        "comp": lambda: a.kinds[t[1]].count,
        "die": lambda: a.dice[t[1]].count,
    }
    if kind in sizes:
        return type(value) is int and 0 <= value < sizes[kind]()
    if kind == "list":
        return isinstance(value, list) and all(fits(x, t[1], prog, players) for x in value)
    if kind == "zone":
        return fits(value, ("list", ("comp", t[2])), prog, players)
    return True


def read_save(data: Any, prog: Program, digest: str,
              check_players: Callable[[int], int]) -> Saved:
    """The parts of a save made by `Game.to_json` with rules of this digest."""
    try:
        save = SavedGame.model_validate(data)
    except ValidationError as err:
        raise corrupt(problem(err)) from None
    if save.rules != digest:
        raise RulesError([Diagnostic("G003", f"this game was saved with other rules "
                                     f"(digest {save.rules}, these rules are {digest})")])
    s = save.state
    np = check_players(s.players)
    _check_values(prog, s, np)
    _check_stack(prog, s, np)
    _check_end(save, np)
    # the schema's tuples become the lists the state is made of
    stack = [[block, list(locals_)] for block, locals_ in s.stack]
    st = State(np, list(s.counters), [list(cells) for cells in s.boards], stack, s.rng,
               [list(zone) for zone in s.zones])
    if s.pending:
        site, who, options = s.pending
        st.pending = (site, who, list(options))
    st.result = list(s.result) if s.result is not None else None
    st.log = _log(save.log, np)
    st.said = sum(len(text) for _, text in st.log or ())  # counted as if said here
    decisions = save.decisions if save.decisions is not None else len(save.history)
    # what a screen adds to the log goes with it (a save without its log has none)
    told, placed = (_told(save, len(st.log)), _placed(save, prog, np)) \
        if st.log is not None else ({}, {})
    return Saved(save.seed, list(save.history), decisions, save.ended_by, st, told, placed)


def _check_values(prog: Program, s: SavedState, np: int) -> None:
    """Counters, dice faces, board cells and zones hold what these rules put there."""
    a, layout = prog.declared, prog.layout
    if len(s.counters) != layout.nslots:
        raise corrupt(f"it has {len(s.counters)} counters, these rules have {layout.nslots}")
    if not fits(s.counters[0], PLAYER, prog, np):
        raise corrupt("the current player is not a player of this game")
    for name, info in a.counters.items():
        base = layout.counter[name]
        for k in range(info.size):
            value = s.counters[base + k]
            ok = fits(value, info.type, prog, np) and (value is not None or info.init is None
                                                        or info.type == PLAYER)
            if ok and info.low is not None and type(value) is int:
                ok = info.low <= value <= info.high  # type: ignore[operator]
            if not ok:
                raise corrupt(f"counter {name} holds {value!r}, which it cannot hold")
    for name, dice in a.dice.items():
        faces = a.dies[dice.die].faces
        base = layout.dice[name]
        for k in range(dice.count):
            if s.counters[base + k] not in faces:
                raise corrupt(f"a die of {name} shows {s.counters[base + k]!r}, which is none "
                           "of its faces")
        first = layout.shown.get(name)
        if first is not None and any(s.counters[first + k] not in (0, 1) or type(
                s.counters[first + k]) is not int for k in range(dice.count)):
            raise corrupt(f"whether the dice of {name} are revealed is not 0 or 1")
    if len(s.boards) != len(a.boards) or any(
            len(cells) != board.size for cells, board in zip(s.boards, a.boards.values())):
        raise corrupt("the boards do not have the size these rules give them")
    for (name, board), cells in zip(a.boards.items(), s.boards):
        holds = a.holding.get(name, "any")
        for c, piece in enumerate(cells):
            if not fits(piece, holds, prog, np):
                raise corrupt(f"cell {board.names[c]} of board {name} holds {piece!r}, which "
                           "the board cannot hold")
    if len(s.zones) != layout.nzones:
        raise corrupt(f"it has {len(s.zones)} zones, these rules have {layout.nzones}")
    for name, zone in a.zones.items():
        count = a.kinds[zone.kind].count
        for k in range(a.max_players if zone.per_player else 1):
            if any(c >= count for c in s.zones[layout.zone[name] + k]):
                raise corrupt(f"zone {name} holds something that is not one of its components")


def _check_stack(prog: Program, s: SavedState, np: int) -> None:
    """Each frame is at a block of the rules with that block's locals, each name of the
    rules among them none or a value of its type (an item of `lo..hi` within its range);
    the bottom frame plays the game, the others run a rule or the setup; inside the turns
    there is a current player; a waiting game's top frame waits at the block its pending
    step resumes."""
    procs = prog.declared.procs
    for n, (block, locals_) in enumerate(s.stack):
        if not 0 <= block < len(prog.blocks) or prog.blocks[block] is None:
            # (none: a block the rules only jump to, copied into the blocks before it)
            raise corrupt("a frame of the rule stack points at no block of these rules")
        number = prog.block_proc[block]
        proc = procs[number]
        if len(locals_) != prog.nlocals.get((proc.kind, proc.name), -1):
            raise corrupt("a frame of the rule stack does not have the locals of its block")
        ranges = prog.frame_ranges[number]
        for slot, t in prog.frame_types[number].items():
            value, bound = locals_[slot], ranges.get(slot)
            outside = bound is not None and type(value) is int and \
                not bound[0] <= value <= bound[1]
            if outside or not fits(value, t, prog, np):
                name = prog.frame_names[number].get(slot)
                what = f"'{name}'" if name is not None else "a value it keeps"
                raise corrupt(f"a frame of the rule stack runs the {proc.kind} '{proc.name}' "
                              f"and {what} holds {value!r}, which it cannot hold")
        allowed = ("play",) if n == 0 else ("rule", "setup")
        if proc.kind not in allowed:
            raise corrupt(f"a frame of the rule stack runs the {proc.kind} '{proc.name}' where "
                       f"the {' or '.join(allowed)} should run")
    for block, locals_ in reversed(s.stack):  # the secret step the game waits in, if any
        found = prog.together.get(block)
        if found is not None:
            seats, k = locals_[found[0]], locals_[found[1]]
            if not (type(seats) is list and all(type(p) is int and 0 <= p < np for p in seats)
                    and type(k) is int and 0 <= k <= len(seats)):
                raise corrupt("a frame of the rule stack is in a secret step, and the seats "
                              "that choose in it are not seats of this game")
            break
    if s.counters[0] is None and any(block in prog.turns_blocks for block, _ in s.stack):
        raise corrupt("the rules are playing the turns, yet the current player is none")
    if s.pending is not None:
        site, _who, _options = s.pending
        if not 0 <= site < len(prog.sites):
            raise corrupt("the pending decision is at no place of these rules")
        if not s.stack:
            raise corrupt("a decision is pending but the rule stack is empty")
        if s.stack[-1][BLOCK] != prog.sites[site].resume:
            raise corrupt("the rule stack's top frame does not wait at the pending decision")


def _check_end(save: SavedGame, np: int) -> None:
    s = save.state
    if s.result is not None and not (len(s.result) == np and
                                     all(1 <= r <= np for r in s.result)):
        raise corrupt("the result is malformed: one rank from 1 to the number of players per "
                   "player")
    if s.pending is not None and s.result is not None:
        raise corrupt("the game is over yet a decision is pending")
    if s.pending is None and s.result is None:
        raise corrupt("the game is neither over nor waiting for a decision")
    if save.ended_by == "limit" and s.result is None:
        raise corrupt("the game ended at its limit, yet it has no result")


def _told(save: SavedGame, lines: int) -> dict[int, str]:
    """The screen's words for the log's decisions: each at a line of the log."""
    if any(k >= lines for k, _ in save.told):
        raise corrupt("the screen's words of a decision are for a line the log does not have")
    return dict(save.told)


def _placed(save: SavedGame, prog: Program, np: int) -> dict[tuple[str, int], int]:
    """Who placed the pieces of the boards the display gives to their placers."""
    boards = prog.declared.boards
    out = {}
    for board, cell, seat in save.placed:
        if board not in prog.declared.display.placers or cell >= boards[board].size \
                or seat >= np:
            raise corrupt(f"a piece is placed by player {seat + 1} on cell {cell} of "
                          f"'{board}', which these rules' display does not allow")
        out[(board, cell)] = seat
    return out


def _log(log: list | None, np: int) -> list | None:
    """A narrated game's log: [to, text] per line, `to` null (everyone) or seat numbers."""
    if log is None:
        return None
    out = []
    for to, text in log:
        if to is not None and not all(0 <= p < np for p in to):
            raise corrupt("a line of the log is told to something that is not a list of seats")
        out.append((tuple(to) if to is not None else None, text))
    return out
