"""The catalogue: the games shipped with rulesdsl, found by name.

Stage: before parsing. The command line takes a game's name where it takes a rule file
(`rulesdsl play cromlech`, `rulesdsl run isle-of-skye/druids`), and a variant may extend a
shipped game by name (`extends game "cromlech"`, variants.py), from any folder.

The games are the folders of `games/`: a game is the folder's file of the same name
(`games/cromlech/cromlech.rules` is `cromlech`), and its variants the other rule files
beside it (`games/cromlech/hardcore.rules` is `cromlech/hardcore`); deeper files are
reached the same way (`cromlech/examples/hardcore`). The wheel carries `games/` as
`rulesdsl/games` (setup.py); in a clone, the folder at the repository's root is read.

A name is lower-case with hyphens, as a folder or a file is named with underscores; it
is matched without regard to case, hyphens, underscores and spaces (`tic-tac-toe` is
`tictactoe`). A name is only ever compared with the files the catalogue lists: it cannot
make the tool read anything else (`../`, an absolute path, a link out of the folder).
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..diagnostics import Diagnostic, RulesError, Span

SUFFIX = ".rules"


@dataclass(frozen=True)
class Entry:
    """A game or a variant the catalogue lists."""

    name: str      # "isle-of-skye/druids"
    path: Path     # its rule file
    game: str      # the name of the game it belongs to: "isle-of-skye"

    @property
    def variant(self) -> bool:
        return self.name != self.game


@cache
def folder() -> Path:
    """Where the shipped games are: inside the installed package, or, run from a clone
    (with PYTHONPATH or an editable install), the repository's `games/`."""
    package = Path(__file__).resolve().parents[1]
    shipped = package / "games"
    if shipped.is_dir():
        return shipped
    return package.parent / "games"


def shown(part: str) -> str:
    """A folder's or a file's name as the catalogue writes it."""
    return part.lower().replace("_", "-").replace(" ", "-")


def _key(part: str) -> str:
    return "".join(c for c in part.lower() if c not in "-_ ")


def shipped_games() -> list[Entry]:
    """The shipped games and their variants (`rulesdsl games`), each game followed by its
    variants, in the order of their names."""
    out: list[Entry] = []
    for game in _games():
        name = shown(game.name)
        out.append(Entry(name, game / f"{game.name}{SUFFIX}", name))
        out.extend(Entry(f"{name}/{shown(f.stem)}", f, name) for f in _rule_files(game)
                   if f.stem != game.name)
    return out


def _games() -> list[Path]:
    root = folder()
    if not root.is_dir():
        return []
    return sorted((d for d in root.iterdir() if d.is_dir() and (d / f"{d.name}{SUFFIX}")
                   .is_file()), key=lambda d: shown(d.name))


def _rule_files(where: Path) -> list[Path]:
    return sorted((f for f in where.iterdir() if f.suffix == SUFFIX and f.is_file()),
                  key=lambda f: shown(f.stem))


def find_game(name: str) -> Path | None:
    """The rule file a catalogue name names, or None (`rulesdsl.load` takes the name
    itself). `cromlech` is the game's own file, `cromlech/hardcore` a variant beside it,
    `cromlech/examples/hardcore` a file deeper."""
    parts = name.strip().split("/")
    if not all(_key(p) for p in parts):
        return None
    games = [g for g in _games() if _key(g.name) == _key(parts[0])]
    if not games:
        return None
    here = games[0]
    if len(parts) == 1:
        return here / f"{here.name}{SUFFIX}"
    for part in parts[1:-1]:
        inside = [d for d in here.iterdir() if d.is_dir() and _key(d.name) == _key(part)]
        if not inside:
            return None
        here = inside[0]
    files = [f for f in _rule_files(here) if _key(f.stem) == _key(parts[-1])]
    return files[0] if files else None


def suggest(name: str) -> str | None:
    """The listed name closest to a mistyped one, if one is close."""
    names = {_key(e.name): e.name for e in shipped_games()}
    close = difflib.get_close_matches(_key(name), list(names), n=1, cutoff=0.6)
    return names[close[0]] if close else None


def unknown(name: str, span: Span, what: str) -> Diagnostic:
    """The error for a name the catalogue does not list: the closest name, and where the
    list is."""
    near = suggest(name)
    hint = f"did you mean {near}?" if near else \
        "'rulesdsl games' lists the shipped games and their variants"
    return Diagnostic("E000" if what == "file" else "V004",
                      f"there is no {'rule file or ' if what == 'file' else ''}shipped game "
                      f"named {name!r}", span, hint=hint)


# what a name is written with: words of letters, digits, hyphens, underscores and spaces,
# between slashes
NAME = re.compile(r"[\w\- ]+(/[\w\- ]+)*")


def looks_like_name(text: str) -> bool:
    """Whether a command-line argument may be a catalogue name rather than a path: no
    suffix, no dot, no backslash, no leading or doubled slash, no control character."""
    return NAME.fullmatch(text) is not None


def source(argument: str) -> str:
    """A rule file named on the command line or to `rulesdsl.load`: a path that exists is
    read as it is (a path wins over a name); otherwise a catalogue name gives the file it
    names, shown relative to the current folder when it lies inside it. Anything else is
    left for the loader to report (no such rule file), and a name the catalogue does not
    list is an error E000 that suggests the closest one."""
    if not looks_like_name(argument) or os.path.exists(argument):
        return argument
    found = find_game(argument)
    if found is None:
        raise RulesError([unknown(argument, Span(file=argument, line=0), "file")])
    try:
        return str(found.relative_to(Path.cwd()))
    except ValueError:
        return str(found)


def listing() -> list[str]:
    """`rulesdsl games`: a line per game: its name, its title, its number of players and
    the names of its variants."""
    from .. import ast as A
    from ..grammar import parse_file

    games = [e for e in shipped_games() if not e.variant]
    width = max((len(e.name) for e in games), default=0)
    lines = []
    for game in games:
        try:
            tree, _ = parse_file(game.path)
        except RulesError:
            lines.append(f"{game.name:<{width}}  (its rule file does not parse: rulesdsl "
                         f"check {game.name})")
            continue
        title = next((d.name for d in tree.items if isinstance(d, A.GameDecl)), game.name)
        counts = next((d for d in tree.items if isinstance(d, A.PlayersDecl)), None)
        players = "" if counts is None else f", {counts.low} players" \
            if counts.low == counts.high else f", {counts.low}-{counts.high} players"
        variants = [e.name.split("/", 1)[1] for e in shipped_games()
                    if e.variant and e.game == game.name]
        lines.append(f"{game.name:<{width}}  {title}{players}"
                     + (f"; variants: {', '.join(variants)}" if variants else ""))
    return lines
