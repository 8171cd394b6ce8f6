"""The parser: a rule file's text into the typed AST (stage 1 of the pipeline).

lark (LALR, positions kept) parses `rules.lark`; `AstBuilder` turns the tree into
`rulesdsl.ast` nodes. Syntax errors become diagnostics with the place and a readable list
of what was expected; the parser recovers at the next top-level declaration so one run
reports the syntax errors of several declarations.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import (
    Lark,
    Token,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.exceptions import VisitError
from lark.indenter import DedentError, Indenter

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError, Span
from ..files import cachedir
from ..limits import MAX_EXAMPLES, MAX_RULE_BYTES, MAX_STRING, MAX_TREE_DEPTH
from .builder import AstBuilder, StringError

GRAMMAR = Path(__file__).with_name("rules.lark")
MAX_SYNTAX_ERRORS = 20

TOKEN_NAMES = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
    "CMP": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '/' or '%'",
    "QUANT": "count/any/all/first/filter",
    "AGG": "sum/max/min",
    "ADJ": "'orthogonal' or 'diagonal'",
    "SECRET": "'secret'",
    "PLAYER": "'player'",
}


class RulesIndenter(Indenter):
    """Turns leading white space into _INDENT/_DEDENT tokens."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def rules_parser() -> Lark:
    return _kept_lark(GRAMMAR.read_text(encoding="utf-8"))


def _kept_lark(text: str) -> Lark:
    """The parser of the grammar `text`: read back from the user's cache folder if this
    grammar's parser was kept there (by this lark and Python), else built and kept.

    lark keeps a parser as a pickle, and loading a pickle runs code: so lark's own cache
    (which reads a file by its name, by default in the system's temporary folder, where
    another user could plant one) is not used. The parser is saved here with lark's
    `save`, kept through `cachedir.Folder` (a folder of the user's own, opened once, each
    file signed with the folder's key) and unpickled only from what the key vouches for.
    A command that finds nothing, or a file it cannot load, builds the parser itself."""
    folder = cachedir.open_private()
    if folder is None:
        return _lark(text)
    with folder:
        name = cache_name(text)
        blob = folder.read(name)
        if blob is not None:
            try:
                kept = PlacingLark.__new__(PlacingLark)
                # what lark's own cache does: the options that are objects given again
                kept._load(io.BytesIO(blob), postlex=RulesIndenter())
                if kept.placing:
                    folder.used(name)  # kept while in use (cachedir.Folder.prune)
                    return kept
            except Exception:  # noqa: BLE001 -- of another lark, damaged: built anew
                pass
        parser = _lark(text)
        if isinstance(parser, PlacingLark):
            out = io.BytesIO()
            parser.save(out, exclude_options=("postlex",))
            folder.write(name, out.getvalue())
    return parser


class PlacingLark(Lark):
    """lark's LALR parser, each tree placed as lark's `propagate_positions` places it, at
    about a third of the cost (placing Cromlech's trees: 0.012 s against 0.030): a tree
    starts where its first child (token or placed tree, the tokens the tree leaves out
    included) starts and ends where its last child ends; a tree that stands for a rule
    written in place (a `?rule` of one child, a bracketed expression) keeps its own place
    and takes its container's too, which its parent's place then starts or ends at.
    lark's own way asks each child for six attributes a tree may not have, by `getattr`
    with a default, at every reduction: half of parsing Cromlech. A test compares every
    tree's place with lark's over every rule file of the repository."""

    placing = False  # set when lark has let it place trees (see `_lark`)

    def _prepare_callbacks(self) -> None:
        super()._prepare_callbacks()
        self._callbacks = {rule: _placing(build) if not isinstance(rule, str) else build
                           for rule, build in self._callbacks.items()}
        self.placing = True


# a place: line, column and offset in the text (lark's positions are ints where set)
Place = tuple[Any, Any, Any]


def _first_place(children: list) -> Place | None:
    """Where the first child with a place starts (its container's start, for a tree)."""
    for c in children:
        if isinstance(c, Token):
            return c.line, c.column, c.start_pos
        if isinstance(c, Tree):
            meta: Any = c._meta
            if meta is not None and not meta.empty:
                return meta.container_line, meta.container_column, meta.container_start_pos
    return None


def _last_place(children: list) -> Place:
    """Where the last child with a place ends: called when one has (see `_first_place`)."""
    for i in range(len(children) - 1, -1, -1):
        c = children[i]
        if isinstance(c, Token):
            return c.end_line, c.end_column, c.end_pos
        if isinstance(c, Tree):
            meta: Any = c._meta
            if meta is not None and not meta.empty:
                return (meta.container_end_line, meta.container_end_column,
                        meta.container_end_pos)
    raise AssertionError("a child has a place")


