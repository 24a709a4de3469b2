"""Zillow Home Value Index by ZIP, monthly 2000-01 to 2024-09; carried to community areas by land share."""
from __future__ import annotations

import pandas as pd

from semantic.datasets.common import cached
from semantic.model import Dataset, JoinPath, Measure


def _frame(data):
    z = data.zhvi.dropna(subset=["value"])
    return pd.DataFrame({"zip": z["zip"].to_numpy(), "month": z["date"].dt.strftime("%Y-%m").to_numpy(),
                         "year": z["year"].astype(int).to_numpy(), "value": z["value"].to_numpy()})


def frame(data):
    return cached(data, "zhvi", _frame)


def coverage(data):
    cov = data.coverage["zhvi"]
    return cov["start"], cov["end"]


def zip_to_area(data) -> pd.DataFrame:
    xw = data.zip_crosswalk
    return pd.DataFrame({"zip": xw["zip"], "community_area": xw["area_number"].astype(int),
                         "weight": xw["share_of_community_area"].astype(float)})


JOIN = JoinPath("zip", "community_area", table=zip_to_area,
                method="the mean of its ZIPs' values weighted by each ZIP's share of the area's land "
                       "(ZIPs without a value left out)")

MEASURES = (
    Measure("home_value", "Typical home value (Zillow ZHVI)", "dollars", "zhvi", agg="mean", column="value",
            grains=("zip",), derived_grains=("community_area",), city="none",
            words=("home value", "home values", "home price", "house price", "zillow", "zhvi", "property value"),
            description="Zillow's typical home value (all homes, mid tier, smoothed, seasonally adjusted); "
                        "over a span of months, their mean",
            caveats=("Zillow publishes no value for ZIPs 60617, 60707, 60827 or 60666.",)),
    Measure("home_value_coverage", "Share of the area's land in ZIPs with a home value", "share of land", "zhvi",
            agg="coverage", of="home_value", grains=(), derived_grains=("community_area",), city="none", decimals=4,
            description="the summed land shares of an area's ZIPs that have a Zillow value in the period: how much "
                        "of the area its carried home value rests on"),
)

DATASET = Dataset("zhvi", source="zhvi", title="Zillow Home Value Index by ZIP", time="series", frame=frame,
                  vintage="2000-01 to 2024-09", words=("zillow", "zhvi"),
                  dimensions=("zip", "month", "year"), coverage=coverage, measures=MEASURES)
