"""The shapes of a ``query_property_values`` answer: one area, a comparison, a ranking, the city, a ZIP.

Each builder takes the per-bundle sources (``c``: ``c.home``, ``c.index``, ``c.area_names``,
``c.memo``) and the resolved periods, appends its caveats to the shared list, and returns the
result's values, text, summary, table and chart; the tool wraps them with sources and caveats.
``period`` is None when home values were not asked for, ``end``/``base`` when the index was not.
"""
from __future__ import annotations

import numpy as np

from tools.common import fit_text, fmt_money, fmt_num, fmt_pct, rows_table
from tools.errors import ToolArgumentError
from tools.property.home_values import (
    CROSSWALK_CAVEAT,
    MIN_RANK_COVERAGE,
    area_home_value,
    area_value_map,
    coverage_text,
    home_phrase,
    home_series,
    rank_scores,
    whole,
    zip_spread,
    zip_value_map,
)
from tools.property.price_index import (
    CITY_SERIES,
    area_price_trend,
    chicago_submarket_changes,
    index_series,
    SUMMARY_FIGURES,
    index_stats,
    is_suburban,
    published_figures,
    short_name,
    submarket_areas,
)

MEMO_LIMIT = 20000  # rankings over many periods would otherwise grow the per-bundle memo without bound


def signed_pct(value) -> str:
    return "n/a" if value is None else ("+" if value > 0 else "") + fmt_pct(value)


# ------------------------------------------------------------------ shared pieces

def _memo(c, key: tuple, compute):
    """Per-bundle memo of per-area pieces used by comparisons and rankings (callers copy scalars out)."""
    if key not in c.memo:
        if len(c.memo) > MEMO_LIMIT:
            c.memo.clear()
        c.memo[key] = compute()
    return c.memo[key]


def _trend(c, number, end, base):
    return _memo(c, ("trend", number, end, base), lambda: area_price_trend(c.index, number, end, base))


def _city_context(c, metric: str, period, end: str | None, base: str | None) -> dict:
    city = {}
    if metric in ("home_value", "all") and period is not None:
        city.update(zip_spread(period))
    if metric in ("price_trend", "all") and end is not None:
        city.update(index_stats(c.index, CITY_SERIES, end, base))
    return city


def _area_row(c, number, period, since, end, base) -> tuple[dict, list[str]]:
    row = {"community_area": number, "name": c.area_names[number]}
    notes = []
    if period is not None:
        home = _memo(c, ("home", number, period.label, since.label if since else None),
                     lambda: area_home_value(c.home, number, period, since))
        row.update({k: home[k] for k in ("home_value", "home_value_exact", "zip_coverage")})
        if since is not None:
            row.update({k: home[k] for k in ("home_value_since", "home_value_change_pct")})
    if end is not None:
        trend, notes = _trend(c, number, end, base)
        notes = list(notes)
        row.update({k: trend[k] for k in ("price_index", "price_index_change_pct", "price_index_yoy_pct",
                                          "submarket_code", "submarket_name", "price_index_fallback")})
    return row, notes


def _home_summary(c, value, period) -> str:
    """A summary's home value: the month's own wording when a month was asked for, else value and period."""
    if period.asked_month:
        return home_phrase(fmt_money(value), period, c.home.latest_month)
    return f"home value {fmt_money(value)} ({period.label})"


# ------------------------------------------------------------------ text

def _home_text(values, period) -> list[str]:
    zips = ", ".join(f"{z['zip']} {fmt_money(z['home_value'])} (w {z['weight']:.2f})" for z in values["zips"])
    lines = [f"Home value (Zillow ZHVI, {period.label}): {fmt_money(values['home_value'])}"
             + (f" = weighted mean of ZIPs {zips}" if zips else "")]
    if values["zips_without_values"]:
        lines.append(f"ZIPs without Zillow values: {', '.join(values['zips_without_values'])} "
                     f"(valued ZIPs cover {values['zip_coverage']:.0%} of the area's land)")
    if "home_value_change_pct" in values:
        lines.append(f"Change since {values['home_value_since_period']} ({fmt_money(values['home_value_since'])}): "
                     f"{signed_pct(values['home_value_change_pct'])}")
    return lines


