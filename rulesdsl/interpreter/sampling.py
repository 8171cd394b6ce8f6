"""The forward model that cannot peek: a whole game consistent with what one seat has seen.

Stage: run. Search (greedy today, MCTS and ISMCTS next) must not look at the real game's
hidden parts. `sample_game(game, seat, rng)` makes up a game that the seat could not tell
from the real one, following the visibility the rule file declares (no per-game code):

1. Secret choices (`choose ... secretly`) of the other seats are re-drawn among the
   options they had, as long as the seat cannot tell: the game is played again from the
   first such choice, with the recorded decisions otherwise, and a replay is kept only if
   it shows the seat the same view and the same lines of the log as the real game.
   Whatever the rules derived from those choices (a secret counter holding a bid, a purse
   spent in secret) follows from the replay; a value the seat could work out from what
   it saw comes out the same, so it is not made up. A choice no re-draw can hide (it has
   been revealed since) keeps its value.
2. Components the seat cannot see (in hidden zones and in other players' `owner` zones)
   are pooled by kind (and by `back`, for a kind with such a field: a component is told
   apart by its back face down) and dealt back at random, each zone keeping its size: a
   deck is reshuffled, hands are dealt anew. A component keeps its own counters wherever it goes.
   What the rules hold by place (a rule's local name, another seat's secret counter, the
   options of another seat's pending decision) names the component now in that place;
   a component the seat sees named (a public counter, its own options) stays where it is.
3. Dice the seat cannot see (a set declared `owner` or `hidden`, not revealed since
   their last roll) are rolled again: another player's dice under a cup are made up.
4. The random generator gets a fresh state: every future roll and shuffle is new.

The sample keeps only the lines of the log the seat was told. It is a game like any
other: copy it and play on. What the sampler cannot know is listed in docs/visibility.md.
"""

from __future__ import annotations

import random
from typing import Any

from ..program.declared import Declared
from ..program.layout import Layout
from ..program.program import BLOCK, CHANCE, LOCALS, OFFERED, SITE, WHO
from ..valuetypes import Type, element
from .game import Game
from .public import told
from .redraw import DEALS, Known, replay_hidden
from .state import State
from .visibility import dice_unseen, on_boards, row_seen, zone_lists, zone_seen


def sample_game(game: Game, seat: int, rng: random.Random, seed: int | None = None,
                known: Known | None = None) -> Game:
    """A game `seat` cannot tell from `game`, its hidden parts made up afresh. With the
    `seed` that `rng` was made from, an error of the rules in it says that it happened in
    a game made up for the seat, with the seed (`Game.origin`). `known`: what an earlier
    call for this seat at this moment of this game worked out (`redraw.Known`)."""
    known = known if known is not None else Known()
    if known.seen is None:
        known.seen = _seen_now(game, seat)
    seen = known.seen

    def deal(start: Game) -> bool:
        # every replay starts from the same game (before the first hidden secret choice):
        # where its hidden components are is worked out once
        if known.start_places is None:
            known.start_places = hidden_places(start, seat, seen)
        return redeal_hidden(start, seat, rng, places=known.start_places)

    world, replayed = replay_hidden(game, seat, rng, deal, known)
    if not replayed:   # `world` is a copy of `game` as it stands
        world = _dealt_now(world, seat, rng, known)
    reroll_hidden_dice(world, seat, rng)
    world.reseed(rng.getrandbits(64))   # also: its record does not replay it
    log = game.st.log
    kept = [k for k, line in enumerate(log or []) if told(line[0], seat)]
    world.st.log = [log[k] for k in kept] if log is not None else None
    # the screen's words for the lines kept (words.py), at their new places
    world._told = {n: game._told[k] for n, k in enumerate(kept) if k in game._told}
    world.st.said = game.st.said
    # who placed the pieces a screen gives to their placers: as the seat saw them placed
    # (a secret decision places for nobody, so a made-up one changes none of them)
    world.placed, world._placer = dict(game.placed), game._placer
    world._disclosed = {}
    if seed is not None:
        world.origin = (seat, seed, len(world.history))
    return world



