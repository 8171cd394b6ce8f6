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


class Places:
    """Converts between spans and ranges for the files of one check (their texts)."""

    def __init__(self, sources: dict[str, str], codec: PositionCodec):
        self.lines = {norm: text.split("\n") for norm, text in sources.items()}
        self.codec = codec

    def _line(self, file: str, line: int) -> str:
        lines = self.lines.get(file, [])
        return lines[line - 1] if 1 <= line <= len(lines) else ""

    def position(self, file: str, line: int, column: int) -> types.Position:
        text = self._line(file, line)
        return types.Position(line=max(line - 1, 0),
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
        """The (line, column) of an LSP position, 1-based, in characters."""
        text = self._line(file, pos.line + 1)
        units, column = 0, 0
        for ch in text:
            if units >= pos.character:
                break
            units += self.codec.client_num_units(ch)
            column += 1
        return pos.line + 1, column + 1


def uri_of(path: str) -> str:
    return uris.from_fs_path(os.path.normpath(os.path.abspath(path))) or path


def path_of(uri: str) -> str:
    return uris.to_fs_path(uri) or uri
