"""`rulesdsl report DB`: plots of a database of simulations (a PNG per figure, matplotlib)
and an HTML page that holds them with the figures' tables.

Stage: analysis (output). For each run: win share by seat and by place in the turn order
with 95% error bars, how the games ended, the length of the games, the scores and the
winning margin, and the statistics the rule file declares; for each base and variant
compared (`simulate BASE VARIANT`): the paired differences of every metric with their 95%
intervals. Everything on the page comes from the database: the text of the rule files is
never shown (only their names), and every string is escaped.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .. import intervals as I
from ..intervals import Estimate
from .compare import compare, default_metric, metrics_for
from .figures import Figures, figures
from .reading import DELTA, bots, reading
from .report_reading import bots_html, metrics_html, overlay_plots, play_html
from .show import short
from .store import Run, Store, bad_db

STYLE = """body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .6em;
text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%}
.note{color:#555}.warn{background:#fdecea;border-left:4px solid #c44e52;padding:.4em .8em}
tr.chosen td{font-weight:bold;background:#fff6d5}tr.changed td{background:#eef3fb}"""


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise bad_db("the report's plots need matplotlib: pip install 'rulesdsl[report]'"
                     ) from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def _bars(ax: Any, labels: list[str], ests: list[Estimate], title: str, ylabel: str,
          at: float | None = None) -> None:
    """Bars with their 95% intervals as error bars (and a line at the even value)."""
    values = [e.value for e in ests]
    errs = [[e.value - e.low for e in ests], [e.high - e.value for e in ests]]
    ax.bar(labels, values, yerr=errs, capsize=4, color="#4c72b0")
    if at is not None:
        ax.axhline(at, color="#c44e52", linestyle="--", linewidth=1)
    ax.set_title(title)
    ax.set_ylabel(ylabel)


def run_plots(plt: Any, run: Run, f: Figures, records: list, out: Path) -> list[tuple[str, str]]:
    """The PNGs of one run: (file name, caption) each."""
    made: list[tuple[str, str]] = []
    stem = f"run{run.id}"

    def save(fig: Any, name: str, caption: str) -> None:
        fig.tight_layout()
        fig.savefig(out / f"{stem}-{name}.png", dpi=90)
        plt.close(fig)
        made.append((f"{stem}-{name}.png", caption))

    seats = [f"seat {p + 1}" for p in range(f.players)]
    panels = 2 if f.position_share is not None else 1
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 3.5), squeeze=False)
    _bars(axes[0][0], seats, f.seat_share, "win share by seat", "share of wins (95%)",
          1 / f.players)
    if f.position_share is not None:
        places = [f"{p + 1}{'st' if p == 0 else 'nd' if p == 1 else 'rd' if p == 2 else 'th'}"
                  for p in range(f.players)]
        _bars(axes[0][1], places, f.position_share, "win share by turn order", "", 1 / f.players)
    save(fig, "wins", "Win share by seat and by place in the turn order (a shared first "
         "place counts 1/k to each); the dashed line is an even game; bars: 95% intervals.")

    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.45 * max(1, len(f.endings))))
    labels = [short(k) for k in f.endings]
    ests = list(f.endings.values())
    ax.barh(labels, [e.value for e in ests], xerr=[[e.value - e.low for e in ests],
                                                   [e.high - e.value for e in ests]],
            capsize=3, color="#55a868")
    ax.invert_yaxis()
    ax.set_xlabel("share of games (95%)")
    ax.set_title("how the games ended")
    save(fig, "endings", "How the games ended: the rule that ended each game.")

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([g.decisions for g in records], bins=min(40, max(5, len(records) // 10)),
            color="#8172b2")
    ax.axvline(f.length.value, color="#c44e52", linewidth=1)
    ax.set_xlabel("decisions in a game")
    ax.set_ylabel("games")
    ax.set_title(f"game length: mean {f.length.text()}")
    save(fig, "length", "Game length in decisions; the line is the mean.")

    if f.scores is not None:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.5), squeeze=False)
        axes[0][0].boxplot([[g.scores[p] for g in records] for p in range(f.players)])
        axes[0][0].set_xticks(range(1, f.players + 1), seats)
        axes[0][0].set_title("scores by seat")
        margins = [_margin(g.scores) for g in records]
        axes[0][1].hist(margins, bins=min(30, max(5, len(set(margins)))), color="#dd8452")
        axes[0][1].set_title("winning margin (best - second)")
        save(fig, "scores", "Scores by seat, and the margin of the best over the second.")

    stats = [(name, e) for name, e in f.stats.items() if e["all"]["estimate"].n]
    if stats:
        fig, axes = plt.subplots(1, len(stats), figsize=(4 * len(stats), 3.5), squeeze=False)
        for ax, (name, entry) in zip(axes[0], stats):
            if entry["per"] == "player":
                _bars(ax, seats, [s["estimate"] for s in entry["seat"]], name, "mean (95%)")
            else:
                _bars(ax, ["all"], [entry["all"]["estimate"]], name, "mean (95%)")
        save(fig, "stats", "The statistics the rule file declares: means (or rates) with "
             "their 95% intervals.")
    return made


