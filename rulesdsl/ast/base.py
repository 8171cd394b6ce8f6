"""The base of every node of the syntax tree: a frozen pydantic model with its span.

Stage: the vocabulary every stage shares (made by parse, read by resolve, check and
compile). `Node.make` builds a node the parser's builder guarantees, without validating it.
"""

from __future__ import annotations

import copy
from typing import Any, Self

from pydantic import BaseModel, ConfigDict

from .. import diagnostics
from ..diagnostics import Span

_PLAIN = (str, int, bool, type(None))


class Node(BaseModel):
    """Base of every node: immutable, with the span it was parsed from."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    span: Span

    @classmethod
    def make(cls, **fields: Any) -> Self:
        """A node of fields whose types the caller guarantees (the parser's builder, the
        merging of variants), not validated: the same node as `cls(**fields)` gives, without
        the cost of building the classes' validators when a command starts (a tenth of a
        second) nor of validating each node. A field left out takes its
        default; an unknown or missing field is an error, as it would be when validated.
        Tests check the guarantee (`diagnostics.VALIDATE_MADE`)."""
        if diagnostics.VALIDATE_MADE:
            return cls(**fields)
        values: dict[str, Any] = {}
        for key, default in _defaults(cls).items():
            if key in fields:
                values[key] = fields[key]
            elif default is _REQUIRED:
                raise TypeError(f"{cls.__name__} needs its field {key!r}")
            else:  # a list or dict default is copied, as pydantic copies it
                values[key] = default if type(default) in _PLAIN else copy.deepcopy(default)
        if len(values) < len(fields):
            raise TypeError(f"{cls.__name__} has no field {(fields.keys() - values.keys())}")
        return diagnostics.unvalidated(cls, values, set(fields))


_REQUIRED = object()
_DEFAULTS: dict[type, dict[str, Any]] = {}


def _defaults(cls: type[Node]) -> dict[str, Any]:
    """Each field of a node class, in order, with its default (_REQUIRED for none)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = {}
        for key, f in cls.model_fields.items():
            if f.default_factory is not None:  # none has one: `make` would not call it
                raise TypeError(f"{cls.__name__}.{key} has a default factory")
            found[key] = _REQUIRED if f.is_required() else f.default
    return found


class Named(Node):
    """A node that declares or binds a name (a declaration, `let`, a loop or choice
    variable): `name_span` is where the name itself is written, for editors (None when
    the node was not parsed from text)."""

    name_span: Span | None = None
