"""Remembered results of `rulesdsl check`: a file checked before and not changed since is
not parsed, checked, compiled and run again.

Stage: command line (before the pipeline; it imports none of it). A check that found no
error is remembered in the user's private cache folder (`cachedir.open_private`, each
entry signed with the folder's key, so an answer nobody here wrote is never believed) with
the warnings it gave and, for every file it read (the rule file, the files it extends, its
data files), the file's name, the place the name leads to and a digest (SHA-256) of its
text. The next check of the same file, with the same options, from the same folder, is
answered from the cache only if every one of those files still has the same text at the
same place and the engine is the same (a digest of the package's own files, the Python
version and the files of the libraries that parse). Anything else, a changed byte in any
file, a moved link, another version of the engine, is a full check. So a changed file
never passes unchecked, and a check with errors is never remembered: it is worked out
again each time (the file is being fixed, and its errors must be today's).

RULESDSL_NO_CACHE=1 turns the cache off, as it turns off the parser's.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import cachedir

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic

# what a kept check says: its diagnostics, the files it read, and its summary in words
Recalled = tuple[list["Diagnostic"], dict[str, str], str]

FORMAT = 2  # 2: with the summary of what was checked
ENABLED = True   # tests that change the engine in place turn it off (tests/conftest.py)
MAX_ENTRY_BYTES = 1 << 22


def _entry(path: str, options: dict[str, Any]) -> str:
    """The name of the cache file of one check: the file named, the folder it is named
    from, the options and the engine."""
    key = json.dumps([cachedir.engine_digest(), os.getcwd(), os.path.abspath(path), options],
                     sort_keys=True)
    return f"check-{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"


def _folder() -> cachedir.Folder | None:
    return cachedir.open_private() if ENABLED else None


def _place(name: str) -> str:
    return os.path.realpath(name)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def recall(path: str, options: dict[str, Any]) -> Recalled | None:
    """The diagnostics (warnings only) and the source texts of an earlier check of `path`
    with these options, if nothing it read has changed since; else None."""
    folder = _folder()
    if folder is None:
        return None
    with folder:
        entry = _entry(path, options)
        found = _recalled(folder.read(entry))
        if found is not None:
            folder.used(entry)
    return found


def _recalled(blob: bytes | None) -> Recalled | None:
    """What a kept entry says, if nothing it read has changed since; else None."""
    if blob is None or len(blob) > MAX_ENTRY_BYTES:
        return None
    try:
        saved = json.loads(blob)
        if not isinstance(saved, dict) or saved.get("format") != FORMAT:
            return None
        sources: dict[str, str] = {}
        for name, place, digest in saved["files"]:
            text = Path(name).read_bytes().decode("utf-8")
            if _place(name) != place or _digest(text) != digest:
                return None
            sources[name] = text
        said = saved["summary"]
        if not isinstance(said, str):
            return None
        found = [_diagnostic(d) for d in saved["diagnostics"]], sources, said
    except (OSError, ValueError, LookupError, TypeError, AttributeError):  # malformed
        return None
    return found


def remember(path: str, options: dict[str, Any], diagnostics: list[Diagnostic],
             sources: dict[str, str], summary: str = "") -> None:
    """Keep the result of a check that found no error, with what it read."""
    if any(d.severity == "error" for d in diagnostics) or not sources:
        return
    files = []
    for name, text in sources.items():
        try:
            # the text the check read must be the file's text now, or nothing is kept
            if Path(name).read_bytes().decode("utf-8") != text:
                return
        except (OSError, ValueError):
            return
        files.append([name, _place(name), _digest(text)])
    data = {"format": FORMAT, "files": files,
            "diagnostics": [d.to_json() for d in diagnostics], "summary": summary}
    folder = _folder()
    if folder is not None:
        with folder:
            folder.write(_entry(path, options), json.dumps(data).encode())


def _diagnostic(data: dict[str, Any]) -> Diagnostic:
    """A diagnostic from its JSON form (`Diagnostic.to_json`)."""
    from ..diagnostics import Diagnostic, Span

    span = Span(file=data["file"], line=data["line"], column=data["column"],
                end_line=data["end_line"], end_column=data["end_column"]) \
        if "file" in data else None
    return Diagnostic(data["code"], data["message"], span, data["severity"],
                      data.get("hint"), list(data.get("notes", [])))
