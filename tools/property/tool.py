"""Home values and house-price trends by community area or ZIP.

One tool, ``query_property_values``, over two sources:

* ``zhvi`` - Zillow Home Value Index by ZIP, monthly 2000-01..2024-09 (mid-tier, smoothed, seasonally
  adjusted; a typical-home value, not a sale price), carried to community areas through the ZIP
  crosswalk (tools/property/home_values.py). The default period is the latest month.
* ``ihs_index`` - DePaul IHS Cook County House Price Index, quarterly 1997Q1..2025Q4, 2000Q1 = 100, by
  submarket (2020 PUMA), with the city series standing in for the unindexed central submarket
  (tools/property/price_index.py).

This module holds the tool: its schema, argument checks and the choice of answer (tools/property/answers.py).
A thin view of the semantic layer: every home value, coverage, change, spread and index level is a query of
the layer's zhvi and ihs_index measures (home_values.py, price_index.py), each kept per DataBundle in
``bundle.__dict__["_property_cache"]``; a ZIP's own change since a year is its two queried values' ratio.
"""
from __future__ import annotations

from tools.common import (
    AREA_SCHEMA,
    COMPARE_SCHEMA,
    SORT_SCHEMA,
    TOP_N_SCHEMA,
    make_result,
    resolve_areas,
)
from tools.errors import ToolArgumentError
from tools.property import home_values, price_index
from tools.property.answers import (
    area_answer,
    city_answer,
    comparison_answer,
    ranking_answer,
    submarket_answer,
    zip_answer,
    zip_ranking_answer,
)
from tools.property.home_values import (
    CROSSWALK_CAVEAT,
    ZHVI_CAVEAT,
    ZHVI_SETS,
    HomeValues,
    Period,
    home_method,
    parse_month,
)
from tools.property.price_index import (
    IHS_CAVEAT,
    IHS_SETS,
    PriceIndex,
    index_method,
    index_window,
    parse_quarter,
    resolve_submarket,
)
from tools.registry import Tool
from tools import names

TOOL_NAME = names.PROPERTY
CACHE_KEY = "_property_cache"
METRIC_NAMES = ["home_value", "price_trend", "all"]


class PropertySources:
    """Both sources prepared for one DataBundle, plus a memo of per-area pieces for comparisons and rankings."""

    def __init__(self, data):
        self.source = data.zhvi
        self.home = HomeValues(data)
        self.index = PriceIndex(data)
        self.area_names = {n: data.geography.area_name(n) for n in range(1, 78)}
        self.memo: dict = {}


def property_sources(data) -> PropertySources:
    cached = data.__dict__.get(CACHE_KEY)
    if cached is None or cached.source is not data.zhvi:
        cached = data.__dict__[CACHE_KEY] = PropertySources(data)
    return cached


def _check_years(c: PropertySources, metric: str, year, since_year) -> None:
    """Out-of-range years name both sources' coverage, so the caller can switch metric instead of giving up."""
    home, index = c.home, c.index
    zhvi_coverage, ihs_coverage = home_values.coverage_text(home), price_index.coverage_text(index)
    for name, value in (("year", year), ("since_year", since_year)):
        if value is None:
            continue
        if metric in ("home_value", "all") and not home.first_year <= value <= home.last_year:
            extra = f"; {ihs_coverage} (metric price_trend)" if metric == "home_value" else f"; {ihs_coverage}"
            raise ToolArgumentError(f"{name} {value} is outside the data: {zhvi_coverage}{extra}", "out_of_range")
        if metric == "price_trend" and not index.first_year <= value <= index.last_year:
            raise ToolArgumentError(f"{name} {value} is outside the data: {ihs_coverage}; "
                                    f"{zhvi_coverage} (metric home_value)", "out_of_range")
    if since_year is not None:
        if metric in ("home_value", "all"):
            target = home.last_year if year is None else year
            if since_year >= target:
                raise ToolArgumentError(
                    f"since_year {since_year} must be before the year compared "
                    f"({'the latest month, ' + home.latest_month if year is None else year}); "
                    f"{zhvi_coverage}", "out_of_range")
        elif year is not None and since_year > year:
            raise ToolArgumentError(f"since_year {since_year} is after year {year}", "out_of_range")


