"""What an agent receives: one seat's observation of a game, and nothing else of it.

Stage: run. An agent (a bot, the terminal, later a browser or an adapter) decides for a
seat from an `Observation`: the seat's view, the options it has (ids and labels), the
prompt, the lines of the log it was told, the number of players, and a forward model
that cannot peek, `sample_game`, which makes up a whole game consistent with what the
seat has seen, for search. The real game stays out of reach.

Everything is built when first asked for: a random agent only asks how many options
there are, and simulations play thousands of games a second. `play_out` is the loop that
hands each seat's observation to its agent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..diagnostics import Diagnostic, RulesError
from ..program.program import OFFERED, WHO
from .game import Game
from .public import Decision, Option
from .redraw import Known
from .sampling import sample_game


class Observation:
    """One seat's observation of a game, at one moment (it does not follow the game
    afterwards: ask for a new one after each step)."""

    __slots__ = ("_game", "seat", "num_options", "_options", "_view", "_known")
    _options: list[Option]      # set when first asked for
    _view: dict[str, Any]
    _known: Known

    def __init__(self, game: Game, seat: int, num_options: int | None = None):
        self._game = game
        self.seat = seat
        # how many options the seat has now (0 when it is not the one to decide): the one
        # thing a random agent asks, so it is a plain attribute (`play_out` knows it)
        if num_options is None:
            p = game.st.pending
            num_options = len(p[OFFERED]) if p is not None and p[WHO] == seat else 0
        self.num_options = num_options

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def deciding(self) -> bool:
        """Whether this seat has the pending decision."""
        return self.num_options > 0

    @property
    def options(self) -> list[Option]:
        """The seat's options, in order (choose returns an index into this list); empty
        when it is not the one to decide."""
        try:
            return self._options
        except AttributeError:
            self._options = self._game.options() if self.deciding else []
            return self._options

    @property
    def prompt(self) -> str | None:
        """The rule line that asks the seat's decision (None when it is not deciding)."""
        return self._game.prompt() if self.deciding else None

    @property
    def decision(self) -> Decision | None:
        """The seat's pending decision (options, prompt, whether it is secret, the seats of
        a simultaneous step, who made an offer), or None when it is not deciding."""
        return self._game.decision if self.deciding else None

    @property
    def view(self) -> dict[str, Any]:
        """What the seat may see of the game (see `views.py`)."""
        try:
            return self._view
        except AttributeError:
            self._view = self._game.view(self.seat)
            return self._view

    @property
    def log(self) -> list[str]:
        """The lines of the log the seat was told, oldest first (empty when the game is not
        narrated)."""
        return self._game.log_for(self.seat)

    def sample_game(self, rng: random.Random) -> Game:
        """A whole game consistent with what this seat has seen, to search on: what the
        seat cannot see is made up afresh (see `sampling.py`). It may be copied and played
        on freely; it is not the real game, and the real game's hidden parts do not leak
        into it. It is made from a seed drawn from `rng`: the same seed makes the same game
        again (a record of a failure names it)."""
        seed = rng.getrandbits(63)
        try:
            known = self._known
        except AttributeError:
            known = self._known = Known()   # what every game made up here shares
        return sample_game(self._game, self.seat, random.Random(seed), seed, known)

    def to_json(self) -> dict[str, Any]:
        """The observation as plain data (the view holds the log and, for the seat that
        decides, the options and the prompt)."""
        return {"seat": self.seat, "players": self.players, "view": self.view}


class Chooser(Protocol):
    """An agent, as `play_out` needs it (see `rulesdsl.agents`)."""

    def choose(self, observation: Observation) -> int: ...


def play_out(game: Game, agents: Sequence[Chooser],
             on_step: Callable[[Game], None] | None = None,
             chance: Callable[[int], int] | None = None,
             before: Callable[[Game, int], None] | None = None) -> Game:
    """Play a game to its end, each agent deciding for its seat from the seat's
    observation. Chance steps, if the game pauses at them, are rolled with the game's own
    generator, exactly as they would be rolled without pausing, or, with `chance`, take the
    outcome it gives for a number of outcomes (a record's, for a replay). `before` is called
    with each step's choice before it is taken, `on_step` after.

    An agent that decides from the number of options alone (a random agent) may say so
    with a `choose_index(n)` method: it is called with the number, and no observation is
    made (simulations make millions)."""
    st = game.st
    quick = [getattr(agent, "choose_index", None) for agent in agents]
    if on_step is None and chance is None and before is None and None not in quick:
        # every agent decides from the number of options: the same steps, in a tighter loop
        game.play_by_number([q for q in quick if q is not None])
        return game
    while not game.over:
        p = st.pending
        assert p is not None  # a step is pending until the end
        seat = p[WHO]
        if seat < 0:
            if chance is not None:
                i = chance(len(p[OFFERED]))
                if before:
                    before(game, i)
                game.apply_index(i)
            elif before:
                i = st.rand(len(p[OFFERED]))
                before(game, i)
                game.roll_chance(i)
            else:
                game.roll_chance()
        else:
            by_number = quick[seat]
            i = by_number(len(p[OFFERED])) if by_number is not None else \
                _choice(agents[seat], game, seat, len(p[OFFERED]))
            if before:
                before(game, i)
            game.apply_index(i)
        if on_step:
            on_step(game)
    return game


def _choice(agent: Chooser, game: Game, seat: int, n: int) -> int:
    """The agent's choice. An agent that looks ahead may meet a rule's error in a game it
    made up: then the option that leads there in the game itself is taken, so that the
    error happens in the game and its record reproduces it. When no option does, the error
    happened only in the made-up game: it is told so (R012), with the seat and the sample
    seed, and carries what makes that game again (`RulesError.made_up`)."""
    try:
        return agent.choose(Observation(game, seat, n))
    except RulesError as err:
        if not err.diagnostics[0].code.startswith("R"):
            raise
        for i in range(n):
            trial = game.copy()
            try:
                trial.apply_index(i)
            except RulesError:
                return i
        if err.made_up is None:
            raise
        raise in_made_up_game(err, err.made_up) from None


def in_made_up_game(err: RulesError, made_up: dict[str, Any]) -> RulesError:
    """A rule's error met in a game the sampler made up for a bot, not in the game itself:
    R012, at the rule's place, saying so."""
    d = err.diagnostics[0]
    told = Diagnostic("R012", f"in a game made up for player {made_up['seat'] + 1}'s bot "
                              f"(sample seed {made_up['seed']}), not in the game itself: "
                              f"{d.message} (error[{d.code}])", d.span,
                      notes=[f"after {len(made_up['steps'])} steps of the bot's look-ahead "
                             "in the made-up game"])
    out = RulesError([told], err.sources)
    out.made_up = made_up
    return out