def _index_text(values) -> str:
    where = values["submarket_name"]
    return (f"Price index (DePaul IHS, {where}, 2000Q1=100): {fmt_num(values['price_index'])} in "
            f"{values['price_index_quarter']}; {signed_pct(values['price_index_change_pct'])} since "
            f"{values['price_index_since_quarter']}; year over year {signed_pct(values['price_index_yoy_pct'])}")


def _city_text(city) -> str:
    parts = []
    if "price_index" in city:
        parts.append(f"index {fmt_num(city['price_index'])} ({signed_pct(city['price_index_change_pct'])} since "
                     f"{city['price_index_since_quarter']}, yoy {signed_pct(city['price_index_yoy_pct'])})")
    if "home_value_zip_median" in city:
        parts.append(f"median Chicago ZIP home value {fmt_money(city['home_value_zip_median'])} "
                     f"({city['home_value_period']})")
    return "Chicago: " + "; ".join(parts)


def _row_text(row, since, base) -> str:
    parts = []
    if "home_value" in row:
        parts.append(f"home value {fmt_money(row['home_value'])}")
        if since is not None:
            parts.append(f"{signed_pct(row['home_value_change_pct'])} since {since.year}")
    if "price_index" in row:
        parts.append(f"index {fmt_num(row['price_index'])} ({signed_pct(row['price_index_change_pct'])} since {base})")
    prefix = f"{row['rank']}. " if "rank" in row else ""
    return f"{prefix}{row['name']} ({row['community_area']}): " + ", ".join(parts)


def _key_text(row, key) -> str:
    value = fmt_money(row.get(key)) if key == "home_value" else signed_pct(row.get(key))
    prefix = f"{row['rank']}. " if "rank" in row else ""
    return f"{prefix}{row['name']} ({row['community_area']}): {value}"


# ------------------------------------------------------------------ answers

def area_answer(c, number, metric, period, since, end, base, caveats, method) -> dict:
    name = c.area_names[number]
    values = {"scope": "area", "community_area": number, "name": name, "metric": metric}
    lines = [f"{name} (community area {number}):"]
    if period is not None:
        home = area_home_value(c.home, number, period, since)
        values.update(home)
        if home["home_value"] is None:
            caveats.append(f"No Zillow values exist for {name}'s ZIPs ({', '.join(home['zips_without_values'])}).")
            lines.append(f"Home value: not available (no Zillow values for ZIPs {', '.join(home['zips_without_values'])}).")
        else:
            lines += _home_text(home, period)
            if home["zip_coverage"] < 0.5:
                caveats.append(f"Only {home['zip_coverage']:.0%} of {name}'s land lies in ZIPs with Zillow values; "
                               "its figure mostly reflects neighbouring areas.")
    if end is not None:
        trend, notes = area_price_trend(c.index, number, end, base)
        values.update(trend)
        caveats.extend(notes)
        lines.append(_index_text(trend))
        if len(trend["submarkets"]) > 1:
            lines.append("Submarkets: " + "; ".join(
                f"{s['name']} {s['share_of_community_area']:.0%}" + (f" (index {fmt_num(s['price_index'])})"
                                                                     if "price_index" in s else " (not indexed)")
                for s in trend["submarkets"]))
    values["city"] = _city_context(c, metric, period, end, base)
    values["method"] = method
    lines.append(_city_text(values["city"]))
    summary_parts = []
    # no ZIP of the area has a Zillow value: a gap said in words, first (it read "the typical home value n/a in ...")
    gap = f"{name} has no Zillow home value for {period.label}: it is not in the data (none of its ZIPs has one)." \
        if period is not None and values.get("home_value") is None else ""
    if period is not None and not gap:
        summary_parts.append(_home_summary(c, values.get("home_value"), period)
                             + (f", {signed_pct(values.get('home_value_change_pct'))} since the {since.year} average of "
                                f"{fmt_money(values.get('home_value_since'))}" if since else ""))
    if end is not None:
        # an area outside every indexed submarket (the Loop): said first, so the city's figure is never its own
        apart = "the IHS price index does not cover its submarket, so this is the Chicago-wide series: " \
            if values.get("price_index_fallback") else ""
        # the submarket named, and the index's change over the year: "the year-over-year change in its submarket"
        where = "" if apart else f" (IHS submarket {values['submarket_name']})"
        summary_parts.append(f"{apart}price index{where} {fmt_num(values['price_index'])} ({end}, "
                             f"{signed_pct(values['price_index_change_pct'])} since {base}, "
                             f"{signed_pct(values['price_index_yoy_pct'])} year over year)")
    summary = " ".join(p for p in (gap, f"{name}: " + "; ".join(summary_parts) if summary_parts else "") if p)
    if period is not None:
        table = home_series(c.home, number - 1, period, since.year if since else None)
        chart = {"type": "line", "x": "period", "y": "home_value", "title": f"{name}: Zillow home value"}
    else:
        table = index_series(c.index, values["submarket_code"], end, base)
        chart = {"type": "line", "x": "quarter", "y": "price_index",
                 "title": f"{name}: IHS price index ({values['submarket_name']})"}
    return dict(values=values, text="\n".join(lines), summary=summary, table=table, chart=chart,
                map=area_value_map(c.home, period, since))


