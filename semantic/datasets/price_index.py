"""DePaul IHS house price index by submarket, quarterly 1997Q1-2025Q4 (2000Q1 = 100), and its summary table."""
from __future__ import annotations

import pandas as pd

from semantic.datasets.common import cached
from semantic.dimensions import main_submarkets
from semantic.model import Dataset, JoinPath, Measure


def _frame(data):
    ihs = data.ihs_index.dropna(subset=["index"])
    return pd.DataFrame({"submarket": ihs["submarket_code"].to_numpy(), "quarter": ihs["yearq"].to_numpy(),
                         "year": ihs["year"].astype(int).to_numpy(), "index": ihs["index"].to_numpy()})


def frame(data):
    return cached(data, "ihs", _frame)


def coverage(data):
    cov = data.coverage["ihs_index"]
    return cov["start"], cov["end"]


def area_submarket(data) -> pd.DataFrame:
    """Each community area beside its main IHS submarket (the one holding most of its land), weight 1."""
    main = main_submarkets(data)
    return pd.DataFrame({"submarket": list(main.values()), "community_area": list(main),
                         "weight": [1.0] * len(main)})


# "each area's IHS price index growth 2019 to 2024 (its main submarket)": an area takes its submarket's index
JOIN = JoinPath("submarket", "community_area", table=area_submarket,
                method="the index of the IHS submarket holding the largest share of the area's land")


def _summary(data):
    return data.ihs_summary.rename(columns={"submarket_code": "submarket"})


INDEX = Dataset(
    "ihs_index", source="ihs_index", title="IHS Cook County House Price Index", time="series", frame=frame,
    vintage="1997Q1 to 2025Q4", words=("ihs", "depaul"),
    dimensions=("submarket", "quarter", "year"), coverage=coverage, measures=(
        Measure("price_index", "House price index (2000Q1 = 100)", "index (2000Q1 = 100)", "ihs_index", agg="mean",
                column="index", grains=("submarket",), derived_grains=("community_area",), city="none", decimals=1,
                words=("price index", "house price index", "ihs"),
                description="an index of price change, not a price; over a span of quarters, their mean",
                caveats=("The IHS index measures price change (2000Q1 = 100), not a price level.",)),))

SUMMARY = Dataset(
    "ihs_summary", source="ihs_summary", title="IHS price index summary, 2025Q4 release", time="snapshot",
    frame=lambda d: cached(d, "ihs_summary", _summary), dimensions=("submarket",), vintage="2025Q4 release",
    words=("ihs", "depaul"),
    coverage=lambda d: ("2025Q4", "2025Q4"), measures=(
        Measure("median_sales_price", "Median sales price (IHS, 2025Q4 release)", "dollars", "ihs_summary",
                agg="mean", column="median_sales_price", grains=("submarket",), city="none",
                words=("median sales price", "median sale price")),
        Measure("price_change_since_2000", "Price change since 2000 (IHS, 2025Q4 release)", "percent", "ihs_summary", agg="mean",
                column="change_since_2000_pct", grains=("submarket",), city="none", decimals=1),
        Measure("price_change_peak_to_current", "Price change, peak to 2025Q4 (IHS)", "percent", "ihs_summary",
                agg="mean", column="change_peak_to_current_pct", grains=("submarket",), city="none", decimals=1),
        Measure("price_change_bottom_to_current", "Price change, bottom to 2025Q4 (IHS)", "percent", "ihs_summary",
                agg="mean", column="change_bottom_to_current_pct", grains=("submarket",), city="none", decimals=1),
        Measure("price_change_since_pandemic", "Price change, COVID-19 pandemic start to 2025Q4 (IHS)", "percent",
                "ihs_summary", agg="mean", column="change_pandemic_to_current_pct", grains=("submarket",),
                city="none", decimals=1),
        Measure("price_change_year_over_year", "Price change, year over year (IHS, 2025Q4 release)", "percent", "ihs_summary",
                agg="mean", column="yoy_change_pct", grains=("submarket",), city="none", decimals=1),
    ))
