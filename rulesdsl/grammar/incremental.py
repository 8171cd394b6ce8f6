"""Parsing a file again after an edit, one top-level declaration at a time.

Stage: parse. An editor sends the whole text after every key stroke, and lark takes about
a quarter of a second for a large rule file. `IncrementalParser` splits the text into
chunks, each a top-level declaration with the comments after it, parses each chunk on its
own and keeps the result by the chunk's text: after an edit only the chunks whose text
changed are parsed again, the others are moved to their new lines. The chunks of an
earlier version may also come from elsewhere (`recall`): commands keep them between runs
in the user's cache (treecache.py).

The result is the one `parse` gives for the whole text: the same tree, or the same
`RulesError`. For syntax errors that takes care: `parse` recovers by blanking the
declaration around each error and parsing again, and an error may be reported at the first
token of the declaration after a broken one. So the recovery runs on the text with the
chunks that parse on their own blanked, except those on either side of a broken chunk,
and again with one more chunk kept while an error falls on the first line of a kept one.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from lark import UnexpectedInput
from lark.indenter import DedentError

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError, Span
from .parser import brackets_too_deep, build, parse, recover, rules_parser, too_large


@dataclass
class _Entry:
    """What one chunk's text gives: its declarations as placed when the chunk started at
    line index `at` (0: parsed on its own, from line 1), or why not."""

    items: list
    broken: bool = False  # a syntax error
    string_error: Diagnostic | None = None  # E002, the first in the chunk
    at: int = 0


def chunk_starts(lines: list[str]) -> list[int]:
    """The indices of the lines that start a top-level declaration (and 0): a line that
    starts with neither white space nor a comment, outside brackets and not continued
    from the line before with a backslash."""
    starts = [0]
    depth, continued = 0, False
    for i, line in enumerate(lines):
        if i and not depth and not continued and line[:1] not in ("", " ", "\t", "\f", "#",
                                                                   "\r", "\n"):
            starts.append(i)
        depth, continued = _scan(line, depth)
    return starts


def _lines(text: str) -> list[str]:
    """The lines of a text as `parse` reads it (ending with a newline), each with its own."""
    read = text if text.endswith("\n") else text + "\n"
    return [line + "\n" for line in read[:-1].split("\n")]


def _bounds(lines: list[str]) -> list[tuple[int, int]]:
    """Where each chunk starts and ends (line indices, the end excluded)."""
    starts = chunk_starts(lines)
    return list(zip(starts, starts[1:] + [len(lines)]))


_SPECIAL = re.compile(r'["#()\[\]\\]')  # the characters that matter to `_scan`


def _scan(line: str, depth: int) -> tuple[int, bool]:
    """The bracket depth after a line, and whether it ends with a line continuation. Only
    the characters that matter are looked at (quotes, comments, brackets, backslashes)."""
    in_string = False
    end = len(line)
    code_end = end
    skip = -1  # a character escaped inside a string
    for found in _SPECIAL.finditer(line):
        i = found.start()
        if i == skip:
            continue
        ch = line[i]
        if in_string:
            if ch == "\\":
                skip = i + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            code_end = i
            break
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
    code = line[:code_end].rstrip("\r\n").rstrip(" \t\f")
    return depth, not in_string and code_end == end and code.endswith("\\")


class IncrementalParser:
    """Parses successive versions of one file, reusing the declarations that did not
    change. `parsed` counts the chunks parsed so far (the rest came from the cache).
    `recall` gives what a chunk's text gave before, if it is kept elsewhere (the line index
    it started at and its declarations as placed there, as `chunks` gives them), or None."""

    def __init__(self, path: str,
                 recall: Callable[[str], tuple[int, list] | None] | None = None):
        self.path = path
        self.parsed = 0
        self._cache: dict[str, _Entry] = {}
        self._recall = recall
        self._last: tuple[str, A.RulesFile | RulesError] | None = None
        self._cut: tuple[str, tuple[list[str], list[tuple[int, int]], list[str]]] | None = None

    def _known(self, chunk: str) -> _Entry | None:
        """What a chunk gave before: in this parser's cache, or recalled (see `recall`)."""
        found = self._cache.get(chunk)
        if found is None and self._recall is not None:
            kept = self._recall(chunk)
            if kept is not None:
                found = self._cache[chunk] = _Entry(kept[1], at=kept[0])
        return found

    def chunks(self) -> dict[str, tuple[int, list]]:
        """The chunks of the version last parsed without a syntax error in them, each with
        the line index it starts at and its declarations as placed there (what `recall`
        gives)."""
        return {chunk: (e.at, e.items) for chunk, e in self._cache.items()
                if not e.broken and e.string_error is None}

    def parse(self, text: str) -> A.RulesFile:
        """The file's AST, as `rulesdsl.grammar.parse(text, path)` gives it, or the same
        RulesError."""
        if self._last is None or self._last[0] != text:
            big = too_large(text, self.path)
            try:
                if big is not None:  # refused whole, before it is cut into chunks
                    raise RulesError([big])
                self._last = (text, self._parse(text))
            except RulesError as err:
                self._last = (text, err)
        found = self._last[1]
        if isinstance(found, RulesError):
            raise RulesError(list(found.diagnostics), dict(found.sources))
        return found

    def known(self, text: str) -> bool:
        """Whether any chunk of the text is known (in the cache, or recalled)."""
        return any(self._known(c) for c in self._split(text)[2])

    def _split(self, text: str) -> tuple[list[str], list[tuple[int, int]], list[str]]:
        """The text's lines, where its chunks start and end, and the chunks (the last text
        split is remembered: `known` and `parse` split the same text in turn)."""
        if self._cut is None or self._cut[0] != text:
            lines = _lines(text)
            bounds = _bounds(lines)
            self._cut = (text, (lines, bounds, ["".join(lines[a:b]) for a, b in bounds]))
        return self._cut[1]

    def _parse(self, text: str) -> A.RulesFile:
        lines, bounds, chunks = self._split(text)
        known = [self._known(c) for c in chunks]
        if not any(known):  # nothing to reuse: one parse of the whole text
            whole = self._whole(text, chunks, bounds)
            if whole is not None:
                return whole
        entries = [e if e is not None else self._entry(c) for c, e in zip(chunks, known)]
        self._cache = {c: e for c, e in zip(chunks, entries)}
        broken = [i for i, e in enumerate(entries) if e.broken]
        if broken:
            raise RulesError(self._syntax_errors(text, lines, bounds, broken), {self.path: text})
        for (start, _), e in zip(bounds, entries):
            if e.string_error is not None:
                d = e.string_error
                assert d.span is not None
                raise RulesError([Diagnostic(d.code, d.message, _down(d.span, start),
                                             hint=d.hint)],
                                 {self.path: text})
        items: list = []
        for (start, _), e in zip(bounds, entries):
            items += self._moved(e, start)
        whole_file = Span.make(file=self.path, line=1, column=1, end_line=len(lines) + 1,
                               end_column=1)
        return A.RulesFile.make(span=whole_file, path=self.path, items=items)

    def _whole(self, text: str, chunks: list[str],
               bounds: list[tuple[int, int]]) -> A.RulesFile | None:
        """The first time, one parse of the whole text is quicker than one per chunk; its
        declarations are shared out to the chunks they start in. None on an error."""
        try:
            file = parse(text, self.path)
        except RulesError:
            return None
        self._share(file, chunks, bounds)
        return file

    def adopt(self, text: str, file: A.RulesFile) -> None:
        """Take `file`, the tree `parse` gave for the whole text, as if this parser had
        parsed it (its declarations shared out to their chunks)."""
        _, bounds, chunks = self._split(text)
        self._cache = {}
        self._share(file, chunks, bounds)
        self._last = (text, file)

    def _share(self, file: A.RulesFile, chunks: list[str],
               bounds: list[tuple[int, int]]) -> None:
        groups: list[list] = [[] for _ in bounds]
        starts = [a for a, _ in bounds]
        for item in file.items:
            groups[bisect_right(starts, item.span.line - 1) - 1].append(item)
        for chunk, (a, _), items in zip(chunks, bounds, groups):
            self._cache[chunk] = _Entry(items, at=a)
        self.parsed += len(chunks)

    def _entry(self, chunk: str) -> _Entry:
        """A chunk parsed on its own (from line 1)."""
        self.parsed += 1
        deep = brackets_too_deep(chunk, self.path)
        if deep is not None:
            return _Entry([], string_error=deep)
        try:
            tree = rules_parser().parse(chunk, start="start")
        except (UnexpectedInput, DedentError):
            return _Entry([], broken=True)
        try:
            return _Entry(build(tree, chunk, self.path).items)
        except RulesError as err:
            return _Entry([], string_error=err.diagnostics[0])

    @staticmethod
    def _moved(e: _Entry, start: int) -> list:
        """The chunk's declarations placed for a chunk that starts at line index `start`
        (moved, and kept so, when it started elsewhere before)."""
        if e.at != start:
            lines = start - e.at
            e.items, e.at = A.map_spans(e.items, lambda s: _down(s, lines)), start
        return e.items

    def _syntax_errors(self, text: str, lines: list[str], bounds: list[tuple[int, int]],
                       broken: list[int]) -> list[Diagnostic]:
        # a broken chunk is parsed after the one before it (the state the parser is in
        # when it meets the chunk's first token names what it expected there)
        kept = {j for i in broken for j in (i - 1, i, i + 1) if 0 <= j < len(bounds)}
        while True:
            current = "".join("".join(lines[a:b]) if i in kept else "\n" * (b - a)
                              for i, (a, b) in enumerate(bounds))
            _, diags = recover(current, text, self.path)
            lines_hit = {d.span.line - 1 for d in diags if d.span is not None}
            more = {i + 1 for i in kept if i not in broken and bounds[i][0] in lines_hit
                    and i + 1 < len(bounds)} - kept
            if not more:
                return diags
            kept |= more


def _down(span: Span, lines: int) -> Span:
    return A.updated(span, {"line": span.line + lines, "end_line": span.end_line + lines})

