"""Data files' YAML as plain values that know their places, kept between runs.

Stage: resolve (data.py reads data files through this). The YAML reader (ruamel.yaml, the
only one that gives the line and column of every value) is slow: a twentieth of a second
for Cromlech's components in pure Python (a hundredth with its C parser, ruamel.yaml.clib,
composing nodes that the values are made from here), and a fortieth more to import. Every
check of a rule file being edited read its unchanged data file again. So what the reader
gives is made plain at once (mappings, lists, whole numbers, fractions, true/false, text,
none), each mapping and list with the places of its values, and kept in the user's private
cache folder (`cachedir.open_private`, signed with its key) as JSON, one file per data
file, headed by a digest of the text it was read from and of the engine
(`cachedir.engine_digest`): the next command that reads the same text loads the JSON and
never imports the YAML reader. A file with errors is never kept (the reader reports them,
and must again next time).

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

from ..files import cachedir

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


# ---- from the YAML reader's nodes ----------------------------------------------------------

STANDARD = "tag:yaml.org,2002:"
SCALARS = frozenset(STANDARD + k for k in ("int", "float", "bool", "null"))
STRING = STANDARD + "str"
MERGE = STANDARD + "merge"


def read(text: str) -> Any:
    """The YAML text as plain values with places: the reader composes its nodes (each
    with its line and column; with the C parser of ruamel.yaml.clib where it is
    installed, about four times quicker than the pure Python reader), and the values are made
    from them here. Raises the reader's errors (a MarkedYAMLError has the place)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    node = yaml.compose(text)
    return None if node is None else _plain(node, yaml.constructor, {})


def _plain(node: Any, constructor: Any, memo: dict[int, Any]) -> Any:
    """A node's value made plain, with places (a node met twice through an alias is made
    once, as the reader composed it once). Scalars of the standard types are made by the
    reader's own safe constructor; any other tag is an `Other`, never constructed."""
    from ruamel.yaml.constructor import ConstructorError
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    done = memo.get(id(node))
    if done is not None:
        return done
    if isinstance(node, ScalarNode):
        tag = node.tag
        if tag == STRING:
            return node.value
        if tag in SCALARS:
            return constructor.construct_object(node)
        return Other(_kind(tag), str(node.value))
    if node.tag not in (STANDARD + "map", STANDARD + "seq"):  # a set, an omap, a custom tag
        return memo.setdefault(id(node), Other(_kind(node.tag), _kind(node.tag)))
    at = (node.start_mark.line, node.start_mark.column)
    if isinstance(node, SequenceNode):
        seq = memo[id(node)] = PlacedList(at)
        for item in node.value:
            value = _plain(item, constructor, memo)
            seq.append(value)
            seq.places.append(_place_of(item, value))
        return seq
    assert isinstance(node, MappingNode)
    out = memo[id(node)] = PlacedMap(at)
    merged: list[PlacedMap] = []
    for key_node, value_node in node.value:
        if key_node.tag == MERGE:  # `<<: *base`, `<<: [*a, *b]`
            merged += _merged(value_node, constructor, memo)
            continue
        key = _plain(key_node, constructor, memo) if isinstance(key_node, ScalarNode) \
            else Other(_kind(key_node.tag), _kind(key_node.tag))
        if key in out:
            raise ConstructorError(problem=f"found duplicate key {key_node.value!r}"
                                   if isinstance(key_node, ScalarNode) else
                                   "found a duplicate key", problem_mark=key_node.start_mark)
        out[key] = _plain(value_node, constructor, memo)
        out.places[key] = _place_of(value_node, out[key])
    # the merged mappings' keys after the mapping's own, which win over them, as an earlier
    # merged mapping wins over a later one; each merged mapping is made once (memo), its
    # keys copied, never its merges made again (a chain of merges stays linear)
    for source in merged:
        for key, value in source.items():
            if key not in out:
                out[key] = value
                out.places[key] = source.places[key]
    return out


def _merged(node: Any, constructor: Any, memo: dict[int, Any]) -> list[PlacedMap]:
    """The mappings a merge key names: one mapping, or a list of mappings."""
    from ruamel.yaml.constructor import ConstructorError
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    sources = node.value if isinstance(node, SequenceNode) else [node]
    out: list[PlacedMap] = []
    for source in sources:
        value = _plain(source, constructor, memo) if isinstance(source, MappingNode) \
            else None
        if not isinstance(value, PlacedMap):
            raise ConstructorError(problem="a merge (<<) takes a mapping or a list of "
                                   "mappings", problem_mark=source.start_mark)
        out.append(value)
    return out


def _kind(tag: str | None) -> str:
    """A tag as messages name it: `timestamp` for tag:yaml.org,2002:timestamp."""
    if tag is None:  # the reader tags every node it composes
        return "untagged"
    return tag[len(STANDARD):] if tag.startswith(STANDARD) else tag


def _place_of(node: Any, value: Any) -> Place:
    mark = node.start_mark
    return (mark.line, mark.column, 1 if isinstance(value, (dict, list)) else len(str(value)))


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
    folder = cachedir.open_private() if ENABLED else None
    if folder is None:
        return read(text)
    name = hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:32]
    entry = f"data-{name}.json"
    head = hashlib.sha256(b"\0".join((FORMAT, cachedir.engine_digest().encode(),
                                      text.encode()))).hexdigest()
    with folder:
        kept = _load(folder.read(entry), head)
        if kept is not None:
            folder.used(entry)
            return kept[0]
        value = read(text)
        try:
            body = json.dumps([head, _encode(value, [0])], separators=(",", ":"))
        except (_TooMany, RecursionError, ValueError):
            return value   # too many values to keep, or nested deeper than JSON's writer goes
        folder.write(entry, body.encode())
    return value


def _load(blob: bytes | None, head: str) -> tuple[Any] | None:
    """The value kept in an entry of this text (in a tuple), or None (None for `blob`: a
    missing, foreign or tampered file)."""
    if blob is None:
        return None
    try:
        kept, value = json.loads(blob)
        if kept != head:
            return None
        return (_decode(value),)
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None   # missing, half written, damaged, or of another version