def _month_year(c: PropertySources, month, year) -> tuple[str | None, int | None, str | None]:
    """The asked month ("YYYY-MM"), the year the checks use (the month's own) and the month the price index
    ends in; "latest" leaves the index at its own latest quarter, which runs past Zillow's last month."""
    if month is None:
        return None, year, None
    label = parse_month(c.home, month)
    if year is not None and year != int(label[:4]):
        raise ToolArgumentError(f"month {label} and year {year} disagree; give one of them", "conflicting_arguments")
    if label == c.home.latest_month and year is None:
        return label, None, None
    return label, int(label[:4]), label


def _submarket_code(c: PropertySources, submarket, metric: str, places: tuple) -> str | None:
    """The submarket's code, checked against the arguments it cannot go with (it has the price index only)."""
    if submarket is None:
        return None
    if any(p not in (None, [], ()) for p in places):
        raise ToolArgumentError("give either submarket or community_area/zip/compare_areas/top_n, not both",
                                "conflicting_arguments")
    if metric == "home_value":
        raise ToolArgumentError("a submarket has the IHS price index only (metric price_trend); Zillow home "
                                "values are by ZIP or community_area", "invalid_choice")
    return resolve_submarket(c.index, submarket)


def _quarter(c: PropertySources, quarter, metric: str, year, month) -> str | None:
    """The asked quarter ("2008Q3"), checked; it is a quarter of the price index, so it cannot go with a month or
    with Zillow values, and a year given beside it must be its own."""
    if quarter is None:
        return None
    if metric == "home_value":
        raise ToolArgumentError("quarter is for the IHS price index (metric price_trend); Zillow home values are "
                                "monthly: give month instead", "conflicting_arguments")
    label = parse_quarter(c.index, quarter)
    if month is not None:
        raise ToolArgumentError(f"quarter {label} and month {month} both name a period; give one of them",
                                "conflicting_arguments")
    if year is not None and int(year) != int(label[:4]):
        raise ToolArgumentError(f"quarter {label} and year {year} disagree; give one of them", "conflicting_arguments")
    return label


def query_property_values(data, community_area=None, zip=None, compare_areas=None, year=None, since_year=None,
                          month=None, quarter=None, submarket=None, metric="all", top_n=None, sort_order="desc",
                          group_by="community_area", exclude_zips=None):
    c = property_sources(data)
    geo = data.geography
    code = _submarket_code(c, submarket, metric, (community_area, zip, compare_areas, top_n))
    quarter = _quarter(c, quarter, metric, year, month)
    # A submarket or a quarter exists in the price index only.
    metric = "price_trend" if code or quarter else metric
    year = int(quarter[:4]) if quarter else year
    if zip is not None:
        if community_area is not None or compare_areas or top_n is not None:
            raise ToolArgumentError("give either zip or community_area/compare_areas/top_n, not both; a ZIP "
                                    "query answers for that ZIP alone", "conflicting_arguments")
        zip_code = geo.check_zip(zip)
    if group_by not in ("community_area", "zip"):
        raise ToolArgumentError(f"group_by must be community_area or zip, not {group_by!r}", "invalid_argument")
    if group_by == "zip" and (community_area is not None or compare_areas or zip is not None or code):
        raise ToolArgumentError("group_by zip ranks every Chicago ZIP; leave out community_area, compare_areas, zip "
                                "and submarket", "conflicting_arguments")
    if group_by == "zip" and metric == "price_trend":
        raise ToolArgumentError("the IHS price index is not published by ZIP; rank ZIPs with metric home_value",
                                "invalid_argument")
    if exclude_zips and group_by != "zip":
        raise ToolArgumentError("exclude_zips leaves ZIPs out of a ranking of ZIPs: give group_by zip",
                                "invalid_argument")
    left_out = sorted({geo.check_zip(z) for z in exclude_zips or []})
    if group_by == "zip":
        metric = "home_value"  # the price index is by submarket: a ZIP ranking is of Zillow values alone
    numbers = resolve_areas(geo, community_area, compare_areas)
    month, year, index_month = _month_year(c, month, year)
    _check_years(c, metric, year, since_year)
    wants_home = metric in ("home_value", "all")
    wants_index = metric in ("price_trend", "all")
    period = None
    if wants_home:
        period = Period.for_month(c.home, month) if month else Period(c.home, year)
    since = Period(c.home, since_year) if (wants_home and since_year is not None) else None
    end, base, ihs_note = index_window(c.index, year, since_year, index_month, quarter) if wants_index else (None, None, None)
    caveats = [n for n in (period.note if period else None, ihs_note) if n]
    datasets = (ZHVI_SETS if wants_home else []) + (IHS_SETS if wants_index else [])
    if wants_home:
        caveats += [ZHVI_CAVEAT]
    if wants_index:
        caveats.append(IHS_CAVEAT)
    method = " ".join(([home_method(period)] if wants_home else []) + ([index_method(end, base)] if wants_index else []))
    ctx = dict(c=c, metric=metric, period=period, since=since, end=end, base=base, caveats=caveats, method=method)
    if code:
        answer = submarket_answer(c=c, code=code, end=end, base=base, caveats=caveats, method=method)
        datasets = datasets + ["ihs_summary"]
    elif zip is not None:
        answer = zip_answer(geo=geo, zip_code=zip_code, **ctx)
    else:
        if numbers and top_n is not None:
            caveats.append(f"top_n={top_n} was ignored because specific community areas were named.")
        if wants_home and numbers:
            caveats.append(CROSSWALK_CAVEAT)
        if len(numbers) == 1:
            answer = area_answer(number=numbers[0], **ctx)
        elif numbers:
            answer = comparison_answer(numbers=numbers, **ctx)
        elif group_by == "zip":
            answer = zip_ranking_answer(c=c, geo=geo, period=period, since=since, top_n=top_n or 5,
                                        sort_order=sort_order, caveats=caveats, method=method, left_out=left_out)
        elif top_n is not None:
            answer = ranking_answer(top_n=top_n, sort_order=sort_order, **ctx)
        else:
            answer = city_answer(**ctx)
    return make_result(TOOL_NAME, datasets=datasets, data=data, caveats=caveats, **answer)