def _margin(scores: list[int]) -> float:
    top = sorted(scores, reverse=True)
    return top[0] - top[1] if len(top) > 1 else 0


def comparison_plot(plt: Any, names: tuple[str, str], comparisons: list, out: Path,
                    base: int, variant: int) -> tuple[str, str]:
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.4 * len(comparisons)))
    ys = list(range(len(comparisons)))
    for y, c in zip(ys, comparisons):
        d = c.difference
        scale = max(abs(c.base.value), 1e-9) if c.metric in ("length", "turns", "margin") or \
            c.metric.startswith("stat:") else 1.0
        ax.errorbar([d.value / scale], [y], xerr=[[(d.value - d.low) / scale],
                                                   [(d.high - d.value) / scale]],
                    fmt="o", capsize=3, color="#c44e52" if c.p < 0.05 else "#4c72b0")
    ax.axvline(0, color="#888", linewidth=1)
    ax.set_yticks(ys, [c.metric + (" (relative)" if c.metric in ("length", "turns", "margin") or
                                   c.metric.startswith("stat:") else "") for c in comparisons])
    ax.invert_yaxis()
    ax.set_title(f"{names[1]} - {names[0]}, paired on the same seeds")
    fig.tight_layout()
    name = f"compare{base}-{variant}.png"
    fig.savefig(out / name, dpi=90)
    plt.close(fig)
    return name, ("Paired differences with 95% intervals (red: p < 0.05); lengths, margins "
                  "and statistics relative to the base's mean.")


