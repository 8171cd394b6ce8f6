"""How values look to people and in option ids.

Stage: run. A value in the state is plain data (a player is a seat number from 0, a cell
a number, an enum value its index); its type, known from the checker, says how to show it:
`player 2`, `b3`, `Full House`. Option ids are short, stable and free of spaces.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..valuetypes import Type
from .declared import Declared


class Display:
    """Shows values of one rule file's types."""

    def __init__(self, declared: Declared):
        self.boards = {name: b.names for name, b in declared.boards.items()}
        self.enums = {name: (e.values, e.labels) for name, e in declared.enums.items()}
        # a set of dice kept per player: how many dice each player has
        self.per_seat = {name: d.per_seat for name, d in declared.dice.items() if d.per_seat}
        self.components: dict[str, tuple[list[str], list[str]]] = {}
        for kind in declared.kinds.values():
            # a component is called by its `name`, else by its first field ("Scion")
            field = "name" if "name" in kind.fields else kind.fields[0]
            labels = [self.show(v, kind.types.get(field, "any")) for v in kind.columns[field]]
            self.components[kind.name] = (_unique_ids(labels), labels)

    def show(self, value: Any, t: Type) -> str:
        if value is None:
            return "none"
        if isinstance(t, tuple):
            kind = t[0]
            if kind == "cell":
                return self.boards[t[1]][value]
            if kind == "enum":
                return self.enums[t[1]][1][value]
            if kind == "comp":
                return self.components[t[1]][1][value]
            if kind == "zone":
                return self.show(value, ("list", ("comp", t[2])))
            if kind == "die":
                n = self.per_seat.get(t[1])
                if n:  # a die of a player's set: "cup of player 2, die 3"
                    return f"{t[1]} of player {value // n + 1}, die {value % n + 1}"
                return f"{t[1]} {value + 1}"
            if kind == "list":
                return "[" + ", ".join(self.show(x, t[1]) for x in value) + "]"
            if kind == "board":
                return t[1]
        if t == "player":
            return f"player {value + 1}"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return "[" + ", ".join(self.show(x, "any") for x in value) + "]"
        return str(value)

    def option_id(self, value: Any, t: Type) -> str:
        if isinstance(t, tuple):
            kind = t[0]
            if kind == "cell":
                return self.boards[t[1]][value]
            if kind == "enum":
                return self.enums[t[1]][0][value]
            if kind == "comp":
                return self.components[t[1]][0][value]
            if kind == "die":
                n = self.per_seat.get(t[1])
                if n:  # "cup2-3": player 2's third die
                    return f"{t[1]}{value // n + 1}-{value % n + 1}"
                return f"{t[1]}{value + 1}"
            if kind == "list":
                return "+".join(self.option_id(x, t[1]) for x in value) or "none"
        if t == "player":
            return f"p{value + 1}"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return "+".join(self.option_id(x, "any") for x in value) or "none"
        return str(value).replace(" ", "_")


def _unique_ids(labels: list[str]) -> list[str]:
    """Option ids from labels: lower case, words joined by '-', numbered when repeated
    ("house-1", "house-2")."""
    slugs = ["-".join(label.lower().split()) or "item" for label in labels]
    seen: dict[str, int] = {}
    total = Counter(slugs)
    out = []
    for s in slugs:
        if total[s] == 1:
            out.append(s)
        else:
            seen[s] = seen.get(s, 0) + 1
            out.append(f"{s}-{seen[s]}")
    return out
