"""Diagnostics as the editor shows them: the codes, messages and spans of `rulesdsl check`.

Stage: editor support. A diagnostic in the document itself keeps its span. A variant is
checked merged with its base, so some diagnostics point into the base: such a diagnostic
is shown in the variant where it bites, on the variant's declaration that the base's
declaration uses (a replaced constant, a removed rule), or else on the `extends` line; its
message starts with the base's file, line and column, and a related location leads there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types

from .. import ast as A
from ..diagnostics import Diagnostic, Span
from .positions import Places
from .workspace import Checked, norm

SEVERITY = {"error": types.DiagnosticSeverity.Error,
            "warning": types.DiagnosticSeverity.Warning}


def to_lsp(checked: Checked, diags: list[Diagnostic], places: Places) -> list[types.Diagnostic]:
    here = norm(checked.path)
    out = []
    for d in diags:
        span = d.span or Span(file=checked.path, line=0)
        text = d.message
        related = None
        if norm(span.file) != here:
            text = f"{Path(span.file).name}:{span.line}:{span.column}: {d.message}"
            related = [types.DiagnosticRelatedInformation(location=places.location(span),
                                                          message=d.message)]
            span = where_it_bites(checked, span)
        if d.hint:
            text += f"\nhint: {d.hint}"
        for note in d.notes:
            text += f"\nnote: {note}"
        out.append(types.Diagnostic(range=places.range(span), message=text, code=d.code,
                                    source="rulesdsl", related_information=related,
                                    severity=SEVERITY.get(d.severity,
                                                          types.DiagnosticSeverity.Error)))
    return out


def where_it_bites(checked: Checked, span: Span) -> Span:
    """The place in a variant for a problem at `span` in one of its bases: the variant's own
    declaration of a name the base's declaration there uses, else the `extends` line."""
    own = checked.own
    if own is None:
        return Span(file=checked.path, line=0)
    names = _names_used_around(checked, span)
    for item in own.items:
        decl: Any = item.decl if isinstance(item, A.Replace) else item
        if isinstance(decl, A.Remove):
            hit = [r.span for r in decl.refs if r.name in names]
            if hit:
                return hit[0]
        elif getattr(decl, "name", None) in names and getattr(decl, "name_span", None):
            return decl.name_span
    for item in own.items:
        if isinstance(item, A.Extends):
            return item.span.model_copy(update={"end_line": item.span.line,
                                                "end_column": item.span.column + 7})
    return Span(file=checked.path, line=0)


def _names_used_around(checked: Checked, span: Span) -> set[str]:
    """The names a top-level declaration of the merged file at a place declares or uses."""
    if checked.resolved is None or span.line < 1:
        return set()
    for decl in checked.resolved.file.items:
        s = decl.span
        if s.file == span.file and s.line <= span.line <= s.end_line:
            return names_in(decl)
    return set()


def names_in(node: Any) -> set[str]:
    """Every name written in a node: names, called functions and rules, attributes."""
    out: set[str] = set()
    for key in ("name", "func", "attr"):
        value = getattr(node, key, None)
        if isinstance(value, str):
            out.add(value)
    for child in A.child_nodes(node):
        out |= names_in(child)
    return out