def _and_names(names: list) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def comparison_answer(c, numbers, metric, period, since, end, base, caveats, method) -> dict:
    rows = []
    for number in numbers:
        row, notes = _area_row(c, number, period, since, end, base)
        rows.append(row)
        caveats.extend(notes)
    key = "home_value" if period is not None else "price_index_change_pct"
    label_when = period.label if period is not None else f"{base}-{end}"
    city = _city_context(c, metric, period, end, base)
    text = fit_text([f"Comparison of {len(rows)} community areas ({label_when}):"],
                    [_row_text(r, since, base) for r in rows], [_city_text(city)],
                    [_key_text(r, key) for r in rows])
    ranked = sorted((r for r in rows if r.get(key) is not None), key=lambda r: -r[key])
    fmt = fmt_money if key == "home_value" else signed_pct
    summary = (("Home value" if key == "home_value" else f"Price change since {base}") + ": "
               + ", ".join(f"{r['name']} {fmt(r[key])}" for r in ranked))
    without = [r["name"] for r in rows if r.get(key) is None]
    if without:  # an area left out of the ranking is said, not dropped: "East Side has no Zillow home value ..."
        what = f"Zillow home value for {label_when}" if key == "home_value" else "price index change"
        summary += f". {_and_names(without)} {'has' if len(without) == 1 else 'have'} no {what}: not in the data."
    values = {"scope": "comparison", "metric": metric, "compare_by": key, "rows": rows, "city": city,
              "highest": ranked[0]["name"] if ranked else None, "method": method,
              "home_value_period": period.label if period is not None else None,
              "price_index_quarter": end}
    table = rows_table(rows, list(rows[0]))
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{key.replace('_', ' ')} ({label_when})"}
    return dict(values=values, text=text, summary=summary, table=table, chart=chart,
                map=area_value_map(c.home, period, since))


