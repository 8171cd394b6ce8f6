"""How a checked, generated module becomes the functions a program runs: the backends.

Stage: compile. The compiler (compiler.py) makes one Python module per rule file and hands
it, with the names it needs (the runtime helpers, the module's tables), to a backend:
- `Plain` compiles it with Python's own compiler and runs it in the sandbox (sandbox.py);
- `Cython` (native.py) has the sandbox check it the same way, then builds it into a C
  extension with Cython and a C compiler, kept in the user's private cache.
A backend gives back the module's namespace, the file name failures carry in their
tracebacks, and which rule each line of that file came from, so a runtime error names the
rule file's line whichever backend ran it. A later backend (the state in C arrays, typed
code) plugs in here with the same contract. A backend also gives the run-time helpers
(program/helpers/) the module calls: the compiled one gives them built too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Protocol

from ..program.runtime import Env, make_helpers
from .sandbox import run_module


@dataclass
class Loaded:
    """A generated module, loaded: its namespace (the generated functions and tables), the
    file name its code runs under, per line of that file the span id of the rule it came
    from (-1 where none), and the name of the backend that loaded it (a backend that
    cannot may hand the module to another)."""

    namespace: dict[str, Any]
    filename: str
    line_sids: list[int]
    backend: str = "plain"


class Backend(Protocol):
    """Turns a generated module into runnable functions."""

    name: str

    def helpers(self, env: Env) -> dict[str, Any]:
        """The run-time helpers (program/helpers/) the module is given, bound to `env`."""
        ...

    def load(self, module: ast.Module, filename: str, line_sids: list[int],
             namespace: dict[str, Any]) -> Loaded:
        """`module` as the compiler made it, its lines numbered (`line_sids`, see
        emit.number_lines), run with the names in `namespace`; raises UnsafeCode for a
        module the sandbox refuses."""
        ...


class Plain:
    """Python's own compiler, the module run in the sandbox's namespace."""

    name = "plain"

    def helpers(self, env: Env) -> dict[str, Any]:
        return make_helpers(env)

    def load(self, module: ast.Module, filename: str, line_sids: list[int],
             namespace: dict[str, Any]) -> Loaded:
        return Loaded(run_module(module, filename, namespace), filename, line_sids)


PLAIN = Plain()