def _dealt_now(game: Game, seat: int, rng: random.Random, known: Known) -> Game:
    """The game (a copy of the one `known` is of, as it stands) with its hidden
    components dealt anew; if no deal within DEALS leaves another seat's pending decision
    an option, as it is."""
    if known.places is None:
        known.places = hidden_places(game, seat)
    for _ in range(DEALS):
        world = game.copy()
        if redeal_hidden(world, seat, rng, places=known.places):
            return world
    return game


def reroll_hidden_dice(game: Game, seat: int, rng: random.Random) -> None:
    """Roll again, in place, every die whose face the seat cannot see (of a set declared
    `owner` or `hidden`, not revealed since its last roll): each face as likely as its
    die makes it, whatever the real one shows."""
    declared, layout, st = game.program.declared, game.program.layout, game.st
    for name, dice in dice_unseen(declared, layout, st, seat).items():
        faces = declared.dies[declared.dice[name].die].faces
        base = layout.dice[name]
        for d in dice:
            st.v[base + d] = faces[rng.randrange(len(faces))]


# ---- hidden components -----------------------------------------------------------------

Places = dict[tuple[str, Any], list[tuple[int, int]]]


def redeal_hidden(game: Game, seat: int, rng: random.Random,
                  seen: dict[str, set[int]] | None = None, places: Places | None = None
                  ) -> bool:
    """Deal the components `seat` cannot see anew, by kind, among the places they fill;
    those in `seen` (per kind) keep their places: the sampler deals a game as it was some
    decisions ago, and what the seat sees now must come back where it is. Another seat's
    pending decision is then offered what the new deal lets it choose from: False when
    that is nothing (the deal is not a game). `places`: `hidden_places` of this game, or
    of another in the same state."""
    st = game.st
    if places is None:
        places = hidden_places(game, seat, seen)
    sigma: dict[str, dict[int, int]] = {}
    for (kind, _back), where in places.items():
        # sorted first: games that differ only in what the seat cannot see deal the same
        pool = sorted(st.z[i][j] for i, j in where)
        rng.shuffle(pool)
        moved = {}
        for (i, j), new in zip(where, pool):
            held = st.own_zone(i)  # shared with the game the sample was copied from
            if held[j] != new:
                moved[held[j]] = new
            held[j] = new
            st.own_index(st.zk[i])[new] = i  # where each component is (State.at)
        if moved:
            sigma.setdefault(kind, {}).update(moved)
    if sigma:
        _rename(game, seat, sigma)
        return _offer_again(game, seat)
    return True


def hidden_places(game: Game, seat: int, seen: dict[str, set[int]] | None = None) -> Places:
    """Where the components `seat` cannot see are (zone list, position), by kind and
    back: those in zones it does not see, but for those named where it looks, on a board,
    or in `seen`."""
    a, layout, st = game.rules.declared, game.rules.layout, game.st
    pinned = _seen_named(game, seat)
    placed = on_boards(a, layout, st)
    places: dict[tuple[str, Any], list[tuple[int, int]]] = {}
    for zone, owner, i in zone_lists(a, layout, st):
        if zone_seen(zone, owner, seat):
            continue
        keep = pinned.get(zone.kind, set()) | placed.get(zone.kind, set())
        if seen is not None:
            keep = keep | seen.get(zone.kind, set())
        backs = _backs(a, zone.kind)
        for j, c in enumerate(st.z[i]):
            if c not in keep:
                places.setdefault((zone.kind, backs[c] if backs else None), []).append((i, j))
    return places


def _offer_again(game: Game, seat: int) -> bool:
    """Work out the options of another seat's pending decision again (they were worked out
    from the components dealt before); False if none is left."""
    st = game.st
    p = st.pending
    if p is None or p[WHO] == CHANCE or p[WHO] == seat:
        return True
    options = game.program.sites[p[SITE]].options
    if options is None:
        return True   # a menu or the like: renamed already (see _rename)
    try:
        again = options(st, st.stack[-1][LOCALS])
    except Exception:   # a rule's error on these components: not a game to play on
        return False
    st.pending = (p[SITE], p[WHO], again)
    return bool(again)


