"""The rule errors of one compiled program: each names the span of the rule that failed.

Stage: program. `runtime.make_helpers` makes one `Faults` per program and hands it to the
`bind` of each family of helpers; the helpers raise what it makes. Only failing paths
reach it, so its methods cost nothing on the way of a game.
"""

from __future__ import annotations

from collections.abc import Callable

from ...limits import WORK_BUDGET

Err = Callable[..., Exception]   # err(code, message, sid, hint=None): a rule error


class Faults:
    """The errors of one program: `err` makes a rule error at a span's number, `procs`
    names the rule of each span."""

    def __init__(self, err: Err, procs: list[str]):
        self.err = err
        self.procs = procs

    def stuck(self, sid: int) -> Exception:
        return self.err("R001", f"the rules ran {WORK_BUDGET:,} steps without a decision: "
                        f"an endless loop in '{self.procs[sid]}'?", sid,
                        hint="a loop, a range or a definition that never ends (or is huge)")

    def too_big(self, value: int, sid: int) -> Exception:
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return self.err("R008", f"a number of about {digits} digits: numbers stay between "
                        "-10^18 and 10^18", sid)
