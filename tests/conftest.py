"""Shared fixtures: the real data (from ../shared/data or CHIQA_DATA_DIR), loaded once."""
import os
from pathlib import Path

import pytest

from settings.loader import DataNotFoundError, load_settings, resolve_data_dir
from tests.tiny_gguf import make_tiny_gguf
from tools.catalog import build_registry
from tools.data.loader import load_data

ROOT = Path(__file__).resolve().parent.parent
# Tests keep their cache and run history away from the developer's var/ folder (read when settings load).
os.environ.setdefault("CHIQA_VAR_DIR", str(ROOT / "var" / "test"))


def pytest_sessionstart(session):
    """Every data test needs the real exports: stop at once with the fix instead of hundreds of errors."""
    try:
        resolve_data_dir(load_settings())
    except DataNotFoundError as exc:
        pytest.exit(f"ChiQA tests need the real data. {exc}", returncode=3)


@pytest.fixture(scope="session")
def settings():
    return load_settings()


@pytest.fixture(scope="session")
def data_dir(settings):
    return resolve_data_dir(settings)


@pytest.fixture(scope="session")
def data(settings):
    return load_data(settings)


@pytest.fixture(scope="session")
def registry(data):
    return build_registry(data)


@pytest.fixture(scope="session")
def tiny_gguf_path(tmp_path_factory):
    """A tiny random-weight llama GGUF (tests/tiny_gguf.py), written once per session."""
    return make_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf")
