"""The checker's shared core: its state, reporting, declared names and constants.

Stage: check. `CheckerBase` holds what every part of the checker uses: the `Analysis`
being filled, the names declared so far, and the evaluation of expressions that must be
known before the game starts. expressions.py, declarations.py and checker.py build on it.
"""

from __future__ import annotations

from typing import Any

from .. import ast as A
from ..diagnostics import Diagnostic, Span
from ..limits import MAX_ITEMS, MAX_NUMBER
from .analysis import Analysis, NotConstant, TooLarge
from .types import ANY, BOOL, BUILTIN_NAMES, BUILTINS, INT, NONE, TEXT, Type, list_of


class CheckerBase:
    """State and helpers shared by the parts of the checker."""

    def __init__(self, file: A.RulesFile, overrides: dict[str, Any] | None = None):
        self.a = Analysis(file=file)
        self.overrides = overrides or {}
        self.slots_total = 0  # the values all counters declared so far hold
        self.names: dict[str, tuple[str, Span]] = {}
        self.first: dict[str, tuple[str, Span]] = {}  # the first declaration in file order
        self.corners: dict[str, str] = {}  # triangle board -> its corners board
        self.instances: dict[tuple, int] = {}  # (definition, argument types) -> number
        self.rule_args: dict[str, list[Type]] = {}  # rule -> the types it is called with
        self.const_types: dict[str, Type] = {}
        self.checked_rules: set[str] = set()
        self.writing = False  # checking what `set`/`add` change (a tally may be changed)

    def err(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.a.diagnostics.append(Diagnostic(code, message, span, hint=hint))

    def declare(self, name: str, kind: str, span: Span) -> bool:
        first_kind, first = self.first.setdefault(name, (kind, span))
        if first != span:
            self.err("E021", f"'{name}' is already declared as a {first_kind}", span,
                     hint=f"the first declaration is at {first}")
            return False
        self.names[name] = (kind, span)
        return True

    def constant(self, e: A.Expr) -> Any:
        """Evaluate an expression that must be known before the game starts."""
        try:
            return self.const_eval(e)
        except NotConstant as nc:
            self.err("E031", "this must be a value known before the game starts",
                     nc.node.span, hint="use numbers, text, lists and other constants")
            return None
        except TooLarge as big:
            self.err("E034", big.what, big.node.span,
                     hint="numbers stay between -10^18 and 10^18, lists hold at most "
                          f"{MAX_ITEMS:,} items")
            return None

    def const_eval(self, e: A.Expr) -> Any:
        if isinstance(e, (A.IntLit, A.BoolLit)):
            return e.value
        if isinstance(e, A.NoneLit):
            return None
        if isinstance(e, A.StrLit) and all(isinstance(p, str) for p in e.parts):
            return "".join(p for p in e.parts if isinstance(p, str))
        if isinstance(e, A.ListLit):
            items = [self.const_eval(i) for i in e.items]
            held = _held(items)
            if held > MAX_ITEMS:  # counted with the items of the lists inside it
                raise TooLarge(e, f"this list would hold {held:,} items")
            return items
        if isinstance(e, A.Name):
            if e.name in self.a.values:
                return self.a.values[e.name]
            if e.name in self.a.enum_values:
                return self.a.enum_values[e.name][1]
            if e.name in self.a.enums:  # the list of its values
                return list(range(len(self.a.enums[e.name].values)))
            raise NotConstant(e)
        if isinstance(e, A.Unary) and e.op == "-":
            v = self.const_eval(e.operand)
            if isinstance(v, int):
                return -v
        if isinstance(e, A.Binary):
            left, right = self.const_eval(e.left), self.const_eval(e.right)
            if isinstance(left, int) and isinstance(right, int):
                if e.op == "..":
                    if right - left >= MAX_ITEMS:
                        raise TooLarge(e, f"the list {left}..{right} would hold "
                                          f"{right - left + 1:,} items")
                    return list(range(left, right + 1))
                ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b,
                       "*": lambda a, b: a * b}
                if e.op in ops:
                    value = ops[e.op](left, right)
                    if abs(value) > MAX_NUMBER:
                        digits = int(abs(value).bit_length() * 0.30103) + 1
                        raise TooLarge(e, f"a number of about {digits} digits")
                    return value
                if e.op in ("/", "%") and right != 0:
                    return left // right if e.op == "/" else left % right
        raise NotConstant(e)

    def value_type(self, v: Any) -> Type:
        if isinstance(v, bool):
            return BOOL
        if isinstance(v, int):
            return INT
        if isinstance(v, str):
            return TEXT
        if isinstance(v, list):
            return list_of(self.value_type(v[0]) if v else ANY)
        return NONE if v is None else ANY

    def suggest(self, name: str) -> str | None:
        import difflib

        pool = list(self.names) + list(BUILTIN_NAMES) + list(BUILTINS) + list(self.a.cells)
        close = [c for c in difflib.get_close_matches(name, pool, n=2) if c != name]
        return f"did you mean '{close[0]}'?" if close else None


def _held(value: list) -> int:
    """The items of a list, with those of the lists inside it (at every depth)."""
    return sum(_held(v) if isinstance(v, list) else 1 for v in value)
