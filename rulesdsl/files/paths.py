"""Which files a rule file, a record or a save may make the tool read, and how any of them
is read.

Stage: parse (shared by `extends` in variants.py, data files in data.py, the rule file a
record names in the command line, and the files the language server reads). Rule files,
records and saves are untrusted: they must not make the tool read, or quote, the host's
other files, nor read a device, a pipe or a file without end. A file named by a file is
found by `locate` (its folder tree, the folders the user includes) and every file, named
by the user or by a file, is read by `read_text` (a regular file under its size cap).

The folders the user includes (`--include DIR`) are an argument, passed from the command
line down to `locate` by every call between (load, check_file, resolve, the data files, the
rule file of a record): never a setting of the process, so two loads in one process, each
with its own folders, never reach each other's.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..diagnostics import Diagnostic, RulesError, Span
from ..limits import MAX_RULE_BYTES


def locate(here: str, name: str, suffixes: tuple[str, ...], span: Span | None,
           what: str = "base", extra: Iterable[str | Path] = (),
           by: str = "a rule file") -> Path:
    """The file a file names (`extends "..."`, a data file, the rule file of a record):
    relative to the naming file, it must lie in that file's folder or below it, or in a
    folder the user included (`extra`, the `--include` folders), and end with one of
    `suffixes`. The naming file (`by`) is
    untrusted: it must not make the tool read, or quote, the host's other files."""
    written = Path(name)
    target = written if written.is_absolute() else Path(here).parent / written
    try:
        real = target.resolve()  # links followed: the place the file really is
    except (OSError, ValueError) as err:  # a null character in the name, say
        raise _unreadable(what, name, span, err) from None
    roots = (Path(here).resolve().parent, *(Path(f).resolve() for f in extra))
    if not any(real == root or root in real.parents for root in roots):
        raise RulesError([Diagnostic(
            "V007", f"the {what} file {name} lies outside the folder of "
            f"{Path(here).name}: {by} reads only files in its own folder and below",
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


class Unreadable(Exception):
    """A file that is not read, and why (`reason`, without the file's name)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def read_text(path: str | Path, cap: int = MAX_RULE_BYTES) -> str:
    """The UTF-8 text of a file, read only if it is a regular file of at most `cap` bytes:
    never a device (`/dev/zero` has no end), a pipe (it would wait for a writer) or a
    folder, and never more than `cap` bytes of anything, whatever size it claims (a file of
    /proc says 0). Raises FileNotFoundError, or Unreadable with the reason."""
    try:
        # without waiting: opening a pipe for reading waits for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError(str(path)) from None
    except (OSError, ValueError) as err:  # a name with a null character, too long
        raise Unreadable(getattr(err, "strerror", None) or str(err)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable("it is not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, min(cap + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:
            raise Unreadable(f"it is larger than {_bytes(cap)}")
        try:
            return b"".join(chunks).decode("utf-8")
        except UnicodeDecodeError:
            raise Unreadable("it is not UTF-8 text") from None
    except OSError as err:
        raise Unreadable(err.strerror or str(err)) from None
    finally:
        os.close(fd)


def _bytes(n: int) -> str:
    """A size in the unit it is a whole number of: 256 KiB, 1 MiB."""
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n:,} bytes"


def _unreadable(what: str, name: str, span: Span | None, err: Exception) -> RulesError:
    """V004 (a base) or E007 (a data file): a name the host cannot look up, shortened and
    with its control characters shown as escapes."""
    shown = repr(name if len(name) <= 60 else name[:57] + "...")[1:-1]
    why = getattr(err, "strerror", None) or str(err)
    code = {"base": "V004", "data": "E007"}.get(what, "E000")
    return RulesError([Diagnostic(code, f"cannot read the {what} file {shown}: {why}", span)])


def _include_hint(written: Path, target: Path) -> str:
    """How to let the file be read: the folder to include, when the rule file names it
    relative to itself (a folder of the same project). An absolute path may be anything on
    the host: the hint then does not suggest opening that folder."""
    if written.is_absolute():
        return "move the file there, or let its folder be read with --include DIR"
    return f"move the file there, or let its folder be read: --include " \
           f"{os.path.normpath(target.parent)}"
