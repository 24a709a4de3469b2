"""Bounded reads of the files ChiQA is pointed at (the config, the cache and refresh manifests, data files).

Whatever sits at such a path may be anything: a named pipe that never ends (open() waits for a writer for ever), a
symlink to /dev/zero (a read never ends and fills memory), a sparse file of many gigabytes, or JSON nested a hundred
thousand levels deep (Python's reader then raises RecursionError, which nobody expects). So a file is opened without
waiting (O_NONBLOCK), must be a regular file (checked on the open descriptor, so it cannot be swapped in between),
is read only up to a size limit, and JSON is scanned for its nesting depth before it is parsed.
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

MAX_JSON_DEPTH = 64  # deeper than any file ChiQA writes nests; far inside what Python's JSON reader survives
# A JSON string (escapes included): removed before the brackets are counted, so "[" inside a string is no nesting.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class UnsafeFile(ValueError):
    """A file that is not a regular file, or is over its size limit; ``reason`` completes "<path> ..."."""

    def __init__(self, path, reason: str):
        self.path, self.reason = Path(path), reason
        super().__init__(f"{path} {reason}")


def kind_of(mode: int) -> str:
    """What a non-regular file is, for messages."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _check_stat(path, st: os.stat_result, max_bytes: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFile(path, f"is {kind_of(st.st_mode)}, not a regular file")
    if st.st_size > max_bytes:
        raise UnsafeFile(path, f"is {st.st_size:,} bytes, over the limit of {max_bytes:,} bytes for this file")


def regular_file_problem(path, max_bytes: int) -> str | None:
    """Why ``path`` (symlinks followed) may not be read, completing "<path> ..."; None when it may. A missing file
    raises FileNotFoundError."""
    try:
        _check_stat(path, os.stat(path), max_bytes)
    except UnsafeFile as exc:
        return exc.reason
    return None


def read_bounded(path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; UnsafeFile otherwise, OSError as the system gives it
    (FileNotFoundError for a missing file)."""
    # O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; for a regular file it changes nothing.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        _check_stat(path, os.fstat(fd), max_bytes)
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:  # grew after the check
                raise UnsafeFile(path, f"grew past the limit of {max_bytes:,} bytes while being read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (a scan, nothing is parsed)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for char in brackets:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads_json(text: str, max_depth: int = MAX_JSON_DEPTH):
    """json.loads that refuses nesting deeper than ``max_depth`` with a ValueError instead of a RecursionError."""
    if json_depth(text) > max_depth:
        raise ValueError(f"it nests arrays or objects more than {max_depth} levels deep")
    return json.loads(text)


def read_json(path, max_bytes: int, max_depth: int = MAX_JSON_DEPTH):
    """A bounded JSON file's value. Raises UnsafeFile, OSError, or ValueError (not UTF-8, not JSON, too deep)."""
    return loads_json(read_bounded(path, max_bytes).decode("utf-8"), max_depth)