def ranking_answer(c, metric, period, since, end, base, top_n, sort_order, caveats, method) -> dict:
    """Areas ranked by home value (or its change); by price change alone, submarkets are ranked instead."""
    direction = "highest" if sort_order == "desc" else "lowest"
    if period is None:
        return _submarket_ranking(c, end, base, top_n, sort_order, caveats, method)
    key = "home_value_change_pct" if since is not None else "home_value"
    score, eligible = rank_scores(c.home, period, since)
    left_out = [c.area_names[i + 1] for i in np.flatnonzero(~eligible)]
    order = sorted(np.flatnonzero(eligible), key=lambda i: (score[i] if sort_order == "asc" else -score[i], i))
    rows = []
    for position, i in enumerate(order[:top_n], start=1):
        row, _ = _area_row(c, int(i) + 1, period, since, None, None)
        rows.append({"rank": position, **row})
    if end is not None:  # metric all: add each ranked area's price index
        for r in rows:
            trend, _ = _trend(c, r["community_area"], end, base)
            r.update({k: trend[k] for k in ("price_index", "price_index_change_pct", "submarket_name")})
    label = (f"home value change since {since.year} average" if since is not None
             else f"Zillow home value ({period.label})")
    city = _city_context(c, metric, period, end, base)
    text = fit_text([f"Top {len(rows)} community areas by {label} ({direction} first):"],
                    [_row_text(r, since, base) for r in rows], [_city_text(city)],
                    [_key_text(r, key) for r in rows])
    if left_out:
        caveats.append(f"Left out (ZIPs with Zillow values cover under {MIN_RANK_COVERAGE:.0%} of the area): "
                       f"{', '.join(left_out)}.")
    caveats.append(CROSSWALK_CAVEAT)
    fmt = fmt_money if key == "home_value" else signed_pct
    summary = (f"{direction.capitalize()} {label}: {rows[0]['name']} ({fmt(rows[0][key])})" if rows else "no rows")
    values = {"scope": "ranking", "metric": metric, "rank_by": key, "sort_order": sort_order, "rows": rows,
              "city": city, "areas_ranked": len(order), "left_out": left_out, "method": method,
              "home_value_period": period.label, "price_index_quarter": end}
    table = rows_table(rows, list(rows[0]) if rows else ["rank", "community_area", "name", key])
    chart = {"type": "bar", "x": "name", "y": key, "title": f"{label} ({direction} first)"}
    return dict(values=values, text=text, summary=summary, table=table, chart=chart,
                map=area_value_map(c.home, period, since))


def _submarket_ranking(c, end, base, top_n, sort_order, caveats, method) -> dict:
    direction = "highest" if sort_order == "desc" else "lowest"
    candidates = chicago_submarket_changes(c.index, c.area_names, end, base, sort_order)
    key = "price_index_change_pct"
    rows = [{"rank": i, **r} for i, r in enumerate(candidates[:top_n], start=1)]
    items = [f"{r['rank']}. {r['name']}: index {fmt_num(r['price_index'])}, {signed_pct(r[key])} since {base}, "
             f"yoy {signed_pct(r['price_index_yoy_pct'])} (areas {', '.join(map(str, r['community_areas']))})"
             for r in rows]
    city = _city_context(c, "price_trend", None, end, base)
    text = fit_text([f"Top {len(rows)} Chicago IHS submarkets by price change {base} to {end} ({direction} first):"],
                    items, [_city_text(city)],
                    [f"{r['rank']}. {r['name']}: {signed_pct(r[key])}" for r in rows])
    caveats.append("The price index exists for submarkets (groups of community areas), so the ranking is of the "
                   f"{len(candidates)} Chicago submarkets; p3160 (Near North Side, Loop, Near South Side) is not indexed.")
    summary = (f"{direction.capitalize()} price change since {base}: {rows[0]['name']} ({signed_pct(rows[0][key])})"
               if rows else "no rows")
    values = {"scope": "ranking", "metric": "price_trend", "rank_by": key, "sort_order": sort_order,
              "rows": rows, "city": city, "submarkets_ranked": len(candidates), "method": method,
              "price_index_quarter": end}
    columns = ["rank", "submarket_code", "name", "area_names", "price_index", "price_index_change_pct",
               "price_index_yoy_pct"]
    table = rows_table([{**r, "area_names": ", ".join(r["area_names"])} for r in rows], columns)
    chart = {"type": "bar", "x": "name", "y": key, "title": f"IHS price change since {base} ({direction} first)"}
    return dict(values=values, text=text, summary=summary, table=table, chart=chart)


