"""Checking the `display:` blocks: how a screen names, draws and asks, and W001 for a name
that reaches a screen as it is written.

Stage: check. A part of the declaration checker (`declarations.DeclarationChecker` takes it
in): the labels, groups, glyphs, owners, rings, seat marks and colours, features, marks,
and the questions (`ask`) and told lines (`tell`) of decisions.
"""

from __future__ import annotations

import re

from .. import ast as A
from ..ast.trees import statements_in
from ..boards.grids import RingBoard
from ..diagnostics import Diagnostic
from .analysis import (
    is_a,
    walk,
)
from .expressions import ExpressionChecker
from .types import PLAYER


class DisplayChecker(ExpressionChecker):
    """The checks of the `display:` blocks (see the module's docstring)."""

    def display_decl(self, d: A.DisplayDecl) -> None:
        """What a `display:` block says: names it uses must be the game's."""
        info = self.a.display
        drawn = set(self.a.counters) | set(self.a.zones) | set(self.a.dice) | set(self.a.boards)
        for item in d.items:
            if item.what == "label" and item.by is not None:
                self.label_by(item)
            elif item.what in ("ask", "tell", "pass"):
                self.ask_or_tell(item)
            elif item.what == "ended":
                self.ended(item)
            elif item.what == "seat":
                self.seat(item)
            elif item.what == "feature":
                self.feature(item)
            elif item.what == "mark":
                self.mark(item)
            elif item.what == "cells":
                board = item.names[0]
                if board.name not in self.a.boards:
                    self.err("E090", f"'{board.name}' is not a board of the game", board.span,
                             hint=self.suggest(board.name))
                else:
                    self.a.display.cells[board.name] = item.text or board.name
            elif item.what in ("hide", "label", "group"):
                for n in item.names:
                    if n.name not in drawn:
                        self.err("E090", f"'{n.name}' is no counter, zone, board or dice of "
                                 "the game", n.span, hint=self.suggest(n.name))
                names = [n.name for n in item.names]
                if item.what == "hide":
                    info.hidden.extend([n for n in names if n not in info.hidden])
                elif item.what == "label":
                    info.labels[names[0]] = item.text or names[0]
                else:
                    info.groups.append((item.text or "", names))
            elif item.what == "glyph":
                self.glyphs(item)
            elif item.what == "ring":
                self.ring(item)
            else:
                self.owner(item)

    def screen_names(self) -> None:
        """W001: a name that reaches a screen reading as an identifier (joined by `_`,
        letters and digits mixed, a capital inside a word) with no label to show instead:
        a counter, zone, board or dice the display does not hide, a component called by
        such a field, a ring's positions, an enum value."""
        d = self.a.display
        shown = [*self.a.counters, *self.a.zones, *self.a.boards, *self.a.dice]
        for name in shown:
            info = self.a.counters.get(name)
            if name in d.hidden or name in d.labels or (info is not None and info.stat):
                continue
            if raw(name):
                self.warn(name, f"'{name}' reaches a screen as it is written",
                          f'label {name} "..." (or hide {name})')
        for name, board in self.a.boards.items():
            if isinstance(board, RingBoard) and name not in d.hidden and name not in d.cells \
                    and raw(board.names[0]):
                self.warn(name, f"the positions of {name} reach a screen as {board.names[0]}, "
                          f"{board.names[1] if len(board.names) > 1 else '...'}, ...",
                          f'label {name} cells "..." (a noun: "... 1", "... 2")')
        for name, kind in self.a.kinds.items():
            field = "name" if "name" in kind.fields else kind.fields[0]
            first = next((v for v in kind.columns.get(field, []) if isinstance(v, str) and
                          raw(v)), None)
            if name not in d.names and first is not None:
                self.warn(name, f"a {name} reaches a screen by its {field}, such as '{first}'",
                          f"label {name} by FIELD (a field of words)")
        for name, enum in self.a.enums.items():
            for value, label in zip(enum.values, enum.labels, strict=True):
                if value == label and raw(value) and value in self.first:
                    self.warn(value, f"the value {value} of {name} reaches a screen as it "
                              "is written", f'{value} "..." in the enum')

    def warn(self, name: str, message: str, fix: str) -> None:
        """A warning at the declaration of `name` (W001)."""
        span = self.first.get(name, ("", None))[1]
        self.a.diagnostics.append(Diagnostic("W001", message, span, "warning",
                                             hint=f"give it a label: {fix}"))

    def seat(self, item: A.DisplayItem) -> None:
        """`seat marks "X", "O"` and `seat colours "blue", "red"`: one for each seat the
        game may have; a mark of one or two characters, a colour a plain name (`blue`) or
        `#` and six hex digits."""
        values = [text for _, text in item.glyphs]
        colours = item.text == "colours"
        span = item.glyphs[0][0].span if item.glyphs else item.span
        if len(values) < self.a.max_players:
            self.err("E090", f"the game seats up to {self.a.max_players} players, and "
                     f"{len(values)} {item.text} are given", span)
            return
        for (name, text) in item.glyphs:
            ok = re.fullmatch(r"[a-z]{3,20}|#[0-9a-fA-F]{6}", text) if colours else \
                1 <= len(text) <= 2 and text.isprintable() and text.strip() == text
            if not ok:
                self.err("E090", f"{text!r} is no {'colour' if colours else 'mark'}",
                         name.span, hint="a colour: a name such as blue, or #1f77b4"
                         if colours else "a mark: one or two characters")
                return
        if colours:
            self.a.display.seat_colours[:] = values
        else:
            self.a.display.seat_marks[:] = values

    def feature(self, item: A.DisplayItem) -> None:
        """`feature Kind field "g" "word"`: a field of numbers, each unit drawn as g."""
        kind, by = item.names[0], item.by
        assert by is not None
        info = self.a.kinds.get(kind.name)
        glyph = item.done or ""
        if info is None:
            self.err("E090", f"'{kind.name}' is not a kind of component", kind.span,
                     hint=self.suggest(kind.name))
        elif by.name not in info.fields or not all(
                v is None or (isinstance(v, int) and not isinstance(v, bool))
                for v in info.columns[by.name]):
            self.err("E090", f"a feature of a {kind.name} is a field of it that holds numbers",
                     by.span, hint=f"the fields of {kind.name}: {', '.join(info.fields)}")
        elif len(glyph) != 1 or not glyph.isprintable() or glyph == " ":
            self.err("E090", f"a feature's glyph is one character, not {glyph!r}", by.span)
        else:
            self.a.display.features.setdefault(kind.name, []).append(
                (by.name, glyph, item.text or by.name))

    def mark(self, item: A.DisplayItem) -> None:
        """`mark name "g" "word"`: the cells a definition without parameters lists, all of
        one board, marked g on it."""
        name = item.names[0]
        d = self.a.defines.get(name.name)
        cells = d.body.items if d is not None and not d.params and \
            isinstance(d.body, A.ListLit) else None
        boards = {b for c in cells or [] if isinstance(c, A.Name)
                  for b in self.a.cells.get(c.name, [])}
        glyph = item.done or ""
        if cells is None or not cells or len(boards) != 1 or not all(
                isinstance(c, A.Name) and c.name in self.a.cells for c in cells):
            self.err("E090", f"'{name.name}' is no definition without parameters that lists "
                     "cells of one board", name.span,
                     hint="for example: define parks() = [A4, B9, C7]")
        elif not 1 <= len(glyph) <= 2 or not glyph.isprintable() or glyph.strip() != glyph:
            self.err("E090", f"a mark is one or two characters, not {glyph!r}", name.span)
        else:
            board = boards.pop()
            names = self.a.boards[board].names
            self.a.display.marks.setdefault(board, []).append(
                ([names.index(c.name) for c in cells if isinstance(c, A.Name)], glyph,
                 item.text or name.name))

    def label_by(self, item: A.DisplayItem) -> None:
        """`label Kind by field`: each component of a kind called by one of its fields."""
        kind, by = item.names[0], item.by
        assert by is not None
        if kind.name not in self.a.kinds:
            self.err("E090", f"'{kind.name}' is not a kind of component", kind.span,
                     hint=self.suggest(kind.name))
        elif by.name not in self.a.kinds[kind.name].fields:
            self.err("E090", f"'{by.name}' is not a field of {kind.name}", by.span,
                     hint=f"the fields of {kind.name}: "
                     f"{', '.join(self.a.kinds[kind.name].fields)}")
        else:
            self.a.display.names[kind.name] = by.name

    def of_base(self, item: A.DisplayItem) -> bool:
        """Whether a display line is a base game's, read for a variant (which may have
        left out the rule it names: the line then has nothing to say)."""
        return item.span.file != self.a.file.span.file

    def ended(self, item: A.DisplayItem) -> None:
        """`ended rule "words"`: why the game ended, when a `win`, `draw` or `end game`
        of the rule (or of `play`) ended it."""
        rule = item.names[0]
        body = self.a.rules[rule.name].body if rule.name in self.a.rules else next(
            (d.body for d in self.a.file.items if isinstance(d, A.PlayDecl)), None) \
            if rule.name == "play" else None
        if body is None:
            if not self.of_base(item):
                self.err("E090", f"'{rule.name}' is no rule of the game (nor play)",
                         rule.span, hint=self.suggest(rule.name))
            return
        ends = [s.span for s in statements_in(body)
                if isinstance(s, (A.Win, A.Draw, A.EndGame))]
        if not ends:
            self.err("E090", f"{rule.name} does not end the game: it has no win, draw or "
                     "end game", rule.span)
            return
        for span in ends:
            self.a.display.endings.setdefault(f"{span.file}:{span.line}:{span.column}",
                                              item.text or "")

    def stated_endings(self) -> None:
        """The words of why the game ended that a `win`, `draw` or `end game` states itself
        (`as "words"`): they go before any `ended` line of its rule."""
        bodies = [r.body for r in self.a.rules.values()] + [
            d.body for d in self.a.file.items if isinstance(d, (A.PlayDecl, A.SetupDecl))]
        for body in bodies:
            for s in statements_in(body):
                if isinstance(s, (A.Win, A.Draw, A.EndGame)) and s.reason is not None:
                    span = s.span
                    self.a.display.endings[f"{span.file}:{span.line}:{span.column}"] = \
                        s.reason

    def ask_or_tell(self, item: A.DisplayItem) -> None:
        """`ask rule [name] "text"`, `tell rule [name] "text"`, `pass forced [in rule
        [name]]`: the rule (or `play`, `setup`) must be the game's, and the name a choice
        of it (the name it binds) or an option of one of its menus."""
        if not item.names:   # `pass forced`: every decision of the game
            self.a.display.forced.append("")
            return
        rule = item.names[0]
        bodies = {name: r.body for name, r in self.a.rules.items()}
        for decl in self.a.file.items:
            if isinstance(decl, (A.PlayDecl, A.SetupDecl)):
                bodies["play" if isinstance(decl, A.PlayDecl) else "setup"] = decl.body
        if rule.name not in bodies:
            if not self.of_base(item):
                self.err("E090", f"'{rule.name}' is no rule of the game (nor play or setup)",
                         rule.span, hint=self.suggest(rule.name))
            return
        key = rule.name
        if len(item.names) > 1:
            name = item.names[1]
            choices = decision_names(bodies[rule.name])
            replaced = rule.name in self.a.rules and \
                self.a.rules[rule.name].span.file != item.span.file
            if name.name not in choices and replaced:
                return  # a base's line about a rule its variant replaced: nothing to say
            if name.name not in choices:
                self.err("E090", f"'{name.name}' names no choice of {rule.name}", name.span,
                         hint=f"its choices: {', '.join(choices) or 'none'}")
                return
            key = f"{rule.name} {name.name}"
        if item.what == "pass":
            self.a.display.forced.append(key)
            return
        table = self.a.display.asks if item.what == "ask" else self.a.display.tells
        table[key] = item.text or ""
        if item.done is not None:
            table[f"{key} done"] = item.done

    def glyphs(self, item: A.DisplayItem) -> None:
        target = item.names[0]
        values: list[int] | None = None
        names: list[str] = []
        if target.name in self.a.kinds and item.by is not None:
            kind = self.a.kinds[target.name]
            t = kind.types.get(item.by.name)
            if item.by.name not in kind.fields or not is_a(t, "enum"):
                self.err("E090", f"a glyph of a {target.name} goes by a field of it that holds "
                         "values of an enum", item.by.span,
                         hint=f"the fields of {target.name}: {', '.join(kind.fields)}")
                return
            assert isinstance(t, tuple)
            values, names = kind.columns[item.by.name], self.a.enums[t[1]].values
        elif target.name in self.a.enums and item.by is None:
            names = self.a.enums[target.name].values
            values = list(range(len(names)))
        else:
            self.err("E090", "glyphs are given for a kind of component 'by' one of its fields, "
                     "or for the values of an enum", target.span,
                     hint=self.suggest(target.name))
            return
        table: dict[int, str] = {}
        for value, text in item.glyphs:
            if value.name not in names:
                self.err("E090", f"'{value.name}' is not a value of the enum", value.span,
                         hint=f"its values: {', '.join(names)}")
            elif not 1 <= len(text) <= 3 or not text.isprintable() or text.strip() != text:
                self.err("E090", f"a glyph is 1 to 3 characters without spaces at its ends, "
                         f"not {text!r}", value.span)
            else:
                table[names.index(value.name)] = text
        old = self.a.display.glyphs.get(target.name, [])
        self.a.display.glyphs[target.name] = [
            table.get(v, old[i] if i < len(old) else "") if v is not None else ""
            for i, v in enumerate(values)]

    def owner(self, item: A.DisplayItem) -> None:
        kind, by = item.names[0], item.by
        assert by is not None
        info = self.a.counters.get(by.name)
        if kind.name in self.a.boards:  # `owner BOARD by placer`
            if by.name != "placer":
                self.err("E090", f"what stands on a board is owned by the player who placed it: "
                         f"write 'owner {kind.name} by placer', not '{by.name}'", by.span)
            elif kind.name not in self.a.display.placers:
                self.a.display.placers.append(kind.name)
        elif kind.name not in self.a.kinds:
            self.err("E090", f"'{kind.name}' is not a kind of component", kind.span,
                     hint=self.suggest(kind.name))
        elif info is None or [dim[:2] for dim in info.dims] != [("kind", kind.name)] \
                or info.type != PLAYER:
            self.err("E090", f"the owner of a {kind.name} is a counter kept per {kind.name} "
                     f"that holds a player, and '{by.name}' is not one", by.span,
                     hint=f"for example: counter owner per {kind.name} = none holding player")
        else:
            self.a.display.owners[kind.name] = by.name

    def ring(self, item: A.DisplayItem) -> None:
        """`ring zone by counter`: a zone drawn round a ring of an enum's values, each of
        its components where a counter kept per component says."""
        zone, by = item.names[0], item.by
        assert by is not None
        z = self.a.zones.get(zone.name)
        info = self.a.counters.get(by.name)
        if z is None:
            self.err("E090", f"'{zone.name}' is not a zone of the game", zone.span,
                     hint=self.suggest(zone.name))
        elif info is None or [dim[:2] for dim in info.dims] != [("kind", z.kind)] \
                or not is_a(info.type, "enum"):
            self.err("E090", f"a zone drawn as a ring places each {z.kind} by a counter kept "
                     f"per {z.kind} that holds values of an enum, and '{by.name}' is not one",
                     by.span, hint=f"for example: counter spot per {z.kind} = none holding "
                     "Place, with `enum Place: North, East, South, West`")
        else:
            self.a.display.rings[zone.name] = by.name


def decision_names(body: list) -> list[str]:
    """The names the decisions of a block bind (`choose t in ...`: t) and the options of
    its menus, in order."""
    out: list[str] = []
    for s in walk(body):
        if isinstance(s, (A.Choose, A.ChooseAny, A.Offer)):
            out.append(s.var)
        elif isinstance(s, A.ChooseMenu):
            out += [o.id for o in s.options]
    return list(dict.fromkeys(out))


def raw(name: str) -> bool:
    """Whether a name reads as an identifier rather than words: `_` in it, a letter and
    a digit side by side (t36, outer3), or a capital after a small letter (RendAttack)."""
    return "_" in name or bool(re.search(r"[A-Za-z]\d|\d[A-Za-z]|[a-z][A-Z]", name))
