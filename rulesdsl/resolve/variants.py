"""Variants: a rule file that extends another and states only what differs.

Stage: resolve (between parsing and checking). A variant starts with `extends "PATH"`
(relative to the variant's own file) or `extends game "NAME"` (a shipped game, by its name
in the catalogue: catalogue.py) and then declares:
- new declarations, which are added;
- `replace <declaration>`, which takes the place of the base's declaration of that name;
- `change rule NAME:` (or play, setup, an example), edits of the base's declaration that
  state only what differs (hooks.py);
- `remove <what> NAME`, which takes the base's declaration out.
A replaced or changed rule may run the base's version with `base NAME(...)`. A variant may
extend a variant. The result is one merged `RulesFile`; every node keeps the span of the
file it came from, so an error in a base file points into that file. Last, the kinds read
from data files get their rows (data.py).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import ast as A
from ..diagnostics import Diagnostic, RulesError
from ..files.paths import locate
from ..grammar import parse_file
from ..limits import MAX_EXTENDS
from .data import load_data
from .hooks import apply_change, describe_change, key_of_change, nodes, replace_nodes
from .render import decl_lines

# what `remove` and the messages call each kind of declaration
KIND_WORDS: dict[type, str] = {
    A.ConstDecl: "const", A.SettingDecl: "setting", A.CounterDecl: "counter",
    A.BoardDecl: "board", A.EnumDecl: "enum", A.DieDecl: "die", A.DiceDecl: "dice",
    A.DefineDecl: "define", A.RuleDecl: "rule", A.KindDecl: "kind", A.ZoneDecl: "zone",
    A.ExampleDecl: "example", A.SetupDecl: "setup", A.PlayDecl: "play",
    A.RankDecl: "rank", A.HeuristicDecl: "heuristic", A.GameDecl: "game",
    A.PlayersDecl: "players", A.TriggerDecl: "as soon as", A.DisplayDecl: "display",
    A.TeamsDecl: "teams", A.LimitDecl: "limit", A.StatDecl: "stat", A.PayoffDecl: "payoff",
}
# declared once, without a name
SINGLE = {"setup", "play", "rank", "heuristic", "game", "players", "teams", "limit",
          "payoff"}
BODIED = (A.RuleDecl, A.SetupDecl, A.PlayDecl, A.ExampleDecl)  # what `change` may edit


def key_of(decl: Any) -> tuple[str, str] | None:
    """What a declaration is known by: (word, name); None for declarations that are only
    ever added (the `as soon as` blocks)."""
    word = KIND_WORDS.get(type(decl))
    if word is None or word in ("as soon as", "display"):
        return None
    if word in SINGLE:
        return (word, "")
    return (word, decl.name)


def describe(key: tuple[str, str]) -> str:
    word, name = key
    if not name:
        return f"'{word}'"
    return f"{word} \"{name}\"" if word == "example" else f"{word} {name}"


@dataclass
class Resolved:
    """A merged rule file and the texts of every file it came from."""

    file: A.RulesFile
    sources: dict[str, str]
    chain: list[str]  # the files, the variant first and the base last


def _literal_kind(e: Any) -> str | None:
    kinds: dict[type, str] = {A.IntLit: "a number", A.BoolLit: "true/false", A.StrLit: "text",
             A.ListLit: "a list", A.NoneLit: "none"}
    if isinstance(e, A.Unary) and e.op == "-":
        e = e.operand
    return kinds.get(type(e))


def _replacement_problem(old: Any, new: Any) -> str | None:
    """Why a replacement cannot stand in for what it replaces, if it cannot."""
    if isinstance(old, (A.ConstDecl, A.SettingDecl)):
        was, now = _literal_kind(old.value), _literal_kind(new.value)
        if was and now and was != now:
            return f"{old.name} is {was} in the base, and the replacement gives {now}"
    if isinstance(old, A.CounterDecl):
        was, now = _literal_kind(old.init), _literal_kind(new.init)
        if was and now and was != now:
            return f"counter {old.name} holds {was} in the base, the replacement {now}"
        if old.per != new.per:
            return (f"counter {old.name} is kept per {' per '.join(old.per) or 'game'} in the "
                    f"base, and per {' per '.join(new.per) or 'game'} in the replacement")
    if isinstance(old, (A.RuleDecl, A.DefineDecl)) and len(old.params) != len(new.params):
        return (f"{KIND_WORDS[type(old)]} {old.name} takes {len(old.params)} parameter(s) in "
                f"the base; the replacement takes {len(new.params)}")
    return None


Reader = Callable[[str | Path], tuple[A.RulesFile, str]]  # a file's AST and text, or RulesError



def resolve(path: str | Path, _seen: tuple[str, ...] = (), read: Reader = parse_file,
            include: Iterable[str | Path] = ()) -> Resolved:
    """Parse a rule file and, if it is a variant, merge it into its base (recursively).
    `read` parses a file (the language server reads open files from the editor); `include`
    names folders the files may reach beyond their own."""
    file, text = read(path)
    return merge(file, text, str(path), _seen, read, include)


def merge(file: A.RulesFile, text: str, here: str, _seen: tuple[str, ...] = (),
          read: Reader = parse_file, include: Iterable[str | Path] = ()) -> Resolved:
    """A parsed file, merged into its base if it extends one; the kinds read from data files
    get their rows once the whole chain is merged."""
    include = tuple(include)
    resolved = _merge(file, text, here, _seen, read, include)
    if not _seen:
        resolved.file = load_data(resolved.file, resolved.sources, include)
    return resolved


def _merge(file: A.RulesFile, text: str, here: str, _seen: tuple[str, ...],
           read: Reader, include: tuple[str | Path, ...]) -> Resolved:
    sources = {here: text}
    extends = [i for i in file.items if isinstance(i, A.Extends)]
    own = [i for i in file.items if not isinstance(i, A.Extends)]
    if not extends:
        return _not_a_variant(file, own, text, here, sources)
    diags: list[Diagnostic] = []
    base_path, chain = _base_path(file, extends, here, _seen, include, diags, sources)
    try:
        base = resolve(base_path, chain, read, include)
    except RulesError as err:
        err.sources.update(sources)
        raise
    sources.update(base.sources)
    items: list[Any] = list(base.file.items)
    where = {key_of(d): i for i, d in enumerate(items) if key_of(d) is not None}
    removed: set[int] = set()
    own, hidden = _base_calls(own, where)
    changed: set[str] = set()
    for item in own:
        if isinstance(item, (A.Replace, A.Change)):
            key = key_of(item.decl) if isinstance(item, A.Replace) else key_of_change(item)
            if key is not None and key[0] == "rule" and key[1] in hidden and key in where \
                    and where[key] not in removed and key[1] not in changed:
                # `base NAME(...)`: the base's version stays, under a name of its own
                changed.add(key[1])
                where[("rule", hidden[key[1]])] = len(items)
                items.append(A.updated(items[where[key]], {"name": hidden[key[1]]}))
        if isinstance(item, A.Replace):
            _replace(item, items, where, removed, base_path, diags)
        elif isinstance(item, A.Change):
            _change(item, items, where, removed, base_path, sources, diags)
        elif isinstance(item, A.Remove):
            _remove(item, items, where, removed, base_path, diags)
        else:
            _add(item, items, where, removed, diags)
    _unused_base_calls(file, set(hidden) - changed, diags)
    if diags:
        raise RulesError(diags, sources)
    removed |= _examples_for_other_counts(items, len(base.file.items), removed)
    merged = A.RulesFile.make(span=file.span, path=here,
                              items=[d for i, d in enumerate(items) if i not in removed])
    return Resolved(merged, sources, [here, *base.chain])


def _not_a_variant(file: A.RulesFile, own: list, text: str, here: str,
                   sources: dict[str, str]) -> Resolved:
    """A file that extends none: no `replace`, `remove`, `change` nor `base` call in it."""
    diags: list[Diagnostic] = []
    for item in own:
        if isinstance(item, (A.Replace, A.Remove, A.Change)):
            word = {A.Replace: "replace", A.Remove: "remove"}.get(type(item), "change")
            diags.append(Diagnostic("V005", f"'{word}' belongs in a variant: this file "
                                    "extends no other", item.span,
                                    hint='start the file with: extends "base.rules"'))
    # a `base` call is written with its keyword: a file without the word has none (the
    # walk of every node would take a hundredth of a second of Cromlech's check)
    for call in nodes(own, A.BaseCall) if "base" in text else ():
        diags.append(Diagnostic("V005", f"'base {call.name}(...)' runs the version of a "
                                "rule in the file a variant extends: this file extends "
                                "no other", call.span,
                                hint=f"to run the rule, write: {call.name}(...)"))
    if diags:
        raise RulesError(diags, sources)
    return Resolved(file, sources, [here])


def _base_path(file: A.RulesFile, extends: list[A.Extends], here: str,
               _seen: tuple[str, ...], include: tuple[str | Path, ...],
               diags: list[Diagnostic], sources: dict[str, str]) -> tuple[Path, tuple[str, ...]]:
    """The file a variant extends, and the chain of files that reached it; a RulesError if
    it is not there, is too far down a chain, or extends the variant in a circle."""
    for extra in extends[1:]:
        diags.append(Diagnostic("V005", "a variant extends one file only", extra.span))
    ext = extends[0]
    if file.items[0] is not ext:
        diags.append(Diagnostic("V005", "'extends' must be the first line of a variant",
                                ext.span))
    try:
        base_path = _shipped(ext) if ext.game else \
            locate(here, ext.path, (".rules",), ext.span, extra=include)
    except RulesError as err:
        raise RulesError(diags + err.diagnostics, sources) from None
    chain = _seen + (str(Path(here).resolve()),)
    if len(chain) >= MAX_EXTENDS:  # each base is read while the variant waits for it
        diags.append(Diagnostic("V010", f"a variant extends a chain of at most {MAX_EXTENDS} "
                                f"files, the base game included: {_short(chain[0])} "
                                f"reaches this file through {len(chain) - 1} others",
                                ext.span, hint="extend a file nearer the base game"))
        raise RulesError(diags, sources)
    if str(base_path.resolve()) in chain:
        names = " -> ".join([*(_short(p) for p in chain), _short(str(base_path))])
        diags.append(Diagnostic("V003", f"variants extend each other in a circle: {names}",
                                ext.span))
        raise RulesError(diags, sources)
    if not base_path.is_file():
        diags.append(Diagnostic("V004", f"the base file {ext.path} does not exist "
                                f"(looked for {base_path})", ext.span,
                                hint="the path is relative to this variant's own file"))
        raise RulesError(diags, sources)
    return base_path, chain


def _remove(item: A.Remove, items: list, where: dict, removed: set[int], base_path: Path,
            diags: list[Diagnostic]) -> None:
    """`remove rule NAME`: the base's declaration left out of the merged file."""
    gone = (item.what, item.name or "")
    if gone not in where or where[gone] in removed:
        diags.append(Diagnostic("V001", f"there is no {describe(gone)} in "
                                f"{_short(str(base_path))} to remove", item.span,
                                hint=_known(items, item.what, item.name or "")))
    else:
        removed.add(where[gone])


