"""The user's own cache folder, where commands keep what they worked out between runs.

Stage: command line (shared by the parser's cache and the syntax trees in grammar/, the
check results of checkcache.py and the data files' values of placed.py). What is kept
there is trusted when it is read back (lark keeps its parser as a pickle, the syntax trees
are pickles, and loading a pickle runs code; a remembered check result says a file is
fine), so three things hold before anything kept is believed:

- The folder is opened once, without following a link at its last step (O_NOFOLLOW), and
  its owner and mode are checked on what was opened (fstat), never again by name: every
  file in it is then read, written, renamed and removed through that handle (`dir_fd`).
  A local user who can write a parent of the folder may swap the folder for a link at
  any moment, but the handle is the folder that was checked: what it reads cannot change
  under it (a link at the last step is not opened at all; a swapped parent leads to a
  folder that is not the user's, or one without the user's key).
- Each file is opened without following links, and used only if it is a regular file of
  the user's own (another user's file, even in the user's folder, is not read).
- Each file carries a keyed digest (HMAC-SHA256) of its name and contents, under a key of
  32 random bytes kept in the folder as `key` (mode 0600, made whole under a name of its
  own and linked into place, so two commands starting together never write two keys). A
  file whose digest does not match (tampered, written by anything else, or copied from
  another folder) is not unpickled: it is worked out again and written anew.

Never the system's temporary folder, where another user could plant a file; a folder that
fails a check (another owner, writable by others, a link) is not used at all, and the
command works without its cache. RULESDSL_NO_CACHE=1 turns it off.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import sys
import time
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from types import TracebackType

LIBRARIES = ("lark", "pydantic", "pydantic_core", "ruamel.yaml")
# the folder keeps at most this much: past it, what was used least recently goes (a new
# engine, or every edit of a file checked, leaves entries nobody reads again)
MAX_FILES = 500
MAX_BYTES = 100 << 20
STALE_PART = 3600  # seconds after which a half-written file is a crashed writer's
USED_GRAIN = 3600  # seconds: how finely the folder tells when a file was last used
KEY = "key"        # the folder's own key, which signs every file in it
KEY_BYTES = 32
MAGIC = b"rulesdsl-cache/1\n"
DIGEST_BYTES = 32
_pruned = False

_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | \
    getattr(os, "O_NONBLOCK", 0)
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | \
    getattr(os, "O_CLOEXEC", 0)


def _supported() -> bool:
    """Whether this system can open a folder without following links and work inside it
    through its handle (POSIX): elsewhere nothing is kept."""
    return (hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and hasattr(os, "getuid")
            and {os.open, os.stat, os.unlink, os.link, os.rename, os.utime}
            <= os.supports_dir_fd and os.scandir in os.supports_fd)


def _mine(info: os.stat_result) -> bool:
    return info.st_uid == os.getuid()


class Folder:
    """The user's cache folder, opened once (`open_private`): every file is read and
    written through its handle. Close it after use (it is a context manager)."""

    def __init__(self, fd: int, path: Path, key: bytes) -> None:
        self.fd, self.path, self._key = fd, path, key

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _digest(self, name: str, data: bytes) -> bytes:
        return hmac.new(self._key, name.encode() + b"\0" + data, hashlib.sha256).digest()

    def read(self, name: str) -> bytes | None:
        """What the file `name` keeps, if it is a regular file of the user's own that this
        folder's key signed; else None (missing, foreign, tampered, half written)."""
        data = _read_own(self.fd, name, MAX_BYTES + len(MAGIC) + DIGEST_BYTES)
        if data is None or not data.startswith(MAGIC):
            return None
        digest, body = data[len(MAGIC):len(MAGIC) + DIGEST_BYTES], \
            data[len(MAGIC) + DIGEST_BYTES:]
        if not hmac.compare_digest(digest, self._digest(name, body)):
            return None
        return body

    def write(self, name: str, data: bytes) -> None:
        """Keep `data` as the file `name`, signed: written under a name of this process's
        own, then put in place whole, so a command starting meanwhile never reads half a
        file. Failing to write is not an error (the cache only saves time)."""
        _write_whole(self.fd, name, MAGIC + self._digest(name, data) + data)
        global _pruned
        if not _pruned:  # once a process: listing the folder costs a millisecond
            _pruned = True
            self.prune()

    def used(self, name: str) -> None:
        """Say that a kept file was read: `prune` removes what was used least recently.
        Its time of change is set to now if it is over an hour old (within the hour, the
        time it has says as much, and a file that is only read is not written to at every
        command)."""
        try:
            info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and time.time() - info.st_mtime > USED_GRAIN:
                os.utime(name, dir_fd=self.fd, follow_symlinks=False)
        except OSError:
            pass

    def prune(self, max_files: int | None = None, max_bytes: int | None = None) -> int:
        """Keep the folder to at most `max_files` files and `max_bytes` bytes (by default
        MAX_FILES and MAX_BYTES), removing the files used least recently first (see
        `used`), and any half-written file an hour old; the key stays. Returns how many
        were removed. Failing to remove is not an error."""
        max_files = MAX_FILES if max_files is None else max_files
        max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        now = time.time()
        files = []
        try:
            with os.scandir(self.fd) as entries:
                for entry in entries:
                    if entry.name != KEY and entry.is_file(follow_symlinks=False):
                        info = entry.stat(follow_symlinks=False)
                        files.append((info.st_mtime, info.st_size, entry.name))
        except OSError:
            return 0
        files.sort(reverse=True)  # the most recently used first
        removed, count, size = 0, 0, 0
        for mtime, nbytes, name in files:
            if name.endswith(".part"):
                keep = now - mtime < STALE_PART
            else:
                count, size = count + 1, size + nbytes
                keep = count <= max_files and size <= max_bytes
            if not keep:
                try:
                    os.unlink(name, dir_fd=self.fd)
                    removed += 1
                except OSError:
                    pass
        return removed


