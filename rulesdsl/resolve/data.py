"""Component tables from data files: `kind Druid(name, left, right): from "cards.yaml" druids`.

Stage: resolve (after the variants are merged, before checking). A kind declared `from` a
YAML file gets its rows from it: the key path names a list of mappings, one per component,
whose keys are the kind's fields (other keys are left alone, for the people who read the
file). Each row becomes the `KindRow` it would be if written in the rule file, placed in the
YAML file, so that the checker's errors point at the YAML line and column.

The file is named relative to the rule file that names it, as `extends` is, and must lie in
that file's folder or below it, with a `.yaml` or `.yml` name: a rule file is untrusted and
may not read anything else of the machine. A file that is not what it should be (missing,
elsewhere, too large, not UTF-8 text, not YAML) is reported by its name and place only: its
text is never quoted back.

A field `edges_n` that a row lacks reads the key `n` of the row's mapping `edges` (nested
mappings flattened with `_`). A field declared with a value (`kind Tile(id, scroll = none)`)
takes that value in the rows that leave it out; any other field missing from a row is an
error (E009).

Values: whole numbers, true/false, text, none, and lists of those. A text names a value of
an enum when every text of its field does (the case of letters aside: `fire` is `Fire`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError, Span
from ..files.paths import Unreadable, locate, read_text
from ..limits import MAX_DATA_BYTES, MAX_DIGITS
from . import placed

MAX_BYTES = MAX_DATA_BYTES  # a data file larger than this is refused
MAX_VALUES = 100_000    # values read from one table, at most (aliases can multiply them)
SUFFIXES = (".yaml", ".yml")
_parsed: dict[str, Any] = {}  # the last few data files parsed, by their text (read only)


class _Problem(Exception):
    def __init__(self, code: str, message: str, span: Span, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(code, message, span, hint=hint)


def load_data(file: A.RulesFile, sources: dict[str, str],
              include: tuple[str | Path, ...] = ()) -> A.RulesFile:
    """The file with the rows of every kind declared `from` a data file read in; the data
    files' texts are added to `sources`. `include` names folders data files may lie in
    besides the folder of the rule file that names each. Raises RulesError for every file
    that cannot be used."""
    if not any(isinstance(d, A.KindDecl) and d.source is not None for d in file.items):
        return file
    enums = [d for d in file.items if isinstance(d, A.EnumDecl)]
    items: list[Any] = []
    diags: list[Diagnostic] = []
    cache: dict[Path, Any] = {}
    for decl in file.items:
        if isinstance(decl, A.KindDecl) and decl.source is not None:
            try:
                rows = _rows(decl, decl.source, enums, sources, cache, include)
            except _Problem as p:
                diags.append(p.diagnostic)
                rows = []
            decl = A.updated(decl, {"rows": rows})
        items.append(decl)
    if diags:
        raise RulesError(diags, sources)
    return A.updated(file, {"items": items})


def data_path(source: A.DataSource) -> Path:
    """Where a data file is: beside (or below) the rule file that names it."""
    return Path(source.span.file).parent / source.path


def _rows(decl: A.KindDecl, source: A.DataSource, enums: list[A.EnumDecl],
          sources: dict[str, str], cache: dict[Path, Any],
          include: tuple[str | Path, ...]) -> list[A.KindRow]:
    entries = []   # (the list, the row's number in it, where the list is, file) per row
    for part in [source, *source.also]:
        path = _checked_path(part, include)
        name = str(data_path(part))
        if path not in cache:
            cache[path] = _read(path, name, part.span, sources)
        for key_path in [part.key, *part.more]:
            rows, where = _list_at(cache[path], key_path, decl, name)
            entries += [(rows, i, where, name) for i in range(len(rows))]
    counted = [0]
    table: list[list[tuple[Any, Span]]] = []
    for node, i, where, name in entries:
        row = node[i]
        span = _item_place(name, node, i)
        if not isinstance(row, dict):
            raise _Problem("E009", f"row {i + 1} of {name}{where} is not a mapping of "
                           f"{decl.name}'s fields", span)
        values = []
        for field in decl.fields:
            holder, key = _nested(row, field)
            if holder is None:
                if field in decl.defaults:
                    values.append((_DEFAULT, span))
                    continue
                raise _Problem("E009", f"row {i + 1} of {name}{where} has no '{field}' (a "
                               f"{decl.name} has {', '.join(decl.fields)})", span,
                               hint=f"give it a value when the rows leave it out: "
                                    f"kind {decl.name}(..., {field} = none)")
            values.append((_value(holder[key], name, _key_place(name, holder, key), counted),
                           _key_place(name, holder, key)))
        table.append(values)
    types = [_enum_of([row[k][0] for row in table if row[k][0] is not _DEFAULT],
                      decl.fields[k], enums,
                      [str(data_path(part)) for part in [source, *source.also]])
             for k in range(len(decl.fields))]
    return [A.KindRow.make(span=_item_place(name, node, i), count=source.count,
                      values=[decl.defaults[decl.fields[k]] if v is _DEFAULT
                              else _literal(v, span, types[k])
                              for k, (v, span) in enumerate(row)],
                      refs=source.refs)
            for (node, i, _where, name), row in zip(entries, table)]


def _list_at(node: Any, key: list[str], decl: A.KindDecl, name: str) -> tuple[Any, str]:
    """The list of rows under a key path of a data file, and where it is (for messages)."""
    where = ""
    for k, part in enumerate(key):
        if not isinstance(node, dict) or part not in node:
            have = ", ".join(str(x) for x in node) if isinstance(node, dict) else ""
            raise _Problem("E009", f"{name} has no key '{part}'{where}", _place(name, node),
                           hint=f"the keys there: {have}" if have else None)
        node = node[part]
        where = f" under '{'.'.join(key[:k + 1])}'"
    if not isinstance(node, list) or not node:
        raise _Problem("E009", f"kind {decl.name} reads its rows from {name}"
                       f"{where}, which is not a list of rows", _place(name, node),
                       hint="a list of mappings: - {field: value, ...}")
    return node, where


_DEFAULT = object()   # a row leaves out a field that has a default


def _nested(row: Any, field: str) -> tuple[Any, str]:
    """The mapping that holds a field of a row, and its key there: the row itself, or for
    a field `edges_n` that the row lacks, the mapping under `edges` when it has a key `n`
    (and so on down: `a_b_c`). (None, field) when the row has no such value."""
    if field in row:
        return row, field
    for cut in range(1, len(field)):
        if field[cut] == "_" and isinstance(row.get(field[:cut]), dict):
            holder, key = _nested(row[field[:cut]], field[cut + 1:])
            if holder is not None:
                return holder, key
    return None, field


def _checked_path(source: A.DataSource, include: tuple[str | Path, ...]) -> Path:
    """The data file's path, if it is one a rule file may read: where `extends` may reach
    (paths.locate: V007 elsewhere), a YAML file that exists."""
    span = source.span
    try:
        target = locate(span.file, source.path, SUFFIXES, span, what="data", extra=include)
    except RulesError as err:
        raise _Problem(err.diagnostics[0].code, err.diagnostics[0].message, span,
                       hint=err.diagnostics[0].hint) from None
    real = target.resolve()
    if not real.is_file():
        raise _Problem("E007", f"the data file {source.path} does not exist (looked for "
                       f"{target})", span,
                       hint="the path is relative to the rule file that names it")
    return real


def _read(path: Path, name: str, span: Span, sources: dict[str, str]) -> Any:
    """The parsed YAML of a data file (named `name` in messages), made plain with the
    places of its values (placed.py); its text goes into `sources` once it has parsed."""
    try:
        text = read_text(path, MAX_BYTES)  # a regular file under the cap (paths.py)
    except FileNotFoundError:
        raise _Problem("E007", f"the data file {path.name} does not exist", span) from None
    except Unreadable as err:
        raise _Problem("E007", f"the data file {path.name} cannot be read: {err.reason}",
                       span) from None
    if text in _parsed:  # the YAML reader is slow: a file read again is parsed once
        sources[name] = text
        return _parsed[text]
    data = placed.read_remembered(path, text, lambda t: _yaml(t, path, name))
    sources[name] = text
    if len(_parsed) >= 8:
        _parsed.pop(next(iter(_parsed)))
    _parsed[text] = data
    return data


def _yaml(text: str, path: Path, name: str) -> Any:
    """What the YAML reader makes of a data file's text, made plain (placed.py), or E008
    at the place it fails."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        return placed.read(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = err.problem or err.context or "not valid YAML"
        raise _Problem("E008", f"{path.name} is not valid YAML: {what}",
                       Span(file=name, line=line, column=col, end_line=line,
                            end_column=col + 1)) from None
    except (YAMLError, ValueError, RecursionError) as err:
        raise _Problem("E008", f"{path.name} is not valid YAML ({type(err).__name__})",
                       Span(file=name, line=0, column=0, end_line=0, end_column=0)) from None


