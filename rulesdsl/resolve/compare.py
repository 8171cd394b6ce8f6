"""What one rule file changes in another: `rulesdsl diff A B`.

Stage: resolve (a tool beside the pipeline). Both files are resolved (merged with their
bases); each declaration of B is compared with A's of the same name: added, removed, or
changed. A changed declaration is shown by the lines that differ, with a line around them;
a declaration a variant edited with `change` is written from the lines of each of its
statements (render.py), wherever each was written.
"""

from __future__ import annotations

import difflib
from typing import Any

from .. import ast as A
from ..diagnostics import Span
from .render import decl_lines, expression_text
from .variants import BODIED, Resolved, declarations, describe, hidden_rule, key_of, same


def span_text(span: Span, sources: dict[str, str]) -> list[str]:
    """The source lines of a declaration."""
    lines = sources.get(span.file, "").splitlines()
    end = span.end_line - 1 if span.end_column == 1 else span.end_line
    text = lines[span.line - 1:max(end, span.line)]
    if text:
        text[0] = text[0][span.column - 1:]  # after 'replace ', when there is one
    # a declaration's span runs to the next one: the comments before that one are its own
    while text and (not text[-1].strip() or text[-1].lstrip().startswith("#")):
        text.pop()
    return text


def diff(a: Resolved, b: Resolved) -> list[str]:
    """The effective difference between two rule files, as readable lines: what B changes,
    adds and removes relative to A, each with the place it was written; a declaration both
    have is shown by the lines that differ (with a line around them)."""
    sources = {**a.sources, **b.sources}
    lines = {path: text.splitlines() for path, text in sources.items()}
    old, new = declarations(a.file), declarations(b.file)
    out: list[str] = []
    for key, decl in old.items():
        if key not in new and not hidden_rule(key):
            out.append(f"removed {describe(key)} ({decl.span})")
            out += [f"  - {line}" for line in _text(decl, sources, lines)]
        elif not same(decl, new[key]):
            where = new[key].span
            edited = sorted({s.file for s in _spans(new[key])} - {where.file})
            if where != decl.span:
                out.append(f"replaced {describe(key)} ({decl.span} -> {where})")
            else:
                out.append(f"changed {describe(key)} ({decl.span}, edited in "
                           f"{', '.join(edited)})")
            out += _changed_lines(decl, new[key], sources, lines)
    for key, decl in new.items():
        if key not in old and not hidden_rule(key):
            out.append(f"added {describe(key)} ({decl.span})")
            out += [f"  + {line}" for line in _text(decl, sources, lines)]
    unnamed_a = [d for d in a.file.items if key_of(d) is None]
    unnamed_b = [d for d in b.file.items if key_of(d) is None]
    for d in unnamed_a:
        if not any(same(d, e) for e in unnamed_b):
            out.append(f"removed {_unnamed(d)} ({d.span})")
    for d in unnamed_b:
        if not any(same(d, e) for e in unnamed_a):
            out.append(f"added {_unnamed(d)} ({d.span})")
    return out


def _unnamed(decl: Any) -> str:
    return "a 'display' block" if isinstance(decl, A.DisplayDecl) else "an 'as soon as' block"


def _text(decl: Any, sources: dict[str, str], lines: dict[str, list[str]]) -> list[str]:
    """A declaration's lines: as written when it was written in one piece, put together from
    its statements' lines when a variant changed it."""
    files = {s.file for s in _spans(decl)}
    if len(files) > 1 or isinstance(decl, BODIED) and decl.span.file not in sources:
        return decl_lines(decl, lines)
    return span_text(decl.span, sources)


def _spans(node: Any) -> list[Span]:
    if isinstance(node, A.Node):
        return [node.span] + [s for key in type(node).model_fields if key != "span"
                              for s in _spans(getattr(node, key))]
    if isinstance(node, (list, tuple)):
        return [s for x in node for s in _spans(x)]
    return []


def _replaced_parts(old: Any, new: Any, file: str, lines: dict[str, list[str]]) -> list[str]:
    """The parts of a definition a variant replaced (`change define`): each old part and
    the new one, found by walking both versions side by side."""
    if isinstance(new, A.Node) and new.span.file != file:
        return [f"  - {expression_text(old, lines)}", f"  + {expression_text(new, lines)}"]
    if isinstance(new, A.Node) and type(old) is type(new):
        return [line for key in type(new).model_fields if key != "span"
                for line in _replaced_parts(getattr(old, key), getattr(new, key), file, lines)]
    if isinstance(new, (list, tuple)) and isinstance(old, (list, tuple)):
        return [line for a, b in zip(old, new) for line in _replaced_parts(a, b, file, lines)]
    return []


def _changed_lines(old: Any, new: Any, sources: dict[str, str],
                   lines: dict[str, list[str]]) -> list[str]:
    """The lines of two versions of a declaration that differ, with one line of context
    around each change (`...` where lines are left out)."""
    one, two = _text(old, sources, lines), _text(new, sources, lines)
    if isinstance(new, A.DefineDecl) and len({s.file for s in _spans(new)}) > 1:
        return _replaced_parts(old.body, new.body, new.span.file, lines)
    if isinstance(old, BODIED) and (len({s.file for s in _spans(old)}) > 1
                                    or len({s.file for s in _spans(new)}) > 1):
        one, two = decl_lines(old, lines), decl_lines(new, lines)
    out: list[str] = []
    for group in difflib.SequenceMatcher(None, one, two, autojunk=False).get_grouped_opcodes(1):
        if out:
            out.append("    ...")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [f"    {line}" for line in one[i1:i2]]
                continue
            out += [f"  - {line}" for line in one[i1:i2]]
            out += [f"  + {line}" for line in two[j1:j2]]
    return out
