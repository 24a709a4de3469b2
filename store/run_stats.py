"""What the run history derives from a result (answer pattern, latency, backend) and its statistics.

Answer pattern: the ordered sequence of tool names the run called, joined with " > "
(e.g. "query_homicides_advanced > compare_areas"), or "(no tools)" when the model answered
without data. Repeated calls stay in the sequence, so the pattern shows retry behaviour too.
Feedback is grouped by this pattern in /api/stats.
"""
from __future__ import annotations

import math

from sqlalchemy import case, func, select

from store.tables import runs

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


def _count_of(condition):
    """How many rows meet ``condition`` (SUM of a boolean is not portable: PostgreSQL refuses it)."""
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _pattern_row(pattern: str, count: int, up: int, down: int) -> dict:
    return {"pattern": pattern, "count": count, "up": up, "down": down, "rated": up + down,
            "share_up": round(up / (up + down), 4) if up + down else None}


def stats(conn) -> dict:
    """/api/stats over the runs table (any database: ``conn`` is a SQLAlchemy connection)."""
    n = conn.execute(select(func.count()).select_from(runs)).scalar()
    per_q = conn.execute(select(runs.c.n_tool_calls, func.count()).group_by(runs.c.n_tool_calls)
                         .order_by(runs.c.n_tool_calls)).all()
    # Grouped by the column itself: a COALESCE with a bound 'unknown' in both SELECT and GROUP BY is two different
    # parameters to PostgreSQL, which then refuses the query.
    stops: dict[str, int] = {}
    for reason, count in conn.execute(select(runs.c.stopped_because, func.count()).group_by(runs.c.stopped_because)):
        stops[reason or "unknown"] = stops.get(reason or "unknown", 0) + int(count)
    totals = conn.execute(select(*(func.coalesce(func.sum(c), 0) for c in
                                   (runs.c.n_tool_calls, runs.c.n_duplicate, runs.c.n_error)))).one()
    patterns = conn.execute(
        select(runs.c.answer_pattern, func.count(), _count_of(runs.c.rating == 1), _count_of(runs.c.rating == -1))
        .group_by(runs.c.answer_pattern).order_by(func.count().desc(), runs.c.answer_pattern)).all()
    rated = conn.execute(select(func.count(), _count_of(runs.c.rating == 1))
                         .where(runs.c.rating.is_not(None))).one()
    latencies = list(conn.execute(select(runs.c.latency_ms).where(runs.c.latency_ms.is_not(None))
                                  .order_by(runs.c.latency_ms)).scalars())
    calls, dups, errs = (int(v) for v in totals)  # PostgreSQL's sums are Decimals
    rated_n, rated_up = (int(v) for v in rated)
    return {
        "questions": n,
        "tool_calls_per_question": {str(k): int(v) for k, v in per_q},
        "stop_reasons": dict(sorted(stops.items(), key=lambda item: -item[1])),
        "tool_calls": calls,
        "duplicate_rate": round(dups / calls, 4) if calls else 0.0,
        "error_rate": round(errs / calls, 4) if calls else 0.0,
        "feedback": {
            "rated": rated_n,
            "share_up": round(rated_up / rated_n, 4) if rated_n else None,
            "by_answer_pattern": [_pattern_row(p, int(c), int(up), int(down)) for p, c, up, down in patterns],
        },
        "latency_ms": {"p50": _percentile(latencies, 50), "p95": _percentile(latencies, 95),
                       "count": len(latencies)},
    }
