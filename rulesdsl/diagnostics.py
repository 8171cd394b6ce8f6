"""Diagnostics: the one type for every error and warning, from the parser to the runtime.

A diagnostic has a stable code (listed in docs/diagnostics.md), a severity, a message, a
source span and optional notes and hint. `render` prints it the way a compiler does:
`file:line:col: error[CODE]: message`, the source line, and a caret under the span.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict


class Span(BaseModel):
    """A place in a source file: 1-based line and column, end exclusive. Line 0 means the
    whole file (a diagnostic about something missing from it)."""

    model_config = ConfigDict(frozen=True)

    file: str = "<input>"
    line: int = 1
    column: int = 1
    end_line: int = 1
    end_column: int = 1

    def __str__(self) -> str:
        if self.line < 1:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


NO_SPAN = Span()


@dataclass
class Diagnostic:
    """One error or warning with its place in the source."""

    code: str
    message: str
    span: Span | None = None
    severity: str = "error"
    hint: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }
        if self.span is not None:
            out["file"] = self.span.file
            out["line"] = self.span.line
            out["column"] = self.span.column
            out["end_line"] = self.span.end_line
            out["end_column"] = self.span.end_column
        if self.hint:
            out["hint"] = self.hint
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def render(self, sources: dict[str, str] | None = None) -> str:
        """The diagnostic as text: header, source line with a caret, hint and notes."""
        where = f"{self.span}: " if self.span is not None else ""
        lines = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        text = (sources or {}).get(self.span.file) if self.span is not None else None
        if self.span is not None and text is not None:
            src_lines = text.splitlines()
            if 1 <= self.span.line <= len(src_lines):
                src = src_lines[self.span.line - 1].expandtabs(1)
                start = max(self.span.column, 1)
                if self.span.end_line == self.span.line and self.span.end_column > start:
                    width = self.span.end_column - start
                else:
                    width = max(len(src.rstrip()) - start + 1, 1)
                num = str(self.span.line)
                pad = " " * len(num)
                lines.append(f"{pad} |")
                lines.append(f"{num} | {src}")
                lines.append(f"{pad} | {' ' * (start - 1)}{'^' * width}")
        if self.hint:
            lines.append(f"  = hint: {self.hint}")
        for note in self.notes:
            lines.append(f"  = note: {note}")
        return "\n".join(lines)


class RulesError(Exception):
    """Raised when a rule file (or a saved game, or a choice) is rejected.

    It carries every diagnostic found, and the source texts to render them with.
    """

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


def error(code: str, message: str, span: Span | None = None, hint: str | None = None) -> RulesError:
    """A RulesError holding one diagnostic."""
    return RulesError([Diagnostic(code, message, span, hint=hint)])


class UsageError(Exception):
    """A bad command line: printed on one line, exit status 2."""
