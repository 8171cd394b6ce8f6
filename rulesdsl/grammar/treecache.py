"""Syntax trees kept between runs, one top-level declaration at a time: a rule file whose
text has not changed is not parsed again, and after an edit only the declarations whose
text changed are.

Stage: parse. Parsing is a large part of a command's start (loading lark's parser and
parsing Cromlech's 900 lines take a sixth of a second), and loading the trees it gave last
time about a fifth of that. The text is cut into chunks, each a top-level declaration
with the comments after it, as the language server's incremental parser cuts it
(incremental.py, which does the parsing: the result is the tree `parse` gives for the
whole text, or the same errors); each chunk's declarations are kept as a pickle of their
own, with the line the chunk started at. A command after an edit of one declaration
parses that one chunk; a chunk that only moved (lines added above it) is moved to its new
lines, not parsed.

What is kept is in the user's private cache folder (`cachedir.open_private`: loading a
pickle runs code, so never in a folder others may write to, and never a file that the
folder's key did not sign), one file per rule file,
under a digest of the engine (`cachedir.engine_digest`) and the name the file was read
under (the trees' places carry it): a file of another engine, or read under another name,
is parsed afresh. Keeping the trees costs time too (pickling all of Cromlech's, about
0.015 s), which a file read once should not pay: the first time a file is read (nothing
kept for it) only the chunks' digests are kept, their trees the next time; after that, a
chunk that changed or moved is kept as it is now (one declaration costs little to keep).
A file with syntax errors keeps what was kept before. RULESDSL_NO_CACHE=1 turns it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable

from .. import ast as A
from ..files import cachedir

ENABLED = True   # tests that change the parser in place turn it off (tests/conftest.py)
FORMAT = b"rulesdsl-tree/2"

# per chunk (by the digest of its text): the line index it started at, and the pickle of
# its declarations as placed there (None: its digest only, the file being new)
Kept = dict[str, tuple[int, bytes | None]]


def parse_remembered(text: str, path: str, parse: Callable[[str, str], A.RulesFile]
                     ) -> A.RulesFile:
    """The tree `parse(text, path)` gives, from the cache for the declarations this engine
    parsed before from the same text under this name."""
    folder = cachedir.open_private() if ENABLED else None
    if folder is None:
        return parse(text, path)
    with folder:
        return _parse_kept(folder, text, path, parse)


def _parse_kept(folder: cachedir.Folder, text: str, path: str,
                parse: Callable[[str, str], A.RulesFile]) -> A.RulesFile:
    # incremental.py imports this package, which imports this module: so imported here
    from .incremental import IncrementalParser

    name = hashlib.sha256(f"{os.path.abspath(path)}\0{path}".encode()).hexdigest()[:32]
    entry = f"tree-{name}.pickle"
    engine = hashlib.sha256(b"\0".join((FORMAT, cachedir.engine_digest().encode(),
                                        path.encode()))).hexdigest()
    kept = _load(folder.read(entry), engine)

    def recall(chunk: str) -> tuple[int, list] | None:
        at, blob = kept.get(_digest(chunk), (0, None))
        items = _items(blob) if blob is not None else None
        return (at, items) if items is not None else None

    parser = IncrementalParser(path, recall)
    if parser.known(text):
        tree = parser.parse(text)  # only what changed parsed; RulesError as `parse` gives it
    else:  # nothing kept of this text: one parse of the whole (errors as ever)
        tree = parse(text, path)
        parser.adopt(text, tree)
    now: Kept = {}
    for chunk, (at, items) in parser.chunks().items():
        key = _digest(chunk)
        before = kept.get(key)
        if before is None and not kept:
            now[key] = (at, None)   # a file met for the first time: the digests only
        elif before is not None and before[0] == at and before[1] is not None:
            now[key] = before
        else:   # met again, edited, or moved since it was kept: kept where it is now
            now[key] = (at, pickle.dumps(items, pickle.HIGHEST_PROTOCOL))
    if now != kept:
        folder.write(entry, pickle.dumps((engine, now), pickle.HIGHEST_PROTOCOL))
    elif kept:
        folder.used(entry)
    return tree


def _digest(chunk: str) -> str:
    return hashlib.sha256(chunk.encode()).hexdigest()[:32]


def _load(blob: bytes | None, engine: str) -> Kept:
    """What an entry keeps (its bytes as the folder's key vouched for them: None for a
    missing, foreign or tampered file), if it is of this engine and name; else nothing."""
    if blob is None:
        return {}
    try:
        found, kept = pickle.loads(blob)
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            ValueError, TypeError, IndexError, KeyError):  # missing, half written, damaged
        return {}
    if found != engine or not isinstance(kept, dict) or not all(
            isinstance(key, str) and type(value) is tuple and len(value) == 2
            and type(value[0]) is int and isinstance(value[1], (bytes, type(None)))
            for key, value in kept.items()):
        return {}
    return kept


def _items(blob: bytes) -> list | None:
    """A chunk's declarations, or None if the pickle is not one of a list of them."""
    try:
        items = pickle.loads(blob)
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError,
            TypeError, IndexError, KeyError):
        return None
    return items if isinstance(items, list) and all(isinstance(i, A.Node) for i in items) \
        else None
