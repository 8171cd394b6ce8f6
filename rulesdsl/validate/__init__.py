"""Validating a rulebook: does every game end, can every rule run, can every seat win,
does any rule go wrong in play? (`rulesdsl validate FILE...`)

Stage: validate, after check. For each number of players the rules allow:
1. exploration (explore.py): every position from the start, every option and chance
   outcome, within a budget of positions. When it covers them all, what it says is
   proven: every game ends (or a cycle shows how one does not), every rule that can run
   ran, every seat that can rank first did; a rule that goes wrong is found with the
   steps that lead to it.
2. otherwise sampling (sample.py): games of random and greedy bots under a budget of
   decisions, as `rulesdsl simulate` plays them; then, while a rule, branch, option,
   trigger or end of the game has not run yet, or a seat has not ranked first, more games
   (random bots, and a greedy bot in the seat that has not won), up to a budget of
   decisions (`seek`).
Then findings.py turns what was found into diagnostics at their places in the rules, and
chance.py adds the exact odds of each chance step on request. The rules are compiled with
coverage counting (`load(..., coverage=True)`); the rule file's examples run first, as
`rulesdsl check` runs them, and their counts are not kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.play import Failed, report_failure
from ..compile.backends import Backend
from ..diagnostics import Diagnostic, RulesError
from ..interpreter.examples import run_examples
from ..interpreter.game import Rules
from ..loader import backend_for, load
from . import findings
from .chance import chance_notes
from .explore import Exploration, explore, shuffles
from .sample import Sample, play


@dataclass
class Options:
    """How hard to look (the defaults are `rulesdsl validate`'s)."""

    games: int = 4             # sampled games per agent and number of players
    agents: tuple[str, ...] = ("random", "greedy")
    budget: int = 20_000       # decisions a sampled game may take
    seek: int = 50_000         # decisions of more games to find what has not run or won
    positions: int = 20_000    # positions exploration may visit per number of players
    seed: int = 1
    players: int | None = None  # only this number of players
    chance: bool = False       # add the odds of each chance step (P006 notes)
    records: str | Path | None = "."  # where records of what went wrong are written
    coverage: bool = True      # report what never ran, and seats that never won
    settings: dict[str, Any] | None = None
    native: bool = False       # the rules compiled with Cython (compile/native.py)
    include: tuple[str, ...] = ()  # folders the file may read beyond its own (--include)

    def backend(self) -> Backend:
        return backend_for(self.native)


@dataclass
class Count:
    """What was done and found for one number of players."""

    players: int
    exploration: Exploration | None = None
    sample: Sample | None = None
    why_not: str = ""  # why exploration did not prove it

    def summary(self) -> str:
        e, s = self.exploration, self.sample
        head = f"{self.players} player{'s' if self.players > 1 else ''}: "
        if e is not None and e.proven and e.acyclic:
            steps = f"{e.shortest}" if e.shortest == e.longest else f"{e.shortest} to " \
                                                                     f"{e.longest}"
            return head + (f"every game ends (proven: all {e.positions:,} positions "
                           f"explored; a game takes {steps} steps)")
        if e is not None and e.proven:
            return head + ("every game ends with probability 1, whatever the players choose "
                           f"(proven: all {e.positions:,} positions explored; chance can "
                           "bring a position back, never for ever)")
        parts = []
        if e is not None and (e.error is not None or e.cycle is not None):
            found = "a rule that goes wrong" if e.error is not None else \
                "a game that can go on for ever"
            parts.append(f"exploring found {found} ({e.positions:,} positions explored)")
        if s is not None and s.games:
            mean = s.decisions / max(s.games - len(s.failed), 1)
            parts.append(f"{s.games} games played, {mean:.1f} decisions a game")
        if self.why_not:
            parts.append(f"not proven ({self.why_not})")
        return head + "; ".join(parts)


@dataclass
class Report:
    """The validation of one rule file."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    counts: list[Count] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    def verdict(self) -> str:
        if not self.errors and not self.warnings:
            proven = [str(c.players) for c in self.counts
                      if c.exploration is not None and c.exploration.proven]
            games = sum(c.sample.games for c in self.counts if c.sample is not None)
            said = [f"proven with {' and '.join(', '.join(proven).rsplit(', ', 1))} players"] \
                if proven else []
            if games:
                said.append(f"{games:,} game{'s' if games > 1 else ''} played")
            return f"{self.path}: ok" + (f" ({', '.join(said)}, no finding)" if said else "")
        said = [f"{n} {word}{'s' if n > 1 else ''}" for n, word in
                ((self.errors, "error"), (self.warnings, "warning")) if n]
        return f"{self.path}: " + " and ".join(said)

    def findings(self) -> str:
        """The diagnostics, rendered (what `rulesdsl validate` prints on stderr)."""
        return "\n".join(d.render(self.sources) for d in self.diagnostics)

    def summary(self) -> str:
        """What was proven or sampled for each number of players, and the verdict (what
        `rulesdsl validate` prints on stdout)."""
        lines = [f"{self.path}, {c.summary()}" for c in self.counts]
        return "\n".join(lines + [self.verdict()])

    def text(self) -> str:
        """The whole report: the diagnostics, then what was done."""
        return "\n".join(part for part in (self.findings(), self.summary()) if part)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "ok": not self.errors,
            "errors": self.errors,
            "warnings": self.warnings,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "players": [_count_json(c) for c in self.counts],
            "seconds": round(self.seconds, 3),
        }


def _count_json(c: Count) -> dict[str, Any]:
    e, s = c.exploration, c.sample
    return {
        "players": c.players,
        "proven": bool(e and e.proven),
        "positions": e.positions if e else 0,
        "games": s.games if s else 0,
        "decisions": s.decisions if s else 0,
        "not_proven": c.why_not or None,
    }


def validate_file(path: str, options: Options | None = None) -> Report:
    """Validate one rule file: its static checks and examples, then its games."""
    options = options or Options()
    start = time.perf_counter()
    report = Report(path)
    try:
        rules = load(path, options.settings, coverage=True, backend=options.backend(),
                     include=options.include)
    except RulesError as err:
        report.diagnostics, report.sources = err.diagnostics, err.sources
        return report
    report.sources = rules.sources
    report.diagnostics += run_examples(rules)
    by_examples = rules.program.hits[:]  # what the examples ran: not play, kept apart
    rules.program.hits[:] = [0] * len(by_examples)
    low, high = rules.player_range
    counts = [options.players] if options.players else list(range(low, high + 1))
    try:
        rules.check_players(options.players)
    except RulesError as err:  # this file is not for that many players
        report.diagnostics += err.diagnostics
        return report
    too_many = 0  # a player count whose positions did not fit the budget
    for players in counts:
        count = _validate_count(rules, path, players, options, report, too_many)
        if count.exploration is not None and not count.exploration.complete:
            too_many = too_many or players
        report.counts.append(count)
    _other_settings(rules, path, report.counts, options)
    _seek(rules, report.counts, options)
    reported: set[tuple] = set()  # one report of each error, from its first game
    for count in report.counts:
        _report_count(rules, path, count, options, report.diagnostics, reported)
    _overall(rules, report, options, by_examples)
    report.diagnostics.sort(key=_order)
    report.seconds = time.perf_counter() - start
    return report


def play_check(rules: Rules, path: str, games: int, seed: int = 1,
               records: str | Path | None = ".") -> list[Diagnostic]:
    """`rulesdsl check --play N`: N games of random bots for each number of players; a
    rule that goes wrong in one is an error, with where and a record (a variant that
    passes its static checks and examples may still fail in play)."""
    out: list[Diagnostic] = []
    low, high = rules.player_range
    reported: set[tuple] = set()  # one report of each error, from its first game
    for players in range(low, high + 1):
        sample = Sample(players)
        play(rules, players, ["random"], range(seed, seed + games), rules.limit, sample)
        out += _errors(rules, path, sample, reported, records)
    return out


def _errors(rules: Rules, path: str, sample: Sample, reported: set[tuple],
            records: str | Path | None) -> list[Diagnostic]:
    """The errors that stopped sampled games: each (code and place) once, from the first
    game it stopped."""
    out = []
    for played in sample.failed:
        assert played.error is not None
        key = (played.error.code, played.error.span)
        if key not in reported:
            reported.add(key)
            out.append(findings.stopped(rules, path, played, sample.games, records))
    return out


def _order(d: Diagnostic) -> tuple:
    severity = {"error": 0, "warning": 1}.get(d.severity, 2)
    where = (d.span.file, d.span.line, d.span.column) if d.span else ("", 0, 0)
    return (severity, where)


def _validate_count(rules: Rules, path: str, players: int, options: Options,
                    report: Report, too_many: int) -> Count:
    count = Count(players)
    diags = report.diagnostics
    if shuffles(rules):
        count.why_not = "the rules shuffle, and exploring does not try every order"
    elif not options.positions:
        count.why_not = "exploring was turned off"
    elif too_many:
        # more players, more positions: not worth exploring when fewer did not fit
        count.why_not = f"more than {options.positions:,} positions with {too_many} players"
    else:
        try:
            count.exploration = found = explore(rules, players, options.positions)
        except RulesError as err:  # the setup went wrong before the first decision
            diags.append(report_failure(rules, path, players, Failed(0, [], err.diagnostics[0]),
                                        [], None, options.records).diagnostics[0])
            return count
        if found.error is not None:
            diags.append(findings.explored_error(rules, path, found, options.records))
        elif found.cycle is not None:
            diags.append(findings.explored_cycle(rules, path, found, options.records))
        elif not found.complete:
            count.why_not = f"more than {options.positions:,} positions"
        if found.proven or found.error is not None or found.cycle is not None:
            return count
    count.sample = sample = Sample(players)
    seeds = range(options.seed, options.seed + options.games)
    for k, agent in enumerate(options.agents):
        play(rules, players, [agent], seeds, options.budget, sample, 1 + k * options.games)
    return count


# the bot that seeks a seat's first place: greedy on one made-up game a decision (it looks
# its own turn on, by the heuristic; four made-up games would cost four times as much for a
# search that only needs a game the seat wins)
SEEKER = "greedy:samples=1"


def _seek(rules: Rules, counts: list[Count], options: Options) -> None:
    """More games while something has not run or a seat has not ranked first, until the
    budget of decisions is spent (the same games every time: they depend on the seeds
    only, not on the time they take). In turn: a game of random bots for what has not
    run (the player counts in turn), and a game where a greedy bot plays a seat that has
    not ranked first against random ones."""
    sampled = [c for c in counts if c.sample is not None and not c.sample.failed
               and not c.sample.endless]
    if not options.coverage or not sampled:
        return
    spent = turn = 0
    seed = options.seed + options.games
    while spent < options.seek:
        idle = bool(findings.idle_points(rules))
        needy = [c for c in sampled if len(c.sample.firsts) < c.players]  # type: ignore[union-attr]
        if not idle and not needy:
            return
        turn += 1
        if needy and (turn % 2 or not idle):
            count = needy[turn // 2 % len(needy)]
        else:
            count = sampled[turn // 2 % len(sampled)]
        sample = count.sample
        assert sample is not None
        agents = ["random"] * count.players
        missing = [p for p in range(count.players) if p not in sample.firsts]
        if count in needy and (turn % 2 or not idle):
            agents[missing[turn // 2 % len(missing)]] = SEEKER
        before = sample.decisions + sum(len(p.steps) for p in sample.failed)
        play(rules, count.players, agents, range(seed, seed + 1), options.budget, sample,
             sample.games + 1)
        spent += max(sample.decisions + sum(len(p.steps) for p in sample.failed) - before, 1)
        seed += 1


def _other_settings(rules: Rules, path: str, counts: list[Count], options: Options) -> None:
    """A branch still idle whose `if` names a setting may run with another value of it:
    a few games with each other bound of such a setting (true for false), and what runs
    there counts as run (it is not dead: it waits for that setting)."""
    idle = findings.idle_points(rules)
    if not idle or not options.coverage:
        return
    named = sorted(findings.settings_named(rules, idle))
    where = {(pt.kind, pt.span, pt.name): n for n, pt in enumerate(rules.program.points)}
    for name in named:
        for value in _other_values(rules, name):
            overrides = {**(options.settings or {}), name: value}
            try:
                other = load(path, overrides, coverage=True, backend=options.backend(),
                             include=options.include)
            except RulesError:
                continue
            for count in counts:
                if count.sample is not None and other.player_range[0] <= count.players <= \
                        other.player_range[1]:
                    play(other, count.players, ["random"],
                         range(options.seed, options.seed + options.games), options.budget,
                         Sample(count.players))
            for pt, hits in zip(other.program.points, other.program.hits):
                n = where.get((pt.kind, pt.span, pt.name))
                if n is not None:
                    rules.program.hits[n] += hits


def _other_values(rules: Rules, name: str) -> list[Any]:
    """The bounds of a setting other than its value (the other truth value of a flag)."""
    value = rules.analysis.values[name]
    if isinstance(value, bool):
        return [not value]
    bounds = rules.analysis.setting_bounds.get(name, (None, None))
    return [b for b in dict.fromkeys(bounds)
            if isinstance(b, int) and not isinstance(b, bool) and b != value]


def _report_count(rules: Rules, path: str, count: Count, options: Options,
                  diags: list[Diagnostic], reported: set[tuple]) -> None:
    """What the sampled games of one number of players found."""
    sample = count.sample
    if sample is None:
        return
    total = sample.games
    diags += _errors(rules, path, sample, reported, options.records)
    if sample.endless:
        diags.append(findings.endless(rules, path, sample.endless, total, options.budget,
                                      options.records))
    if sample.limited:
        diags.append(findings.limited(rules, sample.limited, total))


def _overall(rules: Rules, report: Report, options: Options, by_examples: list[int]) -> None:
    """What only all the games together tell: what never ran, who never won, the odds."""
    counts = report.counts
    broken = any(d.severity == "error" for d in report.diagnostics)
    if options.coverage and not broken:
        proven = all(c.exploration is not None and c.exploration.proven for c in counts)
        games = sum(c.sample.games for c in counts if c.sample)
        positions = sum(c.exploration.positions for c in counts if c.exploration)
        if proven:
            how = f"(all {positions:,} positions explored)"
        else:
            how = "in " + " and ".join(
                ([f"{games} games"] if games or not positions else []) +
                ([f"{positions:,} positions explored"] if positions else []))
        report.diagnostics += findings.coverage(rules, how, proven, by_examples)
        for c in counts:
            e, s = c.exploration, c.sample
            if e is not None and e.proven:
                report.diagnostics += findings.seats(rules, c.players, e.firsts,
                                                     f"(all {e.positions:,} positions "
                                                     "explored)", True)
            elif s is not None and s.ended:
                report.diagnostics += findings.seats(rules, c.players, set(s.firsts),
                                                     f"in {s.ended} games", False, s.ended)
    if options.chance:
        report.diagnostics += chance_notes(rules.analysis)
