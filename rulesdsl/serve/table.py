"""A table: one game of one rule file, its seats (people with tokens, or bots) and what
each client is sent.

Stage: serving (above run). The table is plain Python, with no web in it: `app.py` moves
its messages over WebSockets. Everything a client is sent comes from the game's public
read API: the seat's view (`Game.view`, which holds the lines of the log the seat was
told) and, for the seat that decides, its options. A spectator gets the onlooker's view.
The state itself never leaves the server, nor the seed, nor another seat's token.

A move names an option by its id and the turn it was meant for (the number of decisions
taken so far): a move for another turn is stale, a move by a seat that is not deciding is
refused, an id that is not offered is refused. Each refusal is a `Refused` with a message
for people; the game is left as it was.

A simultaneous secret step (`each p in players chooses in secret`) is asked of every seat
in it at once, as at a real table: the engine asks one seat after another, so the table
holds the answer of a seat asked ahead of its place (`held`, never sent to anyone but that
seat) and plays it when the engine comes to it. A seat's options in a secret step cannot
depend on what the seats before it chose, so they are read on a copy of the game where
those seats took their first option; the copy never leaves the server.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import REGISTRY, Agent, make_agent
from ..agents.play import AGENT_SEED_STRIDE
from ..diagnostics import Diagnostic, RulesError
from ..interpreter.forced import Policy, passes
from ..interpreter.game import Game, Rules
from ..interpreter.observation import Observation
from ..interpreter.public import Option
from ..interpreter.records import make_record
from .screen import screen

PERSON = "person"


class Refused(Exception):
    """A message or move the table will not take; its text is sent back to the client."""


def encode(message: dict[str, Any]) -> str:
    """A message as sent: canonical JSON, so equal messages are equal bytes."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Seat:
    """A seat: a person (with a token once taken) or a bot (an agent's name)."""

    player: int
    kind: str                       # PERSON or an agent's name
    name: str = ""
    token: str | None = None        # a person's, once the seat is taken
    agent: Agent | None = field(default=None, repr=False)

    @property
    def taken(self) -> bool:
        return self.kind != PERSON or self.token is not None

    def public(self) -> dict[str, Any]:
        """What everyone at the table may know of the seat."""
        return {"player": self.player + 1, "bot": None if self.kind == PERSON else self.kind,
                "taken": self.taken, "name": self.name}


