"""What `simulate` prints of a study's reading (reading.py): the bots and their strength with
the warnings, each variant's metrics with the chosen one marked and the others
Holm-corrected, what pairing gained, and how play changed, the variant's changes first.

Stage: analysis (presentation, rich renderables; report.py draws the same as HTML).
"""

from __future__ import annotations

from typing import Any

from .changes import PointChange
from .reading import Bots, Reading
from .trust import p_text

MAX_POINTS = 12  # the rows of "how play changed" printed (the page shows them all)


def bots_lines(b: Bots) -> list[Any]:
    from rich.table import Table

    out: list[Any] = [f"bots: {', '.join(f'seat {p + 1} {a}' for p, a in enumerate(b.seats))}"
                      f"{' (rotated over the seats)' if b.rotated else ''}"]
    if b.strengths:
        table = Table(title="the bots' strength: win share against random bots (95%)")
        for title in ("agent", "win share", "even game", "games"):
            table.add_column(title, justify="left" if title == "agent" else "right")
        for s in b.strengths:
            table.add_row(s.agent, s.share.text(True), f"{s.even:.1%}", str(s.share.n))
        out.append(table)
    out += [f"WARNING: {w}" for w in b.warnings]
    return out


def relative_text(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1%}"


def metrics_table(r: Reading, base: str, variant: str) -> Any:
    from rich.table import Table

    table = Table(title=f"{variant} - {base}: paired differences on the same seeds (95% "
                  "intervals; * the metric chosen in advance, its p as it is; the others' "
                  "p Holm-corrected; detectable: the smallest difference these games find "
                  "at 80% power)")
    for title in ("metric", base, variant, "difference (95%)", "relative", "p",
                  "detectable"):
        table.add_column(title, justify="left" if title == "metric" else "right",
                         overflow="fold")
    for c in r.comparisons:
        t = r.trust(c.metric)
        table.add_row(c.metric + (" *" if t.chosen else ""), f"{c.base.value:.3g}",
                      f"{c.variant.value:.3g}", c.difference.text(digits=3),
                      relative_text(t.relative),
                      p_text(t.p) if t.chosen else p_text(t.adjusted) + " (Holm)",
                      f"±{t.detectable:.3g}")
    return table


def trust_lines(r: Reading) -> list[str]:
    t = r.trust(r.chosen)
    out = [f"pairing: {r.kept} of {r.games} seeds kept every seat's rank in both files; "
           f"on {r.chosen}, unpaired runs would need "
           + (f"{t.gain:.1f} times the games" if t.gain is not None else "- (no spread)")
           + " for the same interval"]
    if r.needed is not None:
        out.append(f"to find a difference of {r.delta:g} in {r.chosen} at 80% power "
                   f"(alpha 0.05): about {r.needed:,} games a file; these {r.games} find "
                   f"±{t.detectable:.3g}")
    return out


def point_row(c: PointChange) -> list[str]:
    from rich.markup import escape  # a rule line may hold [ ]: text, not markup

    return [escape(c.label) + (f" ({c.verdict()})" if c.changed else ""),
            f"{c.base.value:.2f}",
            f"{c.variant.value:.2f}", c.difference.text(digits=2), p_text(c.p)]


def play_table(r: Reading) -> list[Any]:
    from rich.table import Table

    if not r.changes:
        return ["how play changed: not counted (the games were played with --no-coverage, "
                "or before simulate counted what fired)"]
    table = Table(title="how play changed: times a game each rule, branch and option fired "
                  "(the variant's changes first, then the largest changes)")
    for title in ("rule line", "base", "variant", "difference (95%)", "p"):
        table.add_column(title, justify="left" if title == "rule line" else "right",
                         overflow="fold")
    for c in r.changes[:MAX_POINTS]:
        table.add_row(*point_row(c))
    from rich.markup import escape

    return [table] + [f"NOTE: {escape(line)}" for line in r.barely] + points_table(r)


def points_table(r: Reading) -> list[Any]:
    """Points a game by source: each `add` to the counter the game is ranked by."""
    from rich.table import Table

    if not r.points:
        return []
    table = Table(title="points a game by source (each line that adds to the score)")
    for title in ("source", "base", "variant", "difference (95%)", "p"):
        table.add_column(title, justify="left" if title == "source" else "right",
                         overflow="fold")
    for c in r.points[:MAX_POINTS]:
        table.add_row(*point_row(c))
    return [table]