def _add(item: Any, items: list, where: dict, removed: set[int],
         diags: list[Diagnostic]) -> None:
    """A declaration of the variant's own, added after the base's (V006 when the base
    already declares it: a variant changes the base's with `replace`)."""
    key = key_of(item)
    if key is not None and key in where and where[key] not in removed:
        old = items[where[key]]
        diags.append(Diagnostic(
            "V006", f"{describe(key)} is already declared in the base "
            f"({old.span}); a variant changes it with 'replace'", item.span,
            hint=f"write: replace {KIND_WORDS[type(item)]} ..."))
    else:
        if key is not None:
            where[key] = len(items)
        items.append(item)


def _unused_base_calls(file: A.RulesFile, unused: set[str], diags: list[Diagnostic]) -> None:
    """V009 for a `base NAME(...)` whose rule the variant neither replaces nor changes."""
    for name in sorted(unused):
        for call in nodes(file.items, A.BaseCall):
            if call.name == name:
                diags.append(Diagnostic(
                    "V009", f"'base {name}(...)' runs the base's version of a rule this file "
                    f"replaces or changes, and this file does neither to rule {name}",
                    call.span, hint=f"to run the rule, write: {name}(...)"))


def _shipped(ext: A.Extends) -> Path:
    """The rule file of the shipped game `extends game "NAME"` names (catalogue.py): read
    from the installed package, wherever the variant is, and from nowhere else."""
    from .catalogue import find_game, unknown

    found = find_game(ext.path)
    if found is None:
        raise RulesError([unknown(ext.path, ext.span, "base")])
    return found


