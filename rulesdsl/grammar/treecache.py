"""Syntax trees kept between runs: a rule file whose text has not changed is not parsed again.

Stage: parse. Parsing is a large part of a command's start (a quarter of a second of CPU
for Cromlech's 900 lines), and loading the tree it gave last time takes a fifteenth of
that; every command that reads rule files from disk (check, run, simulate, serve, ...)
starts sooner, and so does the check of a variant whose base has not changed.

The tree is kept as a pickle in the user's private cache folder (`cachedir.private_folder`:
loading a pickle runs code, so never in a folder others may write to), one file per rule
file, headed by a digest of the text it was parsed from, the name it was read under (the
tree's places carry it) and the engine that parsed it (`cachedir.engine_digest`). A file
whose text, name or engine differs is parsed afresh. Keeping a tree costs a twentieth of a
second (pickling Cromlech's), which a file being edited would pay at every check for
nothing: so the first parse of a text keeps only its digest, and the second parse of the
same text keeps the tree. Only trees without errors are kept. RULESDSL_NO_CACHE=1 turns it
off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path

from .. import ast as A
from .. import cachedir

ENABLED = True   # tests that change the parser in place turn it off (tests/conftest.py)
FORMAT = b"rulesdsl-tree/1"


def parse_remembered(text: str, path: str, parse: Callable[[str, str], A.RulesFile]
                     ) -> A.RulesFile:
    """The tree `parse(text, path)` gives, from the cache when this text was parsed under
    this name before by this engine."""
    folder = cachedir.private_folder() if ENABLED else None
    if folder is None:
        return parse(text, path)
    name = hashlib.sha256(f"{os.path.abspath(path)}\0{path}".encode()).hexdigest()[:32]
    entry = folder / f"tree-{name}.pickle"
    head = hashlib.sha256(b"\0".join((FORMAT, cachedir.engine_digest().encode(),
                                      path.encode(), text.encode()))).hexdigest().encode()
    seen, tree = _load(entry, head)
    if seen:
        cachedir.used(entry)
    if tree is None:
        tree = parse(text, path)
        # parsed before (only its digest kept): keep the tree now; else the digest only
        body = b"\n" + pickle.dumps(tree, pickle.HIGHEST_PROTOCOL) if seen else b""
        cachedir.write_whole(entry, head + body)
    return tree


def _load(entry: Path, head: bytes) -> tuple[bool, A.RulesFile | None]:
    """Whether the entry is of this text, and the tree kept with it (None if none)."""
    try:
        with entry.open("rb") as f:
            if f.readline().rstrip(b"\n") != head:
                return False, None
            if not f.peek(1):
                return True, None
            tree = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            ValueError, TypeError):  # missing, half written, or of another engine
        return False, None
    return True, tree if isinstance(tree, A.RulesFile) else None