def _value(v: Any, name: str, span: Span, counted: list[int]) -> Any:
    """A plain value of a row: a number, true/false, text, none or a list of those."""
    counted[0] += 1
    if counted[0] > MAX_VALUES:
        raise _Problem("E009", f"{name} holds more than {MAX_VALUES:,} values for one kind",
                       span)
    if v is None or isinstance(v, (bool, str)):  # plain already (placed.py)
        return v
    if isinstance(v, int):
        digits = len(str(abs(v)))
        if digits > MAX_DIGITS:  # as in a rule file (the grammar's E005)
            raise _Problem("E005", f"a number of {digits:,} digits: numbers in rules have at "
                           f"most {MAX_DIGITS} digits (they stay between -10^18 and 10^18)",
                           span)
        return v
    if isinstance(v, placed.PlacedList):
        return [_value(x, name, _item_place(name, v, i), counted) for i, x in enumerate(v)]
    kind = "a mapping" if isinstance(v, dict) else (
        "a fraction" if isinstance(v, float) else f"a value of YAML type {v.kind}")
    raise _Problem("E009", f"a field holds a number, true/false, text, none or a list of them, "
                   f"not {kind}", span)


def _texts(v: Any) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, list):
        return [t for x in v for t in _texts(x)]
    return []


def _enum_of(column: list[Any], field: str, enums: list[A.EnumDecl],
             files: list[str]) -> dict[str, str] | None:
    """The enum the texts of a field name values of, as a map from text to value name;
    None when they are plain text. `files` are the data files the column was read from."""
    texts = {t for v in column for t in _texts(v)}
    if not texts:
        return None
    fits = []
    for e in enums:
        names = [v.name for v in e.values]
        exact = {n: n for n in names}
        folded: dict[str, str] = {}
        for n in names:
            folded.setdefault(n.lower(), n)
        if all(t in exact or t.lower() in folded for t in texts):
            fits.append((e.name, {t: exact.get(t) or folded[t.lower()] for t in texts}))
    if len(fits) > 1:
        raise _Problem("E009", f"the texts of field '{field}' in {' and '.join(files)} name "
                       f"values of several enums: {', '.join(f for f, _ in fits)}",
                       Span(file=files[0], line=0, column=0, end_line=0, end_column=0))
    return fits[0][1] if fits else None