def _placing(build: Any) -> Any:
    """A rule's callback that places the tree `build` returns (see `PlacingLark`); a tree
    passed up alone, as the whole of what it is part of, keeps its container."""

    def placed(children: list) -> Any:
        res = build(children)
        if isinstance(res, Tree) and not (len(children) == 1 and res is children[0]):
            first = _first_place(children)
            if first is not None:
                last = _last_place(children)
                meta: Any = res.meta
                if meta.empty:
                    meta.line, meta.column, meta.start_pos = first
                    meta.end_line, meta.end_column, meta.end_pos = last
                    meta.empty = False
                meta.container_line, meta.container_column, meta.container_start_pos = first
                (meta.container_end_line, meta.container_end_column,
                 meta.container_end_pos) = last
        return res

    return placed


def _lark(text: str, placing: bool = True) -> Lark:
    options: dict[str, Any] = {"parser": "lalr", "postlex": RulesIndenter(),
                               "maybe_placeholders": True, "start": ["start", "expr"]}
    if not placing:  # (not kept: its file would be the other parser's)
        return Lark(text, propagate_positions=True, **options)
    parser = PlacingLark(text, **options)
    # PlacingLark places trees through a method of lark's that lark does not promise to
    # keep: a lark that does not call it gets lark's own placing instead (and a lark that
    # calls it but builds trees otherwise fails tests/test_start.py)
    if not parser.placing:
        return _lark(text, placing=False)
    return parser


def cache_name(grammar: str) -> str:
    """The name the built parser is kept under in the user's cache folder (building it is
    most of the start-up time of a command): a new grammar, lark or Python, a new name."""
    import lark

    key = hashlib.sha256(f"{grammar}\0{lark.__version__}\0{sys.version}".encode())
    return f"parser-{key.hexdigest()[:24]}.lark"


def _readable(parser: Lark, name: str) -> str:
    if name in TOKEN_NAMES:
        return TOKEN_NAMES[name]
    for term in parser.terminals:
        if term.name == name and term.pattern.type == "str":
            return repr(term.pattern.value)
    return name


def _describe_token(tok: Token) -> str:
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "indented line"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "$END":
        return "end of file"
    return repr(str(tok))


def _syntax_diagnostic(err: Exception, path: str, text: str) -> Diagnostic:
    parser = rules_parser()
    if isinstance(err, UnexpectedToken):
        tok = err.token
        line, col = tok.line or 1, tok.column or 1
        # a _DEDENT token is placed at the end of the last line of the block it closes
        opener = _block_opener(text, line, col, tok.type == "_DEDENT")
        if opener is not None and tok.type not in ("_INDENT", "$END"):
            span = Span(file=path, line=line, column=col, end_line=line, end_column=col + 1)
            return Diagnostic("E001", f"expected an indented block after line {opener}", span,
                              hint="a line ending with ':' starts a block: indent the lines "
                                   "that belong to it")
        wanted = {e for e in err.expected if not e.startswith("__")}
        line_text = (text.split("\n") + [""])[max(line - 1, 0)].lstrip()
        if {"COLON", "_NL"} <= wanted and not line_text.startswith(("instead", "before",
                                                                     "after")):
            # a statement may end in ':' only after `instead of`, `before` or `after` (in
            # a variant's `change`): elsewhere the parser's ':' would mislead
            wanted.discard("COLON")
        expected = sorted({_readable(parser, e) for e in wanted})
        hint = None
        if len(expected) <= 6:
            hint = "expected " + ", ".join(expected)
        msg = f"unexpected {_describe_token(tok)}"
        if tok.type == "_INDENT":
            # the token starts at the end of the line before: underline the indentation
            line = tok.end_line or line
            span = Span(file=path, line=line, column=1, end_line=line,
                        end_column=len(str(tok)) + 1)
            return Diagnostic("E001", "unexpected indentation", span,
                              hint="only a line ending with ':' starts an indented block")
        if str(tok) == "=" and "CMP" in err.expected:
            hint = "to compare two values, write '=='"
        taken = _keyword_as_name(text, line)
        if taken is not None:
            msg, hint = taken
        misspelt = _misspelt_word(parser, text, path, line, col)
        if misspelt is not None:
            return misspelt
        layout = tok.type in ("_NL", "_INDENT", "_DEDENT", "$END")
        width = 1 if layout else max(len(str(tok)), 1)
        span = Span(file=path, line=line, column=col, end_line=line, end_column=col + width)
        return Diagnostic("E001", msg, span, hint=hint)
    if isinstance(err, UnexpectedCharacters):
        # by line and column: the text parsed may have declarations blanked
        line_text = (text.split("\n") + [""])[max(err.line - 1, 0)]
        ch = line_text[err.column - 1] if 0 < err.column <= len(line_text) else "?"
        span = Span(file=path, line=err.line, column=err.column, end_line=err.line,
                    end_column=err.column + 1)
        return Diagnostic("E001", f"unexpected character {ch!r}", span)
    if isinstance(err, UnexpectedEOF):
        lines = text.splitlines() or [""]
        span = Span(file=path, line=len(lines), column=len(lines[-1]) + 1,
                    end_line=len(lines), end_column=len(lines[-1]) + 2)
        return Diagnostic("E001", "unexpected end of file", span)
    if isinstance(err, DedentError):
        return Diagnostic("E003", "this line's indentation matches no enclosing block",
                          _dedent_span(path, text),
                          hint="indent with the same spaces as the block it belongs to")
    return Diagnostic("E001", str(err), Span(file=path))


