"""Reliability: ChiQA never moves, renames, deletes or writes into a file it did not make, named as its run store.

``store.url: sqlite:///notes.txt`` (a typo, another program's database) used to rename the file
``notes.txt.corrupt-<time>`` and start a new store in its place. Now a file is the store only when it carries ChiQA's
mark (its SQLite ``application_id``) or, made before the mark, holds nothing but ChiQA's tables. Three files are
named as the store, through the config file and through CHIQA_STORE_URL, to the CLI process, to gunicorn as
``make run`` starts it and to the app factory: a text file and another program's SQLite database are refused
(exit 2, one line naming the path and why; gunicorn does not boot) and stay byte for byte as they were; only a
damaged ChiQA store is moved aside, and a new store made in its place.
"""
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import requests
import yaml

from app import create_app
from bench.bench_web import free_port, gunicorn_server
from store.run_store import RunStore
from store.sqlite_file import ForeignStoreFile

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "How many homicides were there in 2022?"
pytestmark = pytest.mark.process  # real CLI and gunicorn processes


def make_text(path: Path) -> None:
    path.write_text("my notes: buy milk\n" * 50)


def make_foreign(path: Path) -> None:
    """Valid SQLite, not ChiQA's: another program's table (and no ChiQA mark)."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.executemany("INSERT INTO contacts VALUES (?, ?)", [(f"n{i}", f"555-{i:04}") for i in range(200)])
    conn.commit()
    conn.close()


def make_damaged_store(path: Path) -> None:
    """A ChiQA store with runs in it, then its schema page scribbled over past the 100-byte header (and its mark)."""
    store = RunStore(path)
    for i in range(20):
        store.save({"question": f"q{i}", "answer": "a" * 500, "tool_calls": [], "trace": []})
    store.close()
    raw = bytearray(path.read_bytes())
    assert raw[68:72] == b"ChQA" and not Path(f"{path}-wal").exists()
    raw[100:4096] = b"\x5a" * (4096 - 100)
    path.write_bytes(bytes(raw))


KINDS = {"text": (make_text, "is not a SQLite database"),
         "foreign sqlite": (make_foreign, "is a SQLite database that is not a ChiQA run store")}


def listing(folder: Path) -> dict:
    """Every file in the folder with its sha256: what must not change."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def cli_env(tmp: Path, data_dir: Path, store_url: str | None) -> dict:
    config = tmp / "config.yaml"
    tree = {"data": {"cache_dir": str(ROOT / "var" / "test" / "cache")}}
    if store_url and store_url.startswith("config:"):
        tree["store"] = {"url": store_url.removeprefix("config:")}
    config.write_text(yaml.safe_dump(tree))
    env = {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(config), "CHIQA_VAR_DIR": str(tmp / "var"),
           "CHIQA_DATA_DIR": str(data_dir), "CHIQA_BACKEND": "rules"}
    if store_url and not store_url.startswith("config:"):
        env["CHIQA_STORE_URL"] = store_url
    return env


def ask(cwd: Path, env: dict):
    return subprocess.run([sys.executable, str(ROOT / "app.py"), "ask", QUESTION], cwd=cwd, env=env,
                          capture_output=True, timeout=180)


