"""Redfin neighborhood market data (All Residential), 2012-01 to 2019-10: rolling 90-day windows for
neighborhoods, monthly for the city. Read here straight from the file: no tool reads it otherwise."""
from __future__ import annotations

import re

import pandas as pd

from semantic.datasets.common import cached, read_source
from semantic.model import Dataset, Measure

FILE = "property_redfin_neighborhoods.csv"
PREFIX = "Chicago, IL - "
CITY = "Chicago, IL"  # the city's own monthly (30-day) rows
# Redfin's regions that are sides of the city, not neighborhoods: aggregates, kept out of neighborhood rankings.
SIDES = ("Far North Side", "North Side", "Northwest Side", "West Side", "Central Chicago", "South Side",
         "Southwest Side", "Far Southwest Side", "Far Southeast Side")


def _money(text) -> float:
    """Redfin's display strings: "$275K" -> 275000, "$1.2M" -> 1200000."""
    found = re.fullmatch(r"\$?([\d.,]+)\s*([KM]?)", str(text).strip(), re.I)
    if not found:
        return float("nan")
    scale = {"K": 1e3, "M": 1e6}.get(found.group(2).upper(), 1.0)
    return float(found.group(1).replace(",", "")) * scale


def _rows(data):
    raw = read_source(data, FILE, encoding="utf-8-sig")
    end = pd.to_datetime(raw["Period End"], format="%m/%d/%Y", errors="coerce")
    begin = pd.to_datetime(raw["Period Begin"], format="%m/%d/%Y", errors="coerce")
    return pd.DataFrame({
        "redfin_neighborhood": raw["Region"].str.removeprefix(PREFIX).str.strip(),
        "date": end.dt.strftime("%Y-%m-%d"), "month": end.dt.strftime("%Y-%m"), "year": end.dt.year,
        "window_start": begin.dt.strftime("%Y-%m-%d"),
        "median_sale_price": raw["Median Sale Price"].map(_money),
        "median_sale_price_text": raw["Median Sale Price"].astype(str).str.strip(),
        "homes_sold": pd.to_numeric(raw["Homes Sold"], errors="coerce"),
        "median_list_price": pd.to_numeric(raw["Median List Price"], errors="coerce"),
        "median_days_on_market": pd.to_numeric(raw["Median Dom"], errors="coerce"),
        "inventory": pd.to_numeric(raw["Inventory"], errors="coerce"),
        "median_sale_ppsf": pd.to_numeric(raw["Median Sale Ppsf"], errors="coerce"),
        "median_list_ppsf": pd.to_numeric(raw["Median List Ppsf"], errors="coerce"),
        # Redfin's shares are fractions (0.286): as percentages, the way every other share is said
        "sold_above_list": pd.to_numeric(raw["Sold Above List"], errors="coerce") * 100,
        "sale_to_list": pd.to_numeric(raw["Avg Sale To List"], errors="coerce") * 100,
        "off_market_in_two_weeks": pd.to_numeric(raw["off_market_in_two_weeks"], errors="coerce") * 100,
        "new_listings": pd.to_numeric(raw["New Listings"], errors="coerce"),
        "pending_sales": pd.to_numeric(raw["pending_sales"], errors="coerce"),
        "region": raw["Region"].astype(str).str.strip(),
    }).dropna(subset=["date"]).reset_index(drop=True)


def _neighborhood_frame(data):
    rows = cached(data, "redfin_rows", _rows)
    rows = rows[rows["region"].str.startswith(PREFIX) & ~rows["redfin_neighborhood"].isin(SIDES)]
    return rows.drop(columns="region").reset_index(drop=True)


def _city_frame(data):
    rows = cached(data, "redfin_rows", _rows)
    return rows[rows["region"] == CITY].drop(columns=["region", "redfin_neighborhood"]).reset_index(drop=True)


def frame(data):
    return cached(data, "redfin", _neighborhood_frame)


def neighborhoods(data) -> list[str]:
    return sorted(frame(data)["redfin_neighborhood"].unique())