def open_private() -> Folder | None:
    """`$XDG_CACHE_HOME/rulesdsl` (else `~/.cache/rulesdsl`), made with mode 0700 if
    missing, opened without following a link, with its key; None when it cannot be used
    safely (a link, another owner, writable by others, not creatable, no key to be had),
    when the system cannot open a folder so, or when RULESDSL_NO_CACHE is set."""
    if os.environ.get("RULESDSL_NO_CACHE") or not _supported():
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "rulesdsl"
    try:
        # making the folders is harmless whatever the parents are: what is opened below is
        # what is checked and used
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode) and _mine(info) and \
                not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            key = _key(fd)
            if key is not None:
                return Folder(fd, path, key)
    except OSError:
        pass
    os.close(fd)
    return None


def _read_own(fd: int, name: str, limit: int) -> bytes | None:
    """The bytes of the file `name` in the folder `fd`, if it is a regular file of the
    user's own of at most `limit` bytes, read without following a link; else None."""
    try:
        handle = os.open(name, _READ, dir_fd=fd)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or not _mine(info) or info.st_size > limit:
            return None
        with os.fdopen(handle, "rb", closefd=False) as f:
            data = f.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(handle)


def _write_whole(fd: int, name: str, data: bytes, mode: int = 0o600) -> bool:
    """Write `name` in the folder `fd` under a name of this process's own, then rename it
    into place; whether it was written."""
    part = f"{name}.{os.getpid()}.part"
    try:
        handle = os.open(part, _WRITE, mode, dir_fd=fd)
        try:
            with os.fdopen(handle, "wb", closefd=False) as f:
                f.write(data)
        finally:
            os.close(handle)
        os.replace(part, name, src_dir_fd=fd, dst_dir_fd=fd)
        return True
    except OSError:
        try:
            os.unlink(part, dir_fd=fd)
        except OSError:
            pass
        return False


def _key(fd: int) -> bytes | None:
    """The folder's key: read if it is the user's own, readable by nobody else and whole;
    else made anew (a key others could read signs nothing). A new key is written under a
    name of its own and linked to `key`, which fails if another command made one
    meanwhile: that one is then read."""
    for _ in range(3):
        try:
            handle = os.open(KEY, _READ, dir_fd=fd)
        except FileNotFoundError:
            handle = -1
        except OSError:
            return None
        if handle >= 0:
            try:
                info = os.fstat(handle)
                key = os.read(handle, KEY_BYTES + 1)
            finally:
                os.close(handle)
            if stat.S_ISREG(info.st_mode) and _mine(info) and \
                    not info.st_mode & 0o077 and len(key) == KEY_BYTES:
                return key
            try:
                os.unlink(KEY, dir_fd=fd)
            except OSError:
                return None
        part = f"{KEY}.{os.getpid()}.{os.urandom(4).hex()}.part"
        try:
            handle = os.open(part, _WRITE | os.O_EXCL, 0o600, dir_fd=fd)
            try:
                os.write(handle, os.urandom(KEY_BYTES))
            finally:
                os.close(handle)
            try:
                os.link(part, KEY, src_dir_fd=fd, dst_dir_fd=fd)
            except FileExistsError:
                pass   # another command's key is in place: read it
        except OSError:
            return None
        finally:
            try:
                os.unlink(part, dir_fd=fd)
            except OSError:
                pass
    return None


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """What a remembered result (a syntax tree, a check) depends on besides the files it
    was worked out from: the text of every file of this package, the Python version, and
    where the libraries that parse (lark, pydantic, ruamel.yaml) are and when they were
    written (installing another version writes them anew). Reading the package's files
    takes a few milliseconds."""
    h = hashlib.sha256(f"{sys.version}\0".encode())
    package = Path(__file__).resolve().parents[1]
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
