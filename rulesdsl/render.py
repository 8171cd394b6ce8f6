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
    cut_at: int | None = None  # where the last line ends, when the span says so
    if last is None:
        if end > span.line and not text[min(end, len(text)) - 1][:span.end_column - 1].strip():
            end -= 1  # a span that ends with the line break (and the next line's indentation)
        else:
            cut_at = span.end_column - 1
    out = []
    first = text[span.line - 1]
    cut = len(first) - len(first.lstrip())
    for n in range(span.line, min(end, len(text)) + 1):
        line = text[n - 1]
        if n == end and cut_at is not None and end <= len(text):
            line = line[:cut_at]
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
            word = "if" if k == 0 else "elif"
            if cond.span.file != node.span.file:  # a condition a variant put in
                out.append(f"{indent}{word} {_text(cond, lines)}:")
            else:
                # an `elif` line: from its start, which the condition's span does not hold
                start = node.span if k == 0 else cond.span.model_copy(update={"column": 1})
                out += _span_lines(start, lines, indent, cond.span.end_line)
            out += _body(body, lines, indent)
        if node.otherwise is not None:
            out.append(indent + "else:")
            out += _body(node.otherwise, lines, indent)
        return out
    if isinstance(node, A.ChooseMenu):
        out = _header(node, lines, indent)
        for option in node.options:
            out += _header(option, lines, indent + INDENT)
            out += _body(option.body, lines, indent + INDENT)
        return out
    inside = getattr(node, "body", None)
    if isinstance(inside, list):
        return _header(node, lines, indent) + _body(inside, lines, indent)
    return _span_lines(node.span, lines, indent)


def _header(node: Any, lines: dict[str, list[str]], indent: str) -> list[str]:
    """The header of a compound statement as written; put together from its parts when a
    variant put one of them in (`replace OLD with NEW`, a menu option's new condition)."""
    parts = {key: getattr(node, key) for key in type(node).model_fields
             if key not in ("span", "name_span", "body")
             and isinstance(getattr(node, key), A.Node)}
    if all(p.span.file == node.span.file for p in parts.values()):
        return _span_lines(node.span, lines, indent, _header_end(node))

    def part(key: str, before: str = " ", after: str = "") -> str:
        value = parts.get(key)
        return f"{before}{_text(value, lines)}{after}" if value is not None else ""

    if isinstance(node, A.MenuOption):
        text = f"option {node.id}{part('label')}{part('cond', ' if ')}"
    elif isinstance(node, A.ForEach):
        text = f"for each {node.var} in{part('domain')}{part('where', ' where ')}"
    elif isinstance(node, A.While):
        text = f"while{part('cond')}"
    elif isinstance(node, A.Repeat):
        text = f"repeat{part('count', ' ', ' times')}"
    elif isinstance(node, A.Turns):
        text = f"turns{part('start', ' from ')}{part('rounds', ' for ', ' rounds')}"
    elif isinstance(node, A.ChooseMenu):
        text = f"choose{part('by', ' by ')}"
    elif isinstance(node, (A.Choose, A.ChooseAny)):
        word = "any " if isinstance(node, A.ChooseAny) else (
            "optional " if getattr(node, "optional", False) else "")
        secret = " secretly" if getattr(node, "secret", False) else ""
        text = (f"choose {word}{node.var} in{part('domain')}{part('where', ' where ')}"
                f"{part('by', ' by ')}{secret}{part('label', ' as ')}"
                f"{part('done_label', ' or ')}")
    else:
        return _span_lines(node.span, lines, indent, _header_end(node))
    return [f"{indent}{text}:"]


def _text(expr: Any, lines: dict[str, list[str]]) -> str:
    """An expression as written (on one line)."""
    span = expr.span
    text = lines.get(span.file, [])
    if not 1 <= span.line <= len(text):
        return "?"
    if span.line == span.end_line:
        return text[span.line - 1][span.column - 1:span.end_column - 1]
    first = text[span.line - 1][span.column - 1:]
    middle = text[span.line:span.end_line - 1]
    last = text[span.end_line - 1][:span.end_column - 1]
    return " ".join(part.strip() for part in [first, *middle, last] if part.strip())


def _body(stmts: list, lines: dict[str, list[str]], indent: str) -> list[str]:
    out: list[str] = []
    for s in stmts:
        out += _stmt(s, lines, indent + INDENT)
    return out