# words that start a statement of their own, and what they start: a rule file that names
# a rule (or, after `expect`, a counter) with one of them gets a message saying so
STATEMENT_WORDS = {
    "each": "a secret step: each p in players chooses in secret",
    "offer": "an offer: offer x in xs by p to q",
    "point": "a point of the flow: point NAME",
}
_CALLED = re.compile(r"^\s*(" + "|".join(STATEMENT_WORDS) + r")\s*\(")
_EXPECTED_OPTIONS = re.compile(r"^\s*expect\s+options\b(?!\s*(\"|include\b|exclude\b))")


def _keyword_as_name(text: str, line: int) -> tuple[str, str] | None:
    """The message and hint for a line that uses a word of the language as a name."""
    lines = text.split("\n")
    source = lines[line - 1] if 1 <= line <= len(lines) else ""
    called = _CALLED.match(source)
    if called:
        word = called.group(1)
        return (f"'{word}' starts {STATEMENT_WORDS[word]}; it cannot name a rule",
                f"give the rule another name, such as {word}_now")
    if _EXPECTED_OPTIONS.match(source):
        return ("'expect options' checks the options a decision offers: expect options "
                "\"id\", ...", "a counter named 'options' needs another name to be "
                "expected, such as options_left")
    return None


_FIRST_WORD = re.compile(r"^(\s*)([A-Za-z_][A-Za-z_0-9]*)(\s+)")


def _keywords(parser: Lark) -> list[str]:
    """The words of the language: the grammar's terminals that are plain words."""
    return sorted({t.pattern.value for t in parser.terminals
                   if t.pattern.type == "str" and t.pattern.value.isalpha()})


def _misspelt_word(parser: Lark, text: str, path: str, line: int,
                   col: int) -> Diagnostic | None:
    """The diagnostic for a line whose first word is no word of the language but close
    to one (`chose n in 1..3`, `countr x ...`), when the parser stopped at that word or at
    the one after it (in a block the word is read as the name of a rule to call, and the
    message would otherwise be about the next word). None for any other line."""
    lines = text.split("\n")
    source = lines[line - 1] if 1 <= line <= len(lines) else ""
    first = _FIRST_WORD.match(source)
    if first is None or col not in (len(first.group(1)) + 1, first.end() + 1):
        return None
    word = first.group(2)
    words = _keywords(parser)
    if word in words:
        return None
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.75)
    if not close:
        return None
    start = len(first.group(1)) + 1
    span = Span(file=path, line=line, column=start, end_line=line, end_column=start + len(word))
    return Diagnostic("E001", f"'{word}' is not a word of the language", span,
                      hint=f"did you mean '{close[0]}'?")


def _block_opener(text: str, line: int, col: int, dedent: bool) -> int | None:
    """The number of a line ending with ':' whose block is missing, if the unexpected token
    at (line, col) shows one: a dedent at the end of that line, or the first token of the
    line after it, not indented deeper."""
    lines = text.splitlines()
    if dedent:
        ok = 1 <= line <= len(lines) and lines[line - 1].rstrip().endswith(":")
        return line if ok else None
    if not 1 < line <= len(lines) or lines[line - 1][:col - 1].strip():
        return None
    i = line - 1
    while i > 0 and (not lines[i - 1].strip() or lines[i - 1].lstrip().startswith("#")):
        i -= 1
    if i < 1 or not lines[i - 1].rstrip().endswith(":"):
        return None

    def indent(s: str) -> int:
        return len(s.expandtabs(4)) - len(s.expandtabs(4).lstrip())

    return i if indent(lines[line - 1]) <= indent(lines[i - 1]) else None


