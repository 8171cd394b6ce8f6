"""Running the worked examples of a rule file (`example "..." :` blocks).

Stage: run (driven by `rulesdsl check`). An example starts a game with its players and
seed, runs the setup, then runs its own statements: they may set up a position, call
rules, continue the game with `play "id", ...` (choosing options by id), and state the
expected result with `expect`. A failing example is a diagnostic at its span.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, RulesError, Span
from ..program.program import BLOCK
from ..program.runtime import OPTIONS, OVER, REPLAY, SUSPEND, RuleRuntimeError
from .game import Game, Rules
from .stepping import advance


def run_example(rules: Rules, name: str) -> list[Diagnostic]:
    """Run one example; returns its failures (empty when it holds)."""
    proc = rules.declared.proc("example", name)
    assert proc is not None and proc.example is not None
    decl = proc.example
    players = decl.players or rules.declared.min_players
    st = rules.fresh_state(players, decl.seed or 0)
    prog = rules.program
    game_stack = [rules.frame("play", "play")]
    if decl.start is not None:  # the game starts at a point of the flow
        game_stack = [[block, [None] * size] for block, size in prog.starts[decl.start]]
    started = False
    try:
        if rules.declared.proc("setup"):
            st.swap_stack([rules.frame("setup", "setup")])
            if advance(prog, st) is not None:
                return [Diagnostic("E060", f"example '{name}': the setup asks for a decision, "
                                   "which an example cannot answer", decl.span)]
        st.swap_stack([rules.frame("example", name)])
        while True:
            code = advance(prog, st)
            if code is None:
                return []
            if code == OPTIONS:
                spec, st.replay = st.replay or [], None
                example_stack = st.swap_stack(game_stack)
                failed = _options_differ(Game(rules, st, decl.seed or 0), spec, started)
                st.swap_stack(example_stack)
                if failed is not None:
                    return [Diagnostic("E061", f"example expectation failed: {failed}",
                                       _replay_span(rules, example_stack))]
                continue
            if code == REPLAY:
                choices, st.replay = st.replay or [], None
                example_stack = st.swap_stack(game_stack)
                game = Game(rules, st, decl.seed or 0)
                if not started:
                    # without a seed, 'play' answers the chance steps too: "6", "roll", ...
                    st.auto = decl.seed is not None
                    advance(prog, st)
                    started = True
                for choice in choices:
                    if game.over:
                        return [Diagnostic("E060", f"example '{name}': the game is over "
                                           f"before '{choice}' is played", _replay_span(
                                               rules, example_stack))]
                    try:
                        game.apply(choice)
                    except RulesError as err:
                        d = err.diagnostics[0]
                        where = _replay_span(rules, example_stack)
                        if d.code.startswith("R") or d.code == "E061":
                            # a rule went wrong: keep its code and place, say how we got there
                            if d.code != "E061":
                                d.message = f"example '{name}': {d.message}"
                            d.notes.append(f"reached by 'play \"{choice}\"' at {where}")
                            return [d]
                        return [Diagnostic("E060", f"example '{name}': {d.message}", where)]
                game_stack = st.swap_stack(example_stack)
                continue
            what = "a decision" if code == SUSPEND else "the end of the game"
            if code == OVER:
                what = "the end of the game outside 'play'"
            return [Diagnostic("E060", f"example '{name}' reached {what}; continue the game "
                               "with 'play \"option\", ...'", decl.span)]
    except RuleRuntimeError as err:
        d = err.diagnostic
        if d.code != "E061":
            d.message = f"example '{name}': {d.message}"
        return [d]


def _options_differ(game: Game, spec: list[str], started: bool) -> str | None:
    """What is wrong with `expect options MODE ids` (spec: the mode, then the ids) in the
    game an example plays, or None when the options are as expected."""
    mode, ids = spec[0], spec[1:]
    if not started:
        return "no decision is pending: the game has not started (start it with 'play')"
    if game.over:
        return "the game is over: no options are offered"
    offered = [o.id for o in game.options()]
    shown = ", ".join(offered)
    missing = [x for x in ids if x not in offered]
    if mode == "exclude":
        there = [x for x in ids if x in offered]
        return f"{_ids(there)} offered, but expected not to be (the options: {shown})" \
            if there else None
    if missing:
        return f"{_ids(missing)} not offered (the options: {shown})"
    extra = [x for x in offered if x not in ids]
    if mode == "exactly" and extra:
        return f"{_ids(extra)} offered too (the options: {shown}; expected only " \
               f"{', '.join(ids)})"
    return None


def _ids(ids: list[str]) -> str:
    return ", ".join(f"'{x}'" for x in ids) + (" is" if len(ids) == 1 else " are")


def _replay_span(rules: Rules, stack: list) -> Span:
    block = stack[-1][BLOCK] if stack else 0
    return rules.program.spans[rules.program.block_sid[block]]


def run_examples(rules: Rules) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for proc in rules.declared.procs:
        if proc.kind == "example":
            failures = run_example(rules, proc.name)
            written = proc.example.span.file if proc.example is not None else None
            if failures and written and rules.path and written != rules.path:
                # an example of the base that the variant's changes break: the place is in
                # the base, the cause in the variant
                for d in failures:
                    d.notes.append(f"this example of {written} is inherited by {rules.path}, "
                                   "whose changes make it fail")
                    d.hint = d.hint or (f"if {rules.path} changes this on purpose, replace "
                                        f"the example there (replace example \"{proc.name}\" "
                                        f"...) or remove it (remove example \"{proc.name}\")")
            out.extend(failures)
    return out
