"""Run-time helpers of a game's limits and examples: the work budget, what the rules say,
what a value must not be, an example's expectations.

Stage: program (see helpers/__init__.py). These belong to no built-in function: the
statements and expressions of compile/ call them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import MAX_SAID, WORK_BUDGET
from .faults import Faults


def bind(faults: Faults) -> dict[str, Callable[..., Any]]:
    err = faults.err
    _stuck = faults.stuck

    def _none_left(sid: int) -> Exception:
        return err("R002", "this choice has no legal option", sid,
                   hint="guard the choice with an 'if' when nothing may be possible")

    def _expect(ok: bool, sid: int, detail: str) -> None:
        if not ok:
            raise err("E061", f"example expectation failed: {detail}", sid)

    def _need(value: Any, sid: int, what: str) -> Any:
        if value is None:
            raise err("R003", f"{what} is none here", sid,
                      hint="'current' is only set inside 'turns'; 'winner' once a player "
                           "has won")
        return value

    def _say(st: Any, to: Any, text: str, sid: int) -> None:
        """A line said, counted against what a narrated game may say (R010 past it: a loop
        of `say` would fill the memory with its log)."""
        said = st.said + len(text)
        if said > MAX_SAID:
            raise err("R010", f"the rules said more than {MAX_SAID:,} characters "
                      "in one game", sid, hint="a `say` inside a loop that runs for long?")
        st.said = said
        st.log.append((to, text))

    def _w(st: Any, items: Any, weight: int, sid: int) -> Any:
        st.steps += len(items) * weight
        if st.steps > WORK_BUDGET:
            raise _stuck(sid)
        return items

    return {"_none_left": _none_left, "_expect": _expect, "_need": _need, "_say": _say,
            "_w": _w, "_stuck": _stuck}
