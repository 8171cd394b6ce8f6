"""The exact odds of each chance step, where they can be worked out from the rules alone.

Stage: validate. A die's faces are equally likely, so a roll's distribution is exact: each
face value with its share of the faces (a face printed twice is twice as likely). A roll of
a whole set of dice with number faces also gives the exact distribution of their sum. A
shuffle puts every order of a zone equally likely, so the first component drawn after it
is each of the zone's components with the same probability. `rulesdsl validate --chance`
shows these as notes at each chance step.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import gcd

from .. import ast as A
from ..check.analysis import Analysis, walk
from ..diagnostics import Diagnostic
from ..program.declare import declare
from ..program.display import Display

MAX_SUM_DICE = 12  # the sum of more dice than this is not listed (its list is long)


def distribution(faces: list) -> dict:
    """Each face value and its probability."""
    counts = Counter(faces)
    return {v: Fraction(n, len(faces)) for v, n in counts.items()}


def sum_distribution(faces: list[int], dice: int) -> dict[int, Fraction]:
    """The probability of each sum of `dice` dice with these faces (exact convolution)."""
    one = distribution(faces)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for s, p in total.items():
            for v, q in one.items():
                nxt[s + v] = nxt.get(s + v, Fraction(0)) + p * q
        total = nxt
    return dict(sorted(total.items()))


def _show(dist: dict, label) -> str:  # type: ignore[no-untyped-def]
    """`1: 1/6, 2: 1/6, ...`, with a common denominator when the values share one."""
    denominator = 1
    for p in dist.values():
        denominator = denominator * p.denominator // gcd(denominator, p.denominator)
    return ", ".join(f"{label(v)}: {p.numerator * (denominator // p.denominator)}/"
                     f"{denominator}" if p != 1 else f"{label(v)}: always"
                     for v, p in dist.items())


def chance_notes(a: Analysis) -> list[Diagnostic]:
    """A note at each roll and shuffle of the rules, with its exact distribution."""
    display = Display(declare(a))
    out: list[Diagnostic] = []
    for proc in a.procs:
        if proc.kind == "example":
            continue
        for s in walk(proc.body):
            if isinstance(s, A.LetRoll):
                die = a.dies[s.die.name]  # type: ignore[union-attr]  # the checker saw to it
                shown = _show(distribution(die.faces),
                              lambda v, t=die.face_type: display.show(v, t))
                out.append(Diagnostic("P006", f"roll {die.name}: {shown}", s.span,
                                      severity="note"))
            elif isinstance(s, A.Roll):
                out.append(_dice_note(a, s, display))
            elif isinstance(s, A.Shuffle):
                out.append(Diagnostic("P006", "every order of the zone is equally likely: "
                                      "after the shuffle, each of its components is first "
                                      "with the same probability", s.span, severity="note"))
    return out


def _dice_note(a: Analysis, s: A.Roll, display: Display) -> Diagnostic:
    t = a.type_of(s.dice)
    name = t[1] if isinstance(t, tuple) and t[0] == "die" else \
        t[1][1] if isinstance(t, tuple) and isinstance(t[1], tuple) else None
    dice = a.dice.get(name or "")
    if dice is None:
        return Diagnostic("P006", "each die rolled shows each of its faces equally likely",
                          s.span, severity="note")
    die = a.dies[dice.die]
    message = f"each die of {dice.name}: " \
              f"{_show(distribution(die.faces), lambda v: display.show(v, die.face_type))}"
    whole = isinstance(s.dice, A.Name) and s.dice.name == dice.name
    notes = []
    if whole and die.face_type == "int" and dice.count <= MAX_SUM_DICE and dice.count > 1:
        notes.append(f"the sum of the {dice.count} dice: "
                     f"{_show(sum_distribution(die.faces, dice.count), str)}")
    return Diagnostic("P006", message, s.span, severity="note", notes=notes)
