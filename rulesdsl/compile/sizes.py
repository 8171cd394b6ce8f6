"""What an expression weighs before the game: the work it does, the most items a list
can have, whether it computes whole numbers that must be checked.

Stage: compile. The expression compiler (expressions.py) builds on `Sizes`: a loop over at
most SMALL items known before the game is not counted item by item as it runs, the calls
of definitions an expression makes are weighed at once, and a definition whose value grows
by arithmetic has its result checked. The sizes of built-ins' results (a column, the lines
through a cell, the pairs of triangles) are read from the boards' tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import ast as A
from ..check.analysis import MAX_PLAYERS, Analysis
from ..check.bindings import BoardRef, BuiltinRef, DefineRef, DiceRef, ValueRef, VarRef

if TYPE_CHECKING:
    from .options import Options

SMALL = 64         # a loop over at most this many items, known before the game, is not counted


class Sizes:
    """The weights and sizes of expressions, from the checker's analysis; the tables it
    keeps are made by ExpressionCompiler.__init__."""

    a: Analysis
    options: Options
    instance_cost: dict[int, int]
    param_of: dict[int, tuple[int, int]]
    argument_sizes: dict[tuple[int, int], int | None]

    def calls(self, e: Any) -> int:
        """The work evaluating e once does that no loop counts as it runs: the calls of
        definitions it makes, and the turns of its small loops (those over at most SMALL
        items known before the game, which are not counted one by one). A loop over items
        known only at run time counts its own work. A definition that calls another twice,
        forty deep, makes 2^40 calls: the work budget sees that before it starts."""
        if e is None:
            return 0
        if isinstance(e, list):
            return sum(self.calls(x) for x in e)
        if not isinstance(e, A.Node):
            return 0
        ref = self.a.binding.get(id(e))
        if isinstance(e, A.Call) and isinstance(ref, DefineRef):
            return 1 + self.instance_calls(ref.instance) + self.calls(e.args)
        if isinstance(e, (A.Quantifier, A.Aggregate, A.ListComp)):
            small = self.small(e.domain)
            if small is None:
                return self.calls(e.domain)
            inner = e.expr if isinstance(e, (A.Aggregate, A.ListComp)) else None
            return self.calls(e.domain) + small * self.weight(e.where, inner)
        if isinstance(e, A.StrLit):
            return self.calls([p for p in e.parts if not isinstance(p, str)])
        total = 0
        for key in type(e).model_fields:
            if key not in ("span", "body", "otherwise", "branches", "options"):
                total += self.calls(getattr(e, key))
        return total

    def instance_calls(self, n: int) -> int:
        if n not in self.instance_cost:
            self.instance_cost[n] = 0  # no recursion: the checker refuses it
            self.instance_cost[n] = self.calls(self.a.define_instances[n].body)
        return self.instance_cost[n]

    def small(self, e: Any) -> int | None:
        """The most items a domain can have, when that is known before the game and at
        most SMALL; None otherwise."""
        n: int | None = None
        ref = self.a.binding.get(id(e))
        if isinstance(e, A.Binary) and e.op == "..":
            low, high = self.a.constants.get(id(e.left)), self.a.constants.get(id(e.right))
            low = e.left.value if isinstance(e.left, A.IntLit) else low
            high = e.right.value if isinstance(e.right, A.IntLit) else high
            if isinstance(e.left, A.Name) and isinstance(self.a.binding.get(id(e.left)),
                                                           ValueRef):
                low = self.a.binding[id(e.left)].value  # type: ignore[union-attr]
            if isinstance(e.right, A.Name) and isinstance(self.a.binding.get(id(e.right)),
                                                            ValueRef):
                high = self.a.binding[id(e.right)].value  # type: ignore[union-attr]
            if type(low) is int and type(high) is int:
                n = max(high - low + 1, 0)
        elif isinstance(ref, ValueRef) and isinstance(ref.value, list):
            n = len(ref.value)
        elif isinstance(ref, BoardRef):
            n = self.a.boards[ref.name].size
        elif isinstance(ref, DiceRef):
            n = self.a.dice[ref.name].count
        elif isinstance(e, A.ListLit):
            n = len(e.items)
        elif isinstance(ref, BuiltinRef) and ref.name == "players":
            n = MAX_PLAYERS
        elif isinstance(e, A.Call) and isinstance(ref, BuiltinRef) and e.func in (
                "neighbours", "corners", "around"):
            n = 12
        elif isinstance(e, A.Call) and isinstance(ref, BuiltinRef) and e.func in (
                "column", "row"):
            n = max(map(len, self.columns_or_rows(e)), default=0)
        elif isinstance(e, A.Call) and e.func == "lines" and len(e.args) == 3:
            # the lines through a cell: at most as many as through the busiest cell
            n = max(map(len, self.line_table(e)), default=0)
        elif isinstance(ref, VarRef) and id(ref.var) not in self.a.assigned:
            n = self.item_size(self.a.item_of.get(id(ref.var)))  # an item of lines(b, n)
            if n is None and self.options.argument_sizes and \
                    id(ref.var) in self.param_of:  # a parameter
                n = self.argument_size(*self.param_of[id(ref.var)])
        elif self.options.small_results and isinstance(e, A.ListComp):
            # no more items than its domain
            n = self.small(e.domain)
        elif self.options.small_results and isinstance(e, A.Call) and isinstance(ref, DefineRef):
            # a definition's value: what its body gives (`opponents(p)`: some players)
            n = self.small(self.a.define_instances[ref.instance].body)
        return n if n is not None and n <= SMALL else None

    def shortest(self, e: Any) -> int | None:
        """The fewest items the list e can have, when that is known before the game: a
        column or a row of a board (the shortest of them)."""
        if isinstance(e, A.Call) and e.func in ("column", "row") and isinstance(
                self.a.binding.get(id(e)), BuiltinRef):
            return min(map(len, self.columns_or_rows(e)), default=0)
        return None

    def columns_or_rows(self, e: A.Call) -> list[list[int]]:
        """The cells of each column, or each row, of the board `column(b, k)` or
        `row(b, k)` reads."""
        board = self.a.boards[self.a.type_of(e.args[0])[1]]
        return board.columns if e.func == "column" else board.rows

    def item_size(self, domain: Any) -> int | None:
        """The most items of each item of a list, when its items are lines of a board
        (`lines(b, n)`, `lines(b, n, c)`: n) or pairs of triangles (`pairs(b)`: 2)."""
        if isinstance(domain, A.Call) and isinstance(self.a.binding.get(id(domain)),
                                                     BuiltinRef):
            if domain.func == "lines":
                return int(self.a.constants[id(domain.args[1])])
            if domain.func == "pairs":
                return 2
        return None

    def argument_size(self, instance: int, k: int) -> int | None:
        """The most items parameter k of a definition instance can have, when every call
        of the instance gives it a small list (`free_pair(p)` for each p of `pairs(b)`)."""
        key = (instance, k)
        if key not in self.argument_sizes:
            self.argument_sizes[key] = None  # (no definition calls itself: the checker)
            sizes = [self.small(args[k]) for args in self.a.define_args.get(instance, [])]
            if sizes and None not in sizes:
                self.argument_sizes[key] = max(s for s in sizes if s is not None)
        return self.argument_sizes[key]

    def line_table(self, e: A.Call) -> list[list[list[int]]]:
        """For each cell of the board `lines(b, n, c)` reads, the lines of n cells through it."""
        board = self.a.boards[self.a.type_of(e.args[0])[1]]
        return board.lines_through(int(self.a.constants[id(e.args[1])]))

    def weight(self, *exprs: Any) -> int:
        """The work of one turn of a loop whose body evaluates these expressions."""
        return 1 + sum(self.calls(e) for e in exprs)

    def grows(self, e: Any) -> bool:
        """Whether an expression computes whole numbers with + - * or sums them (in itself
        or in the definitions it calls): what it gives is checked when it is kept."""
        if isinstance(e, list):
            return any(self.grows(x) for x in e)
        if not isinstance(e, A.Node):
            return False
        if isinstance(e, A.Binary) and e.op in ("+", "-", "*"):
            return True
        if isinstance(e, A.Aggregate) and e.kind == "sum":
            return True
        if isinstance(e, A.Call):
            ref = self.a.binding.get(id(e))
            if e.func == "sum" and not isinstance(ref, DefineRef):
                return True
            if isinstance(ref, DefineRef) and self.grows(
                    self.a.define_instances[ref.instance].body):
                return True
        if isinstance(e, A.Unary) and e.op == "-":
            return not isinstance(e.operand, A.IntLit)
        if isinstance(e, A.StrLit):
            return False
        return any(self.grows(getattr(e, key)) for key in type(e).model_fields
                   if key != "span")
