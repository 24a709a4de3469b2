"""An ESTIMATED median household income, interpolated from the ACS household income bands (the formula is
semantic/estimates.py's; this module shapes the tool's answer).

The extract publishes households by five income bands, not a median. The estimate places the middle
household (the 50th percentile, half the households) in the band that holds it and assumes that band's
households are spread evenly across its dollar range:

    median ~ band lower edge + (households / 2 - households below the band) / households in band * band width

When the middle household falls in the open top band ($125,000 and over) there is no upper edge to
interpolate to, so the estimate is only "above $125,000". The figure is an estimate, never a published
ACS median, and every text, summary and value says so.
"""
from __future__ import annotations

from semantic.estimates import median_from_bands as estimate_median
from tools.census.data import ACS_LABEL, INCOME_BANDS, TOOL_NAME, bundle_cache
from tools.common import fit_text, fmt_money, fmt_pct, make_result, rows_table
from tools.map_hints import area_map

METRIC = "median_income_estimate"
# Dollar edges of the bands, in INCOME_BANDS order; the top band is open.
EDGES = [(0, 25_000), (25_000, 50_000), (50_000, 75_000), (75_000, 125_000), (125_000, None)]
OPEN_FLOOR = EDGES[-1][0]
METHOD = ("Estimate, not a published ACS median: the middle household (half of all households) is placed in the "
          "income band that holds it, assuming that band's households are spread evenly across its dollar range "
          "(linear interpolation); when it falls in the open $125,000+ band only 'above $125,000' can be said.")
CAVEAT = ("The median household income is an ESTIMATE interpolated from five ACS 2019-2023 income bands "
          "(under $25,000 ... $125,000 and over); it is not a published median and can differ from one.")
# Said first, whatever the scope: the data does not publish a median, so the figure is an estimate, not a stand-in.
LEAD = (f"A median household income is not in the data; estimated by interpolating {ACS_LABEL.removesuffix(' 5-year')} "
        "income bands")


# The band counts are the layer's (tools.census.data queries them). The layer's median_household_income measure gives
# one number per area (the open band's floor where the middle household is in it); this answer also names the band
# that holds the middle household and whether it is the open one, which the query's figure does not say, so it calls
# the layer's own formula (semantic/estimates.py) on the queried band counts rather than a second formula.
def median_from_bands(counts: list[float]) -> dict:
    """The estimate from the five band counts: {"median_income_estimate": dollars or None, "median_band": label,
    "median_above": 125000 when it falls in the open band}. The formula is the semantic layer's
    (semantic/estimates.py), which its median_household_income measure uses too."""
    estimate, band, floor = estimate_median([float(c) for c in counts], [low for low, _ in EDGES])
    return {METRIC: None if estimate is None else round(estimate),
            "median_band": None if band is None else INCOME_BANDS[band][2], "median_above": floor}


def median_fields(record: dict) -> dict:
    return median_from_bands([record[f"households_{key}"] for _, key, _ in INCOME_BANDS])


def about(fields: dict) -> str:
    """"about $43,200" (to the nearest $100: the bands do not support more), or "above $125,000"."""
    if fields[METRIC] is not None:
        return "about " + fmt_money(round(fields[METRIC], -2))
    return "above " + fmt_money(fields["median_above"]) if fields["median_above"] else "n/a"


def _rank_key(fields: dict, share_top: float) -> float:
    """Open-band areas rank above every interpolated one, among themselves by their share in the top band."""
    return fields[METRIC] if fields[METRIC] is not None else OPEN_FLOOR + share_top


def _row(number: int, record: dict) -> dict:
    return {"community_area": number, "name": record["name"], "households": record["households"],
            **median_fields(record), "pct_households_125k_plus": record["pct_households_125k_plus"]}


def median_answer(data, numbers: list, top_n, sort_order: str, base: dict, datasets: list, caveats: list):
    """One area, several areas, a ranking of all 77, or the city (the sum of the 77 areas' bands)."""
    cache = bundle_cache(data)
    city = {"name": "Chicago", "households": cache["city"]["households"], **median_fields(cache["city"])}
    caveats.append(CAVEAT)
    values = {"scope": "city", **base, "method": METHOD, "city": city}
    if numbers:
        rows = [_row(n, cache["records"][n]) for n in numbers]
        values["scope"] = "area" if len(rows) == 1 else "comparison"
    elif top_n is not None:
        rows = [_row(n, rec) for n, rec in cache["records"].items()]
        rows.sort(key=lambda r: (_rank_key(r, r["pct_households_125k_plus"]) * (1 if sort_order == "asc" else -1),
                                 r["community_area"]))
        rows = [{"rank": i, **r} for i, r in enumerate(rows[:top_n], start=1)]
        values.update(scope="ranking", sort_order=sort_order)
    else:
        rows = []
    values["rows"] = rows
    if len(rows) == 1:
        values.update(rows[0])
    elif not rows:
        values.update({k: v for k, v in city.items() if k != "name"})
    return make_result(TOOL_NAME, values=values, datasets=datasets, data=data, caveats=caveats,
                       **_texts(rows, city, values["scope"], sort_order))


def _line(row: dict) -> str:
    prefix = f"{row['rank']}. " if "rank" in row else ""
    where = f" ({row['community_area']})" if "community_area" in row else ""
    return (f"{prefix}{row['name']}{where}: {about(row)} (middle household in the {row['median_band']} band; "
            f"{row['households']:,} households, {fmt_pct(row.get('pct_households_125k_plus'))} at $125,000+)"
            if "pct_households_125k_plus" in row else f"{prefix}{row['name']}{where}: {about(row)}")


def _texts(rows: list, city: dict, scope: str, sort_order: str) -> dict:
    head = [f"{LEAD}:"]
    tail = [f"Chicago (sum of the 77 areas' bands): {about(city)}"] * bool(rows) + ["Method: " + METHOD]
    items = [_line(r) for r in rows] if rows else [f"Chicago: {about(city)} ({city['households']:,} households)"]
    text = fit_text(head, items, tail, [f"{r.get('rank', '-')}. {r['name']}: {about(r)}" for r in rows] or None)
    if scope == "city":
        summary = f"{LEAD}, Chicago: {about(city)}"
    elif scope == "area":
        summary = f"{LEAD}, {rows[0]['name']}: {about(rows[0])}"
    elif scope == "ranking":
        word = "lowest" if sort_order == "asc" else "highest"
        summary = f"{LEAD}, {word}: {rows[0]['name']} ({about(rows[0])}); Chicago {about(city)}"
    else:
        summary = f"{LEAD}: " + ", ".join(f"{r['name']} {about(r)}" for r in rows)
    columns = ["rank"] * (scope == "ranking") + ["community_area", "name", "households", METRIC, "median_band",
                                                  "pct_households_125k_plus"]
    table = rows_table(rows, columns) if rows else rows_table([city], ["name", "households", METRIC, "median_band"])
    chart = {"type": "bar", "x": "name", "y": METRIC, "title": "Estimated median household income"} if rows else None
    hint = area_map(METRIC, "dollars", "Estimated median household income", ACS_LABEL,
                    {r["community_area"]: r[METRIC] for r in rows}) if len(rows) > 1 else None
    return dict(text=text, summary=summary, table=table, chart=chart, map=hint)
