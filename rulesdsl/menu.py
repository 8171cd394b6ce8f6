"""The options of a decision at the terminal: listed, grouped when there are many, narrowed
by what the person types.

Stage: a tool (the terminal). A short list is numbered; a long one (Cronberg offers 68
crossings) is shown as groups, the options whose labels differ only in their last word
together ("place a token at: A1, A2, B3, ..."), so that the board stays on the screen. What
the person types picks an option by its number, its id or its whole label; any other word
(a coordinate, "tile 36") narrows the list to the options that name it, and when none does,
the answer says so and what the options are.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

LONG = 12  # more options than this are shown as groups


@dataclass(frozen=True)
class Choice:
    """One option as the terminal shows it: its number (from 1), id and label."""

    number: int
    id: str
    label: str


def listing(choices: list[Choice], width: int) -> list[str]:
    """The lines that show the options: each numbered, or, for a long list, grouped by
    what their labels share before their last word."""
    if len(choices) <= LONG:
        return _wrapped([f"  {c.number:>3}. {c.label}" for c in choices], width, 9)
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        head, _, tail = c.label.rpartition(" ")
        groups.setdefault(head if tail else c.label, []).append(c)
    lines = [f"  {len(choices)} options; type a number, or a word or coordinate of one "
             "to narrow them:"]
    for head, members in groups.items():
        if len(members) == 1:
            c = members[0]
            lines.append(f"{c.number:>3}. {c.label}")
            continue
        lasts = ", ".join(f"{c.label.rpartition(' ')[2]} ({c.number})" for c in members)
        lines.append(f"     {head}: {lasts}")
    return _wrapped(lines, width, 7)


def _wrapped(lines: list[str], width: int, indent: int) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, width, subsequent_indent=" " * indent,
                             break_long_words=True) or [""]
    return out


def pick(choices: list[Choice], answer: str) -> tuple[Choice | None, list[Choice]]:
    """What an answer picks: an option (by number, id or label), or the options it
    narrows the list to (none when nothing matches it)."""
    text = answer.strip()
    if text.isdigit():
        n = int(text)
        found = [c for c in choices if c.number == n]
        return (found[0], found) if found else (None, [])
    low = text.lower()
    for c in choices:
        if low in (c.id.lower(), c.label.lower()):
            return c, [c]
    words = low.split()
    narrowed = [c for c in choices
                if all(w in c.label.lower().split() or w in c.id.lower().split("-")
                       or w == c.id.lower() for w in words)]
    if len(narrowed) == 1:
        return narrowed[0], narrowed
    return None, narrowed


def missing(choices: list[Choice], answer: str) -> str:
    """Why an answer picks nothing: it names no option now."""
    how = f"type a number from 1 to {max(c.number for c in choices)}, an option id, " \
          "'save FILE' or 'quit'"
    if answer.strip().isdigit():
        return f"  there is no option {answer.strip()}: {how}"
    return f"  no option names '{answer.strip()}' now (the rules offer only the options " \
           f"listed): {how}"
