"""The code generator's switches: how far it copies short blocks, which rewrites it makes.

Stage: compile. One frozen `Options` is given to `compile_program` (and through the loader's
`load`, `load_text` and `build`, keyword `options`); the defaults are what every command
uses. The switches marked "for measuring" exist to time a rewrite off and on in one process
(benchmarks/alternate.py) and to test that the games are the same without it: the code
they make differs, not the rules it plays.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    """How the compiler writes a program's module."""

    # blocks this short (in statements) are copied into the blocks that jump to them, this
    # many jumps deep (compiler `inline_jumps`)
    inline_statements: int = 24
    inline_depth: int = 2
    # a statement whose expressions make this many calls of definitions counts them as work
    # before it runs
    costly_calls: int = 1000
    # loops nested deeper than this are compiled as blocks (Python's limit on nested blocks)
    native_loops: int = 15
    # (for testing) blocks only jumped to, and copied in place of every jump, left out
    live_only: bool = True
    # (for measuring) inside the turns, `current` is read without a test for none
    current_known: bool = True
    # (for measuring) a filter of a small domain, and a definition whose value is one, are
    # small: loops over them weighed before the game (expressions `small`)
    small_results: bool = True
    # (for measuring) a definition's parameter that every call gives a small list is
    # weighed by its arguments (expressions `argument_size`)
    argument_sizes: bool = True
    # (for measuring) comprehensions a statement starts with written as loops (unroll.py)
    unroll: bool = True
    # (for measuring) the range of an item of `lo..hi` is known (bounds.py): an item of a
    # list at a position in it read with no check, a save's local held to it
    range_items: bool = True


DEFAULT = Options()
