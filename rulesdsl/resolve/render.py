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
EXPRS = A.EXPRESSIONS


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
    return A.handler(STATEMENTS, node, "the text of a statement")(node, lines, indent)


def _if(node: A.If, lines: dict[str, list[str]], indent: str) -> list[str]:
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


def _secret_step(node: A.SecretStep, lines: dict[str, list[str]], indent: str) -> list[str]:
    out = _header(node, lines, indent) + _body(node.body, lines, indent)
    if node.reveal is not None:
        out += [indent + "then reveal:"] + _body(node.reveal, lines, indent)
    return out


def _with_parts(node: A.Offer | A.ChooseMenu, lines: dict[str, list[str]],
                indent: str) -> list[str]:
    """A header, then its answers or options, each a header and a body."""
    out = _header(node, lines, indent)
    for part in node.answers if isinstance(node, A.Offer) else node.options:
        out += _header(part, lines, indent + INDENT)
        out += _body(part.body, lines, indent + INDENT)
    return out


def _block(node: Any, lines: dict[str, list[str]], indent: str) -> list[str]:
    """A header and a body (a choice without a body is a simple statement)."""
    inside = getattr(node, "body", None)
    if isinstance(inside, list):
        return _header(node, lines, indent) + _body(inside, lines, indent)
    return _line(node, lines, indent)


def _line(node: Any, lines: dict[str, list[str]], indent: str) -> list[str]:
    """A simple statement: as written, or put together from its parts when a variant put
    one of them in."""
    if _foreign(node, node.span.file):
        return [indent + _simple(node, lines)]
    return _span_lines(node.span, lines, indent)


STATEMENTS: dict[type, Any] = {
    A.If: _if, A.SecretStep: _secret_step, A.Offer: _with_parts, A.ChooseMenu: _with_parts,
    **{c: _block for c in (A.ForEach, A.Repeat, A.While, A.Turns, A.Step, A.Choose,
                           A.ChooseAny)},
    **{c: _line for c in (A.Let, A.LetRoll, A.Set, A.Add, A.Place, A.Clear, A.Roll, A.Reveal,
                          A.Win,
                          A.Draw, A.EndGame, A.EndTurn, A.NextTurn, A.Break, A.Say, A.Expect,
                          A.Pass, A.CallRule, A.Replay, A.Shuffle, A.Move, A.BaseCall,
                          A.Point, A.ExpectOptions)},
    # the declarations and parts with a body of statements (decl_lines)
    **{c: _block for c in (A.RuleDecl, A.SetupDecl, A.PlayDecl, A.ExampleDecl,
                           A.TriggerDecl, A.MenuOption, A.Answer, A.Hook, A.OptionEdit)},
}


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

    made = SIMPLE.get(type(node))
    if made is not None:
        return made(node, x, target)
    if isinstance(node, A.Win) and node.reason is not None:  # as written, with its words
        return " ".join(_span_lines(node.span, lines, "")).strip()
    words: dict[type, str] = {
        A.Place: "place {piece} at {cell}", A.Clear: "clear {cell}", A.Roll: "roll {dice}",
        A.Reveal: "reveal {dice}",
        A.Win: "win {player}", A.NextTurn: "next turn to {player}", A.Expect: "expect {cond}",
        A.Shuffle: "shuffle {zone}"}
    form = words.get(type(node))
    if form is None:
        return " ".join(_span_lines(node.span, lines, "")).strip()
    return form.format(**{k: x(getattr(node, k)) for k in type(node).model_fields
                          if isinstance(getattr(node, k), A.Node) and k != "span"})


def _add(node: A.Add, x: Any, target: Any) -> str:
    if node.negate:
        return f"subtract {x(node.amount)} from {target(node.target)}"
    return f"add {x(node.amount)} to {target(node.target)}"


def _move(node: A.Move, x: Any, target: Any) -> str:
    source = f" from {x(node.source)}" if node.source is not None else ""
    return f"move {x(node.item)}{source} to {x(node.dest)}"


def _call(node: A.CallRule | A.BaseCall, x: Any, target: Any) -> str:
    word = "base " if isinstance(node, A.BaseCall) else ""
    return f"{word}{node.name}({', '.join(x(a) for a in node.args)})"


# the simple statements made of names and parts (the others by `words`, or as written)
SIMPLE: dict[type, Any] = {
    A.Let: lambda node, x, target: f"let {node.name} = {x(node.value)}",
    A.LetRoll: lambda node, x, target: f"let {node.name} = roll {x(node.die)}",
    A.Set: lambda node, x, target: f"set {target(node.target)} = {x(node.value)}",
    A.Add: _add, A.Move: _move,
    A.Say: lambda node, x, target:
        f"say {x(node.text)}" + (f" to {x(node.to)}" if node.to is not None else ""),
    A.CallRule: _call, A.BaseCall: _call,
}


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

    made = HEADERS.get(type(node))
    if made is None:
        return _span_lines(node.span, lines, indent, _header_end(node))
    text = made(node, part)
    return [f"{indent}{text}:"]


