"""Ward offices (2019-2023 council): each ward's alderperson, office address and phone.

Read here straight from the file (the loader keeps only two columns): this module is the whole of what
adding the dataset took.
"""
from __future__ import annotations

import pandas as pd

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
