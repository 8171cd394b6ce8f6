"""Drawing the other seats' secret choices afresh, as far as one seat cannot tell.

Stage: run (the sampler's first step, see `sampling.py`). A secret choice (`choose ...
secretly`) is known to its chooser only; what the rules derive from it (a secret counter
holding a bid, a purse spent in secret) follows it. To make up a game for a seat, the
other seats' secret choices are drawn afresh: the game is played again from the first of
them, the recorded decisions taken otherwise, and a replay is kept only if it tells the
seat the same lines and shows it the same view as the real game. A choice that no other
option can replace unnoticed has been revealed: it keeps its value from then on.

The replay starts from the game as it was before that first choice, its hidden
components dealt anew there (`deal`): so every choice drawn afresh is drawn among the
options it has in the made-up game, and every later one among those left by the earlier
ones. A choice with one option is not revealed by that alone (in a game dealt anew it
may have others, as the last card of a hand): it counts as revealed once a later choice
of the same seat is.

A simultaneous secret step (`each p in players chooses in secret`) holds every seat's
choices in the engine until all are in; they are secret decisions like any other here
(the seat's own stay as they are, the others' are drawn afresh).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..program.program import OFFERED
from .game import Game, SecretStep
from .public import told

SEARCH_BUDGET = 128  # replays tried to draw the hidden secret choices afresh
TEST_BUDGET = 32     # replays tried per other option of a secret choice, to find it hidden


def secret_steps(game: Game) -> tuple[SecretStep, ...]:
    """The game's secret decisions. A loaded game has them worked out by playing its record
    (seed and decisions) again; a made-up game has none that can be re-drawn."""
    if game._secrets is None:
        game._secrets = ()
        if game._replayable:
            again = _play_record(game)
            if again is not None:
                game._secrets = again._secrets
    assert game._secrets is not None
    return game._secrets


def _play_record(game: Game) -> Game | None:
    """The game again from its seed and decisions, or None if that does not reproduce it."""
    again = game.rules.new_game(players=game.players, seed=game.seed,
                                auto_chance=game.auto_chance)
    for i in game.history:
        while again.is_chance:
            again.roll_chance()
        if again.over or i >= again.num_options():
            return None
        again.apply_index(i)
    if not _roll_as_since(again, game):
        return None
    return again if again.state_key() == game.state_key() else None


# deals a replay's hidden components anew, in place: False if that deal is no game (another
# seat's pending decision is left without an option)
Deal = Callable[[Game], bool]
DEALS = 8   # deals tried before a replay is looked for without one


def redraw_secret_choices(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of `game` in which the other seats' secret choices that `seat` cannot tell
    apart are drawn afresh among the options each had (the hidden components as they
    are: see `replay_hidden`)."""
    return replay_hidden(game, seat, rng)[0]


class Known:
    """What the sampler works out of one game at one moment for one seat that does not
    depend on the draws: the seat's view without its log, the other seats' secret choices
    still hidden from it, the lines it was told since one of them, and (`sampling.py`)
    the components it sees and where those it does not see are (now, and where a replay
    of the secret choices starts). An `Observation` keeps one, so the games it makes up
    for a search (one a simulation, for ISMCTS) work these out once; a game that moves
    on needs a new one."""

    __slots__ = ("view", "hidden", "lines", "seen", "places", "start_places")

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.hidden: list[int] | None = None
        self.lines: dict[int, list[str]] = {}
        self.seen: dict[str, set[int]] | None = None
        self.places: dict[tuple[str, Any], list[tuple[int, int]]] | None = None
        self.start_places: dict[tuple[str, Any], list[tuple[int, int]]] | None = None

    def view_of(self, game: Game, seat: int) -> dict[str, Any]:
        if self.view is None:
            self.view = _without_log(game.view(seat))
        return self.view


