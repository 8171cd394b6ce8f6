"""The run loop: run the compiled rules until they pause, with a step budget.

Stage: run. `advance` runs blocks until the rules pause at a decision or chance step, or
the game ends; every step counts against a budget, so a rule file that loops forever
stops with an error naming the rule, and a Python error inside generated code becomes a
diagnostic at the rule that raised it.
"""

from __future__ import annotations

from ..program.program import BLOCK, Program
from ..program.runtime import BLOCK_WORK, CALL, RET, WORK_BUDGET, RuleRuntimeError
from .state import State


def advance(prog: Program, st: State, r: int | None = None) -> int | None:
    """Run the rules until they pause; returns SUSPEND, OVER, REPLAY, or None when the
    stack of frames has emptied. `r`, if given, is what the top frame's block has just
    returned (see `Game.apply_index`)."""
    blocks = prog.blocks
    stack = st.stack
    if not stack:
        return None
    fr = stack[-1]
    try:
        if r is None:
            st.steps = 0
            r = blocks[fr[BLOCK]](st, fr)
        while True:
            if r >= 0:
                # a jump to the next block is work (weighed as BLOCK_WORK steps: it costs
                # more than a turn of a loop); the count goes on over chance steps: only a
                # decision starts it again (Game.apply_index)
                fr[BLOCK] = r
                st.steps += BLOCK_WORK
                if st.steps > WORK_BUDGET:
                    raise _stuck(prog, r)
            elif r == RET:
                stack.pop()
                if not stack:
                    return None
                # the frame returned to may be shared with a copy of the state (state.py)
                fr = stack[-1] if len(stack) > st.shared else st.own_top()
            elif r == CALL:
                if len(stack) > 200:
                    raise RuleRuntimeError("R001", "rules call each other more than 200 "
                                           "deep: endless recursion?",
                                           prog.spans[prog.block_sid[fr[BLOCK]]])
                fr = stack[-1]
            else:
                return r
            r = blocks[fr[BLOCK]](st, fr)
    except RuleRuntimeError:
        raise
    except Exception as exc:  # a Python error inside generated code: a rule bug
        raise failure(prog, fr, exc) from None


def failure(prog: Program, fr: list, exc: Exception) -> RuleRuntimeError:
    """A Python error raised by generated code, as a diagnostic at the rule whose line of
    generated code failed (the innermost one), else at the block's rule."""
    span = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == prog.filename:
            span = prog.span_of_line(tb.tb_lineno) or span
        tb = tb.tb_next
    if span is None and fr:
        span = prog.spans[prog.block_sid[fr[BLOCK]]]
    return RuleRuntimeError("R003", f"the rules failed here: {describe(exc)}", span)


def _stuck(prog: Program, block: int) -> RuleRuntimeError:
    sid = prog.block_sid[block]
    return RuleRuntimeError("R001", f"the rules ran {WORK_BUDGET:,} steps without a decision: "
                            f"an endless loop in '{prog.span_procs[sid]}'?", prog.spans[sid])


def describe(exc: Exception) -> str:
    if isinstance(exc, TypeError) and "NoneType" in str(exc):
        return "a value is none where a number, player or cell is needed"
    return f"{type(exc).__name__}: {exc}"


