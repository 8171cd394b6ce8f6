"""Loading a saved game: its shape against the schema, then its contents against the rules.

Stage: run. A save (`Game.to_json`) holds the rules' digest, the seed, the chosen option
indices and the whole state, so a game resumes exactly where it stopped. A save is read
from a file a person may have edited: after the schema (schema.py) has checked its shape,
every value is checked against what these rules allow (a counter's type and bounds, what a
board's cells hold, each zone's components, each frame's block and locals, the pending
options), so that a corrupt save is a G001 diagnostic, never a failure later in the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..check.types import BOOL, INT, PLAYER, TEXT, Type
from ..diagnostics import Diagnostic, RulesError
from .schema import SavedGame, SavedState, problem
from .state import State

if TYPE_CHECKING:
    from .game import Game, Rules


def _bad(message: str) -> RulesError:
    return RulesError([Diagnostic("G001", f"corrupt saved game: {message}")])


def fits(value: Any, t: Type, rules: Rules, players: int) -> bool:
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
    a = rules.analysis
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
        return isinstance(value, list) and all(fits(x, t[1], rules, players) for x in value)
    if kind == "zone":
        return fits(value, ("list", ("comp", t[2])), rules, players)
    return True


def load_game(rules: Rules, data: Any) -> Game:
    from .game import Game

    try:
        save = SavedGame.model_validate(data)
    except ValidationError as err:
        raise _bad(problem(err)) from None
    if save.rules != rules.digest:
        raise RulesError([Diagnostic("G003", f"this game was saved with other rules "
                                     f"(digest {save.rules}, these rules are {rules.digest})")])
    s = save.state
    np = rules.check_players(s.players)
    _check_values(rules, s, np)
    _check_stack(rules, s)
    _check_end(rules, save, np)
    # the schema's tuples become the lists the state is made of
    stack = [[block, list(locals_)] for block, locals_ in s.stack]
    st = State(np, list(s.counters), [list(cells) for cells in s.boards], stack, s.rng,
               [list(zone) for zone in s.zones])
    st.pending = (s.pending[0], s.pending[1], list(s.pending[2])) if s.pending else None
    st.result = list(s.result) if s.result is not None else None
    game = Game(rules, st, save.seed)
    game.history = list(save.history)
    game.decisions = save.decisions if save.decisions is not None else len(save.history)
    game.ended_by = save.ended_by
    if st.pending is not None:
        _check_pending(game)
    return game


def _check_values(rules: Rules, s: SavedState, np: int) -> None:
    """Counters, dice faces, board cells and zones hold what these rules put there."""
    a = rules.analysis
    if len(s.counters) != a.nslots:
        raise _bad(f"it has {len(s.counters)} counters, these rules have {a.nslots}")
    if not fits(s.counters[0], PLAYER, rules, np):
        raise _bad("the current player is not a player of this game")
    for info in a.counters.values():
        for k in range(info.size):
            value = s.counters[info.base + k]
            ok = fits(value, info.type, rules, np) and (value is not None or info.init is None
                                                         or info.type == PLAYER)
            if ok and info.low is not None and type(value) is int:
                ok = info.low <= value <= info.high  # type: ignore[operator]
            if not ok:
                raise _bad(f"counter {info.name} holds {value!r}, which it cannot hold")
    for dice in a.dice.values():
        faces = a.dies[dice.die].faces
        for k in range(dice.count):
            if s.counters[dice.base + k] not in faces:
                raise _bad(f"a die of {dice.name} shows {s.counters[dice.base + k]!r}, "
                           "which is none of its faces")
    if len(s.boards) != len(a.boards) or any(
            len(cells) != board.size for cells, board in zip(s.boards, a.boards.values())):
        raise _bad("the boards do not have the size these rules give them")
    for (name, board), cells in zip(a.boards.items(), s.boards):
        holds = a.holding.get(name, "any")
        for c, piece in enumerate(cells):
            if not fits(piece, holds, rules, np):
                raise _bad(f"cell {board.names[c]} of board {name} holds {piece!r}, which "
                           "the board cannot hold")
    if len(s.zones) != a.nzones:
        raise _bad(f"it has {len(s.zones)} zones, these rules have {a.nzones}")
    for zone in a.zones.values():
        count = a.kinds[zone.kind].count
        for k in range(a.max_players if zone.per_player else 1):
            if any(c >= count for c in s.zones[zone.base + k]):
                raise _bad(f"zone {zone.name} holds something that is not one of its "
                           "components")


def _check_stack(rules: Rules, s: SavedState) -> None:
    """Each frame is at a block of the rules with that block's locals; the bottom frame
    plays the game, the others run a rule or the setup; a waiting game's top frame waits
    at the block its pending step resumes."""
    prog = rules.program
    for n, (block, locals_) in enumerate(s.stack):
        if not 0 <= block < len(prog.blocks):
            raise _bad("a frame of the rule stack points at no block of these rules")
        proc = prog.block_procs[block]
        if len(locals_) != prog.nlocals.get(proc, -1):
            raise _bad("a frame of the rule stack does not have the locals of its block")
        allowed = ("play",) if n == 0 else ("rule", "setup")
        if proc[0] not in allowed:
            raise _bad(f"a frame of the rule stack runs the {proc[0]} '{proc[1]}' where the "
                       f"{' or '.join(allowed)} should run")
    if s.pending is not None:
        if not 0 <= s.pending[0] < len(prog.sites):
            raise _bad("the pending decision is at no place of these rules")
        if not s.stack:
            raise _bad("a decision is pending but the rule stack is empty")
        if s.stack[-1][0] != prog.sites[s.pending[0]].resume:
            raise _bad("the rule stack's top frame does not wait at the pending decision")


def _check_end(rules: Rules, save: SavedGame, np: int) -> None:
    s = save.state
    if s.result is not None and not (len(s.result) == np and
                                     all(1 <= r <= np for r in s.result)):
        raise _bad("the result is malformed: one rank from 1 to the number of players per "
                   "player")
    if s.pending is not None and s.result is not None:
        raise _bad("the game is over yet a decision is pending")
    if s.pending is None and s.result is None:
        raise _bad("the game is neither over nor waiting for a decision")
    if save.ended_by == "limit" and s.result is None:
        raise _bad("the game ended at its limit, yet it has no result")


def _check_pending(game: Game) -> None:
    """The pending options fit the place they are offered at: a player of the game (or
    chance at a roll), values of the option's type, labels that can be shown."""
    st = game.st
    assert st.pending is not None
    site_no, who, options = st.pending
    site = game.program.sites[site_no]
    chance = site.kind in ("roll", "die")
    if not options or (who == -1) != chance or not -1 <= who < st.np:
        raise _bad("the pending decision is malformed: who decides, or its options")
    if site.kind == "menu":
        ok = all(type(o) is int and 0 <= o < len(site.menu) for o in options)
    elif site.kind == "any":  # each option is a list: its type is the site's
        ok = all(isinstance(o, list) and fits(o, site.type, game.rules, st.np)
                 for o in options)
    else:
        optional = site.kind == "choose"  # `choose optional` offers none: 'done'
        ok = all(fits(o, site.type, game.rules, st.np) and (o is not None or optional)
                 for o in options)
    if site.kind == "die":
        lst, idx = site.hidden
        locals_ = st.stack[-1][1]
        dice, at = locals_[lst], locals_[idx]
        ok = ok and isinstance(dice, list) and type(at) is int and 0 <= at < len(dice) \
            and fits(dice[at], ("die", _dice_of(game, site.base)), game.rules, st.np)
    if not ok:
        raise _bad("the pending decision's options do not fit its place in the rules")
    try:
        game.options()
    except RulesError:
        raise _bad("the pending decision's options cannot be shown") from None


def _dice_of(game: Game, base: int) -> str:
    return next(d.name for d in game.rules.analysis.dice.values() if d.base == base)
