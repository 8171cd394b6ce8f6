"""Parse tree -> AST for the `display:` block: how a screen names, draws and asks.

Stage: parse. A part of `builder.AstBuilder` (it takes these methods in): one method per
grammar rule of a display line, each making an `A.DisplayItem`; and `StringError`, what
the builder refuses (a told line refuses too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, v_args

from .. import ast as A
from ..diagnostics import Span


class StringError(Exception):
    """What the builder refuses, with its place: a malformed string literal (bad escape,
    unclosed `{`: E002), a number too long to be one (E005), or a construct the grammar
    accepts but that does not make sense, such as a sort without a key (E001)."""

    def __init__(self, message: str, span: Span, code: str = "E002"):
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code


class DisplayBuilder:
    """The display lines' methods; the helpers they use are `AstBuilder`'s."""

    span: Callable[[Any], Span]
    tok_span: Callable[[Token], Span]
    refs: Callable[..., list[A.Name]]
    plain: Callable[[Token], str]
    string: Callable[[Token], A.StrLit]

    def _display(self, meta: Any, what: str, names: list, **extra: Any) -> A.DisplayItem:
        return A.DisplayItem.make(span=self.span(meta), what=what, names=self.refs(*names), **extra)

    @v_args(meta=True)
    def display_hide(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "hide", c)

    @v_args(meta=True)
    def display_label(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "label", [c[0]], text=self.plain(c[1]))

    @v_args(meta=True)
    def display_label_by(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "label", [c[0]], by=self.refs(c[1])[0])

    @v_args(meta=True)
    def display_label_cells(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "cells", [c[0]], text=self.plain(c[1]))

    @v_args(meta=True)
    def display_feature(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "feature", [c[0]], by=self.refs(c[1])[0],
                             glyphs=[], text=self.plain(c[3]), done=self.plain(c[2]))

    @v_args(meta=True)
    def display_mark(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "mark", [c[0]], text=self.plain(c[2]),
                             done=self.plain(c[1]))

    @v_args(meta=True)
    def display_seat(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "seat", [], text=str(c[0]),
                             glyphs=[(A.Name.make(span=self.tok_span(t), name=str(k + 1)),
                                      self.plain(t)) for k, t in enumerate(c[1:])])

    @v_args(meta=True)
    def display_ask(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "ask", c[:2], text=self.plain(c[2]))

    @v_args(meta=True)
    def display_tell(self, meta: Any, c: list) -> A.DisplayItem:
        done = self.told(c[3]) if c[3] is not None else None
        return self._display(meta, "tell", c[:2], text=self.told(c[2]),
                             by=None, glyphs=[], done=done)

    def told(self, tok: Token) -> str:
        """The text of a `tell` line: plain words, `{choice}` (the value chosen) and
        `{label}` (the option's label)."""
        lit = self.string(tok)
        out = []
        for part in lit.parts:
            if isinstance(part, str):
                out.append(part.replace("{", "{{").replace("}", "}}"))
            elif isinstance(part, A.Name) and part.name in ("choice", "label"):
                out.append("{" + part.name + "}")
            else:
                raise StringError("a told line shows only {choice}, the value chosen, and "
                                  "{label}, the option's label", lit.span)
        return "".join(out)

    @v_args(meta=True)
    def display_group(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "group", c[1:], text=self.plain(c[0]))

    @v_args(meta=True)
    def display_glyph(self, meta: Any, c: list) -> A.DisplayItem:
        by = self.refs(c[1])
        return self._display(meta, "glyph", [c[0]], by=by[0] if by else None, glyphs=c[2:])

    @v_args(meta=True)
    def display_owner(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "owner", [c[0]], by=self.refs(c[1])[0])

    @v_args(meta=True)
    def display_ended(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "ended", [c[0]], text=self.plain(c[1]))

    @v_args(meta=True)
    def display_ring(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "ring", [c[0]], by=self.refs(c[1])[0])

    @v_args(meta=True)
    def display_pass(self, meta: Any, c: list) -> A.DisplayItem:
        return self._display(meta, "pass", [t for t in c if t is not None])

    def glyph(self, c: list) -> tuple:
        return (self.refs(c[0])[0], self.plain(c[1]))
