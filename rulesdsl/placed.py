"""Data files' YAML as plain values that know their places, kept between runs.

Stage: resolve (data.py reads data files through this). The YAML reader (ruamel.yaml, the
only one that gives the line and column of every value) is slow: a twentieth of a second
for Cromlech's components, and a fortieth more to import. Every check of a rule file being
edited read its unchanged data file again. So what the reader gives is made plain at once
(mappings, lists, whole numbers, fractions, true/false, text, none), each mapping and list
with the places of its values, and kept in the user's private cache folder
(`cachedir.private_folder`) as JSON, one file per data file, headed by a digest of the
text it was read from and of the engine (`cachedir.engine_digest`): the next command that
reads the same text loads the JSON and never imports the YAML reader. A file with errors
is never kept (the reader reports them, and must again next time).

What is kept is only ever data: JSON holds no code, and an entry that is not of the form
written here (damaged, of another version) is read afresh from the YAML file. A file
whose values, aliases written out, are more than MAX_KEPT is not kept (a few lines of
aliases can name millions). RULESDSL_NO_CACHE=1 turns the keeping off.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import cachedir

ENABLED = True   # tests turn it off (tests/conftest.py), and on where they test it
FORMAT = b"rulesdsl-data/1"
MAX_KEPT = 200_000   # values in an entry, at most (an alias repeats what it names)

Place = tuple[int, int, int]   # line and column (from 0) and the width of what is there


class PlacedMap(dict):  # type: ignore[type-arg]
    """A mapping of a data file: `at` is where it is ((line, column) from 0, or None),
    `places` where each key's value is."""

    __slots__ = ("at", "places")

    def __init__(self, at: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.at = at
        self.places: dict[Any, Place | None] = {}


class PlacedList(list):  # type: ignore[type-arg]
    """A list of a data file: `at` is where it is, `places` where each item is."""

    __slots__ = ("at", "places")

    def __init__(self, at: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.at = at
        self.places: list[Place | None] = []


class Other:
    """A value of another YAML type (a date, a set, a key that is a list): its type's name
    and its text, for messages."""

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Other) and (self.kind, self.text) == (other.kind, other.text)

    def __hash__(self) -> int:
        return hash((self.kind, self.text))


# ---- from the YAML reader's values ---------------------------------------------------------

def plain(node: Any, memo: dict[int, Any] | None = None) -> Any:
    """The reader's value made plain, with places (a value met twice through an alias is
    made once, as the reader made it once)."""
    if memo is None:
        memo = {}
    if isinstance(node, dict):
        done = memo.get(id(node))
        if done is not None:
            return done
        out = memo[id(node)] = PlacedMap(_at(node))
        for key, value in node.items():
            k = _scalar(key)
            out[k] = plain(value, memo)
            out.places[k] = _where(node, "value", key, value)
        return out
    if isinstance(node, list):
        done = memo.get(id(node))
        if done is not None:
            return done
        seq = memo[id(node)] = PlacedList(_at(node))
        for i, value in enumerate(node):
            seq.append(plain(value, memo))
            seq.places.append(_where(node, "item", i, value))
        return seq
    return _scalar(node)


def _scalar(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, bool) or type(v).__name__ == "ScalarBoolean":
        return bool(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    return Other(type(v).__name__, str(v))


def _at(node: Any) -> tuple[int, int] | None:
    lc = getattr(node, "lc", None)
    if lc is None or lc.line is None:
        return None
    return (lc.line, lc.col)


def _where(node: Any, how: str, key: Any, value: Any) -> Place | None:
    try:
        line, col = getattr(node.lc, how)(key)
    except (AttributeError, KeyError, TypeError, IndexError):
        return None   # a key brought in by a merge (`<<: *base`): its mapping's place
    return (line, col, len(str(value)) if not isinstance(value, (dict, list)) else 1)


# ---- as JSON -------------------------------------------------------------------------------

class _TooMany(Exception):
    """More values than an entry keeps (MAX_KEPT)."""


def _encode(v: Any, count: list[int]) -> Any:
    count[0] += 1
    if count[0] > MAX_KEPT:
        raise _TooMany
    if isinstance(v, PlacedMap):
        return {"m": [[_encode(k, count), _encode(x, count), v.places[k]]
                      for k, x in v.items()], "at": v.at}
    if isinstance(v, PlacedList):
        return {"l": [[_encode(x, count), p] for x, p in zip(v, v.places)], "at": v.at}
    if isinstance(v, Other):
        return {"o": [v.kind, v.text]}
    return v


def _decode(v: Any) -> Any:
    if not isinstance(v, dict):
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        raise ValueError("not a value")
    if "m" in v:
        out = PlacedMap(_pair(v["at"]))
        for k, x, p in v["m"]:
            key = _decode(k)
            out[key] = _decode(x)
            out.places[key] = _place(p)
        return out
    if "l" in v:
        seq = PlacedList(_pair(v["at"]))
        for x, p in v["l"]:
            seq.append(_decode(x))
            seq.places.append(_place(p))
        return seq
    kind, text = v["o"]
    if not isinstance(kind, str) or not isinstance(text, str):
        raise ValueError("not a value")
    return Other(kind, text)


def _pair(at: Any) -> tuple[int, int] | None:
    if at is None:
        return None
    line, col = at
    if type(line) is not int or type(col) is not int:
        raise ValueError("not a place")
    return (line, col)


def _place(p: Any) -> Place | None:
    if p is None:
        return None
    line, col, width = p
    if type(line) is not int or type(col) is not int or type(width) is not int:
        raise ValueError("not a place")
    return (line, col, width)


# ---- kept between runs ---------------------------------------------------------------------

def read_remembered(path: Path, text: str, read: Callable[[str], Any]) -> Any:
    """The plain value `read(text)` gives (the YAML reader's value made plain by `plain`),
    from the cache when the same text at the same path was read before by this engine."""
    folder = cachedir.private_folder() if ENABLED else None
    if folder is None:
        return read(text)
    name = hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:32]
    entry = folder / f"data-{name}.json"
    head = hashlib.sha256(b"\0".join((FORMAT, cachedir.engine_digest().encode(),
                                      text.encode()))).hexdigest()
    kept = _load(entry, head)
    if kept is not None:
        cachedir.used(entry)
        return kept[0]
    value = read(text)
    try:
        body = json.dumps([head, _encode(value, [0])], separators=(",", ":"))
    except (_TooMany, RecursionError, ValueError):
        return value   # too many values to keep, or nested deeper than JSON's writer goes
    cachedir.write_whole(entry, body.encode())
    return value


def _load(entry: Path, head: str) -> tuple[Any] | None:
    """The value kept in an entry of this text (in a tuple), or None."""
    try:
        kept, value = json.loads(entry.read_bytes())
        if kept != head:
            return None
        return (_decode(value),)
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None   # missing, half written, damaged, or of another version
