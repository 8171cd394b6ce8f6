"""Forced decisions: a decision with a single option, taken without asking a person.

Stage: run. A rule file says in its `display:` which such decisions a screen passes
(`pass forced`: every one; `pass forced in RULE [NAME]`: those of a rule, or of one choice
of it); a table or a command may choose otherwise (`Policy`). Passing is the screen's
business only: the step is taken as any other, so bots decide it (or rather, take its
only option) and records hold it.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from ..program.program import CHANCE, SITE, WHO, Program
from .state import State

# as the rule file says, every forced decision, or none
Policy = Literal["rules", "pass", "ask"]
POLICIES: tuple[Policy, ...] = ("rules", "pass", "ask")


def forced_sites(program: Program) -> frozenset[int]:
    """The places of decisions the rule file's `pass forced` lines name."""
    wanted = set(program.declared.display.forced)
    out = set()
    for n, site in enumerate(program.sites):
        if site.kind in ("roll", "die"):
            continue
        keys = {site.proc, f"{site.proc} {site.name}"} | {
            f"{site.proc} {oid}" for oid, _ in site.menu}
        if "" in wanted or keys & wanted:
            out.add(n)
    return frozenset(out)


class Deciding(Protocol):
    """What `passes` reads of a game (a `Game`: this module is below it, game.py asks it
    for `forced_sites`)."""

    st: State
    over: bool
    rules: Any   # its Rules: `forced_sites`

    def num_options(self) -> int: ...


def passes(game: Deciding, policy: Policy = "rules") -> bool:
    """Whether a screen takes the pending decision for the person who decides: it has a
    single option, and the policy (or, with "rules", the rule file) passes it."""
    p = game.st.pending
    if policy == "ask" or p is None or game.over or p[WHO] == CHANCE:
        return False
    if game.num_options() != 1:
        return False
    return policy == "pass" or p[SITE] in game.rules.forced_sites