def _base_calls(own: list, where: dict) -> tuple[list, dict[str, str]]:
    """The file's own declarations with each `base NAME(...)` made a call of the base's
    version of rule NAME, and the name that version goes by (`NAME (base)`, numbered when a
    variant of a variant does it again)."""
    hidden: dict[str, str] = {}
    for call in nodes(own, A.BaseCall):
        if call.name not in hidden:
            name, n = f"{call.name} (base)", 1
            while ("rule", name) in where:
                n += 1
                name = f"{call.name} (base {n})"
            hidden[call.name] = name
    if not hidden:
        return own, hidden
    return replace_nodes(own, A.BaseCall, lambda c: A.CallRule.make(
        span=c.span, name=hidden[c.name], args=c.args)), hidden


def _change(item: A.Change, items: list, where: dict, removed: set, base_path: Path,
            sources: dict[str, str], diags: list[Diagnostic]) -> None:
    key = key_of_change(item)
    if key not in where or where[key] in removed:
        diags.append(Diagnostic("V001", f"there is no {describe_change(item)} in "
                                f"{_short(str(base_path))} to change", item.span,
                                hint=_known(items, item.what, item.name or "")))
        return
    lines = {path: text.splitlines() for path, text in sources.items()}

    def text(node: Any) -> str:
        return " ".join(line.strip() for line in decl_lines(node, lines)) or "?"

    new, problems = apply_change(items[where[key]], item, same, text)
    diags.extend(problems)
    items[where[key]] = new


