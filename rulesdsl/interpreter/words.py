"""What a screen says: the rulebook's words for decisions, components, cells and the log.

Stage: run. The engine's own texts stay as they are, for records, bots and tools: an
option's label ("build the t36"), the rule line that asks a decision, the log's "player 2:
build the t36". A screen shows them in the words the rule file's `display:` declares:

- a component called by one of its fields (`label Tile by title`) and a ring's positions by
  a noun (`label outer cells "outer upright"`: "outer upright 3", not "outer3") wherever
  the engine's text names them;
- the question a decision asks (`ask build t "Which tile do you build?"`), never its rule
  line; without one, "Your choice" (or "Your secret choice");
- a decision told to everyone in the third person (`tell build t "builds the {choice}"`:
  "player 2 builds the tile 36"; `{label}`: the option's label); without one, the
  option's label after the chooser's name, or the label alone when it names the chooser
  first ("player 1 guesses Build"); an empty `tell` line says nothing, where the rules'
  own narration tells the decision.
"""

from __future__ import annotations

import re
from typing import Any

from ..program.declared import Declared
from ..program.display import Display

# the name a variant's `base NAME(...)` gives the base's version of rule NAME: "NAME
# (base)", "NAME (base 2)", ...; its decisions are asked and told as the rule's own
BASE_VERSION = re.compile(r" \(base(?: \d+)?\)$")


def in_words(items: list[str]) -> str:
    """A list as a sentence says it: "a, b and c"."""
    if len(items) < 2:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


class Words:
    """The screen's words for one rule file."""

    def __init__(self, a: Declared, disp: Display, sites: list[Any]):
        self.disp = disp
        self.sites = sites
        self.asks = dict(a.display.asks)
        self.tells = dict(a.display.tells)
        self.names: dict[str, list[str]] = {}
        for kind, field in a.display.names.items():
            info = a.kinds[kind]
            t = info.types.get(field, "any")
            engine = disp.components[kind][1]
            self.names[kind] = [engine[c] if v is None or v == "" else disp.show(v, t)
                                for c, v in enumerate(info.columns[field])]
        swaps: dict[str, set[str]] = {}
        for kind, screen in self.names.items():
            for old, new in zip(disp.components[kind][1], screen, strict=True):
                swaps.setdefault(old, set()).add(new)
        for board, noun in a.display.cells.items():
            for k, cell in enumerate(a.boards[board].names, start=1):
                swaps.setdefault(cell, set()).add(f"{noun} {k}")
        # an engine name that stands for two screen names is left as it is
        self.swaps = {old: next(iter(new)) for old, new in swaps.items()
                      if len(new) == 1 and old not in new and old}
        self.pattern = re.compile(r"(?<![\w-])(" + "|".join(
            re.escape(k) for k in sorted(self.swaps, key=len, reverse=True)) + r")(?![\w-])"
        ) if self.swaps else None

    def say(self, text: str) -> str:
        """An engine text with each component and cell named as the screen calls it."""
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.swaps[m.group(1)], text)

    def component(self, kind: str, c: int) -> str:
        """What the screen calls component c of a kind."""
        names = self.names.get(kind)
        return names[c] if names is not None else self.disp.components[kind][1][c]

    def _declared(self, table: dict[str, str], site: Any, value: Any) -> str | None:
        """The `ask` or `tell` line for a decision: the one for its choice (or, in a menu,
        for the option chosen), else the one for its whole rule."""
        key = site.name
        proc = BASE_VERSION.sub("", site.proc)
        if site.kind == "menu" and isinstance(value, int) and 0 <= value < len(site.menu):
            key = site.menu[value][0]
        elif value is None and site.kind == "choose" and table is self.tells:
            # `done`: the `or` line of the choice's or of the rule's `tell`, else none
            done = table.get(f"{proc} {key} done") if key else None
            return done if done is not None else table.get(f"{proc} done")
        if key and f"{proc} {key}" in table:
            return table[f"{proc} {key}"]
        return table.get(proc)

    def prompt(self, site_index: int, secret: bool) -> str:
        """The question a decision asks on a screen."""
        site = self.sites[site_index]
        asked = self._declared(self.asks, site, None)
        if asked is None and site.kind == "menu":  # a menu's question may name an option
            proc = BASE_VERSION.sub("", site.proc)
            asked = next((self.asks[f"{proc} {oid}"] for oid, _ in site.menu
                          if f"{proc} {oid}" in self.asks), None)
        if asked is not None:
            return asked
        return "Your secret choice" if secret else "Your choice"

    def told(self, site_index: int, who: int, value: Any, label: str) -> str:
        """A decision as a screen tells it: in the third person, after the chooser."""
        site = self.sites[site_index]
        name = self.disp.show(who, "player")
        told = self._declared(self.tells, site, value)
        if told == "":  # the rules' own narration tells it
            return ""
        if told is not None:
            if site.kind == "menu" or value is None:
                choice = self.say(label)
            elif isinstance(site.type, tuple) and site.type[0] == "list" \
                    and isinstance(value, list):  # "B4 and B5", not "[B4, B5]"
                choice = self.say(in_words([self.disp.show(x, site.type[1]) for x in value]))
            else:
                choice = self.say(self.disp.show(value, site.type))
            return f"{name} {told.format(choice=choice, label=self.say(label))}"
        label = self.say(label)
        if label.startswith(name + " "):
            return label
        return f"{name}: {label}"
