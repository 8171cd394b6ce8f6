"""What `rulesdsl simulate` prints: the figures of a run as tables, base and variants side
by side with their paired differences, and the same as JSON.

Stage: analysis (presentation). Every rate and mean is shown with its 95% interval in
parentheses. The JSON keeps the fields `simulate --json` always had (wins, win_rates,
draws, mean_decisions, mean_scores, limit_endings, seconds) and adds `figures`.
"""

from __future__ import annotations

from typing import Any

from ..agents.play import team_name
from ..intervals import Estimate
from .figures import Figures
from .show_reading import bots_lines, metrics_table, play_table, trust_lines
from .study import Outcome, StudyResult, Verdict

MAX_ENDINGS = 6  # the rules that ended most games, in the side-by-side table
ORDINALS = ["1st", "2nd", "3rd"] + [f"{n}th" for n in range(4, 17)]


def summary_json(o: Outcome) -> dict[str, Any]:
    f = o.figures
    n = max(f.games, 1)
    scores = [e.value for e in f.scores] if f.scores is not None else None
    out = {
        "file": o.path,
        "game": o.rules.name,
        "run": o.run.id,
        "games": f.games,
        "players": f.players,
        "agents": o.run.agents,
        "seed": o.run.seed,
        "wins": f.seat_wins,
        "win_rates": [w / n for w in f.seat_wins],
        "draws": f.games - round(f.decisive.value * f.games) if f.games else 0,
        "mean_decisions": f.length.value if f.games else 0.0,
        "mean_scores": scores,
        "limit_endings": round(f.timeouts.value * f.games) if f.games else 0,
        "seconds": round(o.seconds, 3),
        "figures": f.to_json(),
    }
    if f.teams is not None and f.team_wins is not None and f.team_share is not None:
        out["teams"] = f.teams
        out["team_wins"] = f.team_wins
        out["team_win_rates"] = [w / n for w in f.team_wins]
        out["team_win_intervals"] = [[e.low, e.high] for e in f.team_share]
        if scores is not None:  # teammates share their team's score
            out["team_mean_scores"] = [scores[team[0]] for team in f.teams]
    return out


def study_json(result: StudyResult) -> dict[str, Any]:
    bots = result.bots.to_json() if result.bots is not None else None
    if len(result.outcomes) == 1:
        out = summary_json(result.outcomes[0])
        out["db"] = result.db
        out["bots"] = bots
        return out
    return {"db": result.db, "files": [summary_json(o) for o in result.outcomes],
            "bots": bots, "comparisons": [verdict_json(v, result) for v in result.verdicts]}


def verdict_json(v: Verdict, result: StudyResult) -> dict[str, Any]:
    out = {"base": result.outcomes[0].run.id, "variant": v.variant, "metric": v.metric,
           "decision": v.decision, "games": v.games,
           "comparisons": [c.to_json() for c in v.comparisons]}
    if v.reading is not None:
        out["reading"] = v.reading.to_json()
    return out


def short(label: str, width: int = 60) -> str:
    """A rule line cut to a width, for tables and plots."""
    return label if len(label) <= width else label[:width - 3] + "..."


def pct(e: Estimate) -> str:
    return e.text(percent=True)


def run_tables(o: Outcome, agents: list[str]) -> list[Any]:
    """The tables and lines of one run, as rich renderables."""
    from rich.table import Table

    f = o.figures
    out: list[Any] = []
    table = Table(title=f"{o.rules.name}: {f.games} games, {f.players} players, agents "
                  f"{', '.join(agents)}")
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95%)", justify="right")
    if f.position_share is not None:
        table.add_column("turn order", justify="right")
        table.add_column("win rate by turn order", justify="right")
    if f.scores is not None:
        table.add_column("mean score", justify="right")
    for p in range(f.players):
        row = [str(p + 1), str(f.seat_wins[p]), pct(f.seat_share[p])]
        if f.position_share is not None:
            row += [ORDINALS[p], pct(f.position_share[p])]
        if f.scores is not None:
            row.append(f.scores[p].text())
        table.add_row(*row)
    out.append(table)
    if f.teams is not None and f.team_share is not None and f.team_wins is not None:
        teams = Table(title="teams (a team's players share its place and its score)")
        for title in ("team", "wins", "win rate (95%)"):
            teams.add_column(title, justify="left" if title == "team" else "right")
        for k, team in enumerate(f.teams):
            teams.add_row(team_name(k, team), str(f.team_wins[k]), pct(f.team_share[k]))
        out.append(teams)
    if f.agent_share is not None and f.agent_even is not None:
        agents_table = Table(title="by agent (the wins of the seats each plays)")
        for title in ("agent", "win share (95%)", "in an even game"):
            agents_table.add_column(title, justify="left" if title == "agent" else "right")
        for name, est in f.agent_share.items():
            agents_table.add_row(name, pct(est), f"{f.agent_even[name]:.1%}")
        out.append(agents_table)
    draws = f.games - round(f.decisive.value * f.games)
    out.append(f"draws {draws} ({draws / max(f.games, 1):.1%}); {f.length.value:.1f} "
               f"decisions a game; {f.games / max(o.seconds, 1e-9):.0f} games/s "
               f"({o.seconds:.2f} s)")
    metrics = Table(title="balance (95% intervals; a shared first place counts 1/k each)")
    metrics.add_column("figure")
    metrics.add_column("value", justify="right")
    rows = [("decisive (a sole winner)", pct(f.decisive)),
            ("drawish (first place shared)", pct(f.draws)),
            ("stopped at the limit", pct(f.timeouts)),
            ("balance by seat (1 = even)", f.balance.text(digits=3))]
    if f.position_balance is not None and f.position_share is not None:
        rows += [("balance by turn order", f.position_balance.text(digits=3)),
                 ("first player's win rate", pct(f.position_share[0]))]
    q = f.length_quantiles
    rows.append(("decisions a game", f"{f.length.text()}; median {q[2]:g}, "
                 f"quartiles {q[1]:g}-{q[3]:g}, {q[0]:g} to {q[4]:g}"))
    if f.margin is not None:
        rows.append(("winning margin (best - second)", f.margin.text()))
    for label, value in rows:
        metrics.add_row(label, value)
    out.append(metrics)
    out.append(_endings(f))
    if f.stats:
        out.append(_stats(f))
    return out


