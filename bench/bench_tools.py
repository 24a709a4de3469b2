"""Tool latency benchmark: every registered tool at real size, the homicide tools at 100x size, warm load time.

Run: python -m bench.bench_tools   (goals are printed next to the measured figures)
"""
from __future__ import annotations

import statistics
import time

import pandas as pd

from tools.catalog import build_registry
from tools.data.loader import DataBundle, load_data

GOAL_REAL_MS = 5.0
GOAL_BIG_MS = 100.0
GOAL_WARM_LOAD_S = 1.0
REPEATS = 50
BIG_FACTOR = 100

# Representative calls for the homicide tools (other tools get calls synthesised from their schemas).
HOMICIDE_CALLS = {
    "query_homicides_advanced": [
        {"year": 2022},
        {"start_year": 2015, "end_year": 2022, "group_by": "year"},
        {"year": 2022, "group_by": "community_area", "top_n": 10},
        {"district": 11, "start_year": 2010, "group_by": "month"},
        {"location_type": "STREET", "arrest_status": "arrested", "domestic": False, "group_by": "ward"},
    ],
    "get_iucr_info": [{}, {"code": "0110"}, {"code": "0142"}],
    "analyze_homicide_rates_by_community_area": [
        {"year": 2022},
        {"start_year": 2010, "end_year": 2020, "top_n": 20},
        {"year": 2021, "community_area": "Austin", "compare_areas": ["Englewood", "Lincoln Park"]},
    ],
    "analyze_homicide_socioeconomic_context": [
        {}, {"indicator": "per_capita_income", "start_year": 2015, "end_year": 2022},
    ],
    "compare_homicide_district_trends": [
        {"district": 11, "period1_start": 2015, "period1_end": 2017, "period2_start": 2020, "period2_end": 2022},
        {"community_area": "Austin", "period1_start": 2005, "period2_start": 2021},
        {"ward": 24, "period1_start": 2010, "period1_end": 2012, "period2_start": 2019, "period2_end": 2021},
    ],
}
HOMICIDE_TOOLS = list(HOMICIDE_CALLS)


def _example_value(name: str, spec: dict):
    """A plausible value for one schema property (used for tools this file has no calls for)."""
    if spec.get("enum"):
        return spec["enum"][0]
    kinds = spec.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "year" in name and "integer" in kinds:
        return max(spec.get("minimum", 2020), min(spec.get("maximum", 2020), 2020))
    if "area" in name:
        return ["Austin"] if "array" in kinds else "Austin"
    if "zip" in name:
        return "60614"
    if "integer" in kinds or "number" in kinds:
        return spec.get("minimum", 1)
    if "boolean" in kinds:
        return True
    if "array" in kinds:
        return [_example_value(name, spec.get("items", {}))]
    return "Austin"


def synthesised_calls(tool) -> list[dict]:
    props = tool.parameters.get("properties", {})
    required = {name: _example_value(name, props[name]) for name in tool.parameters.get("required", [])}
    calls = [required]
    for name in ("community_area", "year"):
        if name in props and name not in required:
            calls.append({**required, name: _example_value(name, props[name])})
    return calls


def time_calls(registry, name: str, calls: list[dict], repeats: int = REPEATS) -> dict:
    samples, failures = [], 0
    for args in calls:  # warm-up: builds any per-bundle caches
        if not registry.run(name, args).ok:
            failures += 1
    for _ in range(repeats):
        for args in calls:
            started = time.perf_counter()
            registry.run(name, args)
            samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {"median": statistics.median(samples), "p95": samples[min(len(samples) - 1, int(0.95 * len(samples)))],
            "calls": len(calls), "failed": failures}


def _line(name: str, stats: dict, goal: float) -> str:
    flag = "ok" if stats["median"] < goal else "SLOW"
    fail = f"  ({stats['failed']} of {stats['calls']} calls returned errors)" if stats["failed"] else ""
    return (f"  {name:<45} median {stats['median']:8.2f} ms   p95 {stats['p95']:8.2f} ms   "
            f"goal median < {goal:g} ms  [{flag}]{fail}")


def replicated_bundle(data, factor: int = BIG_FACTOR):
    """A copy of the bundle whose homicide table is the real one repeated ``factor`` times."""
    big = pd.concat([data.homicides] * factor, ignore_index=True)
    coverage = {**data.coverage, "homicides": {**data.coverage["homicides"], "rows": int(len(big))}}
    return DataBundle(data.data_dir, tables={**data.tables, "homicides": big}, coverage=coverage)


def main() -> int:
    data = load_data()
    registry = build_registry(data)
    print(f"Tools registered: {len(registry.names())} ({', '.join(registry.names())})")
    print(f"Real size ({len(data.homicides):,} homicide rows), {REPEATS} repeats of each call:")
    for name in registry.names():
        calls = HOMICIDE_CALLS.get(name) or synthesised_calls(registry.get(name))
        print(_line(name, time_calls(registry, name, calls), GOAL_REAL_MS), flush=True)

    big = replicated_bundle(data)
    big_registry = build_registry(big)
    print(f"\nHomicide table replicated {BIG_FACTOR}x ({len(big.homicides):,} rows), 10 repeats of each call:")
    for name in HOMICIDE_TOOLS:
        if big_registry.get(name) is None:
            continue
        print(_line(name, time_calls(big_registry, name, HOMICIDE_CALLS[name], repeats=10), GOAL_BIG_MS),
              flush=True)

    load_data()  # make sure the cache is written
    started = time.perf_counter()
    warm = load_data()
    seconds = time.perf_counter() - started
    flag = "ok" if seconds < GOAL_WARM_LOAD_S else "SLOW"
    print(f"\nWarm load (parquet cache, from_cache={warm.from_cache}): {seconds:.3f} s   "
          f"goal < {GOAL_WARM_LOAD_S:g} s  [{flag}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
