"""The Python API: load rules, start a game, read the decision, apply an option.

Stage: run. `Rules` is a compiled rule file; `Game` is one game of it: a `State` plus the
history of chosen option indices. `advance` runs blocks until the rules pause at a
decision or chance step, or the game ends; every step counts against a budget so a rule
file that loops forever stops with an error naming the rule.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..check.analysis import Analysis
from ..diagnostics import Diagnostic, RulesError, Span
from .compiler import Program
from .runtime import CALL, RET, STEP_BUDGET, SUSPEND, RuleRuntimeError
from .schema import SAVE_FORMAT
from .state import State, seed_to_rng


@dataclass(frozen=True)
class Option:
    """One legal option: a stable id and a readable label."""

    id: str
    label: str


@dataclass(frozen=True)
class Decision:
    """Who decides now, and between what."""

    player: int
    options: list[Option]
    prompt: str


@dataclass(frozen=True)
class Chance:
    """A chance step: its outcomes, each with its probability."""

    outcomes: list[tuple[Option, float]]


@dataclass(frozen=True)
class Result:
    """The end of a game: rank per seat (1 is best, ties share a rank), scores, and how the
    game ended: "rules" (a rule ended it) or "limit" (it reached its limit of decisions
    without ending by itself, and every player shares first place)."""

    ranking: list[int]
    scores: list[int] | None
    ended_by: str = "rules"

    @property
    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.ranking) if r == 1]


def advance(prog: Program, st: State, r: int | None = None) -> int | None:
    """Run the rules until they pause; returns SUSPEND, OVER, REPLAY, or None when the
    stack of frames has emptied. `r`, if given, is what the top frame's block has just
    returned (see `Game.apply_index`)."""
    blocks = prog.blocks
    stack = st.stack
    if not stack:
        return None
    # the count goes on over chance steps: only a decision starts it again
    steps = st.steps if r is not None else 0
    fr = stack[-1]
    try:
        if r is None:
            st.steps = 0
            r = blocks[fr[0]](st, fr)
        while True:
            if r >= 0:
                fr[0] = r
                steps += 1
                if steps > STEP_BUDGET:
                    raise _stuck(prog, r)
            elif r == RET:
                stack.pop()
                if not stack:
                    st.steps = steps
                    return None
                fr = stack[-1]
            elif r == CALL:
                if len(stack) > 200:
                    raise RuleRuntimeError("R001", "rules call each other more than 200 "
                                           "deep: endless recursion?",
                                           prog.spans[prog.block_sid[fr[0]]])
                fr = stack[-1]
            else:
                st.steps = steps
                return r
            r = blocks[fr[0]](st, fr)
    except RuleRuntimeError:
        raise
    except Exception as exc:  # a Python error inside generated code: a rule bug
        raise failure(prog, fr, exc) from None


def failure(prog: Program, fr: list, exc: Exception) -> RuleRuntimeError:
    """A Python error raised by generated code, as a diagnostic at the block's rule."""
    span = prog.spans[prog.block_sid[fr[0]]] if fr else None
    return RuleRuntimeError("R003", f"the rules failed here: {_describe(exc)}", span)


def _stuck(prog: Program, block: int) -> RuleRuntimeError:
    sid = prog.block_sid[block]
    return RuleRuntimeError("R001", f"the rules ran {STEP_BUDGET:,} steps without a decision: "
                            f"an endless loop in '{prog.span_procs[sid]}'?", prog.spans[sid])


def _describe(exc: Exception) -> str:
    if isinstance(exc, TypeError) and "NoneType" in str(exc):
        return "a value is none where a number, player or cell is needed"
    return f"{type(exc).__name__}: {exc}"