def _literal(v: Any, span: Span, enum: dict[str, str] | None) -> A.Expr:
    if v is None:
        return A.NoneLit.make(span=span)
    if isinstance(v, bool):
        return A.BoolLit.make(span=span, value=v)
    if isinstance(v, int):
        return A.IntLit.make(span=span, value=v)
    if isinstance(v, list):
        return A.ListLit.make(span=span, items=[_literal(x, span, enum) for x in v])
    if enum is not None:
        return A.Name.make(span=span, name=enum[v])
    return A.StrLit.make(span=span, parts=[v])


# ---- places in the YAML file -------------------------------------------------------------

def _span(name: str, line: int, col: int, width: int = 1) -> Span:
    return Span.make(file=name, line=line + 1, column=col + 1, end_line=line + 1,
                     end_column=col + 1 + max(width, 1))


def _place(name: str, node: Any) -> Span:
    at = getattr(node, "at", None)
    if at is None:
        return Span(file=name, line=0, column=0, end_line=0, end_column=0)
    return _span(name, *at)


def _item_place(name: str, seq: placed.PlacedList, i: int) -> Span:
    where = seq.places[i]
    return _place(name, seq) if where is None else _span(name, *where)


def _key_place(name: str, row: placed.PlacedMap, key: str) -> Span:
    where = row.places[key]
    return _place(name, row) if where is None else _span(name, *where)