def _examples_for_other_counts(items: list, inherited: int, removed: set[int]) -> set[int]:
    """The base's examples for a number of players the variant no longer allows: a variant
    that narrows `players` leaves them out (they cannot run), as `rulesdsl diff` shows."""
    counts = [d for i, d in enumerate(items) if isinstance(d, A.PlayersDecl)
              and i not in removed]
    if not counts:
        return set()
    low, high = counts[-1].low, counts[-1].high
    return {i for i, d in enumerate(items[:inherited]) if isinstance(d, A.ExampleDecl)
            and d.players is not None and not low <= d.players <= high}


def _replace(item: A.Replace, items: list, where: dict, removed: set, base_path: Path,
             diags: list[Diagnostic]) -> None:
    new = item.decl
    key = key_of(new)
    if key is None:
        diags.append(Diagnostic("V002", "an 'as soon as' block has no name to replace: add "
                                "a new one instead", item.span))
        return
    same_name = [k for k in where if k[1] == key[1] and key[1]] if key[1] else []
    if key not in where or where[key] in removed:
        if same_name:
            other = same_name[0]
            diags.append(Diagnostic("V002", f"{key[1]} is a {other[0]} in the base, not a "
                                    f"{key[0]}", item.span,
                                    hint=f"write: replace {other[0]} {key[1]} ..."))
        else:
            diags.append(Diagnostic("V001", f"there is no {describe(key)} in "
                                    f"{_short(str(base_path))} to replace", item.span,
                                    hint=_known(items, key[0], key[1]) or "to add it, leave out "
                                    "'replace'"))
        return
    old = items[where[key]]
    problem = _replacement_problem(old, new)
    if problem:
        diags.append(Diagnostic("V002", problem, item.span))
        return
    items[where[key]] = new


def _known(items: list, word: str, wanted: str = "") -> str | None:
    """A hint naming what the base has of a kind of declaration: the names closest to the
    one asked for first (with a did-you-mean when one is close), then the others."""
    names = [k[1] for d in items if (k := key_of(d)) is not None and k[0] == word and k[1]
             and not hidden_rule(k)]
    if not names:
        return None
    close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.6) if wanted else []
    listed = close + [n for n in names if n not in close]
    known = f"the base has {word} " + ", ".join(listed[:8]) + (" ..." if len(listed) > 8 else "")
    return f"did you mean {close[0]}? {known}" if close else known


def _short(path: str) -> str:
    return Path(path).name


def declarations(file: A.RulesFile) -> dict[tuple[str, str], Any]:
    """The declarations of a (merged) file by what they are known by."""
    return {k: d for d in file.items if (k := key_of(d)) is not None}


def same(a: Any, b: Any) -> bool:
    """Whether two declarations say the same thing (wherever they were written)."""
    return _strip(A.to_json(a)) == _strip(A.to_json(b))


# where a thing is written, not what it says
PLACES = ("span", "name_span", "param_spans", "field_spans", "choice_spans", "id_spans",
          "start_span")


def _strip(tree: Any) -> Any:
    if isinstance(tree, dict):
        return {k: _strip(v) for k, v in tree.items() if k not in PLACES}
    if isinstance(tree, list):
        return [_strip(v) for v in tree]
    return tree


def hidden_rule(key: tuple[str, str]) -> bool:
    """The base's version of a rule a variant runs with `base NAME(...)`: not a rule of its
    own to show."""
    return key[0] == "rule" and key[1].endswith(")") and " (base" in key[1]
