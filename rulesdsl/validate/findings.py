"""What validating found, as diagnostics at the place in the rules each finding is about.

Stage: validate. A rule that went wrong keeps its own code (R002 for a choice with no
option, a deadlock) with notes saying where and a record; the others have P codes (see
docs/diagnostics.md): P001 a game that may not end, P002 games that reached the rules'
limit, P003 rules, branches, options, triggers and turns that never ran, P004 ends of the
game never reached, P005 a seat that never ranked first, P006 (a note) the odds of a
chance step.
"""

from __future__ import annotations

from pathlib import Path

from .. import ast as A
from ..agents.play import Failed, report_failure, seat_name
from ..check.analysis import walk
from ..diagnostics import Diagnostic, RulesError, Span
from ..interpreter.game import Rules
from ..interpreter.records import make_record, start, step
from ..program.program import Point
from .explore import Exploration
from .sample import Played

LOOPS = (A.Turns, A.Repeat, A.While, A.ForEach)
POSITION_LINES = 16  # a position shown longer than this is cut


def inside(inner: Span, outer: Span) -> bool:
    return inner.file == outer.file and \
        (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def loop_around(rules: Rules, span: Span) -> Span:
    """The innermost loop of the rules around a place (the place itself if none is)."""
    best = span
    for proc in rules.analysis.procs:
        for s in walk(proc.body):
            if isinstance(s, LOOPS) and inside(span, s.span) and (
                    best is span or inside(s.span, best)):
                best = s.span
    return best


def _heading(span: Span) -> Span:
    """The first line of a statement with a block: where its caret goes."""
    return span.model_copy(update={"end_line": span.line, "end_column": span.column + 1})


def position(rules: Rules, path: str, players: int, seed: int, steps: list[int],
             chance: str) -> list[str]:
    """The position where a recorded game stopped, as the terminal shows it."""
    from ..terminal import show_state

    record = make_record(rules, path, players, seed, steps, chance=chance)  # type: ignore[arg-type]
    try:
        game = start(record, rules)
    except RulesError:
        return []  # the setup went wrong: there is no position yet
    try:
        for n in range(len(steps)):
            step(game, record, n)
    except RulesError:
        pass  # where the record's game stopped: the position to show
    current = game.current
    seat = current if type(current) is int else 0
    lines = show_state(game.view(seat), rules)
    if len(lines) > POSITION_LINES:
        lines = lines[:POSITION_LINES] + ["..."]
    return lines


def stopped(rules: Rules, path: str, played: Played, total: int,
            records: str | Path | None) -> Diagnostic:
    """A sampled game a rule stopped: its own diagnostic, where, and its record."""
    assert played.error is not None
    failed = Failed(played.seed, played.steps, played.error)
    return report_failure(rules, path, played.players, failed, played.agents, played.number,
                          records, total=total).diagnostics[0]


def explored_error(rules: Rules, path: str, found: Exploration,
                   records: str | Path | None) -> Diagnostic:
    """A rule that went wrong in a position exploration reached: the steps there (every
    chance outcome among them), the position and the record."""
    assert found.error is not None
    d = report_failure(rules, path, found.players, Failed(0, found.steps, found.error), [],
                       None, records, chance="chosen",
                       context=f"found by exploring every position of a game of "
                               f"{found.players} players").diagnostics[0]
    lines = position(rules, path, found.players, 0, found.steps, "chosen")
    if lines:
        d.notes.insert(2, "the position:\n      " + "\n      ".join(lines))
    return d


def explored_cycle(rules: Rules, path: str, found: Exploration,
                   records: str | Path | None) -> Diagnostic:
    """A way to play for ever: the steps to positions the players can keep the game in,
    and a cycle among them. An error, or a warning when the rules declare a limit (which
    ends such a game)."""
    assert found.cycle is not None and found.site is not None
    site = rules.program.sites[found.site]
    at = loop_around(rules, site.span)
    what = (f"once here, no game of {found.players} players can end" if found.endless else
            f"the players can keep a game of {found.players} players going for ever here")
    declared = rules.analysis.limit_span is not None
    d = Diagnostic("P001", what, _heading(at), severity="warning" if declared else "error")
    labels = step_labels(rules, found.players, found.steps)
    before = len(found.steps) - len(found.cycle)
    d.notes.append(f"after {before} step{'s' if before != 1 else ''}, "
                   f"{'this step comes' if len(found.cycle) == 1 else 'these steps come'} "
                   "back to where they started: " + "; ".join(labels[before:]))
    if declared:
        d.notes.append(f"the limit of {rules.limit:,} decisions ends such a game")
    else:
        d.hint = "end the game when it cannot go on, or declare a limit: limit N decisions"
    _record_note(rules, path, d, found.players, 0, found.steps, "chosen", records)
    return d


def step_labels(rules: Rules, players: int, steps: list[int]) -> list[str]:
    """`player 1 'go'` or `chance 'rolled 6'` for each step of an explored game."""
    game = rules.new_game(players=players, seed=0, auto_chance=False)
    out = []
    for i in steps:
        decision = game.decision
        who = seat_name(decision.player) if decision is not None else "chance"
        out.append(f"{who} '{game.options()[i].label}'")
        game.apply_index(i)
    return out


def _record_note(rules: Rules, path: str, d: Diagnostic, players: int, seed: int,
                 steps: list[int], chance: str, records: str | Path | None,
                 agents: list[str] | None = None) -> None:
    from ..interpreter.records import replay_note, write_record

    if records is None:
        return
    record = make_record(rules, path, players, seed, steps, agents,
                         chance=chance)  # type: ignore[arg-type]
    d.notes.append(replay_note(write_record(record, records), record, rules.include))


def endless(rules: Rules, path: str, games: list[Played], total: int, budget: int,
            records: str | Path | None) -> Diagnostic:
    """Games that went past the budget without ending, at the loop they repeat."""
    first = games[0]
    site = rules.program.sites[first.site] if first.site is not None else None
    at = loop_around(rules, site.span) if site is not None else None
    many = f"{len(games)} of {total} games" if len(games) > 1 else f"a game of {total}"
    d = Diagnostic("P001", f"{many} with {first.players} players went past {budget:,} "
                   "decisions without ending: an endless loop here?",
                   _heading(at) if at is not None else None)
    if site is not None:
        d.notes.append(f"the decision it repeats most: line {site.span.line} of "
                       f"{site.span.file}")
    agents = ",".join(first.agents)
    d.notes.append(f"the first: game {first.number} (seed {first.seed}, agents "
                   f"{', '.join(first.agents)}); `rulesdsl run {path} --players "
                   f"{first.players} --seed {first.seed} --agents {agents}` plays it")
    _record_note(rules, path, d, first.players, first.seed, first.steps, "seeded", records,
                 first.agents)
    return d


def limited(rules: Rules, games: list[Played], total: int) -> Diagnostic:
    """Games that ended at the limit the rules declare, not by themselves."""
    first = games[0]
    span = rules.analysis.limit_span
    d = Diagnostic("P002", f"{len(games)} of {total} games with {first.players} players "
                   f"reached the limit of {rules.limit:,} decisions without ending",
                   span, severity="warning",
                   hint="a game that can end by itself should; the limit is a safety net")
    d.notes.append(f"the first: game {first.number} (seed {first.seed}, agents "
                   f"{', '.join(first.agents)})")
    return d


WHAT = {
    "rule": "rule {name} never ran",
    "branch": "this branch never ran",
    "option": "option '{name}' was never chosen",
    "trigger": "this 'as soon as' block never ran",
    "turn": "this 'turns' loop never gave anyone a turn",
    "end": "this end of the game was never reached",
}


def idle_points(rules: Rules) -> list[Point]:
    """The places coverage counts that have not run yet (not in the rules that only the
    examples call: those help the examples, they are not rules of the game)."""
    prog = rules.program
    helpers = example_helpers(rules)
    return [pt for n, pt in enumerate(prog.points)
            if not prog.hits[n] and pt.kind not in ("play", "setup", "points")
            and pt.proc not in helpers]


def example_helpers(rules: Rules) -> set[str]:
    """The rules that examples call (themselves or through other rules) and the game
    (setup, play, triggers) never does."""
    calls: dict[str, set[str]] = {}
    for proc in rules.analysis.procs:
        calls[proc.name] = {s.name for s in walk(proc.body) if isinstance(s, A.CallRule)}

    def reached(kinds: tuple[str, ...]) -> set[str]:
        found = {p.name for p in rules.analysis.procs if p.kind in kinds}
        todo = list(found)
        while todo:
            for callee in calls.get(todo.pop(), ()):
                if callee not in found:
                    found.add(callee)
                    todo.append(callee)
        return found

    return reached(("example",)) - reached(("setup", "play", "trigger"))


def coverage(rules: Rules, how: str, proven: bool, by_examples: list[int]) -> list[Diagnostic]:
    """A finding at each place that never ran (not at the places inside one that never
    ran: a rule nobody calls is one finding, not one per branch). It is a warning, or a
    note (the author knows it can run, or it is not theirs to change) when an example of
    the rule file reaches it, or when it lies in the base game of the variant validated."""
    prog = rules.program
    index = {id(pt): n for n, pt in enumerate(prog.points)}
    idle = idle_points(rules)
    outer = [pt.span for pt in idle if pt.kind != "end"]
    own = rules.path
    out = []
    for pt in idle:
        if any(span != pt.span and inside(pt.span, span) for span in outer):
            continue
        d = _idle(pt, how, proven)
        if by_examples[index[id(pt)]]:
            d.severity = "note"
            d.notes.append("an example of the rule file reaches it")
        elif pt.span.file != own:
            d.severity = "note"
            d.notes.append(f"it is a part of {Path(pt.span.file).name} that this variant "
                           "does not use")
        out.append(d)
    return out


def _idle(pt: Point, how: str, proven: bool) -> Diagnostic:
    what = WHAT[pt.kind].format(name=pt.name)
    if pt.kind == "branch" and pt.name == "else":
        what = "this 'else' never ran"
    if proven:
        what = what.replace("never ran", "can never run").replace(
            "was never chosen", "can never be chosen").replace(
            "was never reached", "can never be reached").replace(
            "never gave anyone", "can never give anyone")
    code = "P004" if pt.kind == "end" else "P003"
    return Diagnostic(code, f"{what} {how}", _heading(pt.span) if pt.kind != "end" else pt.span,
                      severity="warning")


def settings_named(rules: Rules, points: list[Point]) -> set[str]:
    """The settings the conditions of the `if` statements of these branches name (the
    `if` and every `elif`: an `else` runs when they all fail)."""
    starts = {(pt.span.file, pt.span.line, pt.span.column) for pt in points
              if pt.kind == "branch"}
    found: set[str] = set()
    for proc in rules.analysis.procs:
        for s in walk(proc.body):
            if not isinstance(s, A.If):
                continue
            heads = [c.span for c, _ in s.branches]
            if s.otherwise:
                heads.append(s.otherwise[0].span)
            if any((h.file, h.line, h.column) in starts for h in heads):
                for cond, _ in s.branches:
                    found |= {n.name for n in _names(cond)
                              if n.name in rules.analysis.settings}
    return found


def _names(node: A.Node) -> list[A.Name]:
    """Every name in an expression."""
    out = []
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, A.Name):
            out.append(n)
        todo.extend(A.child_nodes(n))
    return out


def seats(rules: Rules, players: int, firsts: set[int], how: str, proven: bool,
          games: int = 0) -> list[Diagnostic]:
    """A finding for each seat that never ranked first. Proven, it is a warning. Sampled,
    it is a warning when chance alone would rarely explain it (below 1 in 100, were every
    seat equally likely to rank first), and otherwise a note: too few games to tell."""
    span = next((i.span for i in rules.analysis.file.items if isinstance(i, A.PlayersDecl)),
                None)
    out = []
    for p in range(players):
        if p in firsts:
            continue
        if proven:
            out.append(Diagnostic("P005", f"with {players} players, {seat_name(p)} can never "
                                  f"rank first {how}", span, severity="warning"))
            continue
        odds = (1 - 1 / players) ** games
        d = Diagnostic("P005", f"with {players} players, {seat_name(p)} never ranked first "
                       f"{how}", span, severity="warning" if odds < 0.01 else "note")
        d.notes.append(f"were every seat equally likely to rank first, that would happen "
                       f"{_odds(odds)}" + ("" if odds < 0.01 else ": too few games to tell"))
        out.append(d)
    return out


def _odds(p: float) -> str:
    return f"{p:.0%} of the time" if p >= 0.01 else f"about once in {round(1 / p):,} times"
