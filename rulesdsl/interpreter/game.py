"""The Python API: load rules, start a game, read it, apply an option.

Stage: run. `Rules` is a compiled rule file (what it declares: shapes.py); `Game` is one
game of it: a `State` plus the history of chosen option indices (the rules run in
`stepping.py`).

Tools and tests read a game through `Game`'s methods (a counter, a zone, a board's cells,
the state key, the log); only the interpreter reads the `State` itself. A narrated game
keeps a log in which each line names who was told it: the engine narrates every decision
(a secret one to its chooser only) and every chance step it pauses at.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from ..diagnostics import Diagnostic, RulesError, Span
from ..program.program import BLOCK, CHANCE, LOCALS, OFFERED, SITE, WHO, Program, waiting
from ..program.runtime import SUSPEND, RuleRuntimeError
from .forced import forced_sites
from .placing import cells_before, note_placers, placed_view
from .public import Audience, Chance, Decision, Option, Result
from .reading import Line, Reading
from .saves import SAVE_FORMAT, corrupt, fits, read_save
from .shapes import Shapes
from .state import State, seed_to_rng
from .stepping import advance, describe, failure
from .views import view

__all__ = ["SAVE_FORMAT", "Chance", "Decision", "Game", "Option", "Result", "Rules"]


class Rules(Shapes):
    """A checked and compiled rule file (what it declares: `Shapes`)."""

    def __init__(self, program: Program, sources: dict[str, str],
                 settings: dict[str, Any] | None = None, include: tuple[str, ...] = ()):
        self.program = program
        self.declared = program.declared
        self.include = include  # the folders it was loaded with, beyond its own (loader.py)
        # the checker's whole analysis, for the tools above check (see Program.analysis)
        self.analysis: Any = program.analysis
        self.sources = sources
        self.settings = dict(settings or {})
        self.path = program.declared.path
        # the digest names the rules a game was played with: the texts and the settings
        text = "\n".join(f"{k}\n{v}" for k, v in sorted(sources.items()))
        text += "".join(f"\n{k}={v!r}" for k, v in sorted(self.settings.items()))
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        self.layout = program.layout
        self._board_sizes = [b.size for b in self.declared.boards.values()]
        self._zones = self.layout.nzones
        # the kinds components of zones are of, numbered: each zone's, and their sizes (the
        # state's index of where each component is, State.at)
        kinds = self.layout.kinds
        self.zone_kinds = [kinds.index(k) for k in self.layout.zone_kind]
        self.kind_sizes = [self.declared.kinds[k].count for k in kinds]
        self._has_setup = self.declared.proc("setup") is not None
        self._play = (self.program.entries[("play", "play")],
                      self.program.nlocals[("play", "play")])
        # the decisions made `secretly`: the sampler re-draws them for the other seats
        self.secret_sites = frozenset(n for n, site in enumerate(program.sites) if site.secret)
        self.forced_sites = forced_sites(program)  # `pass forced`: see forced.py
        self.limit = self.declared.limit  # decisions before a game ends at its limit
        # the boards whose pieces a screen gives to their placers (placing.py)
        self.placer_boards = [(name, self.layout.board[name])
                              for name in self.declared.display.placers]

    def check_players(self, players: int | None) -> int:
        low, high = self.player_range
        if players is None:
            return low
        if not isinstance(players, int) or not low <= players <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise RulesError([Diagnostic("C002", f"{self.name} is for {want} players, "
                                         f"not {players}")])
        return players

    # ---- games -------------------------------------------------------------------------

    def fresh_state(self, players: int, seed: int) -> State:
        boards = [[None] * n for n in self._board_sizes]
        zones: list[list[int]] | None = [[] for _ in range(self._zones)] if self._zones \
            else None
        st = State(players, self.program.init_counters[:], boards, [], seed_to_rng(seed),
                   zones)
        st.index_zones(self.zone_kinds, self.kind_sizes)
        return st

    def frame(self, kind: str, name: str, args: list | None = None) -> list:
        key = (kind, name)
        locals_ = list(args or [])
        locals_ += [None] * (self.program.nlocals[key] - len(locals_))
        return [self.program.entries[key], locals_]

    def new_game(self, players: int | None = None, seed: int = 0,
                 narrate: bool = False, auto_chance: bool = True,
                 start: bool = True) -> Game:
        """Start a game: run the setup and play until the first decision. A narrated game
        keeps a log; with `auto_chance` off, the game pauses at each chance step. With
        `start` off the game waits before its setup until `Game.start` runs it (a tool
        that draws the game's random numbers itself sets that up first)."""
        if players is None or not self.declared.min_players <= players <= \
                self.declared.max_players:
            players = self.check_players(players)
        st = self.fresh_state(players, seed)
        st.auto = auto_chance
        if narrate:
            st.log = []
        st.stack.append([self._play[0], [None] * self._play[1]])
        if self._has_setup:
            st.stack.append(self.frame("setup", "setup"))
        game = Game(self, st, seed)
        if start:
            game._run()
        return game

    def load_game(self, data: Any) -> Game:
        """A game saved with `Game.to_json`; a corrupt save raises RulesError (G001)."""
        saved = read_save(data, self.program, self.digest, self.check_players)
        try:
            saved.state.index_zones(self.zone_kinds, self.kind_sizes)
        except ValueError as err:  # a component in two zones, or not a component there
            raise corrupt(str(err)) from None
        game = Game(self, saved.state, saved.seed)
        game.history = saved.history
        game.decisions = saved.decisions
        game.ended_by = saved.ended_by
        game._told, game.placed = saved.told, saved.placed
        game._secrets = None  # worked out from the record when the sampler needs them
        if saved.state.pending is not None:
            _check_pending(game)
        return game


def _check_pending(game: Game) -> None:
    """The pending options fit the place they are offered at: a player of the game (or
    chance at a roll), values of the option's type (items of `lo..hi` within it), labels
    that can be shown."""
    st = game.st
    assert st.pending is not None
    prog = game.program
    site_no, who, options = st.pending
    site = prog.sites[site_no]
    chance = site.kind in ("roll", "die")
    if not options or (who == CHANCE) != chance or not (chance or 0 <= who < st.np):
        raise corrupt("the pending decision is malformed: who decides, or its options")
    if site.kind == "menu":
        ok = all(type(o) is int and 0 <= o < len(site.menu) for o in options)
    elif site.kind == "any":  # each option is a list: its type is the site's
        ok = all(isinstance(o, list) and fits(o, site.type, prog, st.np) for o in options)
    else:
        optional = site.kind == "choose"  # `choose optional` offers none: 'done'
        ok = all(fits(o, site.type, prog, st.np) and (o is not None or optional)
                 for o in options)
    bound = prog.frame_ranges[prog.block_proc[st.stack[-1][BLOCK]]].get(site.slot) \
        if site.slot >= 0 else None
    if bound is not None:  # the name chosen is an item of `lo..hi`: its options are too
        ok = ok and all(type(o) is not int or bound[0] <= o <= bound[1] for o in options)
    if site.kind == "die":
        lst, idx = site.hidden
        locals_ = st.stack[-1][LOCALS]
        dice, at = locals_[lst], locals_[idx]
        name = next(n for n, base in prog.layout.dice.items() if base == site.base)
        ok = ok and isinstance(dice, list) and type(at) is int and 0 <= at < len(dice) \
            and fits(dice[at], ("die", name), prog, st.np)
    if not ok:
        raise corrupt("the pending decision's options do not fit its place in the rules")
    try:
        game.options()
    except RulesError:
        raise corrupt("the pending decision's options cannot be shown") from None


# a secret decision as the sampler needs it: its place in the history, who made it, the
# state just before it, and how long the log was then (-1 when the game was not narrated)
SecretStep = tuple[int, int, State, int]


class Game(Reading):
    """One game of some rules: its state and the options chosen so far."""

    # a game is copied for every simulation a search runs: slots make it smaller, quicker
    # to make and quicker to read
    __slots__ = ("rules", "program", "st", "seed", "_past", "_recent", "over", "_secrets",
                 "_replayable", "_disclosed", "_rolled", "decisions", "limit", "ended_by",
                 "origin", "_told", "placed", "_placer")

    def __init__(self, rules: Rules, st: State, seed: int):
        self.rules = rules
        self.program = rules.program
        self.st = st  # the interpreter's: everything else reads the game's methods
        self.seed = seed
        # the options chosen (see `history`): copies share what was chosen before they were
        # made, as a chain of tuples (`_past`: the chain before, a tuple, the length up to
        # its end), and each adds its own choices to `_recent`
        self._past: tuple | None = None
        self._recent: list[int] = []
        self.over = st.result is not None  # kept up to date after every step
        # every secret decision so far (None: not known, see `sampling.secret_steps`);
        # `replayable`: the seed and the history reproduce this game (not so for a game
        # the sampler made up)
        self._secrets: tuple[SecretStep, ...] | None = ()
        self._replayable = True
        self._disclosed: dict[int, frozenset[int]] = {}  # the sampler's: see sampling.py
        # chance steps rolled since the last decision: (length of the history, how many)
        self._rolled = (0, 0)
        self.decisions = 0              # decisions taken (chance outcomes not counted)
        self.limit = rules.limit        # the game ends at this many decisions
        self.ended_by = "rules"         # or "limit", once it has ended there
        # a game the sampler made up: (the seat, the sample seed, the length of the history
        # when it was made), so that an error in it says so (see `made_up`)
        self.origin: tuple[int, int, int] | None = None
        # the log's decisions as a screen tells them (see words.py), by line of the log
        self._told: dict[int, str] = {}
        # who placed the pieces of the boards the display gives to their placers, by
        # (board, cell), in a narrated game (placing.py)
        self.placed: dict[tuple[str, int], int] = {}
        self._placer: int | None = None  # of the last decision: a chance step goes on with it

    @property
    def history(self) -> list[int]:
        """The index of every option chosen so far, in order (the chance steps the game
        rolled itself are not in it: the seed rolls them again)."""
        past = self._past
        if past is not None:  # the chain shared with copies, made one list of this game's
            chunks = []
            while past is not None:
                chunks.append(past[1])
                past = past[0]
            steps = [i for chunk in reversed(chunks) for i in chunk]
            steps += self._recent
            self._past, self._recent = None, steps
        return self._recent

    @history.setter
    def history(self, steps: list[int]) -> None:
        self._past, self._recent = None, steps

    def _steps(self) -> int:
        """The length of the history (without making it one list)."""
        return (self._past[2] if self._past is not None else 0) + len(self._recent)

    def start(self) -> None:
        """Run the setup and play until the first decision, of a game made with
        `Rules.new_game(..., start=False)`."""
        if self.st.pending is not None or self.over or self.decisions:
            raise RulesError([Diagnostic("G002", "the game has already started")])
        self._run()

    def _run(self) -> None:
        try:
            advance(self.program, self.st)
        except RuleRuntimeError as err:
            raise RulesError([err.diagnostic], self.rules.sources) from None
        self.over = self.st.result is not None

    # ---- reading -----------------------------------------------------------------------

    def options(self) -> list[Option]:
        """The options of the pending step, decision or chance: ids and labels. A label
        that fails (a division by zero, say) is an R003 diagnostic at the choice."""
        p = self.st.pending
        assert p is not None
        site = self.program.sites[p[SITE]]
        return self._guard(lambda: [Option(oid, self._label(i))
                                    for i, oid in enumerate(self.option_ids())], site.span)

    def option_ids(self) -> list[str]:
        """The ids of the pending step's options, in order: `options()` without the labels
        (for search, which tells options apart by id many times a second)."""
        p = self.st.pending
        assert p is not None
        site = self.program.sites[p[SITE]]
        disp = self.program.display
        out: list[str] = []
        for value in p[OFFERED]:
            if site.kind == "menu":
                oid = site.menu[value][0]
            elif value is None and site.kind == "choose":
                # 'done' comes last; a real option may be called 'done'
                oid = "done-choosing" if "done" in out else "done"
            else:
                oid = disp.option_id(value, site.type)
            out.append(oid)
        return out

    def _guard(self, call: Callable[[], Any], span: Span | None) -> Any:
        """Generated code run outside a run of the rules (a label, a rank key): an error
        in it is a diagnostic (R003 at `span` for a Python error), never a traceback."""
        try:
            return call()
        except RuleRuntimeError as err:
            raise RulesError([err.diagnostic], self.rules.sources) from None
        except Exception as exc:  # a Python error inside generated code: a rule bug
            raise RulesError([Diagnostic("R003", f"the rules failed here: {describe(exc)}",
                                         span)], self.rules.sources) from None

    def _label(self, i: int) -> str:
        """The label of option i of the pending step."""
        p = self.st.pending
        assert p is not None
        site = self.program.sites[p[SITE]]
        value = p[OFFERED][i]
        locals_ = self.st.stack[-1][LOCALS]
        if site.kind == "menu":
            label = site.menu[value][1]
            return label(self.st, locals_, value) if callable(label) else label
        if value is None and site.kind == "choose":
            return site.done_label(self.st, locals_, None) if site.done_label else "done"
        if site.label is not None:
            return site.label(self.st, locals_, value)
        disp = self.program.display
        if site.kind in ("roll", "die"):
            return f"rolled {disp.show(value, site.type)}"
        return disp.show(value, site.type)

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over or chance is next."""
        p = self.st.pending
        if p is None or self.st.result is not None or p[WHO] == CHANCE:
            return None
        site = self.program.sites[p[SITE]]
        offered_by = self.st.stack[-1][LOCALS][site.offered_by] if site.offered_by >= 0 else None
        return Decision(p[WHO], self.options(), self.prompt() or "",
                        p[SITE] in self.rules.secret_sites,
                        waiting(self.program.together, self.st.stack), offered_by)

    def prompt(self) -> str | None:
        """The rule line that asks the pending decision, or None when nobody decides."""
        p = self.st.pending
        if p is None or self.st.result is not None or p[WHO] == CHANCE:
            return None
        return self.program.sites[p[SITE]].prompt

    @property
    def chance(self) -> Chance | None:
        if not self.is_chance:
            return None
        opts = self.options()
        return Chance([(o, 1 / len(opts)) for o in opts])

    @property
    def result(self) -> Result | None:
        r = self.st.result
        if r is None:
            return None
        score = self.rules.declared.counters.get("score")
        scores = None
        size = self.rules.declared.team_size
        if size:
            scores = self.program.score(self.st) if self.program.score is not None else None
            return Result(list(r), scores, self.ended_by, self.rules.teams(self.st.np),
                          self.why_ended)
        if score is not None and [d[0] for d in score.dims] == ["player"]:
            base = self.rules.layout.counter["score"]
            scores = self.st.v[base:base + self.st.np]
        elif self.program.score is not None:
            scores = self._score()
        return Result(list(r), scores, self.ended_by, why=self.why_ended)

    def _score(self) -> list[int]:
        """Each player's first rank key (`rank p by ...`); a key that fails is R003."""
        return self._guard(lambda: self.program.score(self.st), self.rules.declared.rank_span)

    def statistics(self) -> dict[str, Any]:
        """The statistics the rule file declares (`stat ...`), by name: a number or
        true/false, or a list of them by seat for a statistic kept per player. Those
        measured at the end (`stat n = ...`) are worked out from the game as it stands."""
        read = self.program.statistics
        if read is None:
            return {}
        return self._guard(lambda: read(self.st), None)

    def heuristic(self) -> list[int] | None:
        """Each seat's number from the rules' `heuristic` line (higher: better placed), or
        None when the rules declare none. Bots read it to cut their look-ahead short; it
        reads the whole state, so a bot calls it on games it made up, never the real one."""
        return self._per_seat(self.program.heuristic)

    def payoffs(self) -> list[int] | None:
        """What each seat is paid, from the rules' `payoff` line, once the game is over;
        None when the rules declare none or the game goes on. A payoff outside the line's
        bounds, or payoffs said to be zero-sum that do not add up to 0, are R011."""
        decl = self.rules.declared.payoff
        if decl is None or self.st.result is None:
            return None
        paid = self._per_seat(self.program.payoff)
        assert paid is not None
        low, high = decl.low, decl.high
        wrong = None
        if low is not None and high is not None and not all(low <= x <= high for x in paid):
            wrong = f"the payoffs {paid} are not all within {low} to {high}"
        elif decl.zero_sum and sum(paid) != 0:
            wrong = f"the payoffs {paid} add up to {sum(paid)}, not 0 (said to be zero sum)"
        if wrong is not None:
            raise RulesError([Diagnostic("R011", wrong, decl.span)], self.rules.sources)
        return paid

    def _per_seat(self, fn: Callable[[State], list[int]] | None) -> list[int] | None:
        """Each seat's number from a `heuristic` or `payoff` line's function."""
        if fn is None:
            return None
        st = self.st
        steps, st.steps = st.steps, 0
        try:
            try:
                return fn(st)
            except RuleRuntimeError:
                raise
            except Exception as exc:
                raise failure(self.program, [], exc) from None
        except RuleRuntimeError as err:
            raise RulesError([err.diagnostic], self.rules.sources) from None
        finally:
            st.steps = steps

    def standing(self) -> list[float] | None:
        """Each seat's standing as a game stands (higher: better placed): the rules'
        `heuristic`, else the scores (the `score` counter, or the first key of `rank`),
        else None. Like `heuristic`, for bots' made-up games, never the real one."""
        h = self.heuristic()
        if h is not None:
            return [float(x) for x in h]
        score = self.rules.declared.counters.get("score")
        if score is not None and [d[0] for d in score.dims] == ["player"]:
            base = self.rules.layout.counter["score"]
            return [float(x) for x in self.st.v[base:base + self.st.np]]
        if self.program.score is not None and not self.rules.declared.team_size:
            return [float(x) for x in self._score()]
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see of the game (see `views.py`); None: an onlooker."""
        decision = self.decision
        words = self.rules.words
        asked = words.prompt(self.st.pending[SITE], decision.secret) \
            if decision is not None and self.st.pending is not None else ""
        return view(self.st, self.rules.declared, self.rules.layout, self.program.display,
                    seat, decision, self.result,
                    [line.text for line in self.screen_lines() if line.told(seat)],
                    words, asked, placed_view(self.placed, self.program.display.boards))

    def screen_lines(self, since: int = 0) -> list[Line]:
        """The log from line `since` on as a screen tells it (see words.py): each decision
        in the third person, components and cells by the names the display gives them."""
        words = self.rules.words
        out = []
        for k, (to, text) in enumerate((self.st.log or [])[since:], start=since):
            told = self._told.get(k)
            if told != "":  # a decision the rules' own narration tells
                out.append(Line(told if told is not None else words.say(text), to))
        return out

    # ---- acting ------------------------------------------------------------------------

    @property
    def auto_chance(self) -> bool:
        """Whether chance steps are rolled at once (True) or wait as steps of their own."""
        return self.st.auto

    @auto_chance.setter
    def auto_chance(self, value: bool) -> None:
        self.st.auto = value

    def apply_index(self, i: int) -> None:
        """Apply option i (from 0) of the pending decision or chance step."""
        st = self.st
        p = st.pending
        if p is None or type(i) is not int or not 0 <= i < len(p[OFFERED]):
            raise self._bad_index(i)
        site, who, options = p
        prog = self.program
        if site in self.rules.secret_sites and self._secrets is not None:
            self._secrets += ((self._steps(), who, st.copy(),
                               len(st.log) if st.log is not None else -1),)
        before = None
        if st.log is not None:
            self._narrate(p, i)
            if self.rules.placer_boards:
                before = cells_before(st, self.rules.placer_boards)
        fr = st.stack[-1]
        slot = prog.slots[site]
        if slot >= 0:
            fr[LOCALS][slot] = options[i]
        else:  # a die of a set: its face is a counter (hidden again, if it was revealed)
            at = prog.sites[site]
            die = fr[LOCALS][at.hidden[0]][fr[LOCALS][at.hidden[1]]]
            st.v[at.base + die] = options[i]
            if at.shown >= 0:
                st.v[at.shown + die] = 0
        st.pending = None
        self._recent.append(i)
        if who != CHANCE:  # a decision; the step budget counts on over chance outcomes
            st.steps = 0
            self.decisions += 1
        # most often the block that takes the choice runs to the next decision: call it
        # here, and enter the run loop only when it returns anything else
        try:
            try:
                r = prog.blocks[fr[BLOCK]](st, fr)
            except RuleRuntimeError:
                raise
            except Exception as exc:
                raise failure(prog, fr, exc) from None
            if r != SUSPEND and advance(prog, st, r) is None and st.result is None:
                raise RuleRuntimeError("R003", "the rules stopped without ending the game "
                                       "or asking for a decision", None)
        except RuleRuntimeError as err:
            raise self.made_up(RulesError([err.diagnostic], self.rules.sources)) from None
        if before is not None:
            if who != CHANCE:
                self._placer = None if site in self.rules.secret_sites else who
            note_placers(self.placed, self.rules.placer_boards, before, st, self._placer)
        self.over = st.result is not None
        if self.decisions >= self.limit and not self.over:
            self._stop_at_limit()

    def made_up(self, err: RulesError) -> RulesError:
        """An error of the rules in this game, told where it happened when the game is one
        the sampler made up for a seat: the seat, the sample seed and the steps taken in
        it since (with the last, which failed), enough to make it again."""
        if self.origin is not None and err.made_up is None:
            seat, seed, base = self.origin
            err.made_up = {"seat": seat, "seed": seed, "steps": self.history[base:],
                           "auto_chance": self.st.auto}
        return err

    def play_by_number(self, choose: Sequence[Callable[[int], int]],
                       decisions: int = -1) -> None:
        """Play to the end, or for `decisions` decisions if that is not negative, seat p's
        decisions taken by `choose[p](number of options)` (agents that decide from the
        number alone: `simulate`'s random agents, the search's random rollouts): the steps
        `apply_index` takes, decision by decision, without a call of it for each (3 to 9
        percent of a small game's time: docs/performance.md). A step it does not take
        alone (a chance step waiting to be rolled, a die of a set, a narrated game) goes
        through `apply_index`. Secret decisions are not kept for the sampler (`_secrets`
        None: worked out from the history when it needs them)."""
        st = self.st
        prog = self.program
        blocks, slots = prog.blocks, prog.slots
        if self.rules.secret_sites:
            self._secrets = None
        limit = self.limit
        stop = self.decisions + decisions if decisions >= 0 else -1
        fr = None  # the frame whose block runs; None while an agent chooses
        try:
            while not self.over and self.decisions != stop:
                fr = None
                site, who, options = st.pending  # type: ignore[misc]
                slot = slots[site]
                if who == CHANCE or slot < 0 or st.log is not None:
                    if who == CHANCE:
                        self.roll_chance()
                    else:
                        self.apply_index(choose[who](len(options)))
                    continue
                i = choose[who](len(options))
                if type(i) is not int or not 0 <= i < len(options):
                    raise self._bad_index(i)
                fr = st.stack[-1]
                fr[LOCALS][slot] = options[i]
                st.pending = None
                self._recent.append(i)
                st.steps = 0
                self.decisions += 1
                r = blocks[fr[BLOCK]](st, fr)
                if r != SUSPEND and advance(prog, st, r) is None and st.result is None:
                    raise RuleRuntimeError("R003", "the rules stopped without ending the "
                                           "game or asking for a decision", None)
                if st.result is not None:
                    self.over = True
                elif self.decisions >= limit:
                    self._stop_at_limit()
        except RuleRuntimeError as err:
            raise self.made_up(RulesError([err.diagnostic], self.rules.sources)) from None
        except Exception as exc:
            if fr is None:  # an agent's own error, or a step apply_index reported
                raise
            raise self.made_up(RulesError([failure(prog, fr, exc).diagnostic],
                                          self.rules.sources)) from None

    def _stop_at_limit(self) -> None:
        """The game reached its limit of decisions without ending: every player shares
        first place, and the result says the limit ended it."""
        st = self.st
        st.pending = None
        st.result = [1] * st.np
        self.ended_by = "limit"
        self.over = True
        if st.log is not None:
            st.log.append((None, f"the game reached its limit of {self.limit:,} decisions "
                                 "without ending: nobody wins"))

    def reseed(self, seed: int) -> None:
        """Draw every roll and shuffle from here on from a fresh generator seeded with
        `seed` (for search and tests). The seed and history no longer replay the game."""
        self.st.rng = seed_to_rng(seed)
        self._secrets = None
        self._replayable = False

    def _narrate(self, p: tuple, i: int) -> None:
        """The engine's own lines for a step: a chance outcome and a decision are told to
        everyone, a secret decision to its chooser (the others learn only that it was
        made)."""
        log = self.st.log
        assert log is not None
        label = self._guard(lambda: self._label(i), self.program.sites[p[SITE]].span)
        who = p[WHO]
        if who != CHANCE:
            self._told[len(log)] = self.rules.words.told(p[SITE], who, p[OFFERED][i], label)
        if who == CHANCE:
            seen = self._roll_seen_by(p)
            log.append((seen, f"chance: {label}"))
            if seen is not None:  # a die under a cup: the others learn only that it rolled
                unseen = tuple(q for q in range(self.st.np) if q not in seen)
                if unseen:
                    log.append((unseen, "chance: a die rolled in secret"))
        elif p[SITE] not in self.rules.secret_sites:
            log.append((None, f"player {who + 1}: {label}"))
        else:
            log.append(((who,), f"player {who + 1}: {label}"))
            others: Audience = tuple(q for q in range(self.st.np) if q != who)
            if others:
                log.append((others, f"player {who + 1} chooses in secret"))

    def _roll_seen_by(self, p: tuple) -> Audience | None:
        """Who sees the face of the pending chance step: everyone (None), or, for a die of
        a set declared `owner`, its player, and for one declared `hidden`, nobody."""
        site = self.program.sites[p[SITE]]
        if site.kind != "die" or site.shown < 0:
            return None
        name = next(n for n, base in self.program.layout.dice.items() if base == site.base)
        info = self.program.declared.dice[name]
        if info.visibility != "owner":
            return ()
        locals_ = self.st.stack[-1][LOCALS]
        return (locals_[site.hidden[0]][locals_[site.hidden[1]]] // info.per_seat,)

    def roll_chance(self, i: int | None = None) -> None:
        """Take the pending chance step: outcome i, or (without i) the outcome the game's
        own generator draws, as it would have without pausing. It is not recorded: a game
        record is the seed and the decisions, and the seed reproduces the chance outcomes."""
        if i is None and self.is_chance:
            i = self.st.rand(self.num_options())
        self.apply_index(i)  # type: ignore[arg-type]  # None is reported as a bad index
        self._recent.pop()  # apply_index has just put it there
        n = self._steps()
        self._rolled = (n, self._rolled[1] + 1 if self._rolled[0] == n else 1)

    def _bad_index(self, i: object) -> RulesError:
        p = self.st.pending
        if p is None or self.st.result is not None:
            return RulesError([Diagnostic("G002", "the game is over: there is nothing to "
                                          "choose")])
        n = len(p[OFFERED])
        return RulesError([Diagnostic("G002", f"option {i} does not exist: there are {n} "
                                      f"options (0 to {n - 1})")])

    def apply(self, option_id: str) -> None:
        """Apply the option with this id; an unknown id raises RulesError (G002)."""
        if self.st.pending is None or self.over:
            raise RulesError([Diagnostic("G002", "the game is over: there is nothing to "
                                         "choose")])
        options = self.options()
        for i, opt in enumerate(options):
            if opt.id == option_id:
                self.apply_index(i)
                return
        known = ", ".join(o.id for o in options[:20])
        more = " ..." if len(options) > 20 else ""
        raise RulesError([Diagnostic("G002", f"'{option_id}' is not an option here; the "
                                     f"options are: {known}{more}")])

    def copy(self, narrated: bool = False) -> Game:
        """An independent copy. It keeps no log (search copies games by the thousand and
        narration costs), unless `narrated`: then it has a copy of the log and goes on
        narrating."""
        new = Game.__new__(Game)
        new.rules = self.rules
        new.program = self.program
        new.st = self.st.copy()
        new._told = {}
        new.placed = {}
        new._placer = None
        if narrated and self.st.log is not None:
            new.st.log = self.st.log[:]
            new.st.said = self.st.said
            new._told = dict(self._told)
            new.placed = dict(self.placed)
            new._placer = self._placer
        new.seed = self.seed
        recent = self._recent
        if recent:  # what this game chose since it was last copied: shared from now on
            self._past = (self._past, tuple(recent), self._steps())
            self._recent = []
        new._past = self._past
        new._recent = []
        new.over = self.over
        new._secrets = self._secrets
        new._replayable = self._replayable
        new._disclosed = self._disclosed
        new._rolled = self._rolled
        new.decisions = self.decisions
        new.limit = self.limit
        new.ended_by = self.ended_by
        new.origin = self.origin
        return new

    # ---- saving ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The game as plain data: `Rules.load_game` resumes it. A narrated game's log goes
        with it, each line with who was told it."""
        out = {
            "format": SAVE_FORMAT,
            "game": self.rules.name,
            "rules": self.rules.digest,
            "seed": self.seed,
            "history": self.history,
            "decisions": self.decisions,
            "state": self.st.to_json(),
        }
        if self.ended_by != "rules":
            out["ended_by"] = self.ended_by
        if self.st.log is not None:
            out["log"] = [[list(to) if to is not None else None, text]
                          for to, text in self.st.log]
            out["told"] = [[k, text] for k, text in sorted(self._told.items())]
            out["placed"] = [[board, cell, seat]
                             for (board, cell), seat in sorted(self.placed.items())]
        return out
