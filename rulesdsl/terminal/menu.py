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

import re
import textwrap
from dataclasses import dataclass

LONG = 12   # more options than this are shown as groups
SHOWN = 8   # a group shows this many of its options; a typed word finds the others


@dataclass(frozen=True)
class Choice:
    """One option as the terminal shows it: its number (from 1), id and label."""

    number: int
    id: str
    label: str


def listing(choices: list[Choice], width: int) -> list[str]:
    """The lines that show the options: each numbered, or, for a long list, in groups by
    the first words their labels share (as many words as leave at most LONG groups), each
    option by the rest of its label and its number; a group of more than SHOWN shows its
    first few and how many more a typed word would find."""
    if len(choices) <= LONG:
        return _wrapped([f"  {c.number:>3}. {c.label}" for c in choices], width, 9)
    groups = _grouped(choices)
    lines = [f"  {len(choices)} options: type a number, or a word or coordinate of one "
             "to narrow them"]
    for head, members in groups.items():
        if len(members) == 1:
            lines.append(f"  {members[0].number:>3}. {members[0].label}")
            continue
        tails = [f"{c.label[len(head):].strip() or c.label} ({c.number})" for c in members]
        more = f", and {len(tails) - SHOWN} more" if len(tails) > SHOWN else ""
        lines.append(f"       {head} ...: {', '.join(tails[:SHOWN])}{more}")
    return _wrapped(lines, width, 9)


def _grouped(choices: list[Choice]) -> dict[str, list[Choice]]:
    """The options by the first words of their labels: the most words that leave at most
    LONG groups (one word at least)."""
    best: dict[str, list[Choice]] = {}
    for k in range(1, 1 + max(len(c.label.split()) for c in choices)):
        groups: dict[str, list[Choice]] = {}
        for c in choices:
            groups.setdefault(" ".join(c.label.split()[:k]), []).append(c)
        if len(groups) > LONG and best:
            break
        best = groups
    return best


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
    words = re.findall(r"[\w-]+", low)
    narrowed = [c for c in choices
                if all(w in re.findall(r"[\w-]+", c.label.lower()) or w == c.id.lower()
                       or w in c.id.lower().split("-") for w in words)]
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