class Table:
    """One game and its seats. `seats[p]` is "person" or an agent's name for each player."""

    def __init__(self, rules: Rules, file: str, seats: list[str], seed: int | None = None,
                 game: Game | None = None, name: str = "", forced: Policy = "rules"):
        players = rules.check_players(len(seats))
        for kind in seats:
            # a bot by its name only, with its default budget: a table's parameters come
            # from strangers, and `mcts:sims=10000000` would hold a worker for hours
            if kind != PERSON and kind not in REGISTRY.names():
                raise Refused(f"unknown bot {kind!r} (bots: {', '.join(sorted(REGISTRY.names()))})")
        self.rules = rules
        self.file = file
        self.name = " ".join(name.split())[:40]   # what its maker called it, if anything
        self.seed = game.seed if game is not None else \
            secrets.randbelow(2 ** 31) if seed is None else seed
        self.game = game if game is not None else rules.new_game(
            players=players, seed=self.seed, narrate=True, auto_chance=True)
        self.game.narrate()
        self.game.auto_chance = True
        self.seats = [Seat(p, kind, agent=None if kind == PERSON else
                           make_agent(kind, self.seed * AGENT_SEED_STRIDE + p))
                      for p, kind in enumerate(seats)]
        self.screen = screen(rules)
        self.failure: Diagnostic | None = None   # a rule that went wrong stopped the game
        self.stopped: str | None = None          # why the game stopped before its end
        self.held: dict[int, str] = {}           # secret answers given ahead, by seat
        self._ahead: dict[int, tuple[int, list[Option] | None]] = {}   # by seat: turn, options
        # a person's decision with one option: taken for them as the rule file says
        # (`pass forced`), always ("pass") or never ("ask")
        self.forced: Policy = forced
        self._apply(lambda: None)   # the first decision may be one

    # ---- seats -------------------------------------------------------------------------

    def take(self, player: int, name: str = "") -> str:
        """Take an empty seat for a person: returns its token (the only copy)."""
        if not 0 <= player < len(self.seats):
            raise Refused(f"there is no seat {player + 1} at this table")
        seat = self.seats[player]
        if seat.kind != PERSON:
            raise Refused(f"seat {player + 1} is played by a bot")
        if seat.token is not None:
            raise Refused(f"seat {player + 1} is taken")
        seat.token = secrets.token_urlsafe(18)
        seat.name = " ".join(name.split())[:40]
        return seat.token

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; None for no token (a spectator); Refused for a token
        that holds no seat here."""
        if token is None:
            return None
        for seat in self.seats:
            if seat.token is not None and hmac.compare_digest(seat.token.encode(),
                                                              token.encode()):
                return seat.player
        raise Refused("this seat token is not valid at this table")

    # ---- play --------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The number of decisions taken: a move says which turn it is meant for."""
        return len(self.game.history)

    @property
    def over(self) -> bool:
        return self.game.over or self.stopped is not None

    def move(self, player: int | None, option: Any, turn: Any) -> None:
        """A person's move: option `option` at turn `turn`, for seat `player`."""
        game = self.game
        if player is None:
            raise Refused("spectators cannot move")
        if self.over:
            raise Refused("the game is over")
        if type(turn) is not int or turn != self.turn:
            raise Refused(f"that move was for turn {turn}, but this is turn {self.turn}: "
                          "the game has moved on")
        if not isinstance(option, str):
            raise Refused("a move names an option by its id (a string)")
        if game.decider != player:
            self._hold(player, option)
            return
        ids = [o.id for o in game.options()]
        if option not in ids:
            raise Refused(f"{option[:40]!r} is not one of your options")
        self._apply(lambda: game.apply_index(ids.index(option)))

    def ahead(self, player: int | None) -> list[Option] | None:
        """The options of `player` in the secret simultaneous step under way when another
        seat is asked before it (None when it is not waiting in one, or has answered)."""
        decision = self.game.decision
        if player is None or decision is None or self.over or not decision.secret or \
                player == decision.player or player not in decision.simultaneous or \
                player in self.held:
            return None
        turn, options = self._ahead.get(player, (-1, None))
        if turn != self.turn:
            options = self._options_ahead(player, set(decision.simultaneous))
            self._ahead[player] = (self.turn, options)
        return options

    def _options_ahead(self, player: int, step: set[int]) -> list[Option] | None:
        """`player`'s options once the seats asked before it have chosen (each its first
        option: in secret, what they chose cannot change what `player` may choose)."""
        game = self.game.copy()
        try:
            while not game.over and game.decider != player:
                decision = game.decision
                if decision is None or not decision.secret or decision.player not in step:
                    return None
                game.apply_index(0)
        except RulesError:
            return None
        return None if game.over else game.options()

    def _hold(self, player: int, option: str) -> None:
        """Keep a seat's secret answer, given before the engine asks it."""
        options = self.ahead(player)
        if options is None:
            if player in self.held:
                raise Refused("you have chosen already: the choices are revealed when "
                              "everyone has chosen")
            who = self.game.decider
            raise Refused(f"it is not your turn: player {who + 1 if who is not None else '?'}"
                          " decides")
        if option not in [o.id for o in options]:
            raise Refused(f"{option[:40]!r} is not one of your options")
        self.held[player] = option

    def bot_to_move(self) -> bool:
        who = self.game.decider
        return not self.over and who is not None and self.seats[who].agent is not None

    def bot_move(self) -> None:
        """Let the bot whose turn it is decide, from its seat's observation."""
        who = self.game.decider
        assert who is not None
        agent = self.seats[who].agent
        assert agent is not None

        def step() -> None:
            i = agent.choose(Observation(self.game, who))
            self.game.apply_index(i)
        self._apply(step)

    def _apply(self, step: Callable[[], None]) -> None:
        try:
            step()
            self._play_held()
        except RulesError as err:  # a rule went wrong: the game stops, and says why
            self.failure = err.diagnostics[0] if err.diagnostics else \
                Diagnostic("R003", str(err))
            self.stopped = self.failure.message
        except Exception as err:  # a bot that fails stops its own table, not the server
            who = self.game.decider
            self.stopped = f"the bot of player {(who or 0) + 1} failed: {err}"

    def _play_held(self) -> None:
        """Play the answers held for the seats the engine now asks, one after another, and
        a person's forced decision as the table passes them (`forced`). An answer the
        engine no longer offers is dropped: that seat is asked again."""
        game = self.game
        while not game.over and game.decider is not None:
            who = game.decider
            if who in self.held:
                option = self.held.pop(who)
                ids = [o.id for o in game.options()]
                if option in ids:
                    game.apply_index(ids.index(option))
            elif self.seats[who].kind == PERSON and passes(game, self.forced):
                game.apply_index(0)   # narrated as any decision: the log tells what it was
            else:
                break

    # ---- what clients are sent -------------------------------------------------------

    def welcome(self, player: int | None) -> dict[str, Any]:
        """The first message on a connection: the seat and how to draw the game."""
        return {"type": "welcome", "seat": None if player is None else player + 1,
                "game": self.rules.name, "name": self.name, "file": Path(self.file).name,
                "screen": self.screen}

    def update(self, player: int | None) -> dict[str, Any]:
        """What `player` (None: a spectator) is shown now."""
        out = {"type": "view", "turn": self.turn, "view": self.game.view(player),
               "seats": [s.public() for s in self.seats], "over": self.over,
               "error": self.stopped,
               "chosen": sorted(p + 1 for p in self.held)}   # who has answered ahead
        ahead = self.ahead(player)
        if ahead is not None:   # a secret step asks this seat now, ahead of its place
            out["ahead"] = [[o.id, o.label] for o in ahead]
        if player in self.held:   # its own answer only, until the reveal
            options = self._ahead.get(player, (0, None))[1] or []
            out["held"] = next((o.label for o in options if o.id == self.held[player]),
                               self.held[player])
        return out

    def record(self) -> dict[str, Any]:
        """A finished game's record, for `rulesdsl replay` (a game a rule stopped: with
        its error, which the replay shows again)."""
        if not self.over:
            raise Refused("the game is not over yet: its record would tell its secrets")
        agents = [s.kind for s in self.seats]
        return make_record(self.rules, Path(self.file).name, self.game.players, self.seed,
                           self.game.history, agents, error=self.failure).to_json()
