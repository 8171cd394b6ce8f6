"""What `rulesdsl check` reports of a file: its syntax and checks, then its worked
examples, and with `--play`, the errors of games of random bots.

Stage: validate (a tool above the pipeline: it loads through `loader`, runs the examples on
the run side and plays games with `play_check`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, RulesError
from ..interpreter.examples import run_examples as run
from ..interpreter.game import Rules
from ..loader import build, collector_paused, named_path
from ..resolve.variants import Resolved, resolve


def check_file(path: str | Path, run_examples: bool = True,
               overrides: dict[str, Any] | None = None, play: int = 0,
               records: str | Path | None = ".", include: Iterable[str | Path] = ()
               ) -> tuple[list[Diagnostic], dict[str, str]]:
    """All diagnostics of a file (or a shipped game, by name, as `load` takes it): syntax,
    checks, then (if those pass) its examples, and with `play`, the errors of that many
    games of random bots per number of players (their records written into `records`).
    `overrides` and `include` as `load` takes them."""
    with collector_paused():
        try:
            resolved = resolve(named_path(path), include=include)
        except RulesError as err:
            return err.diagnostics, err.sources
        try:
            rules = build(resolved, overrides, include=include)
        except RulesError as err:
            return err.diagnostics, resolved.sources
    return _examine(rules, run_examples, str(path), play, records), resolved.sources


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
    """The failures of the file's examples, and of `play` games per number of players."""
    diags = run(rules) if run_examples else []
    if play:
        from . import play_check

        diags += play_check(rules, path or rules.path, play, records=records)
    return diags


__all__ = ["check_file", "check_resolved"]
