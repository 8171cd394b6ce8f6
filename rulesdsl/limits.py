"""The engine's bounds on what a rule file may make, in one place.

Stage: shared by the parser, the checker (values known before the game) and the runtime
(values made while it runs). A rule file is untrusted: without bounds, one line could ask
for a number of a billion digits or a list of a billion items, and take the machine's
memory with it. Rules about games never come near these bounds; docs/security.md lists
them.
"""

from __future__ import annotations

MAX_PLAYERS = 16            # the most players a game may have
MAX_NUMBER = 10 ** 18       # whole numbers stay between -MAX_NUMBER and MAX_NUMBER
MAX_DIGITS = 18             # a number written in a rule file has at most this many digits
MAX_ITEMS = 100_000         # the most items a list made by the rules may hold
MAX_COMPONENTS = 100_000    # the most components of one kind
MAX_SLOTS = 1_000_000       # the most values all counters of a game hold together
MAX_TREE_DEPTH = 100        # the parse tree of a rule file is at most this deep
WORK_BUDGET = 5_000_000     # steps of work between two decisions (runtime.py)
MAX_RULE_BYTES = 256 << 10  # a rule file (six times the largest game, Cromlech's 41 kB)
MAX_DATA_BYTES = 1 << 20    # a data file (data.py)
MAX_RECORD_BYTES = 64 << 20  # a record or a saved game (their steps: a long game's are a few MB)
MAX_STRING = 10_000         # characters of one string written in a rule file
MAX_EXAMPLES = 1_000        # examples in one rule file, with those of its bases
MAX_EXTENDS = 32            # files in a chain of variants, the base game included
MAX_LIMIT = 1_000_000       # the most decisions a `limit N decisions` may declare
MAX_SAID = 16 << 20         # characters a narrated game's `say` lines may hold together
