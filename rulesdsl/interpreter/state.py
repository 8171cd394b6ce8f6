"""The game state: plain data, cheap to copy, saved and loaded as JSON.

Stage: run. The state holds the counters (one flat list of slots), the boards (a list of
cells each), the random generator's state (one integer), the result once the game is
over, the pending decision or chance step, and the position in the rules: a stack of
frames, each a block number and that block's locals. No Python generator or closure holds
any of it, so a state can be copied for search, saved mid-game, resumed, hashed and
compared.

Search copies states constantly, and most steps change few zones of many (Cromlech has 45)
and return to few frames of the stack: a copy shares with its original the zones' lists
and every frame below the top one, and whichever changes a zone first copies that one list
(`own_zone`), and whichever returns to a shared frame first copies that frame
(`own_top`, called by the run loop when a frame is popped). So a copy costs a few list
slices. Every change of a zone goes through `own_zone` (the runtime's `_move`, `_shuffle`
and `_bag`, and the sampler); code that changes frames other than the top one calls
`own_frames` first (the sampler).

The state knows where each component is (`at`: per kind, the zone that holds each of its
components, -1 for none; a component is in one zone at a time, or in none): `move x to Z`
finds x at once instead of looking through every zone of its kind. The index of a kind is
shared with a copy as the zones are, and copied by whichever side moves a component of
that kind first (`own_index`).
"""

from __future__ import annotations

from typing import Any

from ..program.program import BLOCK, LOCALS
from .public import Audience

MASK = (1 << 64) - 1
SEATS = [list(range(n)) for n in range(65)]