def replay_hidden(game: Game, seat: int, rng: random.Random,
                  deal: Deal | None = None, known: Known | None = None) -> tuple[Game, bool]:
    """A copy of `game` in which the other seats' secret choices that `seat` cannot tell
    apart are drawn afresh, and whether it was played again from before the first of
    them (with `deal`, its hidden components dealt anew there).

    A secret choice counts as revealed to the seat once no other option in its place
    (the later secret choices drawn afresh around it) leaves the seat told and shown
    what the real game told and showed it, or once a later choice of the same seat is:
    it keeps its value from then on. The others are drawn afresh together: the game is
    played again from the first of them, and a replay is kept only if it tells the seat
    the same lines and shows it the same view. When no replay with the components dealt
    anew fits (within a budget), one with them as they are is looked for; when none
    fits either, the game is copied as it is."""
    known = known if known is not None else Known()
    steps = secret_steps(game)
    if known.hidden is None:
        known.hidden = _hidden_choices(game, steps, seat, known)
    hidden = known.hidden
    if not hidden:
        return game.copy(), False
    seen = known.view_of(game, seat)
    redraw = {steps[k][0] for k in hidden}
    lines = known.lines.get(hidden[0])
    if lines is None:
        lines = known.lines[hidden[0]] = _lines_since(game, steps, hidden[0], seat)
    for dealer in ([deal, None] if deal is not None else [None]):
        search = _Search(game, steps, hidden[0], seat, rng, redraw, seen, dealer, lines)
        world = search.run() if search.start is not None else None
        if world is not None:
            return world, True
    return game.copy(), False


def _hidden_choices(game: Game, steps: tuple[SecretStep, ...], seat: int,
                    known: Known) -> list[int]:
    """The other seats' secret choices (their numbers among `steps`) not revealed to the
    seat. What was found revealed is kept with the game (`_disclosed`): a choice once
    revealed stays so as the game goes on."""
    revealed = game._disclosed.get(seat, frozenset())
    hidden = [k for k, step in enumerate(steps) if step[1] != seat and k not in revealed]
    if not hidden:
        return []
    seen = known.view_of(game, seat)
    single = set()
    for k in list(hidden):
        pending = steps[k][2].pending
        assert pending is not None
        if len(pending[OFFERED]) == 1:
            single.add(k)
        # a generator of its own: whether the seat can tell is the same for every sample,
        # and a sample's draws do not depend on what was found before
        elif not _stays_hidden(game, steps, k, seat, random.Random(k), hidden, seen):
            revealed |= {k}
            hidden.remove(k)
    # a choice with one option is revealed with the next revealed choice of its seat
    last = {steps[k][1]: k for k in sorted(revealed)}
    settled = {k for k in single if k < last.get(steps[k][1], -1)}
    revealed |= settled
    hidden = [k for k in hidden if k not in settled]
    game._disclosed = {**game._disclosed, seat: revealed}  # copies share the old dict
    return hidden


def _stays_hidden(game: Game, steps: tuple[SecretStep, ...], k: int, seat: int,
                  rng: random.Random, hidden: list[int], seen: dict[str, Any]) -> bool:
    """Whether another option of the k-th secret choice, the later hidden ones drawn
    afresh, leaves the seat told and shown what the real game told and showed it."""
    later = {steps[j][0] for j in hidden if j > k}
    pending = steps[k][2].pending
    assert pending is not None
    chosen = game.history[steps[k][0]]
    options = [i for i in range(len(pending[OFFERED])) if i != chosen]
    rng.shuffle(options)
    search = _Search(game, steps, k, seat, rng, later, seen)
    return any(search.run(first=i, budget=TEST_BUDGET) is not None for i in options)


