"""The text of a declaration as written, wherever each of its statements was written.

Stage: resolve (for `rulesdsl diff` and the messages of variants). A declaration that a
variant changed holds statements from several files: its text is put together from the
source line(s) of each statement, indented to its depth. A statement's own line is taken as
written (its expressions, its label, a comment at its end); the header of a compound
statement (`if ...:`, `for each ...:`, `option ...:`) is its first line(s), up to the end of
the last expression in it; `else:` is written as such. Comment lines between statements are
not part of the text.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .diagnostics import Span

INDENT = "    "
EXPRS = (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.PlayerLit, A.Name, A.Call, A.ListLit,
         A.Of, A.Index, A.Unary, A.Binary, A.IsEmpty, A.Cond, A.Quantifier, A.Aggregate,
         A.TupleLit, A.ListComp, A.Sort)


def decl_lines(node: Any, lines: dict[str, list[str]]) -> list[str]:
    """The lines of a declaration (or a statement) that has a body of statements; the
    lines of its span for anything else."""
    body = getattr(node, "body", None)
    if isinstance(node, A.Node) and isinstance(body, list) and not isinstance(node, EXPRS):
        return _stmt(node, lines, "")
    return _span_lines(node.span, lines, "")


def _span_lines(span: Span, lines: dict[str, list[str]], indent: str,
                last: int | None = None) -> list[str]:
    """Lines `span.line` to `last` (or to the end of the span) of its file, the first from
    the span's column, the others keeping their indentation relative to it."""
    text = lines.get(span.file, [])
    if not 1 <= span.line <= len(text):
        return []
    end = last if last is not None else span.end_line
    if last is None and span.end_column == 1 and end > span.line:
        end -= 1  # a span that ends where the next line starts
    out = []
    first = text[span.line - 1]
    cut = len(first) - len(first.lstrip())
    for n in range(span.line, min(end, len(text)) + 1):
        line = text[n - 1]
        if n == span.line:
            line = line[span.column - 1:] if span.column > cut else line.lstrip()
        else:
            if not line.strip():
                continue
            lead = len(line) - len(line.lstrip())
            line = line[min(lead, cut):]
        out.append(indent + line.rstrip())
    return out


def _header_end(node: Any) -> int:
    """The last line of a compound statement's header: where its last expression ends."""
    end = node.span.line
    for key in type(node).model_fields:
        if key in ("body", "branches", "otherwise", "options", "span", "name_span"):
            continue
        value = getattr(node, key)
        if isinstance(value, A.Node):
            end = max(end, value.span.end_line)
    return end


def _stmt(node: Any, lines: dict[str, list[str]], indent: str) -> list[str]:
    if isinstance(node, A.If):
        out: list[str] = []
        for k, (cond, body) in enumerate(node.branches):
            # an `elif` line: from its start, which the condition's span does not hold
            start = node.span if k == 0 else cond.span.model_copy(update={"column": 1})
            out += _span_lines(start, lines, indent, cond.span.end_line)
            out += _body(body, lines, indent)
        if node.otherwise is not None:
            out.append(indent + "else:")
            out += _body(node.otherwise, lines, indent)
        return out
    if isinstance(node, A.ChooseMenu):
        out = _span_lines(node.span, lines, indent, _header_end(node))
        for option in node.options:
            out += _span_lines(option.span, lines, indent + INDENT, _header_end(option))
            out += _body(option.body, lines, indent + INDENT)
        return out
    inside = getattr(node, "body", None)
    if isinstance(inside, list):
        return (_span_lines(node.span, lines, indent, _header_end(node))
                + _body(inside, lines, indent))
    return _span_lines(node.span, lines, indent)


def _body(stmts: list, lines: dict[str, list[str]], indent: str) -> list[str]:
    out: list[str] = []
    for s in stmts:
        out += _stmt(s, lines, indent + INDENT)
    return out