def seed_to_rng(seed: int) -> int:
    """The generator's first state from a seed (splitmix64, never zero)."""
    z = ((seed & MASK) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z ^= z >> 31
    return z or 0x2545F4914F6CDD1D


class Generator:
    """The engine's random generator: xorshift64*, its state one integer (`rng`). The
    state of a game is one; a random agent has its own, as cheap to seed."""

    __slots__ = ("rng",)

    def __init__(self, seed: int):
        self.rng = seed_to_rng(seed)

    def rand(self, n: int) -> int:
        """A uniform integer in [0, n): xorshift64* (deterministic on every platform)."""
        x = self.rng
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.rng = x
        return (((x * 0x2545F4914F6CDD1D) & MASK) * n) >> 64


class State(Generator):
    """One position of one game. Every field is plain data (ints, strings, lists)."""

    __slots__ = ("np", "pl", "v", "b", "z", "stack", "pending", "result", "auto", "log",
                 "said", "steps", "replay", "first", "ending", "zown", "shared", "at", "zk", "aown")
    steps: int
    replay: list[str] | None
    first: int | None
    ending: int

    def __init__(self, np: int, v: list, b: list, stack: list, rng: int,
                 z: list | None = None):
        self.np = np                  # number of players
        self.pl = SEATS[np]           # the players, in seat order (shared, never changed)
        self.v = v                    # counters, dice faces; slot 0 is the current player
        self.b = b                    # boards: one list of cells each, None when empty
        self.z = z if z is not None else []   # zones: one list of components each
        # the zones this state may change in place, a bit each (-1: all); the others' lists
        # are shared with a copy (see own_zone)
        self.zown = -1
        self.stack = stack            # frames: [block number, locals]
        # the frames below this index are shared with a copy (see own_top)
        self.shared = 0
        # where the components are (see index_zones): per kind, each component's zone or -1;
        # the kind of each zone (shared, never changed); the kinds whose index this state
        # may change in place, a bit each
        self.at: list[list[int]] = []
        self.zk: list[int] = []
        self.aown = -1
        self.pending: tuple | None = None   # (site, who: a seat or CHANCE, options)
        self.rng = rng
        self.result: list[int] | None = None  # rank per seat once the game is over
        self.auto = True              # roll chance steps at once instead of pausing
        # narration, when asked for: (who is told, None for everyone; the line)
        self.log: list[tuple[Audience, str]] | None = None
        self.said = 0                 # characters of the log's `say` lines (runtime's _say)
        self.steps = 0                # work done since the last decision (see runtime)
        self.replay = None            # the choices an example's 'play "..."' continues with
        # what statistics read, not part of the position (not saved, not in the key): the
        # seat whose turn came first, and the rule that ended the game (its span id; -1: the
        # end of `play`, or not over)
        self.first = None
        self.ending = -1

    def copy(self) -> State:
        new = State.__new__(State)
        new.np = self.np
        new.pl = self.pl
        new.v = self.v[:]
        new.b = list(map(list.copy, self.b)) if self.b else self.b  # none: nothing to copy
        new.z = self.z[:]  # the zones' lists shared, on both sides copied when changed
        self.zown = new.zown = 0
        # the top frame copied (it runs next, on both sides); those below shared, copied by
        # whichever side returns to them first
        stack = self.stack
        new.stack = stack[:]
        if stack:
            top = stack[-1]
            new.stack[-1] = [top[BLOCK], top[LOCALS][:]]
        self.shared = new.shared = len(stack) - 1
        new.at = self.at[:]
        new.zk = self.zk
        self.aown = new.aown = 0
        new.pending = self.pending
        new.rng = self.rng
        new.result = self.result
        new.auto = self.auto
        new.log = None
        new.said = 0
        new.steps = 0
        new.replay = None
        new.first = self.first
        new.ending = self.ending
        return new

    def own_zone(self, n: int) -> list:
        """Zone n's list, to be changed in place: copied first while a copy shares it."""
        if not self.zown >> n & 1:
            self.z[n] = self.z[n][:]
            self.zown |= 1 << n
        return self.z[n]

    def index_zones(self, zone_kinds: list[int], sizes: list[int]) -> None:
        """Work out where every component is from the zones' lists (a new or loaded state):
        `zone_kinds` numbers the kind of each zone, `sizes` the components of each kind.
        ValueError when a zone holds something that is not a component of its kind, or a
        component is in two places."""
        at = [[-1] * n for n in sizes]
        for z, items in enumerate(self.z):
            where = at[zone_kinds[z]]
            for c in items:
                if type(c) is not int or not 0 <= c < len(where):
                    raise ValueError(f"a zone holds {c!r}, which is not one of its "
                                     "components")
                if where[c] != -1:
                    raise ValueError(f"component {c + 1} of a kind is in two places (a "
                                     "component is in one zone at a time)")
                where[c] = z
        self.at, self.zk, self.aown = at, zone_kinds, -1

    def own_index(self, k: int) -> list[int]:
        """The index of kind k, to be changed in place: copied first while a copy shares it."""
        if not self.aown >> k & 1:
            self.at[k] = self.at[k][:]
            self.aown |= 1 << k
        return self.at[k]

    def own_top(self) -> list:
        """The top frame, to be changed in place: copied first while a copy shares it (the
        run loop calls this when it returns to the frame below a popped one)."""
        stack = self.stack
        top = stack[-1]
        if len(stack) <= self.shared:
            top = stack[-1] = [top[BLOCK], top[LOCALS][:]]
            self.shared = len(stack) - 1
        return top

    def swap_stack(self, stack: list) -> list:
        """Put another stack of frames in place (an example runs its own beside the game's);
        returns the one taken out, every frame its own."""
        self.own_frames()
        old, self.stack = self.stack, stack
        return old

    def own_frames(self) -> None:
        """Every frame of the stack to be changed in place (the sampler renames what the
        locals of every frame hold)."""
        if self.shared > 0:
            self.stack[:self.shared] = [[block, locals_[:]]
                                        for block, locals_ in self.stack[:self.shared]]
            self.shared = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.np,
            "counters": self.v,
            "boards": self.b,
            "zones": self.z,
            "stack": self.stack,
            "pending": list(self.pending) if self.pending is not None else None,
            "rng": self.rng,
            "result": self.result,
        }

    def key(self) -> str:
        """A canonical text of the whole position, for hashing and comparing."""
        import json

        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