def city_answer(c, metric, period, since, end, base, caveats, method) -> dict:
    city = _city_context(c, metric, period, end, base)
    values = {"scope": "city", "community_area": None, "name": "Chicago", "metric": metric, **city,
              "city": city, "method": method}
    lines = ["Chicago city-wide:"]
    if period is not None:
        lines.append(f"Zillow home values by ZIP ({period.label}): median {fmt_money(city['home_value_zip_median'])}, "
                     f"range {fmt_money(city['home_value_zip_min'])} to {fmt_money(city['home_value_zip_max'])} "
                     f"across {city['zips_valued']} ZIPs (Zillow publishes no city figure in this extract)")
        caveats.append("No city-wide Zillow value is held; the median of the Chicago ZIPs' values is shown.")
        _, eligible = rank_scores(c.home, period)
        idx = np.flatnonzero(eligible)
        high, low = int(idx[np.argmax(period.area[idx])]), int(idx[np.argmin(period.area[idx])])
        values["extremes"] = {
            "home_value": {side: {"community_area": i + 1, "name": c.area_names[i + 1], "value": whole(period.area[i])}
                           for side, i in (("highest", high), ("lowest", low))}}
        lines.append(f"Community areas (ZIP-weighted): highest {c.area_names[high + 1]} "
                     f"{fmt_money(period.area[high])}, lowest {c.area_names[low + 1]} {fmt_money(period.area[low])}")
    if end is not None:
        lines.append(f"Price index (DePaul IHS, Chicago, 2000Q1=100): {fmt_num(city['price_index'])} in {end}; "
                     f"{signed_pct(city['price_index_change_pct'])} since {base}; year over year "
                     f"{signed_pct(city['price_index_yoy_pct'])}")
        table = index_series(c.index, CITY_SERIES, end, base)
        chart = {"type": "line", "x": "quarter", "y": "price_index", "title": "Chicago: IHS house price index"}
        summary = (f"Chicago price index {fmt_num(city['price_index'])} in {end} "
                   f"({signed_pct(city['price_index_change_pct'])} since {base})")
    else:
        order = np.argsort(-np.nan_to_num(period.vector, nan=-1))
        rows = [(c.home.zips[j], whole(period.vector[j])) for j in order if not np.isnan(period.vector[j])]
        table = rows_table(rows, ["zip", "home_value"])
        chart = {"type": "bar", "x": "zip", "y": "home_value", "title": f"Zillow home value by ZIP ({period.label})"}
        summary = f"Chicago median ZIP home value {fmt_money(city['home_value_zip_median'])} ({period.label})"
    return dict(values=values, text="\n".join(lines), summary=summary, table=table, chart=chart,
                map=zip_value_map(c.home, period))


def zip_ranking_answer(c, geo, period, since, top_n, sort_order, caveats, method, left_out=()) -> dict:
    """ZIPs ranked by their own Zillow value (or its change since a year): "the cheapest ZIP code" asks for a ZIP,
    and an area's ZIP-weighted value would answer another question. ``left_out``: ZIPs the ranking leaves out."""
    direction = "highest" if sort_order == "desc" else "lowest"
    now = period.vector
    score = now if since is None else 100 * (now / since.vector - 1)
    key = "home_value" if since is None else "home_value_change_pct"
    order = sorted((j for j in range(len(c.home.zips)) if not np.isnan(score[j]) and c.home.zips[j] not in left_out),
                   key=lambda j: (score[j] if sort_order == "asc" else -score[j], c.home.zips[j]))
    rows = []
    for position, j in enumerate(order[:top_n], start=1):
        zip_code = c.home.zips[j]
        overlaps = sorted(geo.zip_to_areas.get(zip_code, []), key=lambda p: -p[1])
        row = {"rank": position, "zip": zip_code, "home_value": whole(now[j]),
               "community_areas": ", ".join(c.area_names[n] for n, _ in overlaps[:2])}
        if since is not None:
            row.update({"home_value_since": whole(since.vector[j]), "home_value_change_pct": round(float(score[j]), 1)})
        rows.append(row)
    label = (f"home value change since {since.year} average" if since is not None
             else f"Zillow home value ({period.label})")
    if left_out:
        label += ", excluding " + " and ".join(f"ZIP {z}" for z in left_out)

    def row_text(r: dict) -> str:
        change = f"; {signed_pct(r['home_value_change_pct'])} since {since.year}" if since is not None else ""
        return f"{r['rank']}. ZIP {r['zip']} ({r['community_areas']}): home value {fmt_money(r['home_value'])}{change}"

    city = _city_context(c, "home_value", period, None, None)
    text = fit_text([f"Top {len(rows)} ZIP codes by {label} ({direction} first, of {len(order)} with a value):"],
                    [row_text(r) for r in rows], [_city_text(city)])
    missing = sorted(set(geo.zip_to_areas) - {c.home.zips[j] for j in order} - set(left_out))
    if missing:
        when = period.label + (f" or {since.label}" if since is not None else "")
        caveats.append(f"Chicago ZIPs with no Zillow value for {when}, so not ranked: {', '.join(missing)}.")
    fmt = fmt_money if key == "home_value" else signed_pct
    summary = (f"{direction.capitalize()} {label}: ZIP {rows[0]['zip']} ({fmt(rows[0][key])})" if rows
               else "no rows")
    values = {"scope": "ranking", "group_by": "zip", "metric": "home_value", "rank_by": key, "sort_order": sort_order,
              "rows": rows, "city": city, "zips_ranked": len(order), "not_ranked": missing, "method": method,
              "excluded_zips": list(left_out),
              "home_value_period": period.label}
    table = rows_table(rows, list(rows[0]) if rows else ["rank", "zip", key])
    chart = {"type": "bar", "x": "zip", "y": key, "title": f"{label} by ZIP ({direction} first)"}
    return dict(values=values, text=text, summary=summary, table=table, chart=chart,
                map=zip_value_map(c.home, period))


