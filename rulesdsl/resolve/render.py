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

from .. import ast as A
from ..diagnostics import Span

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


def expression_text(expr: Any, lines: dict[str, list[str]]) -> str:
    """An expression as written, on one line (put together from its parts where a variant
    replaced some)."""
    return _text(expr, lines)


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
    if last is None:
        while end > span.line and text[min(end, len(text)) - 1].lstrip().startswith("#"):
            end -= 1  # the comments after a declaration belong to what follows it
            cut_at = None
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
            if cond.span.file != node.span.file or _foreign(cond, node.span.file):
                out.append(f"{indent}{word} {_text(cond, lines, node.span.file)}:")
            else:
                # an `elif` line: from its start, which the condition's span does not hold
                start = node.span if k == 0 else cond.span.model_copy(update={"column": 1})
                out += _span_lines(start, lines, indent, cond.span.end_line)
            out += _body(body, lines, indent)
        if node.otherwise is not None:
            out.append(indent + "else:")
            out += _body(node.otherwise, lines, indent)
        return out
    if isinstance(node, A.SecretStep):
        out = _header(node, lines, indent) + _body(node.body, lines, indent)
        if node.reveal is not None:
            out += [indent + "then reveal:"] + _body(node.reveal, lines, indent)
        return out
    if isinstance(node, (A.Offer, A.ChooseMenu)):  # a header, then its answers or options
        out = _header(node, lines, indent)
        for part in node.answers if isinstance(node, A.Offer) else node.options:
            out += _header(part, lines, indent + INDENT)
            out += _body(part.body, lines, indent + INDENT)
        return out
    inside = getattr(node, "body", None)
    if isinstance(inside, list):
        return _header(node, lines, indent) + _body(inside, lines, indent)
    if _foreign(node, node.span.file):
        return [indent + _simple(node, lines)]
    return _span_lines(node.span, lines, indent)


def _foreign(node: Any, file: str) -> bool:
    """Whether a part of a node was written in another file (a variant put it in)."""
    for key in type(node).model_fields:
        value = getattr(node, key)
        for part in value if isinstance(value, list) else [value]:
            if isinstance(part, A.Node) and (part.span.file != file or _foreign(part, file)):
                return True
    return False


def _simple(node: Any, lines: dict[str, list[str]]) -> str:
    """A simple statement put together from its parts, each as written."""
    def x(e: Any) -> str:
        return _text(e, lines, node.span.file)

    def target(t: A.Target) -> str:
        return t.name if t.of is None else f"{t.name} of {x(t.of)}"

    if isinstance(node, A.Let):
        return f"let {node.name} = {x(node.value)}"
    if isinstance(node, A.LetRoll):
        return f"let {node.name} = roll {x(node.die)}"
    if isinstance(node, A.Set):
        return f"set {target(node.target)} = {x(node.value)}"
    if isinstance(node, A.Add):
        if node.negate:
            return f"subtract {x(node.amount)} from {target(node.target)}"
        return f"add {x(node.amount)} to {target(node.target)}"
    if isinstance(node, A.Move):
        source = f" from {x(node.source)}" if node.source is not None else ""
        return f"move {x(node.item)}{source} to {x(node.dest)}"
    if isinstance(node, A.Say):
        return f"say {x(node.text)}" + (f" to {x(node.to)}" if node.to is not None else "")
    if isinstance(node, (A.CallRule, A.BaseCall)):
        word = "base " if isinstance(node, A.BaseCall) else ""
        return f"{word}{node.name}({', '.join(x(a) for a in node.args)})"
    words: dict[type, str] = {
        A.Place: "place {piece} at {cell}", A.Clear: "clear {cell}", A.Roll: "roll {dice}",
        A.Win: "win {player}", A.NextTurn: "next turn to {player}", A.Expect: "expect {cond}",
        A.Shuffle: "shuffle {zone}"}
    form = words.get(type(node))
    if form is None:
        return " ".join(_span_lines(node.span, lines, "")).strip()
    return form.format(**{k: x(getattr(node, k)) for k in type(node).model_fields
                          if isinstance(getattr(node, k), A.Node) and k != "span"})