# ------------------------------------------------------------------ registration

def register(registry) -> None:
    registry.register(Tool(
        name=TOOL_NAME,
        label="Home values",
        description=("Home values (Zillow, by ZIP mapped to community areas, monthly 2000-2024) and house-price "
                     "index trends (DePaul IHS, 1997-2025, by submarket) for an area, ZIP or submarket, a "
                     "comparison, or a ranking."),
        parameters={
            "type": "object",
            "properties": {
                "community_area": AREA_SCHEMA,
                "zip": {"type": "string", "description": "a 5-digit Chicago ZIP code, instead of community_area"},
                "compare_areas": COMPARE_SCHEMA,
                "year": {"type": "integer",
                         "description": "2000-2024 for home values (default: latest month, 2024-09); "
                                        "1997-2025 for price_trend"},
                "since_year": {"type": "integer",
                               "description": "report the change since this year (price_trend default 2000)"},
                "month": {"type": "string",
                          "description": "one month's home value: \"YYYY-MM\" (2000-01 to 2024-09) or \"latest\""},
                "quarter": {"type": "string",
                            "description": "one quarter of the IHS price index, \"YYYYQn\" (1997Q1 to 2025Q4)"},
                "submarket": {"type": "string",
                              "description": "IHS submarket name, Chicago's (e.g. 'Lake View/Lincoln Park') or "
                                             "suburban Cook County's (e.g. 'Evanston/Skokie'): its price index "
                                             "and the IHS summary (median sales price, changes)"},
                "metric": {"type": "string", "enum": METRIC_NAMES, "default": "all",
                           "description": "home_value = Zillow value; price_trend = IHS price index; all = both"},
                "top_n": TOP_N_SCHEMA,
                "sort_order": SORT_SCHEMA,
                "group_by": {"type": "string", "enum": ["community_area", "zip"], "default": "community_area",
                             "description": "what a ranking (top_n) ranks: community areas, or ZIP codes by their "
                                            "own Zillow value"},
                "exclude_zips": {"type": "array", "items": {"type": "string"}, "maxItems": 60,
                                 "description": "with group_by zip: ZIP codes left out of the ranking"},
            },
            "required": [],
        },
        fn=query_property_values,
        domain="property",
    ))
