"""Fuzz (hypothesis): the readers of files ChiQA is pointed at, given random bytes, deep nesting, huge sparse files and
files that are no regular file (a FIFO, a link to /dev/zero, a folder, a dangling link).

The config loader, the parquet cache's reader, the refresh manifest's reader and the run store's ownership check
must each return or raise their own error (never another exception, which would be a traceback), finish within
seconds (never wait on a FIFO or read /dev/zero), and change no file outside var/: every entry of the folder the
files sit in is fingerprinted before and after each example. Example counts stay small so this runs in seconds.
"""
import contextlib
import hashlib
import json
import os
import signal
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from settings.loader import SettingsError, load_settings
from store.sqlite_file import store_file_problem
from tools.data.cache import read_cache
from tools.data.integrity import DataIntegrityError, manifest_entries

FUZZ = settings(max_examples=40, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
BIG = 16 << 20
KEY = {"version": 7, "sources": {"homicides.csv": "0" * 64}}


def _nested(depth: int, opener: str) -> bytes:
    closer = {"[": "]", '{"a":': "}"}[opener]
    return (opener * depth + "1" + closer * depth).encode()


def _laughs(levels: int) -> bytes:
    """YAML aliases repeating a block nine times per level: the config's keys would multiply past any bound."""
    lines, previous = ["a: &a {x: 1, y: 2, z: 3}"], "a"
    for i in range(levels):
        refs = ", ".join(f"k{j}: *{previous}" for j in range(9))
        lines.append(f"b{i}: &b{i} {{{refs}}}")
        previous = f"b{i}"
    return ("\n".join(lines) + "\n").encode()


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)
contents = st.one_of(
    st.binary(max_size=3000),
    st.text(max_size=500).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.builds(_nested, st.integers(1, 200_000), st.sampled_from(["[", '{"a":'])),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.integers(2, 9).map(_laughs),
    st.fixed_dictionaries({"key": st.just(KEY), "tables": st.dictionaries(
        st.sampled_from(["homicides", "iucr"]), json_values, max_size=2)}).map(lambda v: json.dumps(v).encode()),
)
kinds = st.sampled_from(["regular", "regular", "regular", "fifo", "dev zero", "folder", "dangling", "sparse 3 GB"])


def place(path: Path, kind: str, content: bytes) -> None:
    """Put a file of ``kind`` at ``path`` (the folder is fresh for each example)."""
    if kind == "regular":
        path.write_bytes(content)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(path.with_name("nowhere"))
    else:
        path.write_bytes(content)
        os.truncate(path, 3 * 1024**3)


def fingerprint(folder: Path, skip: str = "var") -> dict:
    """Every entry under ``folder`` but ``skip``: its type and, for regular files, its bytes' sha256."""
    out = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if Path(root, d) != folder / skip]
        for name in dirs + files:
            path = Path(root, name)
            mode = os.lstat(path).st_mode
            digest = ""
            if stat.S_ISREG(mode) and os.lstat(path).st_size <= BIG:
                with open(path, "rb") as fh:
                    digest = hashlib.file_digest(fh, "sha256").hexdigest()
            elif stat.S_ISREG(mode):  # the sparse files: hashing 3 GB of zeros per example would take minutes
                info = os.lstat(path)
                digest = f"{info.st_size} {info.st_mtime_ns} {info.st_ctime_ns}"
            out[str(path.relative_to(folder))] = (stat.S_IFMT(mode), digest)
    return out


@contextlib.contextmanager
def bounded(seconds: int = 20):
    """A hang (waiting on a FIFO, reading /dev/zero) becomes a failure instead of a stuck run."""
    def expired(*_):
        raise TimeoutError(f"no answer within {seconds} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def fresh(tmp_path):
    """A new folder per example (hypothesis calls the test many times with one tmp_path)."""
    counter = iter(range(10**6))

    def make() -> Path:
        folder = tmp_path / f"ex{next(counter)}"
        (folder / "var").mkdir(parents=True)
        return folder
    return make


@FUZZ
@given(content=contents, kind=kinds)
def test_the_config_loader_returns_or_names_the_file(fresh, content, kind):
    folder = fresh()
    place(folder / "config.yaml", kind, content)
    before = fingerprint(folder)
    with bounded():
        try:
            load_settings(folder / "config.yaml", overrides={"server.var_dir": str(folder / "var")})
        except SettingsError as exc:
            assert "config" in str(exc) or "setting" in str(exc)
    assert fingerprint(folder) == before


@FUZZ
@given(manifest=contents, manifest_kind=kinds, table=contents, table_kind=kinds)
def test_the_cache_reader_uses_the_cache_or_says_why_not(fresh, manifest, manifest_kind, table, table_kind):
    folder = fresh()
    cache = folder / "var" / "cache"
    cache.mkdir()
    place(cache / "manifest.json", manifest_kind, manifest)
    place(cache / "homicides.parquet", table_kind, table)
    before = fingerprint(folder, skip="nothing")  # the reader writes nothing at all, inside var/ or out
    with bounded():
        tables, why = read_cache(cache, KEY, ["homicides"])
    assert tables is None and why
    assert fingerprint(folder, skip="nothing") == before


@FUZZ
@given(content=contents, kind=kinds)
def test_the_refresh_manifest_reader_returns_or_names_the_file(fresh, content, kind):
    folder = fresh()
    place(folder / "refresh_manifest.json", kind, content)
    before = fingerprint(folder)
    with bounded():
        try:
            assert isinstance(manifest_entries(folder), dict)
        except DataIntegrityError as exc:
            assert "refresh_manifest.json" in str(exc)
    assert fingerprint(folder) == before


@FUZZ
@given(content=contents, kind=kinds, sqlite_header=st.booleans())
def test_the_store_check_never_takes_a_file_that_is_not_chiqas(fresh, content, kind, sqlite_header):
    folder = fresh()
    if sqlite_header:  # past the magic bytes, what a damaged or foreign database might hold
        content = b"SQLite format 3\x00" + content
    place(folder / "runs.sqlite3", kind, content)
    before = fingerprint(folder)
    with bounded():
        problem = store_file_problem(folder / "runs.sqlite3")
    if kind in ("fifo", "dev zero", "folder", "sparse 3 GB") or (kind == "regular" and content):
        assert problem, (kind, content[:40])  # random bytes never carry ChiQA's mark at bytes 68-71 by chance...
    assert fingerprint(folder) == before
