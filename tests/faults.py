"""Helpers for the reliability tests: broken copies of the real data, read-only files, apps on them.

Broken data is always a copy in the test's tmp_path; the shared snapshot and the repo are never written.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from app import create_app
from settings.loader import load_settings
from tools.data.datasets import DATASETS

SNAPSHOT = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def snapshot_dir() -> Path:
    """The real data the tests read (CHIQA_DATA_DIR when set, else ../shared/data)."""
    return Path(os.environ.get("CHIQA_DATA_DIR") or SNAPSHOT)


def copy_data(tmp_path: Path) -> Path:
    """A private copy of the catalogue's files (only those the loader reads) to break on purpose."""
    dest = tmp_path / "data"
    dest.mkdir()
    for ds in DATASETS.values():
        shutil.copyfile(snapshot_dir() / ds.file, dest / ds.file)
    return dest


def settings_for(tmp_path: Path, data_dir: Path | None = None, **extra):
    overrides = {"server.var_dir": str(tmp_path / "var"), **extra}
    if data_dir is not None:
        overrides["data.dir"] = str(data_dir)
    return load_settings(overrides=overrides)


def app_for(tmp_path: Path, data_dir: Path | None = None, backend=None, **extra):
    overrides = {"model.backend": "rules", "server.var_dir": str(tmp_path / "var"), **extra}
    if data_dir is not None:
        overrides["data.dir"] = str(data_dir)
    config = {"TESTING": True, "SETTINGS_OVERRIDES": overrides}
    if backend is not None:
        config["CHIQA_BACKEND_OBJECT"] = backend
    return create_app(config)


def keep_lines(path: Path, n: int) -> None:
    """Keep the header and the first ``n`` data lines (a truncated download)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[: n + 1]), encoding="utf-8")


@contextlib.contextmanager
def read_only(*paths: Path):
    """Make files and folders unwritable for real: chattr +i as root (chmod does not stop root), else chmod."""
    if os.geteuid() == 0:
        done = []
        try:
            for path in paths:
                if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                    pytest.skip("cannot make a file immutable here (chattr +i failed)")
                done.append(path)
            yield
        finally:
            for path in reversed(done):
                subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    else:
        modes = {path: path.stat().st_mode for path in paths}
        try:
            for path in paths:
                path.chmod(0o555 if path.is_dir() else 0o444)
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
