"""The community area / ZIP crosswalk (areal overlap), read as facts of each ZIP and of each community area: the
area that covers most of a ZIP's land, how many areas a ZIP overlaps, and an area's main ZIP.

These are what link a ZIP's home value to an area's homicides ("the cheapest ZIP - how many homicides did the area
that covers most of it have"): the reader asks for the link, then for the linked place's figures.
"""
from __future__ import annotations

import pandas as pd

from semantic.datasets.common import cached, read_source
from semantic.dimensions import main_submarkets, submarket_name
from semantic.model import Dataset, Measure

FILE = "community_area_zip_crosswalk.csv"
CAVEAT = "The crosswalk splits places by land area (areal overlap), not by where people live."


def read_rows(data) -> pd.DataFrame:
    raw = read_source(data, FILE, dtype={"zip": str})
    raw["zip"] = raw["zip"].str.strip().str.zfill(5)
    raw["area_number"] = pd.to_numeric(raw["area_number"], errors="coerce")
    for column in ("share_of_zip", "share_of_community_area"):
        raw[column] = pd.to_numeric(raw[column], errors="coerce")
    return raw.dropna(subset=["area_number"]).astype({"area_number": int})


def _name(data, number: int) -> str:
    return f"{data.geography.area_name(number)} (community area {number})"


def _zip_frame(data) -> pd.DataFrame:
    rows = cached(data, "crosswalk_rows", read_rows)
    main = rows.sort_values(["zip", "share_of_zip"], ascending=[True, False]).groupby("zip").head(1)
    counts = rows.groupby("zip").size()
    return pd.DataFrame({
        "zip": main["zip"].values,
        # "West Town (community area 24), 57% of the ZIP's land": the name, the number the next query links by, the share
        "main_area": [f"{_name(data, n)}, {s * 100:.0f}% of the ZIP's land"
                      for n, s in zip(main["area_number"], main["share_of_zip"])],
        "areas_overlapping": counts.reindex(main["zip"]).values,
    })


def _area_frame(data) -> pd.DataFrame:
    rows = cached(data, "crosswalk_rows", read_rows)
    main = rows.sort_values(["area_number", "share_of_community_area"], ascending=[True, False]) \
        .groupby("area_number").head(1)
    # an area's IHS submarket, "Austin/North Lawndale (p3158)": the code in brackets is what the next query links by
    submarkets = main_submarkets(data)
    return pd.DataFrame({"community_area": main["area_number"].values,
                         "main_zip": [f"ZIP {z}, {s * 100:.0f}% of the area's land"
                                      for z, s in zip(main["zip"], main["share_of_community_area"])],
                         "main_submarket": [f"{submarket_name(data, submarkets[n])} ({submarkets[n]})"
                                            if n in submarkets else None for n in main["area_number"]]})


_COMMON = dict(agg="attribute", city="none", caveats=(CAVEAT,))

ZIP_AREAS = Dataset(
    "zip_areas", source="zip_crosswalk", title="Community areas of each ZIP (crosswalk)", time="snapshot",
    frame=lambda d: cached(d, "zip_areas", _zip_frame), dimensions=("zip",), vintage="crosswalk",
    coverage=lambda d: ("crosswalk", "crosswalk"), words=("crosswalk",), measures=(
        Measure("main_community_area", "Community area covering most of the ZIP", "text", "zip_areas",
                column="main_area", grains=("zip",), links_to=("community_area", r"community area (\d+)"),
                words=("covers most", "covering most", "covers the biggest part", "covers the largest part",
                       "makes up most", "mostly in", "is it mostly", "main community area", "mainly in",
                       "biggest part of zip", "largest part of zip", "most of that zip", "most of the zip",
                       "largest share of that zip", "largest share of the zip", "biggest share of that zip",
                       "biggest share of the zip", "covers most of it", "most of that zip code", "area is it in",
                       "area it is in", "area it's in"),
                **_COMMON),
        Measure("community_areas_overlapping", "Community areas overlapping the ZIP", "areas", "zip_areas",
                column="areas_overlapping", grains=("zip",),
                words=("areas overlap", "overlap that zip", "overlap the zip", "overlapping"), **_COMMON),
    ))

AREA_ZIPS = Dataset(
    "area_zips", source="zip_crosswalk", title="Main ZIP of each community area (crosswalk)", time="snapshot",
    frame=lambda d: cached(d, "area_zips", _area_frame), dimensions=("community_area",), vintage="crosswalk",
    coverage=lambda d: ("crosswalk", "crosswalk"), measures=(
        Measure("main_zip", "Main ZIP (largest share of the area's land)", "text", "area_zips", column="main_zip",
                grains=("community_area",), links_to=("zip", r"ZIP (\d{5})"), words=("main zip", "main zip code", "primary zip", "zip code for", "share of its land",
                                                   "zip code does most of", "zip does most of",
                                                   "zip code that most of", "zip that most of", "zip is most of",
                                                   "zip code is most of", "zip that area mostly", "zip it mostly",
                                                   "zip code it mostly", "zip it lies mostly",
                                                   "zip code is that area mostly", "zip is that area mostly"),
                **_COMMON),
        Measure("main_submarket", "IHS submarket (largest share of the area's land)", "text", "area_zips",
                column="main_submarket", grains=("community_area",), links_to=("submarket", r"\((p\d+)\)$"),
                words=("its ihs submarket", "its submarket", "ihs submarket is it in", "submarket is it in",
                       *(f"submarket is it {how} in" for how in ("mostly", "mainly", "largely", "primarily")),
                       *(f"submarket does it {verb} in" for verb in ("lie", "sit", "fall"))),
                **{**_COMMON, "caveats": ("An area belongs to the IHS submarket holding the largest share of its "
                                          "land (the submarket crosswalk).",)}),
    ))