class Rules:
    """A checked and compiled rule file."""

    def __init__(self, program: Program, sources: dict[str, str],
                 settings: dict[str, Any] | None = None):
        self.program = program
        self.analysis: Analysis = program.analysis
        self.sources = sources
        self.settings = dict(settings or {})
        self.path = program.analysis.file.path
        # the digest names the rules a game was played with: the texts and the settings
        text = "\n".join(f"{k}\n{v}" for k, v in sorted(sources.items()))
        text += "".join(f"\n{k}={v!r}" for k, v in sorted(self.settings.items()))
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        self._board_sizes = [b.size for b in self.analysis.boards.values()]
        self._zones = self.analysis.nzones
        self._has_setup = self.analysis.proc("setup") is not None
        self._play = (self.program.entries[("play", "play")],
                      self.program.nlocals[("play", "play")])
        self.limit = self.analysis.limit  # decisions before a game ends at its limit

    @property
    def name(self) -> str:
        return self.analysis.game_name

    @property
    def player_range(self) -> tuple[int, int]:
        return self.analysis.min_players, self.analysis.max_players

    def check_players(self, players: int | None) -> int:
        low, high = self.player_range
        if players is None:
            return low
        if not isinstance(players, int) or not low <= players <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise RulesError([Diagnostic("C002", f"{self.name} is for {want} players, "
                                         f"not {players}")])
        return players

    def fresh_state(self, players: int, seed: int) -> State:
        boards = [[None] * n for n in self._board_sizes]
        zones: list[list[int]] | None = [[] for _ in range(self._zones)] if self._zones \
            else None
        return State(players, self.program.init_counters[:], boards, [], seed_to_rng(seed),
                     zones)

    def frame(self, kind: str, name: str, args: list | None = None) -> list:
        key = (kind, name)
        locals_ = list(args or [])
        locals_ += [None] * (self.program.nlocals[key] - len(locals_))
        return [self.program.entries[key], locals_]

    def new_game(self, players: int | None = None, seed: int = 0,
                 narrate: bool = False, auto_chance: bool = True) -> Game:
        """Start a game: run the setup and play until the first decision."""
        if players is None or not self.analysis.min_players <= players <= \
                self.analysis.max_players:
            players = self.check_players(players)
        st = self.fresh_state(players, seed)
        st.auto = auto_chance
        if narrate:
            st.log = []
        st.stack.append([self._play[0], [None] * self._play[1]])
        if self._has_setup:
            st.stack.append(self.frame("setup", "setup"))
        game = Game(self, st, seed)
        game._run()
        return game

    def load_game(self, data: Any) -> Game:
        """A game saved with `Game.to_json`; a corrupt save raises RulesError (G001)."""
        from .saves import load_game

        return load_game(self, data)


