"""What an agent's parameters are and how a spec's text becomes their values.

Stage: run (the agents' side). Kept apart from the registry, which knows every agent:
each agent lists its `Parameter`s, so the agents import this module and the registry
imports the agents, with no circle between them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


class AgentError(ValueError):
    """An agent spec that does not name an agent or its parameters rightly."""


@dataclass(frozen=True)
class Parameter:
    """One parameter an agent takes: its name, what it is ("int", "float", "bool" or a
    tuple of the words it may be), its default, the least value of a number, and a line of
    help."""

    name: str
    kind: str | tuple[str, ...]
    default: Any
    help: str
    least: float | None = None
    most: float | None = None

    def parse(self, agent: str, text: str) -> Any:
        """The value written as `text`, or AgentError saying what is wanted."""
        kind = self.kind
        try:
            if kind == "int":
                value: Any = int(text)
            elif kind == "float":
                value = float(text)
                if not math.isfinite(value):
                    raise ValueError(text)
            elif kind == "bool":
                if text.lower() not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                    raise ValueError(text)
                value = text.lower() in ("true", "yes", "on", "1")
            else:
                if text not in kind:
                    raise ValueError(text)
                value = text
        except ValueError:
            raise AgentError(f"{agent}: {self.name} must be {self.wanted()}, "
                             f"not {text!r}") from None
        if (self.least is not None and value < self.least) or \
                (self.most is not None and value > self.most):
            raise AgentError(f"{agent}: {self.name} must be {self.wanted()}, not {text!r}")
        return value

    def wanted(self) -> str:
        if isinstance(self.kind, tuple):
            return "one of " + ", ".join(self.kind)
        what = {"int": "a whole number", "float": "a number", "bool": "true or false"}[
            self.kind]
        if self.least is not None and self.most is not None:
            what += f" from {show(self.least)} to {show(self.most)}"
        elif self.least is not None:
            what += f" of at least {show(self.least)}"
        return what


def show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)
