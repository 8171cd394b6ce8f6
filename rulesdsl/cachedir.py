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
import time
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

LIBRARIES = ("lark", "pydantic", "pydantic_core", "ruamel.yaml")
# the folder keeps at most this much: past it, what was used least recently goes (a new
# engine, or every edit of a file checked, leaves entries nobody reads again)
MAX_FILES = 500
MAX_BYTES = 100 << 20
STALE_PART = 3600  # seconds after which a half-written file is a crashed writer's
USED_GRAIN = 3600  # seconds: how finely the folder tells when a file was last used
_pruned = False


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
    global _pruned
    if not _pruned:  # once a process: listing the folder costs a millisecond
        _pruned = True
        prune(path.parent)


def used(path: Path) -> None:
    """Say that a kept file was read: `prune` removes what was used least recently. Its
    time of change is set to now if it is over an hour old (within the hour, the time it
    has says as much, and a file that is only read is not written to at every command)."""
    try:
        if time.time() - path.stat().st_mtime > USED_GRAIN:
            os.utime(path)
    except OSError:
        pass


def prune(folder: Path, max_files: int | None = None, max_bytes: int | None = None) -> int:
    """Keep the folder to at most `max_files` files and `max_bytes` bytes (by default
    MAX_FILES and MAX_BYTES), removing the files used least recently first (see `used`),
    and any half-written file an hour old; returns how many were removed. Failing to
    remove is not an error."""
    max_files = MAX_FILES if max_files is None else max_files
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    now = time.time()
    files = []
    try:
        for entry in os.scandir(folder):
            if entry.is_file(follow_symlinks=False):
                info = entry.stat(follow_symlinks=False)
                files.append((info.st_mtime, info.st_size, entry.path, entry.name))
    except OSError:
        return 0
    files.sort(reverse=True)  # the most recently used first
    removed, count, size = 0, 0, 0
    for mtime, nbytes, where, name in files:
        if name.endswith(".part"):
            keep = now - mtime < STALE_PART
        else:
            count, size = count + 1, size + nbytes
            keep = count <= max_files and size <= max_bytes
        if not keep:
            try:
                os.unlink(where)
                removed += 1
            except OSError:
                pass
    return removed


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