class Game:
    """One game of some rules: its state and the options chosen so far."""

    def __init__(self, rules: Rules, st: State, seed: int):
        self.rules = rules
        self.program = rules.program
        self.st = st
        self.seed = seed
        self.history: list[int] = []
        self.over = st.result is not None  # kept up to date after every step
        self.decisions = 0              # decisions taken (chance outcomes not counted)
        self.limit = rules.limit        # the game ends at this many decisions
        self.ended_by = "rules"         # or "limit", once it has ended there

    def _run(self) -> None:
        try:
            advance(self.program, self.st)
        except RuleRuntimeError as err:
            raise RulesError([err.diagnostic], self.rules.sources) from None
        self.over = self.st.result is not None

    # ---- reading -----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.st.np

    @property
    def log(self) -> list[str]:
        return self.st.log if self.st.log is not None else []

    @property
    def is_chance(self) -> bool:
        p = self.st.pending
        return p is not None and p[1] == -1 and self.st.result is None

    def num_options(self) -> int:
        """How many options the pending step has (call it only while the game is on)."""
        return len(self.st.pending[2])  # type: ignore[index]  # the fast path: no check

    def options(self) -> list[Option]:
        """The options of the pending step, decision or chance: ids and labels. A label
        that fails (a division by zero, say) is an R003 diagnostic at the choice."""
        p = self.st.pending
        assert p is not None
        site = self.program.sites[p[0]]
        return self._guard(lambda: self._options(p, site), site.span)

    def _guard(self, call: Callable[[], Any], span: Span | None) -> Any:
        """Generated code run outside a run of the rules (a label, a rank key): an error
        in it is a diagnostic (R003 at `span` for a Python error), never a traceback."""
        try:
            return call()
        except RuleRuntimeError as err:
            raise RulesError([err.diagnostic], self.rules.sources) from None
        except Exception as exc:  # a Python error inside generated code: a rule bug
            raise RulesError([Diagnostic("R003", f"the rules failed here: {_describe(exc)}",
                                         span)], self.rules.sources) from None

    def _options(self, p: tuple, site: Any) -> list[Option]:
        disp = self.program.display
        out: list[Option] = []
        locals_ = self.st.stack[-1][1]
        for value in p[2]:
            if site.kind == "menu":
                oid, label = site.menu[value]
                if callable(label):
                    label = label(self.st, locals_, value)
            elif value is None and site.kind == "choose":
                oid = "done"
                label = site.done_label(self.st, locals_, None) if site.done_label else "done"
                if any(o.id == "done" for o in out):  # a real option is called 'done'
                    oid = "done-choosing"
            else:
                oid = disp.option_id(value, site.type)
                if site.label is not None:
                    label = site.label(self.st, locals_, value)
                elif site.kind in ("roll", "die"):
                    label = f"rolled {disp.show(value, site.type)}"
                else:
                    label = disp.show(value, site.type)
            out.append(Option(oid, label))
        return out

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over or chance is next."""
        p = self.st.pending
        if p is None or self.st.result is not None or p[1] == -1:
            return None
        site = self.program.sites[p[0]]
        src = self.rules.sources.get(site.span.file, "").splitlines()
        prompt = src[site.span.line - 1].strip().rstrip(":") if site.span.line <= len(src) else ""
        return Decision(p[1], self.options(), prompt)

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
        score = self.rules.analysis.counters.get("score")
        scores = None
        if score is not None and [d[0] for d in score.dims] == ["player"]:
            scores = self.st.v[score.base:score.base + self.st.np]
        elif self.program.score is not None:
            scores = self._score()
        return Result(list(r), scores, self.ended_by)

    def _score(self) -> list[int]:
        """Each player's first rank key (`rank p by ...`); a key that fails is R003."""
        rank = self.rules.analysis.rank
        return self._guard(lambda: self.program.score(self.st),
                           rank.span if rank is not None else None)

    # ---- acting ------------------------------------------------------------------------

    def apply_index(self, i: int) -> None:
        """Apply option i (from 0) of the pending decision or chance step."""
        st = self.st
        p = st.pending
        if p is None or type(i) is not int or not 0 <= i < len(p[2]):
            raise self._bad_index(i)
        prog = self.program
        fr = st.stack[-1]
        slot = prog.slots[p[0]]
        if slot >= 0:
            fr[1][slot] = p[2][i]
        else:  # a die of a set: its face is a counter
            site = prog.sites[p[0]]
            lst, idx = site.hidden
            st.v[site.base + fr[1][lst][fr[1][idx]]] = p[2][i]
        st.pending = None
        self.history.append(i)
        if p[1] >= 0:  # a decision; the step budget counts on over chance outcomes
            st.steps = 0
            self.decisions += 1
        # most often the block that takes the choice runs to the next decision: call it
        # here, and enter the run loop only when it returns anything else
        try:
            try:
                r = prog.blocks[fr[0]](st, fr)
            except RuleRuntimeError:
                raise
            except Exception as exc:
                raise failure(prog, fr, exc) from None
            if r != SUSPEND and advance(prog, st, r) is None and st.result is None:
                raise RuleRuntimeError("R003", "the rules stopped without ending the game "
                                       "or asking for a decision", None)
        except RuleRuntimeError as err:
            raise RulesError([err.diagnostic], self.rules.sources) from None
        self.over = st.result is not None
        if self.decisions >= self.limit and not self.over:
            self._stop_at_limit()

    def _stop_at_limit(self) -> None:
        """The game reached its limit of decisions without ending: every player shares
        first place, and the result says the limit ended it."""
        st = self.st
        st.pending = None
        st.result = [1] * st.np
        self.ended_by = "limit"
        self.over = True
        if st.log is not None:
            st.log.append(f"the game reached its limit of {self.limit:,} decisions "
                          "without ending: nobody wins")

    def roll_chance(self, i: int) -> None:
        """Take outcome i of a pending chance step without recording it: a game record is
        the seed and the decisions, and the seed reproduces the chance outcomes."""
        self.apply_index(i)
        self.history.pop()

    def _bad_index(self, i: object) -> RulesError:
        p = self.st.pending
        if p is None or self.st.result is not None:
            return RulesError([Diagnostic("G002", "the game is over: there is nothing to "
                                          "choose")])
        n = len(p[2])
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

    def copy(self) -> Game:
        new = Game.__new__(Game)
        new.rules = self.rules
        new.program = self.program
        new.st = self.st.copy()
        new.seed = self.seed
        new.history = self.history[:]
        new.over = self.over
        new.decisions = self.decisions
        new.limit = self.limit
        new.ended_by = self.ended_by
        return new

    # ---- saving and viewing ------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
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
        return out

    def view(self, player: int) -> dict[str, Any]:
        """What `player` may see of the game (see `views.view`)."""
        from .views import view

        return view(self, player)
