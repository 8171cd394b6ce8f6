"""Coverage points: the places of the rules a program counts the runs of.

Stage: compile. With coverage on (`rulesdsl validate`, balance studies), the generated
code adds 1 to `HITS[n]` each time it passes point n (a rule's start, a branch, a menu
option, a turn, an end of the game), and `program.Point` says which place of the rules n
is; an `add` to the counter the game is ranked by counts the points it adds. Without
coverage, the generated code has no trace of the counting. Examples are never counted.
"""

from __future__ import annotations

from .. import ast as A
from ..diagnostics import Span
from ..program.program import Point
from . import emit as E
from .context import Generator


class Coverage(Generator):
    """The counting of coverage points."""

    def point(self, pos: list, kind: str, span: Span, name: str = "") -> None:
        """With coverage on, count each run of this place (examples are not counted)."""
        if self.coverage and (self.proc is None or self.proc.kind != "example"):
            self.emit(pos, E.aug(E.sub_store(E.name("HITS"), len(self.points)), "+",
                                 E.const(1)))
            self.points.append(Point(kind, span, self.proc_name, name))

    def points_scored(self, s: A.Add, pos: list) -> None:
        """With coverage on, an `add` to the counter the game is ranked by first (`score`
        when there is no `rank` line) counts the points it adds at its own point ("points":
        a source of points), as the amount added rather than 1 (examples not counted)."""
        if not self.coverage or (self.proc is not None and self.proc.kind == "example"):
            return
        rank = self.a.rank
        first = rank.keys[0] if rank is not None and rank.keys else None
        counter = first.attr if isinstance(first, A.Of) else "score" if rank is None else None
        if counter is None or s.target.name != counter or s.target.of is None or \
                counter not in self.a.counters:
            return
        amount = self.expr(s.amount)
        self.emit(pos, E.aug(E.sub_store(E.name("HITS"), len(self.points)), "-" if s.negate
                             else "+", amount))
        self.points.append(Point("points", s.span, self.proc_name, counter))