def _endings(f: Figures) -> Any:
    from rich.table import Table

    table = Table(title="how the games ended")
    table.add_column("rule", overflow="fold")
    table.add_column("games", justify="right")
    table.add_column("share (95%)", justify="right")
    for label, est in f.endings.items():
        table.add_row(label, str(round(est.value * f.games)), pct(est))
    return table


def _stats(f: Figures) -> Any:
    from rich.table import Table

    table = Table(title="statistics the rule file declares (95% intervals)")
    table.add_column("statistic")
    table.add_column("all", justify="right")
    for p in range(f.players):
        table.add_column(f"seat {p + 1}", justify="right")
    for name, entry in f.stats.items():
        cells = [_stat_cell(entry["all"])]
        if entry["per"] == "player":
            cells += [_stat_cell(s) for s in entry["seat"]]
        else:
            cells += ["" for _ in range(f.players)]
        table.add_row(name, *cells)
    return table


def _stat_cell(summary: dict[str, Any]) -> str:
    est: Estimate = summary["estimate"]
    if est.n == 0:
        return "-"
    return pct(est) if summary["kind"] == "rate" else est.text(digits=2)


def side_by_side(result: StudyResult, names: list[str], agents: list[str]) -> list[Any]:
    """One column per rule file, then each variant's paired differences from the base."""
    from rich.table import Table

    outcomes = result.outcomes
    figs = [o.figures for o in outcomes]
    players = figs[0].players
    table = Table(title=f"{figs[0].games} games each, {players} players, same seeds, "
                  f"agents {', '.join(agents)}")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right", overflow="fold")
    for p in range(players):
        table.add_row(f"seat {p + 1} wins", *[pct(f.seat_share[p]) for f in figs])
    if all(f.position_share is not None for f in figs):
        for p in range(players):
            table.add_row(f"{ORDINALS[p]} in turn order wins",
                          *[pct(f.position_share[p]) for f in figs])  # type: ignore[index]
    table.add_row("draws", *[pct(f.draws) for f in figs])
    if any(f.scores is not None for f in figs):
        for p in range(players):
            table.add_row(f"seat {p + 1} mean score",
                          *[f.scores[p].text() if f.scores else "-" for f in figs])
    table.add_row("decisions a game", *[f.length.text() for f in figs])
    if any(f.timeouts.value for f in figs):
        table.add_row("games at the limit",
                      *[str(round(f.timeouts.value * f.games)) for f in figs])
    labels: list[str] = []
    for f in figs:  # how the games ended: a variant's inherited rules keep their lines
        labels += [label for label in f.endings if label not in labels]
    if len(labels) > 1:
        for label in labels[:MAX_ENDINGS]:
            table.add_row(f"ended by {short(label, 48)}",
                          *[pct(f.endings[label]) if label in f.endings else "-"
                            for f in figs])
    out: list[Any] = [table]
    if result.bots is not None:
        out += bots_lines(result.bots)
    for verdict, name in zip(result.verdicts, names[1:]):
        if verdict.reading is not None:
            out.append(metrics_table(verdict.reading, names[0], name))
            out += trust_lines(verdict.reading)
            out += play_table(verdict.reading)
            if verdict.decision is not None:
                out.append(decision_line(verdict, name, names[0]))
            continue
        diff = Table(title=f"{name} - {names[0]}: paired differences on the same seeds "
                     "(95% intervals, paired t test)")
        diff.add_column("metric")
        diff.add_column(names[0], justify="right", overflow="fold")
        diff.add_column(name, justify="right", overflow="fold")
        diff.add_column("difference", justify="right")
        diff.add_column("p", justify="right")
        for c in verdict.comparisons:
            mark = " *" if c.metric == verdict.metric else ""
            diff.add_row(c.metric + mark, c.base.text(digits=3), c.variant.text(digits=3),
                         c.difference.text(digits=3), f"{c.p:.3g}")
        out.append(diff)
        if verdict.decision is not None:
            out.append(decision_line(verdict, name, names[0]))
    return out


def decision_line(v: Verdict, name: str, base: str) -> str:
    said = {"higher": f"{name} is higher than {base}",
            "lower": f"{name} is lower than {base}",
            "same": f"no difference as large as the one asked for between {name} and {base}",
            "undecided": "the budget of games ran out before the test decided"}
    return f"sequential test on {v.metric}: {said[v.decision or 'undecided']} " \
           f"(after {v.games} games)"
