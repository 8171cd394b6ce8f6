"""What compiled rules call at run time: return codes, errors and small helpers.

Stage: run. The compiler (`compiler.py`) turns each rule block into Python functions,
"blocks", that take `(st, fr)` and return the number of the next block or one of the
codes below. The helpers (program/helpers/, one module per family, bound here per
program) are the only names generated code may use besides its own tables; they raise
`RuleRuntimeError` with the span of the rule that went wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from types import ModuleType
from typing import Any

from ..diagnostics import Diagnostic, Span
from ..limits import MAX_NUMBER, WORK_BUDGET
from .helpers import boards, lists, numbers, players, tiles, work, zones
from .helpers.faults import Faults
from .helpers.lists import MAX_SUBSET_ITEMS


class Code(IntEnum):
    """What a block returns instead of the number of the next block."""

    SUSPEND = -1   # a decision or chance step is pending
    RET = -2       # the block list of a rule has ended: pop the frame
    CALL = -3      # a frame was pushed
    OVER = -4      # the game is over
    REPLAY = -5    # an example asks to continue the game with given choices
    OPTIONS = -6   # an example asks which options the game offers (`expect options`)


SUSPEND, RET, CALL, OVER, REPLAY, OPTIONS = (int(c) for c in Code)

BLOCK_WORK = 4            # the steps a jump from one block of rules to the next counts as


class RuleRuntimeError(Exception):
    """A rule went wrong while the game ran; carries a diagnostic with the rule's span."""

    def __init__(self, code: str, message: str, span: Span | None, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(code, message, span, hint=hint)


@dataclass
class Env:
    """The spans table of a compiled program, so helpers can name the failing rule."""

    spans: list[Span]
    procs: list[str]


FAMILIES = (numbers, lists, boards, zones, players, work, tiles)   # program/helpers/


def make_helpers(env: Env, families: Sequence[ModuleType] = FAMILIES) -> dict[str, Any]:
    """The helper functions generated code calls, bound to one program's span table: each
    family's (program/helpers/, or the same modules built otherwise: compile/native.py),
    those that can fail naming the rule's span."""
    spans = env.spans

    def err(code: str, message: str, sid: int, hint: str | None = None) -> RuleRuntimeError:
        return RuleRuntimeError(code, message, spans[sid], hint)

    faults = Faults(err, env.procs)
    helpers: dict[str, Any] = {}
    for family in families:
        helpers.update(family.bind(faults))
    return helpers


HELPER_NAMES = frozenset(make_helpers(Env([], [])))

__all__ = ["BLOCK_WORK", "CALL", "FAMILIES", "HELPER_NAMES", "MAX_NUMBER", "MAX_SUBSET_ITEMS",
           "OPTIONS", "OVER", "REPLAY", "RET", "SUSPEND", "WORK_BUDGET", "Code", "Env",
           "RuleRuntimeError", "make_helpers"]