def _dedent_span(path: str, text: str) -> Span:
    """The first line whose indentation matches no enclosing level."""
    levels = [0]
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        width = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        if width > levels[-1]:
            levels.append(width)
            continue
        while width < levels[-1]:
            levels.pop()
        if width != levels[-1]:
            return Span(file=path, line=n, column=1, end_line=n, end_column=width + 1)
    return Span(file=path)


def _blank_item(text: str, line: int) -> str | None:
    """Blank the top-level declaration around `line`, keeping line numbers; None if no
    progress is possible."""
    lines = text.split("\n")
    if not lines:
        return None
    idx = min(max(line - 1, 0), len(lines) - 1)

    def top(i: int) -> bool:
        s = lines[i]
        return bool(s.strip()) and not s[0].isspace() and not s.startswith("#")

    start = idx
    while start > 0 and not top(start):
        start -= 1
    end = idx + 1
    while end < len(lines) and not top(end):
        end += 1
    if all(not lines[i].strip() for i in range(start, end)):
        return None
    for i in range(start, end):
        lines[i] = ""
    return "\n".join(lines)


def parse(text: str, path: str = "<input>") -> A.RulesFile:
    """Parse rule-file text into a `RulesFile`, or raise `RulesError` with every syntax
    error found (one per top-level declaration)."""
    deep = too_large(text, path) or brackets_too_deep(text, path)
    if deep is not None:
        raise RulesError([deep], {path: text} if deep.span and deep.span.line else {})
    tree, diags = recover(text if text.endswith("\n") else text + "\n", text, path)
    if diags:
        raise RulesError(diags, {path: text})
    assert tree is not None
    return build(tree, text, path)


def recover(current: str, text: str, path: str) -> tuple[Tree | None, list[Diagnostic]]:
    """Parse `current`: the text, or the text with some declarations blanked (line numbers
    kept). After a syntax error the declaration around it is blanked and parsing starts
    again, so one run finds the errors of several declarations. The diagnostics are worded
    and placed from `text`. Returns the tree when there is no error."""
    parser = rules_parser()
    diags: list[Diagnostic] = []
    while True:
        try:
            return parser.parse(current, start="start"), diags
        except (UnexpectedInput, DedentError) as err:
            diag = _syntax_diagnostic(err, path, text)
            if diags and diag.render() == diags[-1].render():
                return None, diags
            diags.append(diag)
            line = diag.span.line if diag.span else 1
            nxt = _blank_item(current, line)
            if nxt is None or nxt == current or len(diags) >= MAX_SYNTAX_ERRORS:
                return None, diags
            current = nxt


def build(tree: Tree, text: str, path: str) -> A.RulesFile:
    """The AST of a parse tree, or a RulesError for a malformed string (E002)."""
    parser = rules_parser()

    def parse_expr(src: str, line: int, col: int) -> A.Expr:
        try:
            sub = parser.parse(src, start="expr")
        except UnexpectedInput as err:
            raise StringError(f"bad expression in '{{{src}}}'",
                              Span(file=path, line=line, column=col, end_line=line,
                                   end_column=col + len(src))) from err
        # each place made where it is in the file (the text is one line of a string)
        try:
            return AstBuilder(path, parse_expr, at=(line, col)).transform(sub)
        except VisitError as err:  # what the builder refuses in the hole, placed there
            inner = err.orig_exc
            if not isinstance(inner, StringError):
                raise
            if not inner.span.file:  # placed in the hole's text: moved to the file's line
                inner.span = Span(file=path, line=line,
                                  column=col + inner.span.column - 1, end_line=line,
                                  end_column=col + inner.span.end_column - 1)
            raise inner from None

    def refused(err: StringError) -> RulesError:
        span = err.span if err.span.file else err.span.model_copy(update={"file": path})
        return RulesError([Diagnostic(err.code, err.message, span)], {path: text})

    too_deep = _too_deep(tree, path)
    if too_deep is not None:
        raise RulesError([too_deep], {path: text})
    try:
        return AstBuilder(path, parse_expr).transform(tree)
    except StringError as err:
        raise refused(err) from None
    except Exception as err:  # lark wraps builder errors in VisitError
        inner = getattr(err, "orig_exc", None)
        if isinstance(inner, StringError):
            raise refused(inner) from None
        raise


