"""What the run history derives from a result (answer pattern, latency, backend) and its statistics.

Answer pattern: the ordered sequence of tool names the run called, joined with " > "
(e.g. "query_homicides_advanced > compare_areas"), or "(no tools)" when the model answered
without data. Repeated calls stay in the sequence, so the pattern shows retry behaviour too.
Feedback is grouped by this pattern in /api/stats.
"""
from __future__ import annotations

import math
import sqlite3

NO_TOOLS = "(no tools)"


def tool_call_records(result: dict) -> list[dict]:
    """The run's tool calls as [{"name", "status"}], from result["tool_calls"] or the trace."""
    calls = result.get("tool_calls")
    records = []
    if isinstance(calls, list):
        for call in calls:
            if isinstance(call, dict):
                records.append({"name": str(call.get("name") or call.get("tool") or "?"),
                                "status": _status_of(call)})
        return records
    for step in result.get("trace") or []:
        if isinstance(step, dict) and step.get("type") == "tool_call":
            records.append({"name": str(step.get("name") or (step.get("result") or {}).get("tool") or "?"),
                            "status": _status_of(step)})
    return records


def _status_of(call: dict) -> str:
    status = call.get("status")
    if status:
        return str(status)
    inner = call.get("result")
    if isinstance(inner, dict) and inner.get("ok") is False:
        return "error"
    return "ok"


def answer_pattern(result: dict) -> str:
    names = [c["name"] for c in tool_call_records(result)]
    return " > ".join(names) if names else NO_TOOLS


def latency_ms(result: dict) -> float | None:
    timings = result.get("timings") or {}
    for key in ("total_ms", "total", "wall_ms", "elapsed_ms"):
        value = timings.get(key) if isinstance(timings, dict) else None
        if isinstance(value, (int, float)):
            return float(value)
    return None


def backend_name(result: dict) -> str | None:
    backend = result.get("backend")
    if isinstance(backend, dict):
        return backend.get("backend") or backend.get("name")
    return backend


def _percentile(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    # nearest-rank percentile
    rank = max(1, math.ceil(q / 100.0 * len(sorted_values)))
    return round(sorted_values[min(rank, len(sorted_values)) - 1], 1)


def stats(conn: sqlite3.Connection) -> dict:
    """/api/stats over the runs table."""
    n = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    per_q = conn.execute("SELECT n_tool_calls, COUNT(*) FROM runs GROUP BY n_tool_calls"
                         " ORDER BY n_tool_calls").fetchall()
    stops = conn.execute("SELECT COALESCE(stopped_because, 'unknown'), COUNT(*) FROM runs"
                         " GROUP BY 1 ORDER BY 2 DESC").fetchall()
    totals = conn.execute("SELECT COALESCE(SUM(n_tool_calls),0), COALESCE(SUM(n_duplicate),0),"
                          " COALESCE(SUM(n_error),0) FROM runs").fetchone()
    patterns = conn.execute(
        "SELECT answer_pattern, COUNT(*), SUM(rating = 1), SUM(rating = -1) FROM runs"
        " GROUP BY answer_pattern ORDER BY COUNT(*) DESC, answer_pattern").fetchall()
    rated = conn.execute("SELECT COUNT(*), COALESCE(SUM(rating = 1),0) FROM runs"
                         " WHERE rating IS NOT NULL").fetchone()
    latencies = [r[0] for r in conn.execute(
        "SELECT latency_ms FROM runs WHERE latency_ms IS NOT NULL ORDER BY latency_ms").fetchall()]
    calls, dups, errs = totals
    return {
        "questions": n,
        "tool_calls_per_question": {str(k): v for k, v in per_q},
        "stop_reasons": {str(k): v for k, v in stops},
        "tool_calls": calls,
        "duplicate_rate": round(dups / calls, 4) if calls else 0.0,
        "error_rate": round(errs / calls, 4) if calls else 0.0,
        "feedback": {
            "rated": rated[0],
            "share_up": round(rated[1] / rated[0], 4) if rated[0] else None,
            "by_answer_pattern": [
                {"pattern": p, "count": c, "up": up or 0, "down": down or 0,
                 "rated": (up or 0) + (down or 0),
                 "share_up": round((up or 0) / ((up or 0) + (down or 0)), 4) if (up or down) else None}
                for p, c, up, down in patterns
            ],
        },
        "latency_ms": {"p50": _percentile(latencies, 50), "p95": _percentile(latencies, 95),
                       "count": len(latencies)},
    }