def coverage(data):
    f = frame(data)
    return f["date"].min(), f["date"].max()


_COMMON = dict(dataset="redfin", grains=("city", "redfin_neighborhood"), city="published", caveats=(
    "Redfin neighborhood figures are rolling 90-day windows ending on each period's date, to October 2019; the "
    "city's own figures are monthly.",
    "Redfin names a few neighborhoods twice (Rosehill, Wrightwood): their figures are averaged.",))

MEASURES = (
    Measure("redfin_median_sale_price", "Median sale price (Redfin)", "dollars", agg="mean",
            column="median_sale_price", words=("median sale price", "sale price"),
            description="Redfin's median sale price (published rounded, e.g. $275K) in the 90-day window (a "
                        "period's last window)", **_COMMON),
    Measure("redfin_homes_sold", "Homes sold (Redfin)", "homes", agg="sum", column="homes_sold",
            words=("homes sold", "homes were sold", "homes sell", "sales", "sold"), description="homes sold in the 90-day window (a period's last window)",
            **_COMMON),
    Measure("redfin_median_list_price", "Median list price (Redfin)", "dollars", agg="mean",
            column="median_list_price", words=("list price", "asking price"), **_COMMON),
    Measure("redfin_median_days_on_market", "Median days on market (Redfin)", "days", agg="mean",
            column="median_days_on_market", words=("days on market",), **_COMMON),
    Measure("redfin_median_sale_ppsf", "Median sale price per square foot (Redfin)", "dollars", agg="mean",
            column="median_sale_ppsf", words=("sale price per square foot", "sale price per sq ft", "sale ppsf",
                                              "sold price per square foot"), **_COMMON),
    Measure("redfin_median_list_ppsf", "Median list price per square foot (Redfin)", "dollars", agg="mean",
            column="median_list_ppsf", words=("list price per square foot", "list price per sq ft", "list ppsf",
                                              "asking price per square foot"), **_COMMON),
    Measure("redfin_inventory", "Homes for sale (Redfin inventory)", "homes", agg="sum", column="inventory",
            words=("inventory", "homes on the market", "homes for sale", "houses on the market", "listings"),
            description="homes listed for sale in the window (a period's last window)", **_COMMON),
    Measure("redfin_sold_above_list", "Share of homes sold above list price (Redfin)", "percent", agg="mean",
            column="sold_above_list", decimals=1, words=("sold above list", "sold above asking", "above list price",
                                                         "above asking", "over asking", "over list", "above list",
                                                         "selling above list", "sell above list"),
            description="percent of the window's sales that closed above their list price", **_COMMON),
    Measure("redfin_sale_to_list", "Average sale-to-list price ratio (Redfin)", "percent", agg="mean",
            column="sale_to_list", decimals=1, words=("sale to list", "sale-to-list", "sale to list ratio"),
            description="the window's average sale price as a percent of list price", **_COMMON),
    Measure("redfin_off_market_two_weeks", "Share of homes off the market in two weeks (Redfin)", "percent",
            agg="mean", column="off_market_in_two_weeks", decimals=1,
            words=("off market in two weeks", "off the market in two weeks", "off market within two weeks",
                   "under contract in two weeks"), **_COMMON),
    Measure("redfin_new_listings", "New listings (Redfin)", "homes", agg="sum", column="new_listings",
            words=("new listings", "newly listed"), **_COMMON),
    Measure("redfin_pending_sales", "Pending sales (Redfin)", "homes", agg="sum", column="pending_sales",
            words=("pending sales",), **_COMMON),
)

DATASET = Dataset("redfin", source="redfin", title="Redfin neighborhood market data (All Residential)",
                  time="series", frame=frame, dimensions=("redfin_neighborhood", "date", "month", "year", "window_start"),
                  coverage=coverage, measures=MEASURES, vintage="2012-01 to 2019-10", period_pick="last",
                  city_period_pick="mean", words=("redfin",),
                  city_frame=lambda d: cached(d, "redfin_city", _city_frame))
