"""Per-player views: what one player may see of a game.

Stage: run. Board cells show their pieces as the board's `holding` type says (a player
as "player 1", a component by its name); a board that does not say shows the raw value.
Counters declared `secret` are seen by their own player only (a per-player
secret counter shows the viewer's own entry; a shared secret counter is hidden from
everyone). Boards and dice are public. The pending decision's options are shown to the
player who decides; the others see who is deciding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

HIDDEN = "?"


def view(game: Game, player: int) -> dict[str, Any]:
    a = game.rules.analysis
    layout = game.rules.layout
    st = game.st
    disp = game.program.display
    counters: dict[str, Any] = {}
    for name, info in a.counters.items():
        base = layout.counter[name]
        values = st.v[base:base + info.size]
        if info.dims and info.dims[0][0] == "player":
            per = info.size // info.dims[0][2]
            rows = [values[p * per:(p + 1) * per] for p in range(st.np)]
            shown = [row if (not info.secret or p == player) else [HIDDEN] * len(row)
                     for p, row in enumerate(rows)]
            counters[name] = [row[0] if per == 1 else row for row in shown]
        elif info.secret:
            counters[name] = HIDDEN
        else:
            counters[name] = values[0] if not info.dims else values
    boards = {}
    for name, board in a.boards.items():
        cells = st.b[layout.board[name]]
        holds = a.holding.get(name)
        boards[name] = {board.names[c]: (disp.show(piece, holds) if holds is not None
                                         else piece)
                        for c, piece in enumerate(cells) if piece is not None}
    dice = {name: st.v[layout.dice[name]:layout.dice[name] + d.count]
            for name, d in a.dice.items()}
    zones: dict[str, Any] = {}
    for name, zone in a.zones.items():
        t = ("comp", zone.kind)
        owners = range(st.np) if zone.per_player else [None]
        listed: list[Any] = []
        for owner in owners:
            items = st.z[layout.zone[name] + (owner or 0)]
            seen = zone.visibility == "public" or (
                zone.visibility == "owner" and owner == player)
            listed.append([disp.show(c, t) for c in items] if seen else {"size": len(items)})
        zones[name] = listed if zone.per_player else listed[0]
    out: dict[str, Any] = {
        "game": a.game_name,
        "viewer": player,
        "players": st.np,
        "current": st.v[0],
        "counters": counters,
        "boards": boards,
        "dice": dice,
        "zones": zones,
    }
    decision = game.decision
    if decision is not None:
        out["decision"] = {"player": decision.player}
        if decision.player == player:
            out["decision"]["options"] = [[o.id, o.label] for o in decision.options]
    result = game.result
    if result is not None:
        out["result"] = {"ranking": result.ranking, "scores": result.scores}
    return out
