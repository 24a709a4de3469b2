"""Ward offices (2019-2023 council): each ward's alderperson, office address and phone.

Read here straight from the file (the loader keeps only two columns): this module is the whole of what
adding the dataset took.
"""
from __future__ import annotations

import pandas as pd

from semantic.datasets import crosswalk
from semantic.datasets.common import cached, read_source
from semantic.model import Dataset, Measure

FILE = "ward_offices.csv"
COUNCIL = "The ward office file lists the 2019-2023 City Council; aldermen changed in May 2023."


def _frame(data):
    raw = read_source(data, FILE, dtype=str, encoding="utf-8-sig").fillna("")

    def text(column):
        return raw[column].str.strip() if column in raw else pd.Series([""] * len(raw))

    # The whole address a visitor needs ("what zip is the ward office in" is answered by it), as the file splits it
    place = (text("CITY") + ", " + text("STATE") + " " + text("ZIPCODE")).str.strip(", ")
    address = text("ADDRESS").where(place == "", text("ADDRESS") + ", " + place)
    out = pd.DataFrame({"ward": pd.to_numeric(raw["WARD"], errors="coerce"), "alderperson": text("ALDERMAN"),
                        "office_address": address, "office_zip": text("ZIPCODE"),
                        "office_phone": text("WARD PHONE"), "email": text("EMAIL"),
                        "city_hall_address": text("CITY HALL ADDRESS"), "city_hall_phone": text("CITY HALL PHONE")})
    return out.dropna(subset=["ward"]).astype({"ward": int}).sort_values("ward").reset_index(drop=True)


def _attribute(name, label, column, words, links_to=()):
    return Measure(name, label, "text", "ward_offices", agg="attribute", column=column, grains=("ward",),
                   city="none", words=words, caveats=(COUNCIL,), links_to=links_to)


DATASET = Dataset(
    "ward_offices", source="ward_offices", title="Ward offices", time="snapshot",
    frame=lambda d: cached(d, "ward_offices", _frame), dimensions=("ward",), vintage="2019-2023 council",
    coverage=lambda d: ("2019", "2023"),
    words=("ward offices list", "ward-offices list", "ward office list", "list of ward offices"), measures=(
        _attribute("alderperson", "Alderperson", "alderperson", ("alderman", "alderperson", "alderwoman",
                                                                 "council member", "who represents")),
        _attribute("ward_office_address", "Ward office address", "office_address",
                   ("ward office", "their office", "his office", "her office", "office address")),
        # the office's ZIP alone: what links a ward to a ZIP's home value ("what ZIP is it in, and its Zillow value")
        _attribute("ward_office_zip", "Ward office ZIP", "office_zip", ("office zip", "zip is it in",
                                                                        "zip code is it in", "zip is the office",
                                                                        "office's zip", "zip code of the ward office",
                                                                        "zip of the ward office", "office zip code",
                                                                        "ward office's zip", "ward office zip",
                                                                        "zip where the ward office",
                                                                        "zip of its ward office", "zip of its office"),
                   ("zip", r"\b(\d{5})\b")),
        _attribute("ward_office_phone", "Ward office phone", "office_phone",
                   ("ward phone", "ward office phone", "office phone", "office's phone")),
        _attribute("ward_email", "Ward email", "email", ("ward email",)),
        _attribute("city_hall_office", "City Hall office", "city_hall_address", ("city hall office",)),
        _attribute("city_hall_phone", "City Hall phone", "city_hall_phone", ("city hall phone",)),
    ))


def _by_area(data) -> pd.DataFrame:
    """Each office in the community area covering most of its ZIP's land: an office's address has no area of its own."""
    rows = cached(data, "crosswalk_rows", crosswalk.read_rows)
    main = rows.sort_values(["zip", "share_of_zip"], ascending=[True, False]).groupby("zip").head(1)
    area_of = dict(zip(main["zip"], main["area_number"]))
    offices = cached(data, "ward_offices", _frame)
    zips = offices["office_zip"].str[:5]
    located = offices.assign(zip=zips, community_area=zips.map(area_of))
    return located.dropna(subset=["community_area"]).astype({"community_area": int})


# "How many ward offices are in the 10 richest areas": offices counted by the area covering most of their ZIP
BY_AREA = Dataset(
    "ward_offices_by_area", source="ward_offices",
    title="Ward offices by their ZIP and the community area covering most of it",
    time="snapshot", frame=lambda d: cached(d, "ward_offices_by_area", _by_area), dimensions=("community_area", "zip"),
    vintage="2019-2023 council", coverage=lambda d: ("2019", "2023"), measures=(
        Measure("ward_offices_in_area", "Ward offices", "offices", "ward_offices_by_area", agg="count",
                grains=("city", "community_area", "zip"),
                caveats=(COUNCIL, "An office counts in the community area covering most of its ZIP's land (the "
                                  "crosswalk): the file gives an address, no area."),
                # (offices in a set of areas; "how many ward offices have a 60609 zip" lists the offices instead)
                words=("ward offices are in the", "ward offices in the", "ward offices are located in the",
                       "ward offices are there in the", "ward offices have a", "ward offices have the zip"),
                description="ward offices whose ZIP lies mostly in the area"),
    ))
