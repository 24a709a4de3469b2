"""Selected socioeconomic indicators, 2008-2012 (ACS 5-year), by community area, with the city's own row."""
from __future__ import annotations

from semantic.datasets.common import cached
from semantic.model import Dataset, Measure

VINTAGE = "2008-2012"


def _frame(data):
    s = data.socioeconomic
    return s[s["area_number"] > 0].rename(columns={"area_number": "community_area"}).reset_index(drop=True)


def frame(data):
    return cached(data, "socioeconomic", _frame)


def _city(data):
    """The published city-wide figures (the file's CHICAGO row)."""
    s = data.socioeconomic
    return s[s["area_number"] == 0].drop(columns="area_number").reset_index(drop=True)


_COMMON = dict(dataset="socioeconomic", grains=("city", "community_area"), city="published",
               weight="population_2010",
               caveats=("The socioeconomic indicators are ACS 2008-2012 estimates, a single snapshot.",))


def _percent(name, column, label, words):
    return Measure(name, label, "percent", column=column, agg="weighted_mean", decimals=1, words=words, **_COMMON)


MEASURES = (
    Measure("per_capita_income", "Per capita income (2008-2012)", "dollars", column="per_capita_income",
            agg="weighted_mean", words=("per capita income", "income", "earnings", "richest", "poorest"), **_COMMON),
    Measure("hardship_index", "Hardship index (2008-2012)", "index (1-100)", column="hardship_index",
            agg="mean", dataset="socioeconomic", grains=("community_area",), city="none",
            words=("hardship", "hardship index"), description="a composite 1-100 index; higher is more hardship",
            caveats=("The hardship index is published per community area only (no city figure).",)),
    _percent("pct_households_below_poverty", "pct_households_below_poverty", "Households below poverty",
             ("poverty", "poor households", "below poverty")),
    _percent("pct_unemployed", "pct_aged_16_plus_unemployed", "Unemployment (aged 16+)", ("unemployment", "unemployed")),
    _percent("pct_without_diploma", "pct_aged_25_plus_without_hs_diploma", "Aged 25+ without a high school diploma",
             ("no diploma", "without a high school diploma", "dropouts")),
    _percent("pct_housing_crowded", "pct_housing_crowded", "Housing crowded", ("crowded", "crowding")),
    _percent("pct_under_18_or_over_64", "pct_aged_under_18_or_over_64", "Aged under 18 or over 64",
             ("dependents", "under 18 or over 64")),
)

DATASET = Dataset("socioeconomic", source="socioeconomic", title="Socioeconomic indicators, 2008-2012",
                  time="snapshot", frame=frame, dimensions=("community_area",), vintage=VINTAGE,
                  coverage=lambda d: ("2008", "2012"), measures=MEASURES,
                  city_frame=lambda d: cached(d, "socioeconomic_city", _city))