def _turns(node: A.Turns, part: Any) -> str:
    return (f"turns{part('start', ' from ')}{part('direction', ' going ')}"
            f"{' all at once' if node.at_once else ''}{part('rounds', ' for ', ' rounds')}")


def _choose(node: A.Choose | A.ChooseAny, part: Any) -> str:
    word = "any " if isinstance(node, A.ChooseAny) else (
        "optional " if getattr(node, "optional", False) else "")
    secret = " secretly" if getattr(node, "secret", False) else ""
    return (f"choose {word}{node.var} in{part('domain')}{part('where', ' where ')}"
            f"{part('by', ' by ')}{secret}{part('label', ' as ')}"
            f"{part('done_label', ' or ')}")


# the headers put together from their parts (the others are taken as written)
HEADERS: dict[type, Any] = {
    A.MenuOption: lambda node, part: f"option {node.id}{part('label')}{part('cond', ' if ')}",
    A.ForEach: lambda node, part:
        f"for each {node.var} in{part('domain')}{part('where', ' where ')}",
    A.While: lambda node, part: f"while{part('cond')}",
    A.Repeat: lambda node, part: f"repeat{part('count', ' ', ' times')}",
    A.Turns: _turns,
    A.ChooseMenu: lambda node, part: f"choose{part('by', ' by ')}",
    A.Choose: _choose, A.ChooseAny: _choose,
}


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

    return A.handler(EXPRESSIONS, e, "the text of an expression")(e, x, lines)


Part = Any  # the text of a part of an expression: x(part, least binding)


def _binary(e: A.Binary, x: Part, lines: Any) -> str:
    n = BINDS.get(e.op, 9)
    return f"{x(e.left, n)} {e.op} {x(e.right, n + 1)}"


def _unary(e: A.Unary, x: Part, lines: Any) -> str:
    return f"not {x(e.operand, 3)}" if e.op == "not" else f"-{x(e.operand, 8)}"


def _items(e: A.ListLit | A.TupleLit, x: Part, lines: Any) -> str:
    inside = ", ".join(x(a) for a in e.items)
    return f"[{inside}]" if isinstance(e, A.ListLit) else f"({inside})"


def _over(e: A.Quantifier | A.Aggregate | A.ListComp | A.Sort, x: Part, lines: Any) -> str:
    where = f" where {x(e.where)}" if e.where is not None else ""
    if isinstance(e, A.Quantifier):
        return f"{e.kind}({e.var} in {x(e.domain)}{where})"
    if isinstance(e, A.Sort):
        return f"sort({e.var} in {x(e.domain)}{where} by {x(e.key)})"
    inner = f"{x(e.expr)} for {e.var} in {x(e.domain)}{where}"
    return f"[{inner}]" if isinstance(e, A.ListComp) else f"{e.kind}({inner})"


def _as_written(e: Any, x: Part, lines: dict[str, list[str]]) -> str:
    """A literal or a name: no part of it can come from another file."""
    return _source(e.span, lines)


EXPRESSIONS: dict[type, Any] = {
    A.Binary: _binary, A.Unary: _unary,
    A.Of: lambda e, x, lines: f"{e.attr} of {x(e.obj, 8)}",
    A.Index: lambda e, x, lines: f"{x(e.obj, 9)}[{x(e.index)}]",
    A.IsEmpty: lambda e, x, lines: f"{x(e.operand, 5)} is {'not ' if e.negated else ''}empty",
    A.Cond: lambda e, x, lines: f"if {x(e.test)} then {x(e.then)} else {x(e.otherwise)}",
    A.Call: lambda e, x, lines: f"{e.func}({', '.join(x(a) for a in e.args)})",
    A.ListLit: _items, A.TupleLit: _items,
    A.Quantifier: _over, A.Aggregate: _over, A.ListComp: _over, A.Sort: _over,
    A.IntLit: _as_written, A.StrLit: _as_written, A.BoolLit: _as_written,
    A.NoneLit: _as_written, A.PlayerLit: _as_written, A.Name: _as_written,
}


def _body(stmts: list, lines: dict[str, list[str]], indent: str) -> list[str]:
    out: list[str] = []
    for s in stmts:
        out += _stmt(s, lines, indent + INDENT)
    return out
