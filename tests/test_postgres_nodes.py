"""Several web nodes, one history: gunicorn nodes on different ports over one PostgreSQL database (the session's
``postgres`` server, tests/conftest.py), answering with the rule planner (no model).

A conversation begun on node A continues on node B; A's permalink opens on B; /api/stats on either counts both;
follow-ups racing on both nodes never pass the turn cap; the database stopped mid-run keeps the answer (saved:
false, health degraded) and writes work again once it is back.
"""
import contextlib
import itertools

import psycopg
import pytest
import requests

from bench.bench_web import gunicorn_server
from tests.test_turn_cap import AUTH, CAP, check_outcomes, race

pytestmark = pytest.mark.postgres

FIRST = "How many homicides were there in 2022?"
RULES = {"CHIQA_BACKEND": "rules", "WEB_CONCURRENCY": "2"}
BOB = {"Authorization": "Bearer another-client-of-the-postgres-tier-0123"}


@contextlib.contextmanager
def nodes(tmp_path, url: str, count: int = 2, env: dict | None = None):
    """``count`` gunicorn nodes, each with its own var folder and port, all storing into ``url``."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(gunicorn_server(tmp_path / f"node{n}", env={**RULES, **(env or {})},
                                                   overrides={"store.url": url,
                                                              "orchestrator.max_conversation_turns": CAP}))
               for n in range(count)]


def ask(base: str, question: str, headers=AUTH, **body) -> dict:
    resp = requests.post(base + "/api/ask", json={"question": question, **body}, headers=headers, timeout=120)
    assert resp.status_code == 200, resp.text
    return resp.json()


def test_a_conversation_and_a_permalink_from_node_a_go_on_on_node_b(tmp_path, pg_url):
    with nodes(tmp_path, pg_url) as (a, b):
        first = ask(a, FIRST)
        cid = first["conversation_id"]
        follow = ask(b, "And in 2021?", conversation_id=cid)
        assert first["saved"] and follow["saved"] and (follow["conversation_id"], follow["turn"]) == (cid, 2)
        turns = requests.get(f"{a}/api/conversations/{cid}", headers=AUTH, timeout=10).json()["turns"]
        assert [t["question"] for t in turns] == [FIRST, "And in 2021?"]
        assert requests.get(b + first["permalink"], timeout=10).status_code == 200  # anyone holding the link
        shown = requests.get(f"{b}/api/runs/{first['run_id']}", headers=AUTH, timeout=10).json()
        assert shown["owned"] and shown["result"]["answer"] == first["answer"]
        assert requests.get(f"{b}/api/runs/{first['run_id']}", headers=BOB, timeout=10).status_code == 404
        assert requests.get(f"{b}/api/runs", headers=AUTH, timeout=10).json()["total"] == 2
        assert all(requests.get(f"{n}/api/stats", timeout=10).json()["questions"] == 2 for n in (a, b))


def test_follow_ups_racing_on_two_nodes_never_pass_the_cap(tmp_path, pg_url):
    with nodes(tmp_path, pg_url) as bases:
        cid = ask(bases[0], FIRST)["conversation_id"]
        turn_of = itertools.count()

        def post():
            base = bases[next(turn_of) % 2]
            resp = requests.post(base + "/api/ask", json={"question": "And in 2021?", "conversation_id": cid},
                                 headers=AUTH, timeout=120)
            return resp.status_code, resp.json()

        outcomes = race(post)
    with psycopg.connect(pg_url) as conn:
        turns = [row[0] for row in conn.execute("SELECT turn FROM runs WHERE conversation_id = %s ORDER BY turn",
                                                (cid,))]
    check_outcomes(outcomes, turns)


def test_the_database_stopped_mid_run_keeps_the_answer(tmp_path, postgres, pg_url):
    # One worker: health is that worker's view (a failed write marks it degraded until a write succeeds).
    with nodes(tmp_path, pg_url, count=1, env={"WEB_CONCURRENCY": "1"}) as (base,):
        assert ask(base, FIRST)["saved"]
        postgres.stop()
        try:
            down = ask(base, FIRST)
            assert down["saved"] is False and down["answer"] and down["run_id"] is None
            assert "cannot write" in down["save_error"] and "Connection refused" in down["save_error"]
            health = requests.get(base + "/api/health", timeout=30).json()
            assert health["status"] == "degraded" and health["store"]["state"] == "degraded"
            assert health["store"]["unsaved_runs"] == 1 and health["store"]["database"] == "postgresql"
        finally:
            postgres.start()
        back = ask(base, FIRST)
        assert back["saved"] is True
        assert requests.get(f"{base}/api/runs/{back['run_id']}", headers=AUTH, timeout=10).status_code == 200
        assert requests.get(base + "/api/health", timeout=30).json()["store"]["state"] == "ok"