@pytest.mark.parametrize("how", ["config", "env"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_cli_refuses_a_store_file_that_is_not_chiqas_and_leaves_it_as_it_was(tmp_path, data_dir, kind, how):
    work = tmp_path / "work"
    work.mkdir()
    make, reason = KINDS[kind]
    make(work / "notes.txt")
    before = listing(work)
    url = "sqlite:///notes.txt"  # relative: the working folder, as a user would type it
    proc = ask(work, cli_env(tmp_path, data_dir, f"config:{url}" if how == "config" else url))
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b"", (proc.returncode, err)
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert str(work / "notes.txt") in err and reason in err and "untouched" in err
    assert listing(work) == before  # byte for byte, and no .corrupt-, -wal or -shm file beside it


@pytest.mark.parametrize("how", ["config", "env"])
def test_the_cli_moves_aside_only_a_damaged_chiqa_store(tmp_path, data_dir, how):
    work = tmp_path / "work"
    work.mkdir()
    make_damaged_store(work / "runs.db")
    damaged = (work / "runs.db").read_bytes()
    url = "sqlite:///runs.db"
    proc = ask(work, cli_env(tmp_path, data_dir, f"config:{url}" if how == "config" else url))
    assert proc.returncode == 0, proc.stderr.decode()
    assert "homicides" in proc.stdout.decode() and "not stored" not in proc.stderr.decode()
    aside = [p for p in work.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # kept whole, never deleted
    assert RunStore(work / "runs.db").count() == 1  # the new store, ChiQA's, holding this answer


def test_the_app_factory_refuses_a_store_file_that_is_not_chiqas(tmp_path):
    for kind, (make, reason) in KINDS.items():
        path = tmp_path / f"{kind.replace(' ', '_')}.db"
        make(path)
        before = path.read_bytes()
        with pytest.raises(ForeignStoreFile, match=reason):
            create_app({"TESTING": True, "SETTINGS_OVERRIDES": {"store.url": f"sqlite:///{path}",
                                                                "server.var_dir": str(tmp_path / "var")}})
        assert path.read_bytes() == before


def gunicorn(tmp: Path, env: dict):
    config = tmp / "config.yaml"
    config.write_text(yaml.safe_dump({"data": {"cache_dir": str(ROOT / "var" / "test" / "cache")}}))
    return subprocess.run([str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py", "app:create_app()"],
                          cwd=ROOT, env={**env, "CHIQA_CONFIG": str(config), "CHIQA_BIND": f"127.0.0.1:{free_port()}"},
                          capture_output=True, timeout=60)


@pytest.mark.parametrize("kind", list(KINDS))
def test_gunicorn_does_not_boot_on_a_store_file_that_is_not_chiqas(tmp_path, data_dir, kind):
    make, reason = KINDS[kind]
    path = tmp_path / "notes.txt"
    make(path)
    before = listing(tmp_path)
    proc = gunicorn(tmp_path, {"PATH": "/usr/bin:/bin", "CHIQA_VAR_DIR": str(tmp_path / "var"),
                               "CHIQA_DATA_DIR": str(data_dir), "CHIQA_BACKEND": "rules",
                               "CHIQA_STORE_URL": f"sqlite:///{path}"})
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert err.startswith("error: ") and str(path) in err and reason in err, err
    before.pop("config.yaml", None)
    after = listing(tmp_path)
    after.pop("config.yaml", None)
    assert after == before


def test_gunicorn_moves_aside_a_damaged_chiqa_store_and_answers(tmp_path):
    path = tmp_path / "history" / "runs.db"
    path.parent.mkdir()
    make_damaged_store(path)
    damaged = path.read_bytes()
    env = {"CHIQA_BACKEND": "rules", "CHIQA_STORE_URL": f"sqlite:///{path}"}
    with gunicorn_server(tmp_path / "var", env=env) as base:
        body = requests.post(base + "/api/ask", json={"question": QUESTION}, timeout=60).json()
        assert body["saved"] is True and body["answer"]
        moved = requests.get(base + "/api/health", timeout=10).json()["store"]["moved_aside"]
    assert len(moved) == 1 and Path(moved[0]["path"]).read_bytes() == damaged
    assert os.path.basename(moved[0]["path"]).startswith("runs.db.corrupt-")


@pytest.mark.parametrize("command", [["mcp"], ["store", "status"], ["store", "migrate", "--from", "src.db"]])
def test_the_mcp_process_and_the_store_commands_refuse_it_too(tmp_path, data_dir, command):
    work = tmp_path / "work"
    work.mkdir()
    make_text(work / "notes.txt")
    RunStore(work / "src.db").save({"question": "q"})  # a real history to migrate into the refused file
    before = listing(work)
    env = cli_env(tmp_path, data_dir, f"sqlite:///{work / 'notes.txt'}")
    proc = subprocess.run([sys.executable, str(ROOT / "app.py"), *command], cwd=work, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert str(work / "notes.txt") in err and "is not a SQLite database" in err, err
    assert listing(work) == before
