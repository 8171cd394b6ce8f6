"""What each component shows on its face: the printed text and figures of its kind's
data, for the page to draw a card, a tile or a die wherever it lies.

Stage: serving. A rule file's kinds are printed components, the same for every seat (the
box's contents, not the state): a view says where a component lies and which ones a seat
may see; this says what each looks like. Nothing here reads a game.

From each kind's fields, per component:
- `text`: a field whose value is prose (words with spaces, as a card's ability or a
  scoring tile's description);
- `facts`: the other fields as a name and a shown value, leaving out what every
  component holds alike (nothing, zero, no, or a word more than half of them hold: a
  landscape tile's back), what the label already says, the id, and what a territory
  draws itself (edges, centre, roads);
- fields in a family (`features_whisky`, `features_ship`, ...) go by their own name
  ("whisky", "ship"); otherwise a field goes by its display label or its name in words.

And the special spaces of a board, which a rule file names in a define that lists cells.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import ast as A
from ..boards.territory import TerritoryBoard
from ..interpreter.game import Rules

PROSE = 3    # words in a value that make it a text rather than a figure


def field_names(fields: list[str], labels: dict[str, str]) -> dict[str, str]:
    """How the page names each field: its display label, its own name within a family of
    fields (`features_whisky` -> "whisky"), or its name with spaces."""
    stems = Counter(f.split("_", 1)[0] for f in fields if "_" in f)
    out = {}
    for f in fields:
        stem, _, rest = f.partition("_")
        if f in labels:
            out[f] = labels[f]
        elif rest and stems[stem] >= 2:
            out[f] = rest.replace("_", " ")
        else:
            out[f] = f.replace("_", " ")
    return out


def drawn_fields(rules: Rules, kind: str) -> set[str]:
    """The fields a territory of this kind draws itself: edges, centre, roads."""
    out: set[str] = set()
    for shape in rules.boards.values():
        board = shape.geometry
        if isinstance(board, TerritoryBoard) and board.kind == kind:
            out.update(f for f in (*board.edges, board.centre, board.roads, board.groups)
                       if f)
    return out


def plain(value: Any, common: Any, share: float) -> bool:
    """Whether a value says nothing: none, no, zero, empty, or a word most hold alike."""
    if value is None or value is False or value == "" or value == "[]" or \
            (type(value) is int and value == 0):
        return True
    return isinstance(value, str) and value == common and share > 0.5


def faces(rules: Rules) -> dict[str, dict[str, dict[str, Any]]]:
    """Per kind, per component id: its `text` (a list) and its `facts` ([name, value])."""
    labels = dict((rules.display or {}).get("labels") or {})
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for kind in rules.kinds:
        ids = rules.components(kind)
        fields = rules.fields(kind)
        names = field_names(list(fields), labels)
        # what a territory draws, and the field the display names the component by
        # (`label Tile by title`: its name is already its label)
        skip = drawn_fields(rules, kind) | {"id"} | \
            {((rules.display or {}).get("names") or {}).get(kind, "id")}
        faces_of: dict[str, dict[str, Any]] = {c: {"text": [], "facts": []} for c in ids}
        for f, column in fields.items():
            if f in skip:
                continue
            common, held = Counter(map(str, column)).most_common(1)[0]
            for c, label, value in zip(ids, rules.labels(kind), column):
                text = value if isinstance(value, str) else \
                    ("yes" if value else "no") if isinstance(value, bool) else str(value)
                if plain(value, common, held / max(1, len(ids))) or text in (c, label):
                    continue
                if isinstance(value, str) and len(value.split()) >= PROSE and \
                        not value.startswith("["):   # a list is a figure, not a text
                    faces_of[c]["text"].append(text)
                else:   # a word of the data file ("per_cattle") as people read it
                    faces_of[c]["facts"].append([names[f], text.strip("[]").replace("_", " ")])
        out[kind] = {c: face for c, face in faces_of.items() if face["text"] or face["facts"]}
    return out


def special_cells(rules: Rules) -> dict[str, list[list[Any]]]:
    """The special spaces of each board: a define without parameters that lists cells of
    one board by name (`define parks() = [A4, B9, C7]`), as [its name in words, its
    cells], so that the page marks them and says what they are. Its name is the display
    label of the define when there is one."""
    labels = dict((rules.display or {}).get("labels") or {})
    cells = {name: set(shape.geometry.names) for name, shape in rules.boards.items()
             if hasattr(shape.geometry, "names")}
    out: dict[str, list[list[Any]]] = {}
    for define in rules.tree.items:
        if not isinstance(define, A.DefineDecl):
            continue
        name, body = define.name, define.body
        if define.params or not isinstance(body, A.ListLit) or not body.items or \
                not all(isinstance(i, A.Name) for i in body.items):
            continue
        listed = [i.name for i in body.items if isinstance(i, A.Name)]
        board = next((b for b, names in cells.items() if set(listed) <= names), None)
        if board is not None:
            out.setdefault(board, []).append([labels.get(name, name.replace("_", " ")),
                                              listed])
    return out
