"""Homicides (CPD crimes extract, HOMICIDE rows): one row per victim, 2001-01-01 to 2023-07-19."""
from __future__ import annotations

import pandas as pd

from semantic.datasets.common import cached
from semantic.model import Dataset, Measure

GRAINS = ("city", "community_area", "ward", "district", "beat")
NIGHT_HOURS = 12  # an hour before noon belongs to the night of the day before: Friday night runs into Saturday
PARTIAL = "The homicide data ends on {end}: its last year is partial."


def _frame(data) -> pd.DataFrame:
    h = data.homicides
    return pd.DataFrame({
        "community_area": h["community_area"], "ward": h["ward"], "district": h["district"], "beat": h["beat"],
        "date": h["date"].dt.strftime("%Y-%m-%d"), "timestamp": h["date"],
        "year": h["year"].astype(int), "month": h["date"].dt.strftime("%Y-%m"),
        "quarter": h["date"].dt.year.astype(str) + "Q" + h["date"].dt.quarter.astype(str),
        "calendar_month": h["month"].astype(int), "month_day": h["date"].dt.strftime("%m-%d"),
        "weekday": h["date"].dt.day_name(),
        "night_weekday": (h["date"] - pd.Timedelta(hours=NIGHT_HOURS)).dt.day_name(),
        "hour": h["date"].dt.hour, "location_type": h["location_description"].astype(str),
        "arrest": h["arrest"], "domestic": h["domestic"], "iucr": h["iucr"].astype(str),
    })


def frame(data):
    return cached(data, "homicides", _frame)


def coverage(data):
    cov = data.coverage["homicides"]
    return cov["start"], cov["end"]


_COMMON = dict(dataset="homicides", grains=GRAINS, caveats=(
    "Only first-degree murder (IUCR 0110) is in the extract; one row per victim.",))

MEASURES = (
    Measure("homicides", "Homicides", "homicides", agg="count", words=(
        "homicides", "homicide", "murders", "murder", "killings", "killed", "victims", "deaths"),
        description="homicide victims (rows of the extract)", **_COMMON),
    Measure("arrests", "Homicides with an arrest", "homicides", agg="count", where=(("arrest", True),),
            words=("arrests", "arrested", "solved", "cleared"), **_COMMON),
    Measure("domestic_homicides", "Domestic homicides", "homicides", agg="count", where=(("domestic", True),),
            words=("domestic",), **_COMMON),
    Measure("arrest_rate", "Arrest rate", "percent", agg="ratio", numerator="arrests", denominator="homicides",
            scale=100.0, decimals=1, words=("arrest rate", "clearance rate", "solve rate"),
            description="the share of homicides with an arrest recorded", **_COMMON),
    Measure("domestic_share", "Domestic share of homicides", "percent", agg="ratio",
            numerator="domestic_homicides", denominator="homicides", scale=100.0, decimals=1,
            words=("domestic share", "share domestic", "percent domestic"),
            description="the share of homicides flagged domestic", **_COMMON),
    Measure("homicide_rate", "Homicides per 100,000 residents a year", "per 100,000 residents a year",
            agg="ratio", numerator="homicides", denominator="person_years", scale=100000.0, decimals=1,
            dataset="homicides", grains=("city", "community_area"), words=(
                "homicide rate", "murder rate", "per capita", "per 100,000", "per 100k"),
            description="homicides / (population x years) x 100,000; the population is chosen by the query's "
                        "'population' (auto: the 2010 census to 2015, ACS 2019-2023 from 2016)",
            caveats=("Population: the 2010 census for years to 2015 and the ACS 2019-2023 estimate from 2016, "
                     "unless the query names one.",)),
    # over the whole period asked (not a year's): "the most homicides per square mile over 2016-2022"
    Measure("homicide_density", "Homicides per square mile", "per square mile", agg="ratio",
            numerator="homicides", denominator="land_area", scale=1.0, decimals=1, dataset="homicides",
            grains=("city", "community_area"), words=(
                "homicides per square mile", "murders per square mile", "killings per square mile",
                "homicides per sq mi", "homicides per sq mile", "victims per square mile", "homicide density"),
            description="homicides over the period / the community area's land area (community_areas.csv)"),
    # over the whole period asked, like the density: "homicides per 1,000 households for 2020-2022 combined"
    Measure("homicides_per_household", "Homicides per 1,000 households (ACS 2019-2023)", "per 1,000 households",
            agg="ratio", numerator="homicides", denominator="households", scale=1000.0, decimals=2,
            dataset="homicides", grains=("city", "community_area"), words=(
                "per 1,000 households", "per 1000 households", "per thousand households", "per household",
                "per 1k households"),
            description="homicides over the period / the ACS 2019-2023 households (the income bands' total) x 1,000"),
)

DATASET = Dataset("homicides", source="homicides", title="Homicides (CPD), 2001-2023", time="event",
                  vintage="2001-01-01 to 2023-07-19",
                  frame=frame, coverage=coverage, measures=MEASURES,
                  dimensions=("community_area", "ward", "district", "beat", "year", "quarter", "month", "date",
                              "calendar_month", "month_day", "weekday", "night_weekday", "hour", "location_type",
                              "arrest", "domestic", "iucr"))
