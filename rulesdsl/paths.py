"""Which files a rule file may make the tool read: its own folder and below, and the
folders the user names.

Stage: parse (shared by `extends` in variants.py and data files in data.py). A rule file is
untrusted: it must not make the tool read, or quote, the host's other files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .diagnostics import Diagnostic, RulesError, Span

# folders a rule file may reach beyond its own, given by the user (`--include DIR`); worker
# processes forked by `simulate` inherit them
_included: tuple[Path, ...] = ()


def include(folders: Iterable[str | Path]) -> None:
    """Let `extends` (and data files) reach into these folders too, for this process."""
    global _included
    _included = tuple(Path(f).resolve() for f in folders)


def locate(here: str, name: str, suffixes: tuple[str, ...], span: Span,
           what: str = "base", extra: Iterable[str | Path] = ()) -> Path:
    """The file a rule file names (`extends "..."`, a data file): relative to the naming
    file, it must lie in that file's folder or below it, or in a folder the user included,
    and end with one of `suffixes`. A rule file is untrusted: it must not make the tool
    read, or quote, the host's other files."""
    written = Path(name)
    target = written if written.is_absolute() else Path(here).parent / written
    try:
        real = target.resolve()  # links followed: the place the file really is
    except (OSError, ValueError) as err:  # a null character in the name, say
        raise _unreadable(what, name, span, err) from None
    roots = (Path(here).resolve().parent, *_included, *(Path(f).resolve() for f in extra))
    if not any(real == root or root in real.parents for root in roots):
        raise RulesError([Diagnostic(
            "V007", f"the {what} file {name} lies outside the folder of "
            f"{Path(here).name}: a rule file reads only files in its own folder and below",
            span, hint=_include_hint(written, target))])
    if real.suffix not in suffixes:
        raise RulesError([Diagnostic(
            "V007", f"the {what} file {name} is not a {' or '.join(suffixes)} file", span)])
    try:
        target.stat()
    except (FileNotFoundError, NotADirectoryError):
        pass  # the caller says that the file does not exist
    except OSError as err:  # a name too long for the host, say
        raise _unreadable(what, name, span, err) from None
    return target


def _unreadable(what: str, name: str, span: Span, err: Exception) -> RulesError:
    """V004 (a base) or E007 (a data file): a name the host cannot look up, shortened and
    with its control characters shown as escapes."""
    shown = repr(name if len(name) <= 60 else name[:57] + "...")[1:-1]
    why = getattr(err, "strerror", None) or str(err)
    return RulesError([Diagnostic("V004" if what == "base" else "E007",
                                  f"cannot read the {what} file {shown}: {why}", span)])


def _include_hint(written: Path, target: Path) -> str:
    """How to let the file be read: the folder to include, when the rule file names it
    relative to itself (a folder of the same project). An absolute path may be anything on
    the host: the hint then does not suggest opening that folder."""
    if written.is_absolute():
        return "move the file there, or let its folder be read with --include DIR"
    return f"move the file there, or let its folder be read: --include " \
           f"{os.path.normpath(target.parent)}"