def too_large(text: str, path: str) -> Diagnostic | None:
    """E006 for a rule file's text larger than the cap (the editor's text, or a text given
    to `load_text`: a file is refused as it is read, paths.read_text), before any work."""
    size = len(text) if len(text) * 4 <= MAX_RULE_BYTES else len(text.encode("utf-8",
                                                                           "replace"))
    if size <= MAX_RULE_BYTES:
        return None
    return Diagnostic("E006", f"a rule file is at most {MAX_RULE_BYTES >> 10} KiB, and this "
                      f"one is {size >> 10:,} KiB", Span(file=path, line=0, column=0,
                                                         end_line=0, end_column=0),
                      hint="split it into a game and variants that extend it")


def brackets_too_deep(text: str, path: str) -> Diagnostic | None:
    """E004 for brackets nested deeper than the grammar may nest, E006 for a string longer
    than MAX_STRING and E062 for more examples than MAX_EXAMPLES, found by counting before
    the parser sees them (a hundred thousand `[` would keep the parser busy for seconds,
    the builder keeps a few hundred bytes per character of a string, and the examples would
    be parsed for seconds before the checker counts them). Brackets in strings and
    comments do not count."""
    depth = examples = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("example") and line[7:8] in (" ", '"'):
            examples += 1  # each runs a game, after the whole file is parsed and checked
            if examples > MAX_EXAMPLES:
                return _too_many_examples(examples, Span(file=path, line=number, column=1,
                                                         end_line=number, end_column=8))
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if ch == '"':  # a string: to its closing quote, escapes skipped
                start = i
                i += 1
                while i < n and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
                if i - start - 1 > MAX_STRING:
                    return Diagnostic("E006", f"a string is at most {MAX_STRING:,} characters, "
                                      f"and this one is {i - start - 1:,}",
                                      Span(file=path, line=number, column=start + 1,
                                           end_line=number, end_column=start + 2),
                                      hint="split the text into several lines")
            elif ch == "#":
                break  # a comment: the rest of the line
            elif ch in "([{":
                depth += 1
                if depth > MAX_TREE_DEPTH:
                    return Diagnostic("E004", "this is nested too deeply: brackets nest at "
                                      f"most {MAX_TREE_DEPTH} deep",
                                      Span(file=path, line=number, column=i + 1,
                                           end_line=number, end_column=i + 2),
                                      hint="split a deep list into named parts (const, "
                                           "define)")
            elif ch in ")]}":
                depth = max(depth - 1, 0)
            i += 1
    return None


def _too_many_examples(count: int, span: Span) -> Diagnostic:
    """E062 at the first example past the bound (the checker counts those of a variant's
    bases too)."""
    return Diagnostic("E062", f"a rule file has at most {MAX_EXAMPLES:,} examples, with those "
                      f"of the files it extends: this is example {count:,}", span,
                      hint="split them among variants of the game")


def _too_deep(tree: Tree, path: str) -> Diagnostic | None:
    """E004 when the parse tree is deeper than the checks after it can walk (a sum of
    hundreds of terms, brackets nested hundreds deep): measured without recursion, level
    by level (a tree's children, tokens and absent parts too, are a level below it), the
    place found only for a tree too deep."""
    level = [tree]
    for _ in range(MAX_TREE_DEPTH):
        level = [c for node in level if isinstance(node, Tree) for c in node.children]
        if not level:
            return None
    return _deepest_place(tree, path)


def _deepest_place(tree: Tree, path: str) -> Diagnostic | None:
    """E004 at the first node of the tree (depth first) below the deepest level allowed,
    placed at its own place or its nearest ancestor's."""
    # each node with the place of its nearest ancestor that has one (a block has none)
    todo: list[tuple[Any, int, int, int]] = [(tree, 1, 1, 1)]
    while todo:
        node, depth, line, column = todo.pop()
        meta = node.meta if isinstance(node, Tree) else node
        if not getattr(meta, "empty", False) and getattr(meta, "line", None):
            line, column = meta.line, meta.column or 1
        if depth > MAX_TREE_DEPTH:
            return Diagnostic("E004", "this is nested too deeply: expressions and blocks "
                              f"nest at most {MAX_TREE_DEPTH} levels of the grammar",
                              Span(file=path, line=line, column=column, end_line=line,
                                   end_column=column + 1),
                              hint="split a long sum or a deep list into named parts "
                                   "(define, const)")
        if isinstance(node, Tree):
            todo.extend((child, depth + 1, line, column) for child in node.children)
    return None
