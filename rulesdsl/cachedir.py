"""The user's own cache folder, where commands keep what they worked out between runs.

Stage: command line (shared by the parser's cache and the syntax trees in grammar/, and
the check results of checkcache.py). What is kept there is trusted when it is read back
(lark keeps its parser as a pickle, the syntax trees are pickles, and loading a pickle runs
code; a remembered check result says a file is fine), so the folder must belong to the
user and be writable by nobody else: never the system's temporary folder, where another
user could plant a file.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

LIBRARIES = ("lark", "pydantic", "pydantic_core", "ruamel.yaml")


def private_folder() -> Path | None:
    """`$XDG_CACHE_HOME/rulesdsl` (else `~/.cache/rulesdsl`), made with mode 0700 if
    missing; None when it cannot be used safely (another owner, writable by others, not
    creatable) or when RULESDSL_NO_CACHE is set."""
    if os.environ.get("RULESDSL_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "rulesdsl"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or
                                  info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        return None
    return folder


def write_whole(path: Path, data: bytes) -> None:
    """Write a file under a name of this process's own, then put it in place whole: a
    command starting meanwhile never reads half a file. Failing to write is not an error
    (the cache only saves time)."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        try:
            part.unlink()
        except OSError:
            pass


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """What a remembered result (a syntax tree, a check) depends on besides the files it
    was worked out from: the text of every file of this package, the Python version, and
    where the libraries that parse (lark, pydantic, ruamel.yaml) are and when they were
    written (installing another version writes them anew). Reading the package's files
    takes a few milliseconds."""
    h = hashlib.sha256(f"{sys.version}\0".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        h.update(f"{path.relative_to(package).as_posix()}\0".encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    for name in LIBRARIES:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is not None and os.path.exists(origin):
            info = os.stat(origin)
            h.update(f"{name}\0{origin}\0{info.st_mtime_ns}\0{info.st_size}\0".encode())
        else:
            h.update(f"{name}\0-\0".encode())
    return h.hexdigest()
