"""Places in the language server: spans (1-based, in characters) and LSP ranges (0-based, in
the client's code units: UTF-16 unless the client asked for another encoding).

Stage: editor support.
"""

from __future__ import annotations

import os

from lsprotocol import types
from pygls import uris
from pygls.workspace.position_codec import PositionCodec

from ..diagnostics import Span
from .workspace import line_map


class Places:
    """Converts between spans and ranges for the files of one check (their texts). When
    the editor's text of a document (`now`) has changed since the check (it does not
    parse: the check is the last one that did), places on the lines not edited since are
    moved to where those lines are now; `shown` says whether a span is on such a line."""

    def __init__(self, sources: dict[str, str], codec: PositionCodec,
                 now: tuple[str, str] | None = None):
        self.lines = {file: text.split("\n") for file, text in sources.items()}
        self.codec = codec
        self.file = now[0] if now is not None else None
        self.forward: dict[int, int] | None = None
        self.back: dict[int, int] = {}
        if now is not None and sources.get(now[0], now[1]) != now[1]:
            self.forward = line_map(sources[now[0]], now[1])
            self.back = {new: old for old, new in self.forward.items()}

    def shown(self, span: Span) -> bool:
        if self.forward is None or span.file != self.file:
            return True
        return span.line in self.forward and span.end_line in self.forward

    def _moved(self, file: str, line: int) -> int:
        if self.forward is None or file != self.file:
            return line
        return self.forward.get(line, line)

    def now(self, span: Span) -> Span | None:
        """A span moved to where its line is in the editor's text (None: edited since)."""
        if not self.shown(span):
            return None
        return span.model_copy(update={"line": self._moved(span.file, span.line),
                                       "end_line": self._moved(span.file, span.end_line)})

    def then(self, line: int) -> int:
        """The line of the check's text for a line of the editor's text: the nearest line
        at or above it that was not edited since."""
        if self.forward is None:
            return line
        return max((old for new, old in self.back.items() if new <= line), default=1)

    def _line(self, file: str, line: int) -> str:
        lines = self.lines.get(file, [])
        return lines[line - 1] if 1 <= line <= len(lines) else ""

    def position(self, file: str, line: int, column: int) -> types.Position:
        text = self._line(file, line)
        return types.Position(line=max(self._moved(file, line) - 1, 0),
                              character=self.codec.client_num_units(text[:max(column - 1, 0)]))

    def range(self, span: Span) -> types.Range:
        """The range of a span; a span of the whole file (line 0) is its first line."""
        if span.line < 1:
            first = self._line(span.file, 1)
            return types.Range(start=types.Position(line=0, character=0),
                               end=types.Position(line=0,
                                                  character=self.codec.client_num_units(first)))
        return types.Range(start=self.position(span.file, span.line, span.column),
                           end=self.position(span.file, span.end_line, span.end_column))

    def location(self, span: Span) -> types.Location:
        return types.Location(uri=uri_of(span.file), range=self.range(span))

    def place(self, file: str, pos: types.Position) -> tuple[int, int]:
        """The (line, column) of an LSP position, 1-based, in characters; line 0 for a
        line edited since the check."""
        line = pos.line + 1
        if self.forward is not None and file == self.file:
            line = self.back.get(line, 0)
        text = self._line(file, line)
        units, column = 0, 0
        for ch in text:
            if units >= pos.character:
                break
            units += self.codec.client_num_units(ch)
            column += 1
        return line, column + 1


def uri_of(path: str) -> str:
    return uris.from_fs_path(os.path.normpath(os.path.abspath(path))) or path


def path_of(uri: str) -> str:
    return uris.to_fs_path(uri) or uri
