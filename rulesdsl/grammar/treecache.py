"""Syntax trees kept between runs: a rule file whose text has not changed is not parsed again.

Stage: parse. Parsing is a large part of a command's start (a quarter of a second of CPU
for Cromlech's 900 lines), and loading the tree it gave last time takes a fifteenth of
that; every command that reads rule files from disk (check, run, simulate, serve, ...)
starts sooner, and so does the check of a variant whose base has not changed.

The tree is kept as a pickle in the user's private cache folder (`cachedir.private_folder`:
loading a pickle runs code, so never in a folder others may write to), one file per rule
file, headed by a digest of the text it was parsed from, the name it was read under (the
tree's places carry it) and the engine that parsed it (`cachedir.engine_digest`). A file
whose text, name or engine differs is parsed afresh, and its tree replaces the one kept.
Only trees without errors are kept. RULESDSL_NO_CACHE=1 turns it off.
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
    tree = _load(entry, head)
    if tree is None:
        tree = parse(text, path)
        cachedir.write_whole(entry, head + b"\n" + pickle.dumps(tree, pickle.HIGHEST_PROTOCOL))
    return tree


def _load(entry: Path, head: bytes) -> A.RulesFile | None:
    try:
        with entry.open("rb") as f:
            if f.readline().rstrip(b"\n") != head:
                return None
            tree = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            ValueError, TypeError):  # missing, half written, or of another engine
        return None
    return tree if isinstance(tree, A.RulesFile) else None
