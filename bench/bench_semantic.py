"""Semantic-layer benchmark: composed queries at real size and with the homicide table replicated 100x.

Run: python -m bench.bench_semantic   (median and p95 per query kind; goals printed beside them)
"""
from __future__ import annotations

import statistics
import time

from bench.bench_tools import replicated_bundle
from semantic.executor import run_query
from tools.data.loader import load_data

GOAL_REAL_MS = 20.0
GOAL_BIG_MS = 200.0
REPEATS = 30


def _h(year=None, name=None):
    spec = {"measure": "homicides", **({"period": {"year": year}} if year else {})}
    return {**spec, "as": name} if name else spec


# One query per composition kind the semantic-layer issue names.
QUERIES = {
    "ranking -> set -> sum": {"measures": ["hardship_index", _h(2021)], "group_by": ["community_area"],
                              "order_by": ["hardship_index"], "limit": 10, "totals": True},
    "threshold -> share": {"measures": ["pct_households_below_poverty", _h(2021)], "group_by": ["community_area"],
                           "having": [{"field": "pct_households_below_poverty", "op": ">=", "value": 30}],
                           "totals": True},
    "change -> rank -> measure": {"measures": [_h(2021, "a"), _h(2022, "b"), "per_capita_income"],
                                  "group_by": ["community_area"], "derived": [{"name": "chg", "op": "change",
                                                                              "of": ["a", "b"]}],
                                  "order_by": [{"field": "chg", "direction": "asc"}], "limit": 1},
    "correlation": {"measures": [{"measure": "homicide_rate", "period": {"start": "2019", "end": "2022"}},
                                 "per_capita_income"], "group_by": ["community_area"],
                    "correlate": ["homicide_rate", "per_capita_income"]},
    "headline (rate, income, home value)": {
        "measures": [{"measure": "homicide_rate", "period": {"year": 2021}}, "per_capita_income",
                     {"measure": "home_value", "period": {"month": "2024-09"}}],
        "group_by": ["community_area"], "order_by": ["homicide_rate"], "limit": 1},
    "members_from (nested)": {"measures": ["per_capita_income"], "group_by": ["community_area"],
                              "members_from": {"measures": [_h(2021)], "group_by": ["community_area"],
                                               "order_by": ["homicides"], "limit": 3}, "totals": True},
    "two months": {"measures": [{"measure": "homicides", "period": {"month": "2020-07"}, "as": "a"},
                                {"measure": "homicides", "period": {"month": "2021-07"}, "as": "b"}],
                   "derived": [{"name": "chg", "op": "change", "of": ["a", "b"]}]},
    "ZIP grain": {"measures": ["home_value"], "group_by": ["zip"], "period": {"month": "2024-09"},
                  "order_by": ["home_value"], "limit": 5},
}


def time_query(data, query: dict, repeats: int) -> dict:
    run_query(data, query)  # warm-up: the per-bundle frames are built once
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        run_query(data, query)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {"median": statistics.median(samples), "p95": samples[min(len(samples) - 1, int(0.95 * len(samples)))]}


def report(data, repeats: int, goal: float) -> dict:
    medians = {}
    for name, query in QUERIES.items():
        stats = time_query(data, query, repeats)
        medians[name] = stats["median"]
        flag = "ok" if stats["median"] < goal else "SLOW"
        print(f"  {name:<38} median {stats['median']:8.2f} ms   p95 {stats['p95']:8.2f} ms   "
              f"goal median < {goal:g} ms  [{flag}]", flush=True)
    return medians


def main() -> int:
    data = load_data()
    print(f"Real size ({len(data.homicides):,} homicide rows), {REPEATS} runs of each composed query:")
    real = report(data, REPEATS, GOAL_REAL_MS)
    big = replicated_bundle(data)
    print(f"\nHomicide table replicated 100x ({len(big.homicides):,} rows), 10 runs of each:")
    large = report(big, 10, GOAL_BIG_MS)
    print(f"\nAll composed queries: median of medians {statistics.median(real.values()):.2f} ms real size, "
          f"{statistics.median(large.values()):.2f} ms at 100x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
