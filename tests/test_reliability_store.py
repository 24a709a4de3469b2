"""Reliability: a read-only or corrupt run store never costs an answer, and never deletes earlier runs."""
import json

import pytest

from tests.faults import app_for, read_only
from store.run_store import RunStore, StoreUnavailable

QUESTION = "How many homicides were there in 2022?"


@pytest.fixture
def app(tmp_path):
    return app_for(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


def store_path(app):
    return app.extensions["chiqa_store"].path


def stream_result(client, question=QUESTION):
    resp = client.post("/api/ask/stream", json={"question": question})
    events = [json.loads(line) for line in resp.get_data(as_text=True).splitlines() if line.strip()]
    assert resp.status_code == 200 and all(e["event"] != "error" for e in events), events
    return events[-1]


@pytest.mark.full_data
def test_read_only_store_still_answers_and_says_not_saved(app, client):
    first = client.post("/api/ask", json={"question": QUESTION}).get_json()
    assert first["saved"] is True and first["run_id"]
    path = store_path(app)
    with read_only(path, path.parent):
        resp = client.post("/api/ask", json={"question": QUESTION})
        body = resp.get_json()
        assert resp.status_code == 200 and "717 homicides" in body["answer"]
        assert body["saved"] is False and body["run_id"] is None and "cannot write" in body["save_error"]
        event = stream_result(client)  # the stream too: a result event, not an error event
        assert event["event"] == "result" and event["saved"] is False and event["result"]["answer"]
        store = client.get("/api/health").get_json()["store"]
        assert store["state"] == "degraded" and store["unsaved_runs"] == 2 and "cannot write" in store["error"]
        # Earlier runs stay readable from the read-only file.
        assert client.get(f"/api/runs/{first['run_id']}").get_json()["result"]["answer"] == first["answer"]
        fb = client.post(f"/api/runs/{first['run_id']}/feedback", json={"rating": "up"})
        assert fb.status_code == 503 and fb.get_json()["error"]["code"] == "store_unavailable"
    # Writable again: the next write retries and the store reports ok.
    again = client.post("/api/ask", json={"question": QUESTION}).get_json()
    assert again["saved"] is True and client.get(f"/api/runs/{again['run_id']}").status_code == 200
    health = client.get("/api/health").get_json()
    assert health["store"]["state"] == "ok" and health["status"] == "ok"


def damage_past_the_header(path):
    """Scribble over the schema page but keep the 100-byte header, which carries ChiQA's mark: a damaged ChiQA store."""
    raw = bytearray(path.read_bytes())
    assert raw[68:72] == b"ChQA"
    raw[100:4096] = b"\xa5" * (4096 - 100)
    path.write_bytes(bytes(raw))
    return bytes(raw)


def test_corrupt_store_is_moved_aside_and_recreated(app, client):
    old = client.post("/api/ask", json={"question": QUESTION}).get_json()["run_id"]
    path = store_path(app)
    damaged = damage_past_the_header(path)
    body = client.post("/api/ask", json={"question": QUESTION}).get_json()
    assert body["saved"] is True and body["answer"]
    moved = client.get("/api/health").get_json()["store"]["moved_aside"]
    assert len(moved) == 1 and ".corrupt-" in moved[0]["path"] and "malformed" in moved[0]["reason"]
    aside = [p for p in path.parent.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # kept byte for byte, never deleted
    assert client.get(f"/api/runs/{body['run_id']}").status_code == 200
    missing = client.get(f"/api/runs/{old}").get_json()
    assert missing["error"]["code"] == "run_not_found" and "moved aside" in missing["error"]["message"]


def test_a_file_that_is_not_chiqas_put_in_the_stores_place_is_never_moved(app, client):
    """Replaced while serving by bytes that carry no ChiQA mark: answers go on unsaved, the file stays as it is."""
    client.post("/api/ask", json={"question": QUESTION})
    path = store_path(app)
    garbage = b"this is not a database " * 200
    path.write_bytes(garbage)
    body = client.post("/api/ask", json={"question": QUESTION}).get_json()
    assert body["answer"] and body["saved"] is False and "cannot write" in body["save_error"]
    body = client.post("/api/ask", json={"question": QUESTION}).get_json()  # checked again before the next write
    assert body["answer"] and body["saved"] is False and "is not a SQLite database" in body["save_error"]
    assert client.get("/api/health").get_json()["store"]["moved_aside"] == []
    assert path.read_bytes() == garbage and not [p for p in path.parent.iterdir() if ".corrupt-" in p.name]


@pytest.mark.parametrize("path,method", [("/api/runs", "GET"), ("/api/stats", "GET")])
def test_corrupt_store_found_by_a_read_is_recovered_too(app, client, path, method):
    client.post("/api/ask", json={"question": QUESTION})
    damage_past_the_header(store_path(app))
    resp = client.open(path, method=method)
    assert resp.status_code == 200
    assert len(client.get("/api/health").get_json()["store"]["moved_aside"]) == 1


def test_a_store_whose_folder_cannot_be_created_still_answers(tmp_path):
    blocker = tmp_path / "var"
    blocker.mkdir()
    app = app_for(tmp_path)
    (blocker / "runs.sqlite3").mkdir()  # a folder where the database file should be
    body = app.test_client().post("/api/ask", json={"question": QUESTION}).get_json()
    assert body["saved"] is False and body["answer"] and "runs.sqlite3" in body["save_error"]
    assert app.test_client().get("/api/runs").status_code == 503


def test_store_replaces_lone_surrogates_instead_of_failing(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite3")
    run_id = store.save({"question": "q\ud800", "answer": "bad \udfff text", "tool_calls": [], "trace": []})
    got = store.get(run_id)
    assert got["question"] == "q\ufffd" and got["result"]["answer"] == "bad \ufffd text"
    assert store.set_feedback(run_id, 1, "comment \ud800")
    assert store.get(run_id)["comment"] == "comment \ufffd"


def test_unavailable_store_raises_its_own_error(tmp_path):
    (tmp_path / "blocker").write_text("")  # a file where the store's folder should be made
    store = RunStore(tmp_path / "blocker" / "runs.sqlite3")
    with pytest.raises(StoreUnavailable, match="cannot write"):
        store.save({"question": "q"})
    assert store.health()["state"] == "degraded" and store.health()["unsaved_runs"] == 1


def test_damaged_pages_with_an_intact_header_are_detected_too(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite3")
    ids = [store.save({"question": f"q{i}", "answer": "a" * 3000, "tool_calls": [], "trace": []}) for i in range(100)]
    raw = bytearray((tmp_path / "runs.sqlite3").read_bytes())
    for offset in range(4096 * 3, len(raw), 4096 * 5):  # scribble over pages, keep the file header
        raw[offset + 8:offset + 200] = bytes(range(192))
    (tmp_path / "runs.sqlite3").write_bytes(bytes(raw))
    fresh = RunStore(tmp_path / "runs.sqlite3")  # another worker, or the next start
    assert fresh.recent(10) == ([], 0)
    moved = fresh.health()["moved_aside"]
    assert len(moved) == 1 and "malformed" in moved[0]["reason"]
    assert (tmp_path / moved[0]["path"].rsplit("/", 1)[1]).read_bytes() == bytes(raw)
    assert fresh.get(fresh.save({"question": "after"}))["question"] == "after" and fresh.get(ids[0]) is None
