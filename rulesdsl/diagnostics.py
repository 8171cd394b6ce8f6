"""Diagnostics: the one type for every error and warning, from the parser to the runtime.

A diagnostic has a stable code (listed in docs/diagnostics.md), a severity, a message, a
source span and optional notes and hint. `render` prints it the way a compiler does:
`file:line:col: error[CODE]: message`, the source line, and a caret under the span.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

M = TypeVar("M", bound=BaseModel)


class Span(BaseModel):
    """A place in a source file: 1-based line and column, end exclusive. Line 0 means the
    whole file (a diagnostic about something missing from it)."""

    # its validator is built when a span is first validated, not at import: a command that
    # makes its spans with `make` (the parser's) never builds one (docs/performance.md)
    model_config = ConfigDict(frozen=True, defer_build=True)

    file: str = "<input>"
    line: int = 1
    column: int = 1
    end_line: int = 1
    end_column: int = 1

    @classmethod
    def make(cls, **fields: Any) -> Span:
        """A span of fields whose types the caller guarantees, not validated: the same span
        as `Span(**fields)`, for the parser, which makes one for every node (as
        `rulesdsl.ast.Node.make`)."""
        if VALIDATE_MADE:
            return cls(**fields)
        values = {**_SPAN_DEFAULTS, **fields}
        if len(values) > len(_SPAN_DEFAULTS):
            raise TypeError(f"Span has no field {(values.keys() - _SPAN_DEFAULTS.keys())}")
        return unvalidated(cls, values, set(fields))

    def __str__(self) -> str:
        if self.line < 1:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


# Tests turn this on to validate every span and node made with `make` instead, and compare
# (tests/test_start.py): the parser's guarantee of their types, checked.
VALIDATE_MADE = False
_SPAN_DEFAULTS = {"file": "<input>", "line": 1, "column": 1, "end_line": 1, "end_column": 1}
_set = object.__setattr__


def unvalidated(cls: type[M], values: dict[str, Any], fields_set: set[str]) -> M:
    """A frozen pydantic model holding `values` (every field, in order), of which the
    fields in `fields_set` were given: what validation makes, when the values already
    have their types."""
    new = cls.__new__(cls)
    _set(new, "__dict__", values)
    _set(new, "__pydantic_fields_set__", fields_set)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


NO_SPAN = Span.make()


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
        # raised in a game a bot made up: which seat, the sample seed, the steps taken in
        # it (see interpreter/observation.py); None for a real game
        self.made_up: dict[str, Any] | None = None
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its diagnostics (a worker process hands its error back so)."""
        return (type(self), (self.diagnostics, self.sources), {"made_up": self.made_up})


def error(code: str, message: str, span: Span | None = None, hint: str | None = None) -> RulesError:
    """A RulesError holding one diagnostic."""
    return RulesError([Diagnostic(code, message, span, hint=hint)])


class UsageError(Exception):
    """A bad command line: printed on one line, exit status 2."""