def _header(node: Any, lines: dict[str, list[str]], indent: str) -> list[str]:
    """The header of a compound statement as written; put together from its parts when a
    variant put one of them in (`replace OLD with NEW`, a menu option's new condition)."""
    parts = {key: getattr(node, key) for key in type(node).model_fields
             if key not in ("span", "name_span", "body")
             and isinstance(getattr(node, key), A.Node)}
    here = node.span.file
    if not any(p.span.file != here or _foreign(p, here) for p in parts.values()):
        return _span_lines(node.span, lines, indent, _header_end(node))

    def part(key: str, before: str = " ", after: str = "") -> str:
        value = parts.get(key)
        return f"{before}{_text(value, lines, node.span.file)}{after}" \
            if value is not None else ""

    if isinstance(node, A.MenuOption):
        text = f"option {node.id}{part('label')}{part('cond', ' if ')}"
    elif isinstance(node, A.ForEach):
        text = f"for each {node.var} in{part('domain')}{part('where', ' where ')}"
    elif isinstance(node, A.While):
        text = f"while{part('cond')}"
    elif isinstance(node, A.Repeat):
        text = f"repeat{part('count', ' ', ' times')}"
    elif isinstance(node, A.Turns):
        text = (f"turns{part('start', ' from ')}{part('direction', ' going ')}"
                f"{' all at once' if node.at_once else ''}{part('rounds', ' for ', ' rounds')}")
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


def _text(expr: Any, lines: dict[str, list[str]], within: str | None = None) -> str:
    """An expression as written (on one line); put together from its parts where a part was
    written in another file than the expression (`replace OLD with NEW` deep inside it)."""
    file = within or expr.span.file
    if expr.span.file == file and not _foreign(expr, file):
        return _source(expr.span, lines)
    return _expr(expr, lines)


def _source(span: Span, lines: dict[str, list[str]]) -> str:
    text = lines.get(span.file, [])
    if not 1 <= span.line <= len(text):
        return "?"
    if span.line == span.end_line:
        return text[span.line - 1][span.column - 1:span.end_column - 1]
    first = text[span.line - 1][span.column - 1:]
    middle = text[span.line:span.end_line - 1]
    last = text[span.end_line - 1][:span.end_column - 1]
    return " ".join(part.strip() for part in [first, *middle, last] if part.strip())


# how tightly each operator binds (a part that binds less is put in parentheses)
BINDS = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "in": 4, "not in": 4, "..": 5, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7}


def _binds(e: Any) -> int:
    if isinstance(e, A.Binary):
        return BINDS.get(e.op, 9)
    if isinstance(e, A.Unary):
        return 3 if e.op == "not" else 8
    if isinstance(e, (A.Cond, A.IsEmpty)):
        return 0 if isinstance(e, A.Cond) else 4
    return 9


def _expr(e: Any, lines: dict[str, list[str]]) -> str:
    """An expression put together from its parts, each written as in its own file."""
    def x(part: Any, least: int = 0) -> str:
        text = _text(part, lines)
        return f"({text})" if _binds(part) < least else text

    if isinstance(e, A.Binary):
        n = BINDS.get(e.op, 9)
        return f"{x(e.left, n)} {e.op} {x(e.right, n + 1)}"
    if isinstance(e, A.Unary):
        return f"not {x(e.operand, 3)}" if e.op == "not" else f"-{x(e.operand, 8)}"
    if isinstance(e, A.Of):
        return f"{e.attr} of {x(e.obj, 8)}"
    if isinstance(e, A.Index):
        return f"{x(e.obj, 9)}[{x(e.index)}]"
    if isinstance(e, A.IsEmpty):
        return f"{x(e.operand, 5)} is {'not ' if e.negated else ''}empty"
    if isinstance(e, A.Cond):
        return f"if {x(e.test)} then {x(e.then)} else {x(e.otherwise)}"
    if isinstance(e, A.Call):
        return f"{e.func}({', '.join(x(a) for a in e.args)})"
    if isinstance(e, (A.ListLit, A.TupleLit)):
        inside = ", ".join(x(a) for a in e.items)
        return f"[{inside}]" if isinstance(e, A.ListLit) else f"({inside})"
    if isinstance(e, (A.Quantifier, A.Aggregate, A.ListComp, A.Sort)):
        where = f" where {x(e.where)}" if e.where is not None else ""
        if isinstance(e, A.Quantifier):
            return f"{e.kind}({e.var} in {x(e.domain)}{where})"
        if isinstance(e, A.Sort):
            return f"sort({e.var} in {x(e.domain)}{where} by {x(e.key)})"
        inner = f"{x(e.expr)} for {e.var} in {x(e.domain)}{where}"
        return f"[{inner}]" if isinstance(e, A.ListComp) else f"{e.kind}({inner})"
    return _source(e.span, lines)


def _body(stmts: list, lines: dict[str, list[str]], indent: str) -> list[str]:
    out: list[str] = []
    for s in stmts:
        out += _stmt(s, lines, indent + INDENT)
    return out
