"""Compile a checked rule file into Python code: blocks, decision sites and tables.

Stage: compile. Each procedure (setup, play, a rule, an example) becomes a list of
"blocks": generated Python functions `S3(st, fr)` that run straight-line rule code and
return the next block number (or a `Code` from runtime). A block ends where the rules may
pause (a decision, a chance step, a call): the position in the rules is then just the block
number and the locals in the frame, so the state stays plain data. Statements without a
pause inside compile to native Python `if` and `for`.

The code is built as a Python syntax tree through emit.py (names are the compiler's own,
the rule file's strings and numbers are constants), checked by sandbox.py, then compiled and
run once to get the block functions. Each generated line maps back to the rule it came from.

The `Compiler` is composed of parts (context.py names them); each statement class of the
language has one handler, found in `HANDLERS`, a table built once here from the parts'
tables: a statement class without a handler (nor a reason in `NOT_COMPILED`) stops this
module from loading, naming the class.
"""

from __future__ import annotations

import ast
from functools import partial
from typing import Any, get_args

from .. import ast as A
from ..check.analysis import Analysis
from ..program.program import Program
from ..program.runtime import Env
from . import control, flow, sites, statements
from .assembly import Assembly
from .backends import PLAIN, Backend
from .context import Generated, Handler
from .control import Control
from .coverage import Coverage
from .options import DEFAULT, Options
from .sites import Sites
from .statements import Statements
from .statistics import reader

# statement classes the compiler never sees, and why
NOT_COMPILED: dict[type, str] = {
    A.BaseCall: "a variant's `base` call is made a call of the base's rule when the "
                "variant is merged (resolve/variants.py), before the checker",
}


def handler_table(parts: list[dict[type, Handler]]) -> dict[type, Handler]:
    """The parts' handlers in one table, which must cover every statement class of the
    language but those of `NOT_COMPILED`, each once."""
    table: dict[type, Handler] = {}
    for part in parts:
        twice = table.keys() & part.keys()
        if twice:
            names = ", ".join(sorted(c.__name__ for c in twice))
            raise TypeError(f"the compiler has two handlers for the statement {names}")
        table.update(part)
    missing = [c.__name__ for c in get_args(A.Stmt) if c not in table and c not in NOT_COMPILED]
    if missing:
        raise TypeError(f"the compiler has no handler for the statement {', '.join(missing)}")
    return table


HANDLERS = handler_table([statements.HANDLERS, control.HANDLERS, sites.HANDLERS,
                          flow.HANDLERS])


class Compiler(Assembly, Statements, Control, Sites, Coverage):
    """Generates the syntax tree of one program, checks it, and runs it once to get the
    block functions."""

    handlers = HANDLERS

    def compile(self) -> Program:
        a = self.a
        module, line_sids = self.module()
        filename = f"<rules {a.file.path}>"
        env = Env(self.spans, self.proc_of_span)
        namespace: dict[str, Any] = dict(self.backend.helpers(env))
        namespace["_show"] = self.display.show
        namespace.update(self.consts)
        hits = [0] * len(self.points)
        if self.coverage:
            namespace["HITS"] = hits
        loaded = self.backend.load(module, filename, line_sids, namespace)
        namespace = loaded.namespace
        for site in self.sites:
            if isinstance(site.label, str):
                site.label = namespace[site.label]
            if isinstance(site.done_label, str):
                site.done_label = namespace[site.done_label]
            if isinstance(site.options, str):
                site.options = namespace[site.options]
            site.menu = [(oid, namespace[label] if isinstance(label, Generated) else label)
                         for oid, label in site.menu]
        return Program(a, self.declared, self.layout, namespace["BLOCKS"], self.sites,
                       [site.slot for site in self.sites], self.entries, self.nlocals,
                       self.spans, self.proc_of_span, self.block_sid, namespace["RANK"],
                       self.display,
                       partial(_code_of, a, self.sources, self.coverage, self.options),
                       self.initial_counters(),
                       namespace.get("SCORE"), loaded.filename, loaded.line_sids,
                       self.block_proc,
                       self.frame_types, self.flow.together, flow.point_frames(self),
                       self.points, hits, heuristic=namespace.get("HEURISTIC"),
                       payoff=namespace.get("PAYOFF"),
                       statistics=reader(a, self.layout, namespace.get("STATS")),
                       frame_ranges=self.frame_ranges, frame_names=self.frame_names,
                       turns_blocks=frozenset(self.turns_blocks),
                       backend=loaded.backend)



def _code_of(analysis: Analysis, sources: dict[str, str], coverage: bool,
             options: Options) -> str:
    """The text of the module `compile_program` runs for these arguments."""
    return ast.unparse(Compiler(analysis, sources, coverage, options=options).module()[0])


def compile_program(analysis: Analysis, sources: dict[str, str],
                    coverage: bool = False, backend: Backend = PLAIN,
                    options: Options = DEFAULT) -> Program:
    """Compile a checked rule file (no errors) into a `Program`; `sources` holds the text
    of each file its declarations come from. With `coverage`, the program counts in
    `Program.hits` how often each of its `Program.points` ran (for `rulesdsl validate`);
    without it, the generated code has no trace of the counting. `backend` runs the
    generated module (the plain path, or the compiled one of native.py); `options` are
    the code generator's switches (options.py)."""
    return Compiler(analysis, sources, coverage, backend, options).compile()
