"""Which places' homicides rose or fell most between two periods (compare_homicide_district_trends
without a single place): a ranking by the change in the yearly average."""
from __future__ import annotations

import numpy as np
import pandas as pd

from tools.common import HOMICIDE_CODE_CAVEAT, fmt_num, fmt_pct, make_result, partial_year_caveat
from tools.homicides import WARD_MAP_CAVEAT, district_name, years_label

PLACE_SIZES = {"community_area": 78, "ward": 51, "district": 26}  # codes 1..N; 0 = missing


def _place_label(data, kind: str, number: int) -> str:
    if kind == "community_area":
        return f"{data.geography.area_name(number)} ({number})"
    if kind == "district":
        return f"District {number} {district_name(data, number)}".strip()
    return f"Ward {number}"


def rank_changes(data, arrays, tool_name: str, p1: tuple, p2: tuple, kind: str, top_n: int, sort_order: str):
    """Places ranked by the change in homicides per year from period 1 to period 2."""
    codes = getattr(arrays, kind)
    size = PLACE_SIZES[kind]
    years1, years2 = p1[1] - p1[0] + 1, p2[1] - p2[0] + 1
    n1 = np.bincount(codes[arrays.year_mask(*p1)].astype(np.intp), minlength=size)
    n2 = np.bincount(codes[arrays.year_mask(*p2)].astype(np.intp), minlength=size)
    avg1, avg2 = n1 / years1, n2 / years2
    places = [i for i in range(1, size) if n1[i] or n2[i]]
    # Biggest increase first for desc; ties broken by the place number so the order is stable.
    places.sort(key=lambda i: ((avg1[i] - avg2[i]) if sort_order == "desc" else (avg2[i] - avg1[i]), i))
    label1, label2 = years_label(*p1), years_label(*p2)
    rows = []
    for rank, i in enumerate(places[:top_n], start=1):
        change = avg2[i] - avg1[i]
        rows.append({"rank": rank, kind: int(i), "name": _place_label(data, kind, int(i)),
                     "period1_homicides": int(n1[i]), "period2_homicides": int(n2[i]),
                     "period1_yearly_average": round(float(avg1[i]), 1),
                     "period2_yearly_average": round(float(avg2[i]), 1),
                     "change_in_yearly_average": round(float(change), 1),
                     "change_pct": round(100.0 * change / avg1[i], 1) if avg1[i] else None})
    word = "increase" if sort_order == "desc" else "decrease"
    lines = [f"{kind.replace('_', ' ').capitalize()}s ranked by change in homicides per year, {label1} -> {label2} "
             f"(biggest {word} first, top {len(rows)} of {len(places)}):"]
    for row in rows:
        pct_text = "new" if row["change_pct"] is None else f"{'+' if row['change_pct'] > 0 else ''}" \
                                                          f"{fmt_pct(row['change_pct'])}"
        lines.append(f"{row['rank']}. {row['name']}: {fmt_num(row['period1_yearly_average'])} -> "
                     f"{fmt_num(row['period2_yearly_average'])} per year "
                     f"({'+' if row['change_in_yearly_average'] > 0 else ''}"
                     f"{fmt_num(row['change_in_yearly_average'])}, {pct_text})")
    caveats = [HOMICIDE_CODE_CAVEAT] + partial_year_caveat(data, min(p1[0], p2[0]), max(p1[1], p2[1]))
    if kind == "ward":
        caveats.append(WARD_MAP_CAVEAT)
    caveats.append("Places with few homicides can show large percentage swings by chance; the ranking uses the "
                   "change in homicides per year, not the percentage.")
    summary = (f"Biggest {word} {label1} -> {label2}: {rows[0]['name']} "
               f"{fmt_num(rows[0]['period1_yearly_average'])} -> {fmt_num(rows[0]['period2_yearly_average'])}/yr"
               if rows else f"no homicides in either period ({label1}, {label2})")
    values = {"ranking_of": kind, "period1": {"start": p1[0], "end": p1[1], "label": label1},
              "period2": {"start": p2[0], "end": p2[1], "label": label2}, "rows": rows, "places": len(places)}
    chart = {"type": "bar", "x": "name", "y": "change_in_yearly_average",
             "title": f"Change in homicides per year, {label1} -> {label2}"}
    return make_result(tool_name, values=values, text="\n".join(lines), summary=summary, datasets=["homicides"],
                       data=data, caveats=caveats, table=pd.DataFrame(rows), chart=chart)