def zip_answer(c, geo, zip_code, metric, period, since, end, base, caveats, method) -> dict:
    """A ZIP's own Zillow value; its price index is that of the community area covering most of it."""
    overlaps = sorted(geo.zip_to_areas[zip_code], key=lambda p: -p[1])
    areas = [{"community_area": n, "name": c.area_names[n], "share_of_zip": round(s, 4)} for n, s in overlaps]
    area_text = ", ".join(f"{a['name']} ({a['share_of_zip']:.0%})" for a in areas)
    values = {"scope": "zip", "zip": zip_code, "name": f"ZIP {zip_code}", "metric": metric,
              "community_areas": areas}
    lines = [f"ZIP {zip_code} (overlaps {area_text}):"]
    j = c.home.zip_row.get(zip_code)
    if period is not None:
        value = None if j is None else period.vector[j]
        if value is None or np.isnan(value):
            raise ToolArgumentError(
                f"ZIP {zip_code} has no Zillow home value for {period.label} in this extract ({coverage_text(c.home)}, "
                f"55 Chicago ZIPs; missing: 60617, 60666, 60707, 60827 and early years of 60603/60604). "
                f"Try metric price_trend, or community_area for {areas[0]['name']}", "no_data")
        values.update({"home_value": whole(value), "home_value_period": period.label})
        lines.append(f"Home value (Zillow ZHVI, {period.label}): {fmt_money(value)}")
        if since is not None:
            then = since.vector[j]
            change = None if np.isnan(then) else round(100 * (value / then - 1), 1)
            values.update({"home_value_since": whole(then), "home_value_since_period": since.label,
                           "home_value_change_pct": change})
            lines.append(f"Change since {since.label} ({fmt_money(whole(then))}): {signed_pct(change)}")
    if end is not None:
        trend, notes = area_price_trend(c.index, areas[0]["community_area"], end, base)
        values.update(trend)
        caveats.extend(notes)
        caveats.append(f"The price index is for the submarket of {areas[0]['name']}, the community area covering "
                       f"most of ZIP {zip_code}.")
        lines.append(_index_text(trend))
    values["city"] = _city_context(c, metric, period, end, base)
    values["method"] = method.replace("a community area's value is the mean of its ZIPs' values weighted by each "
                                      "ZIP's share of the area's land (renormalised over ZIPs with a value); ",
                                      "the ZIP's own value; ")
    lines.append(_city_text(values["city"]))
    parts = []
    if period is not None:  # the change since the year asked, as an area's summary gives it
        change = values.get("home_value_change_pct")
        parts.append(_home_summary(c, values["home_value"], period)
                     + (f", {signed_pct(change)} since the {since.year} average of {fmt_money(values['home_value_since'])}"
                        if since is not None and change is not None else ""))
    if end is not None:
        parts.append(f"price index {fmt_num(values['price_index'])} ({end}"
                     + (f", {signed_pct(values['price_index_change_pct'])} since {base})" if since is not None else ")"))
    summary = f"ZIP {zip_code}: " + "; ".join(parts)
    if period is not None:
        table = home_series(c.home, None, period, since.year if since else None, zip_row=j)
        chart = {"type": "line", "x": "period", "y": "home_value", "title": f"ZIP {zip_code}: Zillow home value"}
    else:
        table = index_series(c.index, values["submarket_code"], end, base)
        chart = {"type": "line", "x": "quarter", "y": "price_index", "title": f"ZIP {zip_code}: IHS price index"}
    return dict(values=values, text="\n".join(lines), summary=summary, table=table, chart=chart,
                map=zip_value_map(c.home, period))


