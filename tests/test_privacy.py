"""Who can see what (web/access.py, docs/operations.md): runs and conversations belong to the client that made
them (a bearer key or the chiqa_client cookie), a permalink's share key opens one run on purpose, other Host
headers are refused (DNS rebinding), and permalinks come from server.public_url or the request's own host.

Through Flask's test client with the scripted backend, then the same essentials on a real gunicorn.
"""
import sqlite3

import pytest
import requests

from bench.bench_web import gunicorn_server
from store.run_store import RunStore
from tests.test_api import CALL, assert_error, build_app
from backends.scripted import ScriptedBackend

Q = "How many homicides were there each year?"
ALICE = {"Authorization": "Bearer alice-0123456789-secret-key"}
BOB = {"Authorization": "Bearer bob-0123456789-another-secret"}


@pytest.fixture
def app(tmp_path):
    backend = ScriptedBackend()
    for _ in range(20):
        backend.enqueue(CALL, "NO_TOOL_CALL done", "There were many homicides.")
    return build_app(tmp_path, backend=backend)


def ask(client, headers=None, **body):
    resp = client.post("/api/ask", json={"question": Q, **body}, headers=headers or {})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def test_a_browser_gets_an_httponly_strict_cookie_on_its_first_request(app):
    client = app.test_client()
    resp = client.get("/")
    cookie = resp.headers["Set-Cookie"]
    assert cookie.startswith("chiqa_client=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "Set-Cookie" not in client.get("/api/runs").headers  # kept, not replaced
    # a bearer client never gets one; a cross-site navigation never overwrites the browser's
    assert "Set-Cookie" not in app.test_client().get("/api/runs", headers=ALICE).headers
    assert "Set-Cookie" not in app.test_client().get("/", headers={"Sec-Fetch-Site": "cross-site"}).headers


def test_runs_and_conversations_are_the_owners_only(app):
    alice, bob = app.test_client(), app.test_client()  # two browsers, each with its own cookie
    first = ask(alice)
    run_id, cid = first["run_id"], first["conversation_id"]
    assert alice.get("/api/runs").get_json()["total"] == 1
    assert bob.get("/api/runs").get_json() == {"runs": [], "total": 0, "limit": 10, "offset": 0, "next_offset": None}
    assert alice.get(f"/api/runs/{run_id}").get_json()["owned"] is True
    # another client: not found, in the same words as a run that does not exist
    for path in (f"/api/runs/{run_id}", f"/api/conversations/{cid}"):
        assert bob.get(path).status_code == 404
    assert_error(bob.get(f"/api/runs/{run_id}"), 404, "run_not_found")
    assert bob.get(f"/runs/{run_id}").status_code == 404
    assert_error(bob.post(f"/api/runs/{run_id}/feedback", json={"rating": "up"}), 404, "run_not_found")
    assert_error(bob.post("/api/ask", json={"question": "And in 2021?", "conversation_id": cid}), 404,
                 "conversation_not_found")
    assert alice.post(f"/api/runs/{run_id}/feedback", json={"rating": "up"}).status_code == 200
    assert alice.get(f"/runs/{run_id}").status_code == 200
    assert ask(alice, conversation_id=cid)["turn"] == 2
    assert len(alice.get(f"/api/conversations/{cid}").get_json()["turns"]) == 2


def test_a_bearer_key_is_an_identity_of_its_own(app):
    run_id = ask(app.test_client(), ALICE)["run_id"]
    assert app.test_client().get(f"/api/runs/{run_id}", headers=ALICE).status_code == 200  # any connection
    assert app.test_client().get(f"/api/runs/{run_id}", headers=BOB).status_code == 404
    assert app.test_client().get(f"/api/runs/{run_id}").status_code == 404  # a browser
    # a placeholder key (what OpenAI clients must send) or another scheme is no identity: nobody's runs show
    for auth in ("Bearer not-needed", "Basic YWxpY2U6c2VjcmV0", "Bearer "):
        other = app.test_client()
        assert other.get("/api/runs", headers={"Authorization": auth}).get_json()["total"] == 0
        assert other.get(f"/api/runs/{run_id}", headers={"Authorization": auth}).status_code == 404
    placeholder = app.test_client()
    short = {"Authorization": "Bearer not-needed"}
    mine = ask(placeholder, short)["run_id"]  # the cookie it got is its identity, not the placeholder
    assert placeholder.get(f"/api/runs/{mine}", headers=short).status_code == 200
    assert app.test_client().get(f"/api/runs/{mine}", headers=short).status_code == 404


def test_a_permalink_with_its_share_key_opens_the_run_for_anyone(app):
    alice, bob = app.test_client(), app.test_client()
    first = ask(alice)
    run_id, key, link = first["run_id"], first["share_key"], first["permalink"]
    assert link == f"/runs/{run_id}?key={key}" and len(key) >= 24
    assert bob.get(link).status_code == 200
    shared = bob.get(f"/api/runs/{run_id}?key={key}").get_json()
    assert shared["owned"] is False and "share_key" not in shared and "owner" not in shared
    assert shared["result"]["answer"] == first["answer"]
    wrong = key[:-1] + ("y" if key.endswith("x") else "x")  # a key ending in "x" had made this the same key
    assert bob.get(f"/api/runs/{run_id}?key={wrong}").status_code == 404  # a wrong key opens nothing
    # the key reads one run; it does not make the reader its owner
    assert bob.post(f"/api/runs/{run_id}/feedback?key={key}", json={"rating": "up"}).status_code == 404
    assert bob.get(f"/api/conversations/{first['conversation_id']}").status_code == 404
    assert bob.get("/api/runs").get_json()["total"] == 0
    listed = alice.get("/api/runs").get_json()["runs"][0]
    assert "owner" not in listed and listed["permalink"].endswith(link)


def test_a_legacy_store_gains_the_columns_and_its_runs_are_nobodys(app, tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, created_at REAL NOT NULL, question TEXT NOT NULL,"
                 " latency_ms REAL, stopped_because TEXT, partial INTEGER NOT NULL DEFAULT 0,"
                 " n_tool_calls INTEGER NOT NULL DEFAULT 0, n_duplicate INTEGER NOT NULL DEFAULT 0,"
                 " n_error INTEGER NOT NULL DEFAULT 0, backend TEXT, model TEXT, answer_pattern TEXT,"
                 " result_json TEXT NOT NULL, rating INTEGER, comment TEXT, feedback_at REAL)")
    conn.execute("INSERT INTO runs (id, created_at, question, result_json) VALUES ('00000000000000aa', 1, 'q', '{}')")
    conn.commit()
    conn.close()
    store = RunStore(path)
    legacy = store.get("00000000000000aa")
    assert legacy["owner"] is None and legacy["share_key"] is None
    app.extensions["chiqa_store"] = store
    client = app.test_client()
    assert client.get("/api/runs/00000000000000aa").status_code == 404
    assert client.get("/runs/00000000000000aa").status_code == 404
    assert client.get("/api/runs").get_json()["total"] == 0


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.2", "localhost.evil.example"])
def test_a_foreign_host_header_is_a_400(app, host):
    client = app.test_client()
    for path in ("/api/runs", "/", "/api/health"):
        resp = client.get(path, headers={"Host": host})
        assert_error(resp, 400, "host_not_allowed")
        assert "Set-Cookie" not in resp.headers
    body = client.post("/v1/chat/completions", json={}, headers={"Host": host}).get_json()
    assert body["error"]["code"] == "host_not_allowed"  # /v1: OpenAI's shape


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:8000", "127.0.0.1:5000", "[::1]:8000", "[::1]"])
def test_loopback_hosts_are_served(app, host):
    assert app.test_client().get("/api/runs", headers={"Host": host}).status_code == 200


def test_permalinks_come_from_public_url_else_the_request_host(tmp_path):
    backend = ScriptedBackend()
    for _ in range(4):
        backend.enqueue(CALL, "NO_TOOL_CALL done", "There were many homicides.")
    chat = {"model": "chiqa", "messages": [{"role": "user", "content": Q}]}
    own = build_app(tmp_path / "a", backend=backend).test_client()
    link = own.post("/v1/chat/completions", json=chat, headers={"Host": "127.0.0.1:8123"}).get_json()["chiqa"]["permalink"]
    assert link.startswith("http://127.0.0.1:8123/runs/") and "?key=" in link
    public = build_app(tmp_path / "b", backend=backend,
                       extra={"server.public_url": "https://chiqa.example.org/"}).test_client()
    link = public.post("/v1/chat/completions", json=chat, headers={"Host": "chiqa.example.org"}).get_json()["chiqa"]["permalink"]
    assert link.startswith("https://chiqa.example.org/runs/") and "?key=" in link
    assert public.get("/api/runs", headers={"Host": "evil.example"}).status_code == 400


def test_allowed_hosts_can_be_widened(tmp_path):
    app = build_app(tmp_path, extra={"server.allowed_hosts": "chiqa.lan, 127.0.0.1"})
    assert app.test_client().get("/api/runs", headers={"Host": "chiqa.lan:8000"}).status_code == 200
    assert app.test_client().get("/api/runs", headers={"Host": "localhost"}).status_code == 400
    anyhost = build_app(tmp_path / "any", extra={"server.allowed_hosts": "*"})
    assert anyhost.test_client().get("/api/runs", headers={"Host": "whatever.example"}).status_code == 200


# ---------------------------------------------------------------- the same on gunicorn

def test_privacy_on_gunicorn(tmp_path):
    with gunicorn_server(tmp_path, env={"CHIQA_BACKEND": "rules", "WEB_CONCURRENCY": "2"}) as base:
        resp = requests.get(base + "/api/runs", headers={"Host": "evil.example"}, timeout=10)
        assert resp.status_code == 400 and resp.json()["error"]["code"] == "host_not_allowed"
        browser = requests.Session()
        first = browser.post(base + "/api/ask", json={"question": "How many homicides were there in 2022?"},
                             timeout=60)
        assert first.status_code == 200 and "chiqa_client" in browser.cookies
        body = first.json()
        run_id = body["run_id"]
        assert browser.get(f"{base}/api/runs/{run_id}", timeout=10).status_code == 200
        other = requests.Session()
        for path in (f"/api/runs/{run_id}", f"/runs/{run_id}", f"/api/conversations/{body['conversation_id']}"):
            assert other.get(base + path, timeout=10).status_code == 404, path
        assert other.get(base + "/api/runs", timeout=10).json()["total"] == 0
        assert requests.get(f"{base}/api/runs/{run_id}", headers=ALICE, timeout=10).status_code == 404
        assert other.get(base + body["permalink"], timeout=10).status_code == 200  # shared on purpose
