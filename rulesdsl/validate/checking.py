"""What `rulesdsl check` reports of a file: its syntax and checks, then its worked
examples, and with `--play`, the errors of games of random bots.

Stage: validate (a tool above the pipeline: it loads through `loader`, runs the examples on
the run side and plays games with `play_check`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError
from ..interpreter.examples import run_examples as run
from ..interpreter.game import Rules
from ..loader import build, collector_paused, named_path
from ..resolve.variants import Resolved, resolve


@dataclass
class Checked:
    """What `rulesdsl check` found of one file: the diagnostics, the files read, and (when
    it checked) what it checked, in words: "24 rules, 9 examples hold, 3 to 5 players"."""

    diagnostics: list[Diagnostic]
    sources: dict[str, str] = field(default_factory=dict)
    summary: str = ""


def check(path: str | Path, run_examples: bool = True,
          overrides: dict[str, Any] | None = None, play: int = 0,
          records: str | Path | None = ".", include: Iterable[str | Path] = ()) -> Checked:
    """All diagnostics of a file (or a shipped game, by name, as `load` takes it): syntax,
    checks, then (if those pass) its examples, and with `play`, the errors of that many
    games of random bots per number of players (their records written into `records`).
    `overrides` and `include` as `load` takes them."""
    with collector_paused():
        try:
            resolved = resolve(named_path(path), include=include)
        except RulesError as err:
            return Checked(err.diagnostics, err.sources)
        try:
            rules = build(resolved, overrides, include=include)
        except RulesError as err:
            return Checked(err.diagnostics, resolved.sources)
    diags = _examine(rules, run_examples, str(path), play, records)
    return Checked(diags, resolved.sources, summary(resolved, rules, run_examples, play))


def check_file(path: str | Path, run_examples: bool = True,
               overrides: dict[str, Any] | None = None, play: int = 0,
               records: str | Path | None = ".", include: Iterable[str | Path] = ()
               ) -> tuple[list[Diagnostic], dict[str, str]]:
    """`check`'s diagnostics and the files it read (the Python API's `check_file`)."""
    found = check(path, run_examples, overrides, play, records, include)
    return found.diagnostics, found.sources


def _counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n or 'no'} {word}s"


def summary(resolved: Resolved, rules: Rules, run_examples: bool, play: int) -> str:
    """What a check that passed went through: the rules, the examples (held, or not run),
    the numbers of players, and the games played (`--play`)."""
    items = resolved.file.items
    rules_count = sum(isinstance(d, A.RuleDecl) for d in items)
    examples = sum(isinstance(d, A.ExampleDecl) for d in items)
    low, high = rules.player_range
    parts = [_counted(rules_count, "rule")]
    if examples:
        parts.append(f"{_counted(examples, 'example')} "
                     f"{('hold' if examples > 1 else 'holds') if run_examples else 'not run'}")
    else:
        parts.append("no examples")
    parts.append(_counted(low, "player") if low == high else f"{low} to {high} players")
    if play:
        parts.append(f"{_counted(play, 'game')} of random bots for each")
    return ", ".join(parts)


def check_resolved(resolved: Resolved, run_examples: bool = True,
                   overrides: dict[str, Any] | None = None, path: str = "", play: int = 0,
                   records: str | Path | None = ".") -> list[Diagnostic]:
    """The diagnostics of a parsed and merged file: its checks, then (if those pass) its
    examples and, with `play`, the errors of that many games of random bots per number of
    players (their records written into `records`)."""
    try:
        with collector_paused():
            rules = build(resolved, overrides)
    except RulesError as err:
        return err.diagnostics
    return _examine(rules, run_examples, path, play, records)


def _examine(rules: Rules, run_examples: bool, path: str, play: int,
             records: str | Path | None) -> list[Diagnostic]:
    """The checker's warnings, the failures of the file's examples, and of `play` games
    per number of players."""
    diags = [d for d in rules.analysis.diagnostics if d.severity != "error"]  # W001
    diags += run(rules) if run_examples else []
    if play:
        from . import play_check

        diags += play_check(rules, path or rules.path, play, records=records)
    return diags


__all__ = ["Checked", "check", "check_file", "check_resolved", "summary"]