def _table(head: list[str], rows: list[list[str]]) -> str:
    esc = html.escape
    out = ["<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
    return "\n".join(out) + "</table>"


def _images(images: list[tuple[str, str]]) -> str:
    return "\n".join(f'<figure><img src="{html.escape(n)}" alt="{html.escape(c)}">'
                     f"<figcaption class=note>{html.escape(c)}</figcaption></figure>"
                     for n, c in images)


def _comparison(plt: Any, db: str | Path, base: Run, variant: Run, a: list, b: list,
                names: tuple[str, str], out: Path) -> str:
    """A base against a variant: the bots, the metrics and how far to trust them, how
    play changed, and the plots (reading.py, report_reading.py)."""
    with Store(db, create=False) as store:
        chosen, delta = store.chosen(base.id, variant.id) or (default_metric(a), DELTA)
        shown = metrics_for(a, base.stats)
        if chosen not in shown:
            shown.insert(0, chosen)
        comparisons = [compare(a, b, m) for m in shown]
        r = reading(store, base.id, variant.id, a, b, comparisons, chosen, delta)
        who = bots(store, base)
    stem = f"compare{base.id}-{variant.id}"
    return "\n".join([bots_html(who), "<h3>What changed, and how far to trust it</h3>",
                      metrics_html(r, names),
                      _images([comparison_plot(plt, names, comparisons, out, base.id,
                                               variant.id)]),
                      play_html(r, base.players),
                      _images(overlay_plots(plt, names, a, b, r, out, stem))])


def _run_section(plt: Any, run: Run, f: Figures, records: list, out: Path,
                 who: Any) -> list[str]:
    parts = [f"<h2>Run {run.id}: {html.escape(run.game)} ({html.escape(run.name())})</h2>",
             f"<p>{f.games} games, {run.players} players, agents "
             f"{html.escape(', '.join(run.agents))}, seed {run.seed}"
             f"{', seats rotated' if run.rotations > 1 else ''}.</p>"]
    if who is not None:
        parts.append(bots_html(who))
    if not f.games:
        return parts + ["<p>No games stored yet.</p>"]
    rows = [[f"seat {p + 1}", f.seat_share[p].text(True),
             f.position_share[p].text(True) if f.position_share else "-"]
            for p in range(run.players)]
    parts.append(_table(["", "win share", "by place in turn order"], rows))
    metrics = [["decisive (a sole winner)", f.decisive.text(True)],
               ["drawish (first place shared)", f.draws.text(True)],
               ["stopped at the limit", f.timeouts.text(True)],
               ["balance by seat (1 = even)", f.balance.text(digits=3)],
               ["decisions a game", f.length.text()]]
    if f.position_balance is not None:
        metrics.insert(4, ["balance by turn order", f.position_balance.text(digits=3)])
    if all(g.turns for g in records):
        metrics.append(["turns a game", I.mean([float(g.turns) for g in records]).text()])
    if f.margin is not None:
        metrics.append(["winning margin", f.margin.text()])
    parts.append(_table(["figure", "value (95%)"], metrics))
    parts.append(_images(run_plots(plt, run, f, records, out)))
    return parts


def write_report(db: str | Path, out: Path, exact: bool = False) -> Path:
    """Write `out`/index.html and its PNGs; returns the page's path. The comparisons come
    first (what a variant does, and how far to trust it), then each run's own figures."""
    plt = _plt()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise bad_db(f"cannot write the report to {out}: {err.strerror or err}") from None
    parts = [f"<h1>Balance report: {html.escape(Path(db).name)}</h1>",
             "<p class=note>Every figure carries its 95% interval (rates: "
             f"{'Clopper-Pearson' if exact else 'Wilson'}; means: Student t). A first place "
             "shared by k players counts 1/k of a win to each.</p>"]
    with Store(db, create=False) as store:
        runs = store.study_runs()
        if not runs:
            raise bad_db(f"{db} holds no runs: fill it with rulesdsl simulate --db {db}")
        records = {run.id: store.games(run.id) for run in runs}
        pairs = store.comparisons()
        compared = {r for pair in pairs for r in pair}
        alone = {run.id: bots(store, run) for run in runs if run.id not in compared}
    by_id = {run.id: run for run in runs}
    for base, variant in pairs:
        a, b = records[base], records[variant]
        upto = min(len(a), len(b))
        a, b = a[:upto], b[:upto]
        if not upto:
            continue
        names = (by_id[base].name(), by_id[variant].name())
        parts.append(f"<h2>{html.escape(names[1])} against {html.escape(names[0])}</h2>")
        parts.append(f"<p>{upto} games each on the same seeds; the difference is the "
                     "variant's figure less the base's, game by game (paired t test).</p>")
        parts.append(_comparison(plt, db, by_id[base], by_id[variant], a, b, names, out))
    for run in runs:
        f = figures(records[run.id], run.players, run.stats, exact)
        parts += _run_section(plt, run, f, records[run.id], out, alone.get(run.id))
    page = out / "index.html"
    page.write_text("<!doctype html>\n<html><head><meta charset=utf-8><title>Balance report"
                    f"</title><style>{STYLE}</style></head><body>\n" + "\n".join(parts) +
                    "\n</body></html>\n", encoding="utf-8")
    return page
