"""store.url, the schema's versions and `store migrate`, on SQLite (the PostgreSQL tier is tests/test_postgres.py):
a URL ChiQA cannot use or a database it cannot reach stops start-up with one line and exit 2; an old SQLite file is
brought to the newest schema with its conversations' turn numbers carried on; a newer schema is refused; copying a
history twice leaves the same data."""
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select, update

import app
from bench.bench_web import free_port
from settings.loader import load_settings
from store.database import StoreConfigError, parse_url
from store.migrations import LATEST
from store.run_store import ConversationFull, RunStore, StoreUnavailable
from store.startup import StoreStartupError, prepare_store
from store.tables import store_version

ROOT = Path(__file__).resolve().parent.parent
CID = "0123456789abcdef"
OLD_RUNS = ("CREATE TABLE runs (id TEXT PRIMARY KEY, created_at REAL NOT NULL, question TEXT NOT NULL,"
            " latency_ms REAL, stopped_because TEXT, partial INTEGER NOT NULL DEFAULT 0, n_tool_calls INTEGER NOT NULL"
            " DEFAULT 0, n_duplicate INTEGER NOT NULL DEFAULT 0, n_error INTEGER NOT NULL DEFAULT 0, backend TEXT,"
            " model TEXT, answer_pattern TEXT, result_json TEXT NOT NULL, rating INTEGER, comment TEXT, feedback_at REAL,"
            " conversation_id TEXT, turn INTEGER)")


def unreachable_url() -> str:
    return f"postgresql://chiqa:secret-password@127.0.0.1:{free_port()}/chiqa"  # nothing listens there


@pytest.mark.parametrize("url,says", [
    ("not a url", "is not a database URL"),
    ("mysql://u:p@h/db", "'mysql' is not a database ChiQA can use"),
    ("postgresql+psycopg2://u:p@h/db", "through psycopg 3"),
    ("sqlite://", "names no file"),
    ("sqlite:///:memory:", "names no file"),
])
def test_a_url_chiqa_cannot_use_is_refused_saying_why(url, says):
    with pytest.raises(StoreConfigError, match=says):
        parse_url(url)


def test_the_password_never_reaches_a_message():
    with pytest.raises(StoreConfigError) as err:
        parse_url("mysql://user:hunter2@db.example/chiqa")
    assert "hunter2" not in str(err.value) and "***" in str(err.value)
    store = RunStore(unreachable_url())
    assert "secret-password" not in store.where and "secret-password" not in str(store.health())


def test_postgres_urls_are_read_with_psycopg_3():
    assert parse_url("postgresql://u@h:5433/db").drivername == "postgresql+psycopg"
    assert parse_url("postgres://u@h/db").drivername == "postgresql+psycopg"


def test_cli_exits_2_with_one_line_on_a_bad_or_unreachable_store(monkeypatch, capsys):
    monkeypatch.setenv("CHIQA_STORE_URL", "mysql://nope")
    assert app.main(["store", "status"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: store.url") and err.count("\n") == 1 and "Traceback" not in err
    monkeypatch.setenv("CHIQA_STORE_URL", unreachable_url())
    assert app.main(["store", "status"]) == 2
    err = capsys.readouterr().err
    assert "cannot be read" in err and "Connection refused" in err and err.count("\n") == 1
    with pytest.raises(StoreStartupError, match="is the server up"):
        prepare_store(load_settings())


def test_gunicorn_refuses_to_start_on_an_unreachable_database_with_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "CHIQA_STORE_URL": unreachable_url(), "CHIQA_VAR_DIR": str(tmp_path),
           "CHIQA_BIND": f"127.0.0.1:{free_port()}"}
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    proc = subprocess.run([gunicorn, "-c", "gunicorn.conf.py", "app:create_app()"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the run store postgresql+psycopg://chiqa:***@")


def test_an_old_sqlite_store_is_migrated_and_its_conversations_go_on(tmp_path):
    path = tmp_path / "runs.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(OLD_RUNS)  # before versions, owners and the turn counter
    for turn in (1, 2, 3):
        conn.execute("INSERT INTO runs (id, created_at, question, result_json, conversation_id, turn)"
                     " VALUES (?, ?, ?, '{}', ?, ?)", (f"{turn:016x}", float(turn), f"q{turn}", CID, turn))
    conn.commit()
    conn.close()
    store = RunStore(path)
    assert store.prepare() == [1, 2] and RunStore(path).prepare() == []  # applied once, by the first process
    assert store.get(f"{1:016x}")["owner"] is None
    assert store.save_turn({"question": "q4"}, CID, max_turns=4)[1] == 4  # numbered after the stored turns
    with pytest.raises(ConversationFull):
        store.save_turn({"question": "q5"}, CID, max_turns=4)  # the cap counts the turns stored before
    with store.engine.connect() as conn:
        assert conn.execute(select(store_version.c.version)).scalar() == LATEST
        indexes = {row[1]: row[2] for row in conn.exec_driver_sql("PRAGMA index_list(runs)")}
    assert indexes.get("runs_conversation_turn") == 1 and "runs_conversation" not in indexes
    raw = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError):  # two runs can never share a turn, whatever writes the file
        raw.execute("INSERT INTO runs (id, created_at, question, result_json, conversation_id, turn)"
                    " VALUES ('ffffffffffffffff', 9, 'q', '{}', ?, 2)", (CID,))
    raw.close()


def test_a_schema_newer_than_the_code_is_refused(tmp_path, monkeypatch):
    store = RunStore(tmp_path / "runs.sqlite3")
    store.save({"question": "q"})
    with store.engine.begin() as conn:
        conn.execute(update(store_version).values(version=LATEST + 1))
    fresh = RunStore(tmp_path / "runs.sqlite3")  # another process, started later
    with pytest.raises(StoreUnavailable, match="newer than this ChiQA"):
        fresh.save({"question": "q"})
    monkeypatch.setenv("CHIQA_STORE_URL", f"sqlite:///{tmp_path / 'runs.sqlite3'}")
    with pytest.raises(StoreStartupError, match="upgrade this one too"):
        prepare_store(load_settings())


def dump(path: Path) -> dict:
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
                for table in ("runs", "conversations")}
    finally:
        conn.close()


def test_store_migrate_copies_a_history_and_a_second_run_changes_nothing(tmp_path, capsys):
    source = RunStore(tmp_path / "old.sqlite3")
    for n in range(3):
        source.save_turn({"question": f"q{n}", "answer": "a"}, CID, owner="alice-hash", share_key=f"key{n}")
    lone = source.save({"question": "lone"})
    source.set_feedback(lone, -1, "wrong")
    target = tmp_path / "new.sqlite3"
    argv = ["store", "migrate", "--from", str(tmp_path / "old.sqlite3"), "--to", f"sqlite:///{target}"]
    assert app.main(argv) == 0
    assert "copied 4 runs" in capsys.readouterr().out
    first = dump(target)
    assert first == dump(tmp_path / "old.sqlite3") and len(first["runs"]) == 4 and first["conversations"][0][1] == 3
    assert app.main(argv) == 0
    out = capsys.readouterr().out
    assert "copied 0 runs" in out and "(4 were already there)" in out
    assert dump(target) == first
    assert app.main(["store", "migrate", "--from", str(tmp_path / "missing.sqlite3"), "--to", f"sqlite:///{target}"]) == 2
    assert "no SQLite run store" in capsys.readouterr().err
