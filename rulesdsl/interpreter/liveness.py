"""Which locals of a frame the rules may still read: the rest is left over from moves
already made, and two positions that differ only there play alike from then on.

Stage: after compile (tools ask it of a compiled Program). The generated code reads a
frame's locals as `L[k]` with a constant k, in a block, or in a helper the block hands `L`
to (`Q3(st, L, Z)`), or in a label (`LABEL0(st, L, c1)`). A local is live in a procedure
when any of its blocks, or a helper they call, reads it; labels, the seats of a
simultaneous step and the dice of a set are read outside the blocks and count for every
procedure. A function that uses `L` in any other way makes every local of its procedure
live. This is a conservative answer: a local it calls dead is never read again, so two
positions equal but for dead locals are the same position (a local it calls live may yet
be overwritten before it is read).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

ALL = None  # every local is live


@dataclass(frozen=True)
class Liveness:
    """Per procedure (in the program's numbering), the slots its frames may still read
    (None: all); `common`, slots read outside the blocks, live in every procedure."""

    procs: list[frozenset[int] | None]
    common: frozenset[int]

    def live(self, proc: int) -> frozenset[int] | None:
        found = self.procs[proc] if proc < len(self.procs) else ALL
        return None if found is None else found | self.common


def liveness(program: Any) -> Liveness:
    """The live locals of each procedure of a compiled program."""
    functions = {fn.name: fn for fn in ast.parse(program.code).body
                 if isinstance(fn, ast.FunctionDef)}
    reads: dict[str, frozenset[int] | None] = {}

    def read_by(name: str, seen: frozenset[str]) -> frozenset[int] | None:
        if name in reads:
            return reads[name]
        fn = functions.get(name)
        if fn is None or name in seen:
            return frozenset()
        direct, calls = _direct_reads(fn)
        out: frozenset[int] | None = direct
        for callee in calls:
            more = read_by(callee, seen | {name})
            out = None if out is None or more is None else out | more
        reads[name] = out
        return out

    procs: list[frozenset[int] | None] = []
    for block, proc in enumerate(program.block_proc):
        while len(procs) <= proc:
            procs.append(frozenset())
        found = read_by(f"S{block}", frozenset())
        have = procs[proc]
        procs[proc] = None if found is None or have is None else have | found
    common: set[int] = set()
    for site in program.sites:
        for label in (site.label, site.done_label, *(lb for _, lb in site.menu)):
            name = getattr(label, "__name__", None)
            if name is None:
                continue
            found = read_by(name, frozenset())
            if found is None:  # a label reading locals in a way not followed: keep all
                return Liveness([None] * len(procs), frozenset())
            common |= found
        if site.kind == "die":
            common.update(site.hidden)
    for seats, k in program.together.values():
        common.update((seats, k))
    return Liveness(procs, frozenset(common))


def _direct_reads(fn: ast.FunctionDef) -> tuple[frozenset[int] | None, list[str]]:
    """The slots `fn` reads as `L[k]` (None: it uses `L` otherwise), and the functions it
    hands `L` to."""
    params = {a.arg for a in fn.args.args}
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    slots: set[int] = set()
    calls: list[str] = []
    for node in ast.walk(fn):
        above = parents.get(node)
        if _is_frame_locals(node) and not (isinstance(above, ast.Assign)
                                           and above.value is node):
            return None, []  # the locals reached other than as `L`
        if not (isinstance(node, ast.Name) and node.id == "L"):
            continue
        up = parents.get(node)
        if isinstance(up, ast.Subscript) and up.value is node:
            index = up.slice
            if isinstance(index, ast.Constant) and type(index.value) is int:
                written = isinstance(up.ctx, ast.Store) and not isinstance(
                    parents.get(up), ast.AugAssign)
                if not written:
                    slots.add(index.value)
                continue
            return None, []
        if isinstance(up, ast.Assign) and node in up.targets and _is_frame_locals(up.value):
            continue  # `L = fr[1]`
        if isinstance(up, ast.Call) and node in up.args and isinstance(up.func, ast.Name):
            calls.append(up.func.id)
            continue
        return None, []
    if "L" not in params and not _binds_locals(fn):
        return frozenset(), []
    return frozenset(slots), calls


def _is_frame_locals(value: ast.AST) -> bool:
    return (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)
            and value.value.id == "fr" and isinstance(value.slice, ast.Constant)
            and value.slice.value == 1)


def _binds_locals(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Assign) and _is_frame_locals(n.value) for n in ast.walk(fn))