def _published_text(published: dict) -> str | None:
    """The IHS summary's figures in one line, each formatted the way the answer quotes it."""
    parts = [f"{label} {_published_value(published, key)}" for key, label in SUMMARY_FIGURES
             if published.get(key) is not None]
    if not parts:
        return None
    release = f"{published['release']} release" if published.get("release") else "latest release"
    return f"IHS summary ({release}): " + "; ".join(parts)


def _published_value(published: dict, key: str) -> str:
    value = published.get(key)
    return fmt_money(value) if key == "median_sales_price" else signed_pct(value)


def _where_text(name: str, suburban: bool, areas: list) -> str:
    if suburban:
        return f"{name} is a suburban Cook County submarket, outside the City of Chicago"
    listing = ", ".join(a["name"] + (f" ({a['share_of_community_area']:.0%} of it)" if a["split"] else "")
                        for a in areas)
    return f"community areas: {listing}"


def submarket_answer(c, code, end, base, caveats, method) -> dict:
    """One IHS submarket's price index by name, with the community areas it covers (none for a suburban Cook County
    submarket) and the IHS summary's published figures (median sales price and changes, as of the release)."""
    stats = index_stats(c.index, code, end, base)
    name = short_name(c.index, code)
    suburban = is_suburban(c.index, code)
    areas = [] if suburban else submarket_areas(c.index, code, c.area_names)
    published = published_figures(c.index, code)
    city = _city_context(c, "price_trend", None, end, base)
    values = {"scope": "submarket", "metric": "price_trend", "submarket_code": code, "submarket_name": name,
              "suburban": suburban, "community_areas": areas, **stats, "published": published, "city": city,
              "method": method}
    lines = [f"IHS submarket {name} ({code}), {_where_text(name, suburban, areas)}",
             _index_text({**stats, "submarket_name": name}), _published_text(published), _city_text(city)]
    if suburban:
        caveats.append(f"{name} is in suburban Cook County, outside the City of Chicago: the IHS index covers it, "
                       "ChiQA's other data (homicides, census, community areas) does not.")
    if any(a["split"] for a in areas):
        caveats.append("Areas split between submarkets are listed with the share of their land inside this one.")
    where = ("suburban Cook County, outside the City of Chicago" if suburban
             else "community areas " + ", ".join(a["name"] for a in areas))
    summary = (f"IHS submarket {name} ({where}): price index {fmt_num(stats['price_index'])} in {end}, "
               f"{signed_pct(stats['price_index_change_pct'])} since {base} (2000Q1 = 100)")
    if published.get("median_sales_price") is not None and end == published.get("release"):
        summary += (f"; median sales price {fmt_money(published['median_sales_price'])}, year over year "
                    f"{signed_pct(published['yoy_change_pct'])} (IHS {published['release']} summary)")
    table = index_series(c.index, code, end, base)
    chart = {"type": "line", "x": "quarter", "y": "price_index", "title": f"IHS price index: {name}"}
    return dict(values=values, text="\n".join(line for line in lines if line), summary=summary, table=table,
                chart=chart)