class _Search:
    """Replays of a game from just before its k-th secret decision, the decisions at the
    places in `redraw` drawn afresh, the others as recorded; a replay is cut as soon as
    the seat is told a line the real game did not tell it at that point."""

    def __init__(self, game: Game, steps: tuple[SecretStep, ...], k: int, seat: int,
                 rng: random.Random, redraw: set[int], seen: dict[str, Any],
                 deal: Deal | None = None, lines: list[str] | None = None):
        self.game, self.seat, self.rng, self.redraw = game, seat, rng, redraw
        self.at = steps[k][0]
        self.lines = lines if lines is not None else _lines_since(game, steps, k, seat)
        self.seen = seen   # the seat's view of the real game, without its log
        self.start: Game | None = None
        for _ in range(DEALS if deal is not None else 1):
            start = Game(game.rules, steps[k][2].copy(), game.seed)
            start.history = game.history[:self.at]
            start.st.log = []
            start._secrets = steps[:k]
            if deal is None or deal(start):
                self.start = start
                break

    def run(self, first: int | None = None, budget: int = SEARCH_BUDGET) -> Game | None:
        """The first replay found (within `budget` replays) that the seat cannot tell
        from the real game; with `first`, the k-th secret choice takes that option. A
        replay cut short starts again from a choice point of its path drawn at random,
        with another option there: an early choice as likely as a late one to be the
        culprit."""
        # the choice points of the current path: the game just before each, its place
        path: list[tuple[Game, int, int]] = []
        assert self.start is not None
        world, pos, take = self.start.copy(narrated=True), self.at, first
        for _ in range(budget):
            found = self._descend(world, pos, take, path)
            if found is not None:
                return found
            if not path:
                return None
            j = self.rng.randrange(len(path))
            before, pos, n = path[j]
            del path[j:]
            world = before.copy(narrated=True)
            take = self.rng.randrange(n)
            path.append((before, pos, n))
        return None

    def _descend(self, world: Game, pos: int, take: int | None,
                 path: list[tuple[Game, int, int]]) -> Game | None:
        """Play on from decision `pos` (taking option `take` there, if given) to the
        present, noting each choice point drawn afresh on `path`; the game reached if it
        matches what the seat saw, else None."""
        history = self.game.history
        checked = heard = 0
        while True:
            checked, heard = self._heard(world, checked, heard)
            if checked < 0:
                return None
            if pos == len(history):
                break
            while world.is_chance:
                world.roll_chance()
            if world.over:
                return None
            n = world.num_options()
            if take is not None:
                i, take = take, None
            elif pos in self.redraw:
                path.append((world.copy(narrated=True), pos, n))
                i = self.rng.randrange(n)
            else:
                i = history[pos]
            if i >= n:
                return None
            world.apply_index(i)
            pos += 1
        if not _roll_as_since(world, self.game) or world.log_for(self.seat) != self.lines \
                or _without_log(world.view(self.seat)) != self.seen:
            return None
        return world

    def _heard(self, world: Game, checked: int, heard: int) -> tuple[int, int]:
        """Check the lines told to the seat from line `checked` of the world's log on (the
        seat was told `heard` lines before it) against the real ones: how far the log is
        checked and how many lines the seat was told in it, or (-1, -1) at the first line
        that differs."""
        log = world.st.log
        assert log is not None
        for k in range(checked, len(log)):
            to, text = log[k]
            if told(to, self.seat):
                if heard >= len(self.lines) or self.lines[heard] != text:
                    return -1, -1
                heard += 1
        return len(log), heard


def _roll_as_since(world: Game, game: Game) -> bool:
    """Take the chance steps `game` took since its last decision (a game that pauses at
    chance steps may be a few in); False if `world` does not have them to take."""
    rolled = game._rolled
    for _ in range(rolled[1] if rolled[0] == len(game.history) else 0):
        if not world.is_chance:
            return False
        world.roll_chance()
    return True


def _lines_since(game: Game, steps: tuple[SecretStep, ...], k: int, seat: int) -> list[str]:
    """The lines `seat` was told since just before the k-th secret decision: from the log,
    or, when the game was not narrated then, from its record played again from there."""
    loglen = steps[k][3]
    if loglen >= 0 and game.st.log is not None:
        return game.log_for(seat, since=loglen)
    again = Game(game.rules, steps[k][2].copy(), game.seed)
    again.st.log = []
    for i in game.history[steps[k][0]:]:
        while again.is_chance:
            again.roll_chance()
        again.apply_index(i)
    _roll_as_since(again, game)
    return again.log_for(seat)


def _without_log(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "log"}