def _seen_now(game: Game, seat: int) -> dict[str, set[int]]:
    """Per kind, every component `seat` sees now: in a zone it sees, on a board, named
    where it looks."""
    a, layout, st = game.rules.declared, game.rules.layout, game.st
    out = _seen_named(game, seat)
    for kind, placed in on_boards(a, layout, st).items():
        out.setdefault(kind, set()).update(placed)
    for zone, owner, i in zone_lists(a, layout, st):
        if zone_seen(zone, owner, seat) and st.z[i]:
            out.setdefault(zone.kind, set()).update(st.z[i])
    return out


def _backs(a: Declared, kind: str) -> list[Any] | None:
    """The back of each component of a kind with a field `back`: what everyone sees of it
    face down (Druid tiles have purple backs). None for a kind without one."""
    table = a.kinds.get(kind)
    return table.columns.get("back") if table is not None else None


def _seen_named(game: Game, seat: int) -> dict[str, set[int]]:
    """Per kind, the components `seat` sees named: in a counter it sees, or among its own
    options. They keep their places: moving them would change what the seat sees."""
    a, st = game.rules.declared, game.st
    out: dict[str, set[int]] = {}
    for info, j, owner in _component_slots(a, game.rules.layout, st):
        if row_seen(info, owner, seat):
            _collect(st.v[j], info.type, out)
    p = st.pending
    if p is not None and p[WHO] == seat:
        t = game.program.sites[p[SITE]].type
        for value in p[OFFERED]:
            _collect(value, t, out)
    return out


def _rename(game: Game, seat: int, sigma: dict[str, dict[int, int]]) -> None:
    """After a re-deal, what the rules hold by place names the component now there: the
    counters `seat` does not see, the locals of every frame, another seat's options."""
    a, st = game.rules.declared, game.st
    for info, j, owner in _component_slots(a, game.rules.layout, st):
        if not row_seen(info, owner, seat):
            st.v[j] = _renamed(st.v[j], info.type, sigma)
    prog = game.program
    st.own_frames()  # those below the top are shared with the game the sample was copied from
    for fr in st.stack:
        types = prog.frame_types[prog.block_proc[fr[BLOCK]]]
        for slot, t in types.items():
            if slot < len(fr[LOCALS]):
                fr[LOCALS][slot] = _renamed(fr[LOCALS][slot], t, sigma)
    p = st.pending
    if p is not None and p[WHO] != CHANCE and p[WHO] != seat:
        t = prog.sites[p[SITE]].type
        st.pending = (p[SITE], p[WHO], [_renamed(v, t, sigma) for v in p[OFFERED]])


def _component_slots(a: Declared, layout: Layout,
                     st: State) -> list[tuple[Any, int, int | None]]:
    """Every counter slot that holds a component: (counter, slot, owner for a counter per
    player)."""
    out = []
    for info in a.counters.values():
        if _kind_of(info.type) is None:
            continue
        per = info.size // info.dims[0][2] if info.dims and info.dims[0][0] == "player" \
            else 0
        for j in range(info.size):
            owner = j // per if per else None
            if owner is None or owner < st.np:
                out.append((info, layout.counter[info.name] + j, owner))
    return out


def _kind_of(t: Type) -> str | None:
    return t[1] if isinstance(t, tuple) and t[0] == "comp" else None


def _collect(value: Any, t: Type, out: dict[str, set[int]]) -> None:
    kind = _kind_of(t)
    if kind is not None and value is not None:
        out.setdefault(kind, set()).add(value)
    elif isinstance(value, list):
        el = element(t)
        if el is not None:
            for x in value:
                _collect(x, el, out)


def _renamed(value: Any, t: Type, sigma: dict[str, dict[int, int]]) -> Any:
    kind = _kind_of(t)
    if kind is not None:
        return sigma.get(kind, {}).get(value, value)
    if isinstance(value, list) and isinstance(t, tuple) and t[0] == "tuple":
        # a seat's choices held by a secret step: one value per name, each of its type
        return [_renamed(x, xt, sigma) for x, xt in zip(value, t[1])]
    if isinstance(value, list):
        el = element(t)
        if el is not None and _holds_components(el):
            return [_renamed(x, el, sigma) for x in value]
    return value


def _holds_components(t: Type) -> bool:
    if _kind_of(t) is not None:
        return True
    if isinstance(t, tuple) and t[0] == "tuple":
        return any(_holds_components(x) for x in t[1])
    el = element(t) if isinstance(t, tuple) else None
    return el is not None and _holds_components(el)
