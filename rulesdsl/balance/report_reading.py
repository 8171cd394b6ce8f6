"""The parts of the report page that say how far to trust a study, and how play changed:
the bots and their strength, each variant's metrics (the chosen one marked, the others
Holm-corrected), pairing's gain, the games needed, the rules that fired, and the plots
with base and variant overlaid.

Stage: analysis (output, beside report.py). Every string is escaped; labels are rule lines
of the files studied, never their whole text.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .changes import PointChange
from .compare import metric_value
from .games import GameRecord
from .reading import Bots, Reading
from .trust import p_text

BASE_COLOUR, VARIANT_COLOUR = "#4c72b0", "#dd8452"
MAX_PLOTTED = 12  # the points drawn in the plot of how play changed


def esc(text: object) -> str:
    return html.escape(str(text))


def table(head: list[str], rows: list[list[str]], marked: set[int] | None = None,
          mark: str = "chosen") -> str:
    """A table; the rows numbered in `marked` carry the class `mark`."""
    marked = marked or set()
    out = ["<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f" class={mark}" if i in marked else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
    return "\n".join(out) + "</table>"


def bots_html(b: Bots) -> str:
    seats = ", ".join(f"seat {p + 1}: {a}" for p, a in enumerate(b.seats))
    parts = ["<h3>The bots</h3>",
             f"<p>{esc(seats)}{esc(' (rotated over the seats)' if b.rotated else '')}.</p>"]
    if b.strengths:
        parts.append(table(["agent", "win share against random bots (95%)", "even game",
                            "games", "measured by"],
                           [[s.agent, s.share.text(True), f"{s.even:.1%}", str(s.share.n),
                             s.source] for s in b.strengths]))
    elif any(a != "random" for a in b.seats):
        parts.append("<p class=note>The bots' strength was not measured (simulate "
                     "--calibrate 0).</p>")
    parts += [f"<p class=warn>Warning: {esc(w)}</p>" for w in b.warnings]
    return "\n".join(parts)


def metrics_html(r: Reading, names: tuple[str, str]) -> str:
    rows, marked = [], set()
    for i, c in enumerate(r.comparisons):
        t = r.trust(c.metric)
        if t.chosen:
            marked.add(i)
        rows.append([c.metric + (" ★ chosen in advance" if t.chosen else ""),
                     c.base.text(digits=3), c.variant.text(digits=3),
                     c.difference.text(digits=3),
                     "-" if t.relative is None else f"{t.relative:+.1%}",
                     p_text(t.p), "-" if t.chosen else p_text(t.adjusted),
                     f"±{t.detectable:.3g}"])
    head = ["metric", names[0], names[1], "difference (95%)", "relative", "p",
            "p, Holm-corrected", "detectable at 80% power"]
    t = r.trust(r.chosen)
    gain = f"{t.gain:.1f} times the games" if t.gain is not None else "- (no spread)"
    lines = [f"{r.kept} of {r.games} seeds kept every seat's rank in both files; on "
             f"{r.chosen}, unpaired runs would need {gain} for the same interval (the "
             "variances of the two files added, over the variance of the paired "
             "difference)."]
    if r.needed is not None:
        lines.append(f"To find a difference of {r.delta:g} in {r.chosen} at 80% power "
                     f"(alpha 0.05, two-sided): about {r.needed:,} games a file; these "
                     f"{r.games} find ±{t.detectable:.3g}.")
    return ("<p class=note>★ marks the metric chosen before the games (simulate --metric): "
            "its p-value stands as it is. The other metrics were looked at after, so their "
            "p-values are corrected for testing many (Holm).</p>" + table(head, rows, marked)
            + "".join(f"<p>{esc(line)}</p>" for line in lines))


def play_html(r: Reading, players: int) -> str:
    if not r.changes:
        return ("<h3>How play changed</h3><p class=note>Not counted: the games were played "
                "with --no-coverage, or before simulate counted what fired.</p>")
    parts = ["<h3>How play changed</h3>",
             "<p class=note>Times a game each rule, branch of an <code>if</code>, option, "
             "trigger and turn fired, base and variant, paired on the same seeds; the "
             "variant's changes first, then the largest changes. By seat: the hits that "
             "followed each seat's decisions.</p>"]
    parts += [f"<p class=warn>{esc(line)}</p>" for line in r.barely]
    head = ["rule line", "", "base", "variant", "difference (95%)", "p"] + \
        [f"seat {p + 1} (base → variant)" for p in range(players)] + ["by agent (variant)"]
    parts.append(table(head, [_point(c, players) for c in r.changes],
                       {i for i, c in enumerate(r.changes) if c.changed}, "changed"))
    if r.points:
        parts += ["<h3>Points by source</h3>",
                  "<p class=note>Points a game each line that adds to the score (the counter "
                  "the game is ranked by) gave, base and variant; by seat: the points that "
                  "followed each seat's decisions.</p>",
                  table(head, [_point(c, players) for c in r.points],
                        {i for i, c in enumerate(r.points) if c.changed}, "changed")]
    return "\n".join(parts)


def _point(c: PointChange, players: int) -> list[str]:
    seats = [f"{_at(c.base_seats, p)} → {_at(c.variant_seats, p)}" for p in range(players)]
    agents = ", ".join(f"{a} {v:.2f}" for a, v in sorted(c.variant_agents.items()))
    return [c.label, c.verdict(), f"{c.base.value:.2f}", f"{c.variant.value:.2f}",
            c.difference.text(digits=2), p_text(c.p), *seats, agents]


def _at(values: list[float], p: int) -> str:
    return f"{values[p]:.2f}" if p < len(values) else "-"


def overlay_plots(plt: Any, names: tuple[str, str], a: list[GameRecord],
                  b: list[GameRecord], r: Reading, out: Path, stem: str
                  ) -> list[tuple[str, str]]:
    """Base and variant in one plot each: game length (and turns), win share by seat, and
    the points whose firing changed most."""
    made: list[tuple[str, str]] = []

    def save(fig: Any, name: str, caption: str) -> None:
        fig.tight_layout()
        fig.savefig(out / f"{stem}-{name}.png", dpi=90)
        plt.close(fig)
        made.append((f"{stem}-{name}.png", caption))

    lengths = [("length", "decisions in a game")]
    if all(g.turns for g in a + b):
        lengths.append(("turns", "turns in a game"))
    fig, axes = plt.subplots(1, len(lengths), figsize=(5 * len(lengths), 3.5), squeeze=False)
    for ax, (metric, label) in zip(axes[0], lengths):
        for records, name, colour in ((a, names[0], BASE_COLOUR), (b, names[1], VARIANT_COLOUR)):
            values = [v for g in records if (v := metric_value(metric, g)) is not None]
            ax.hist(values, bins=min(30, max(5, len(values) // 10)), alpha=0.55,
                    color=colour, label=name)
        ax.set_xlabel(label)
        ax.set_ylabel("games")
        ax.legend()
    save(fig, "length", "Game length, base and variant overlaid (the same seeds).")

    players = len(a[0].ranking)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    seats = [c for c in r.comparisons if c.metric.startswith("seat:")]
    xs = list(range(len(seats)))
    for shift, side, name, colour in ((-0.2, "base", names[0], BASE_COLOUR),
                                      (0.2, "variant", names[1], VARIANT_COLOUR)):
        ests = [getattr(c, side) for c in seats]
        ax.bar([x + shift for x in xs], [e.value for e in ests], width=0.4, color=colour,
               label=name, yerr=[[e.value - e.low for e in ests],
                                 [e.high - e.value for e in ests]], capsize=3)
    ax.axhline(1 / players, color="#c44e52", linestyle="--", linewidth=1)
    ax.set_xticks(xs, [f"seat {x + 1}" for x in xs])
    ax.set_ylabel("share of wins (95%)")
    ax.legend()
    save(fig, "wins", "Win share by seat, base and variant side by side; the dashed line "
         "is an even game.")

    if r.changes:
        shown = r.changes[:MAX_PLOTTED]
        fig, ax = plt.subplots(figsize=(8, 1 + 0.45 * len(shown)))
        ys = list(range(len(shown)))
        ax.barh([y - 0.2 for y in ys], [c.base.value for c in shown], height=0.4,
                color=BASE_COLOUR, label=names[0])
        ax.barh([y + 0.2 for y in ys], [c.variant.value for c in shown], height=0.4,
                color=VARIANT_COLOUR, label=names[1])
        ax.set_yticks(ys, [_short(c.label) for c in shown])
        ax.invert_yaxis()
        ax.set_xlabel("times a game")
        ax.legend()
        save(fig, "fired", "How often each rule line fired a game, base and variant (the "
             "variant's changes first).")
    return made


def _short(label: str, width: int = 40) -> str:
    return label if len(label) <= width else label[:width - 3] + "..."
