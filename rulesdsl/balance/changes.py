"""How play changed between a base and a variant: how often each rule, branch, option,
trigger and turn fired, game by game, in both; the variant's changed rules first, with a
plain word when one barely fires.

Stage: analysis. The counts come from the games' coverage (fired.py, stored in the `fired`
table). A base's point and a variant's are the same point when their kind, block of rules,
name and rule line agree (the n-th of several alike with the n-th); a point only one file
has (a line the variant wrote) is compared with none. The difference of a point is paired
game by game on the same seeds, as every figure of a comparison is (compare.py), and the
points are listed by the size of that difference against its spread (|mean| / sd), the
largest first, points that never fired in either file left out.

What the variant changed is read from the two files (the declarations `rulesdsl diff`
shows as changed, replaced or added) and stored with the comparison; a point is the
variant's own when it lies in a changed rule, or in a file the base does not have.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .. import intervals as I
from ..intervals import Estimate
from .games import GameRecord
from .store import Store

BARELY = 0.1  # a changed point firing less than once in ten games "barely fires"

Key = tuple[str, str, str, str, int]  # kind, block, name, rule line, which of those alike


def changed_keys(base: str, variant: str, include: Iterable[str] = ()) -> list[tuple[str, str]]:
    """The declarations (word, name) the variant changes, replaces or adds: what
    `rulesdsl diff BASE VARIANT` lists."""
    from ..resolve.variants import declarations, hidden_rule, resolve, same

    old = declarations(resolve(base, include=include).file)
    new = declarations(resolve(variant, include=include).file)
    keys = [key for key, decl in new.items()
            if not hidden_rule(key) and (key not in old or not same(old[key], decl))]
    return keys + [("uses", name) for name in _users(new, keys)]


def _users(decls: dict[tuple[str, str], Any], changed: list[tuple[str, str]]) -> list[str]:
    """The rules that read a changed constant, setting or definition (through other
    definitions too): what a changed value changes in play."""
    values = {name for word, name in changed if word in ("const", "setting", "define")}
    defines = {name: d for (word, name), d in decls.items() if word == "define"}
    grew = True
    while grew:  # a definition that reads a changed one is changed too
        more = {name for name, d in defines.items() if name not in values
                and _names(d.body) & values}
        values |= more
        grew = bool(more)
    return sorted(name or word for (word, name), d in decls.items()
                  if word in ("rule", "setup", "play") and (word, name) not in changed
                  and _names(d.body) & values)


def _names(node: Any) -> set[str]:
    """Every name and function a tree reads."""
    from .. import ast as A

    if isinstance(node, A.Name):
        return {node.name}
    if isinstance(node, A.Call):
        return {node.func} | _names(node.args)
    if isinstance(node, A.Node):
        return set().union(*(_names(getattr(node, k)) for k in type(node).model_fields
                             if k != "span"))
    if isinstance(node, (list, tuple)):
        return set().union(*(_names(x) for x in node))
    return set()


@dataclass
class Firing:
    """One point of one run: its counts per game, and per seat and per agent."""

    key: Key
    label: str                      # as people read it: `rule income(): if whisky > 0:`
    file: str
    per_game: dict[int, float] = field(default_factory=dict)   # game number -> hits
    seat_hits: list[float] = field(default_factory=list)      # summed over the games
    agent_hits: dict[str, float] = field(default_factory=dict)

    def mean(self, games: list[int]) -> Estimate:
        return I.mean([self.per_game.get(n, 0.0) for n in games])

    def in_games(self, games: list[int]) -> Estimate:
        """The share of games it fired in at least once."""
        return I.rate(sum(1 for n in games if self.per_game.get(n)), len(games))


@dataclass
class PointChange:
    """A point compared: base and variant per game, the paired difference, its p-value,
    whether the variant changed it, and the per-seat and per-agent means of each side."""

    label: str
    kind: str
    base: Estimate
    variant: Estimate
    difference: Estimate
    p: float
    effect: float                 # |mean difference| / its standard deviation
    changed: bool                 # the variant changed it, or a value it reads
    base_seats: list[float]
    variant_seats: list[float]
    base_agents: dict[str, float]
    variant_agents: dict[str, float]
    reads: bool = False           # changed only through a value it reads


    @property
    def barely(self) -> bool:
        return self.changed and self.variant.value < BARELY

    def verdict(self) -> str:
        if not self.changed:
            return ""
        word = "reads a changed value" if self.reads else "changed"
        if self.variant.value == 0:
            return f"{word}, and never fired"
        if self.barely:
            return f"{word}, and barely fires"
        return word


def firings(store: Store, run: int, records: list[GameRecord]) -> dict[Key, Firing]:
    """Every point of a run with what it counted in these games (the games without
    coverage left out)."""
    rows = store.points(run)
    fired = store.fired(run, max((g.number for g in records), default=0))
    alike: dict[tuple[str, str, str, str], int] = {}
    by_number: dict[int, Firing] = {}
    out: dict[Key, Firing] = {}
    for number, kind, block, name, text, file, _line in rows:
        whole = kind in ("rule", "play", "setup")  # `replace rule x():` is still rule x
        base_key = (kind, block, name, "" if whole else text)
        alike[base_key] = alike.get(base_key, 0) + 1
        key: Key = (*base_key, alike[base_key])
        label = f"{kind} {block}" if kind == "rule" else text if whole or not block \
            else f"{block}: {text}"
        players = len(records[0].ranking) if records else 0
        f = Firing(key, label, file, seat_hits=[0.0] * players)
        by_number[number] = f
        out[key] = f
    for g in records:
        counts = fired.get(g.number)
        if counts is None:
            continue
        for number, row in counts.items():
            point = by_number.get(number)
            if point is None:
                continue
            point.per_game[g.number] = float(sum(row))
            for seat, hits in enumerate(row[:-1]):
                point.seat_hits[seat] += hits
                agent = g.agents[seat]
                point.agent_hits[agent] = point.agent_hits.get(agent, 0.0) + hits
    return out


def counted(store: Store, run: int, records: list[GameRecord]) -> list[int]:
    """The numbers of the games whose coverage was counted."""
    have = store.fired(run, max((g.number for g in records), default=0))
    return [g.number for g in records if g.number in have]


def _seat_means(f: Firing | None, games: int) -> list[float]:
    return [h / games for h in f.seat_hits] if f is not None and games else []


def _agent_means(f: Firing | None, records: list[GameRecord]) -> dict[str, float]:
    if f is None:
        return {}
    seats: dict[str, int] = {}
    for g in records:
        for a in g.agents:
            seats[a] = seats.get(a, 0) + 1
    return {a: f.agent_hits.get(a, 0.0) / n for a, n in seats.items()}


def play_changes(store: Store, base_run: int, variant_run: int, base: list[GameRecord],
                 variant: list[GameRecord]) -> list[PointChange]:
    """Every point that fired in either run, compared on the games both counted: the
    variant's changed points first (those firing most first), then the others by the size
    of their change."""
    games = sorted(set(counted(store, base_run, base)) & set(counted(store, variant_run,
                                                                       variant)))
    if not games:
        return []
    mine = firings(store, base_run, [g for g in base if g.number in set(games)])
    theirs = firings(store, variant_run, [g for g in variant if g.number in set(games)])
    stored = store.changed(base_run, variant_run)
    changed_blocks = {name if word not in ("setup", "play") else word
                      for word, name in stored if word in ("rule", "setup", "play")}
    users = {name for word, name in stored if word == "uses"}
    base_files = {f.file for f in mine.values()}
    empty = Firing(("", "", "", "", 0), "", "")
    out = []
    for key in list(mine) + [k for k in theirs if k not in mine]:
        a, b = mine.get(key), theirs.get(key)
        xs = [(a or empty).per_game.get(n, 0.0) for n in games]
        ys = [(b or empty).per_game.get(n, 0.0) for n in games]
        own = b is not None and _own(b, key, changed_blocks | users, base_files)
        reads = own and b is not None and not _own(b, key, changed_blocks, base_files)
        if not any(xs) and not any(ys) and not own:
            continue
        diffs = [y - x for x, y in zip(xs, ys)]
        diff, p = I.paired(diffs)
        _, sd = I.mean_sd(diffs)
        effect = abs(diff.value) / sd if sd > 0 else (math.inf if diff.value else 0.0)
        shown = b or a
        assert shown is not None
        out.append(PointChange(shown.label, key[0], I.mean(xs), I.mean(ys), diff, p, effect,
                               own,
                               _seat_means(a, len(games)), _seat_means(b, len(games)),
                               _agent_means(a, base), _agent_means(b, variant), reads))
    out.sort(key=lambda c: (not c.changed, -c.variant.value if c.changed else -c.effect,
                            -abs(c.difference.value)))
    return out


def _own(f: Firing, key: Key, changed_blocks: set[str], base_files: set[str]) -> bool:
    """Whether the variant changed this point: it lies in a changed rule, or in a file the
    base does not have."""
    return key[1] in changed_blocks or f.file not in base_files


def barely_lines(changes: list[PointChange]) -> list[str]:
    """The plain sentences a report starts its section with: each changed point that
    barely fired, or never did."""
    out = []
    for c in changes:
        if c.changed and c.barely:
            how = "never fired" if c.variant.value == 0 else \
                f"fired {c.variant.value:.2f} times a game"
            what = f"what '{c.label}' reads" if c.reads else f"'{c.label}'"
            out.append(f"The variant changes {what}, but it {how} in the variant's "
                       f"{c.variant.n} games: the figures cannot show what this change "
                       "does. Bots that aim for it, or more games, are needed to tell.")
    return out

