"""ACS 2019-2023 5-year estimates by community area: residents by race and by age, households by income.

Each group is one row of GROUPS below: a count measure (summed over areas) and a share measure (the count
over its base, recomputed from the sums for a set of areas). A new group is a new row.
"""
from __future__ import annotations

from semantic.datasets.common import cached
from semantic.model import Dataset, Measure

AGES = ("0_to_17", "18_to_24", "25_to_34", "35_to_49", "50_to_64", "65")
INCOME_BANDS = ("under_25_000", "_25_000_to_49_999", "_50_000_to_74_999", "_75_000_to_125_000", "_125_000")

# name, label, base ("residents", "ages" for the age table's own total, or "households"), columns summed, words
GROUPS = (
    ("black", "Black residents", "residents", ("black_or_african_american",), ("black", "african american")),
    ("white", "White residents", "residents", ("white",), ("white",)),
    ("white_non_hispanic", "White non-Hispanic residents", "residents", ("white_not_hispanic_or_latino",),
     ("white non-hispanic",)),
    ("hispanic", "Hispanic or Latino residents", "residents", ("hispanic_or_latino",), ("hispanic", "latino")),
    ("asian", "Asian residents", "residents", ("asian",), ("asian",)),
    ("native_american", "American Indian or Alaska Native residents", "residents", ("american_indian_or_alaska",),
     ("native american",)),
    ("pacific_islander", "Native Hawaiian or Pacific Islander residents", "residents", ("native_hawaiin_or_pacific",),
     ("pacific islander",)),
    ("other_race", "Residents of some other race", "residents", ("other_race",), ("other race",)),
    ("multiracial", "Multiracial residents", "residents", ("multiracial",), ("multiracial", "two or more races")),
    ("children", "Residents aged 0-17", "ages", ("male_0_to_17", "female_0_to_17"), ("children", "kids")),
    ("seniors", "Residents aged 65 and over", "ages", ("male_65", "female_65"), ("seniors", "elderly")),
    ("young_adults", "Residents aged 18-24", "ages", ("male_18_to_24", "female_18_to_24"), ("young adults",)),
    ("age_25_34", "Residents aged 25-34", "ages", ("male_25_to_34", "female_25_to_34"), ()),
    ("age_18_34", "Residents aged 18-34", "ages",
     ("male_18_to_24", "female_18_to_24", "male_25_to_34", "female_25_to_34"),
     ("18-34 year olds", "aged 18 to 34", "18 to 34")),
    ("age_35_49", "Residents aged 35-49", "ages", ("male_35_to_49", "female_35_to_49"), ()),
    ("age_50_64", "Residents aged 50-64", "ages", ("male_50_to_64", "female_50_to_64"), ()),
    ("men", "Male residents", "residents", tuple(f"male_{a}" for a in AGES), ("men", "male")),
    ("women", "Female residents", "residents", tuple(f"female_{a}" for a in AGES), ("women", "female")),
    ("households_under_25k", "Households earning under $25,000", "households", ("under_25_000",),
     ("under $25,000", "low income households")),
    ("households_under_50k", "Households earning under $50,000", "households",
     ("under_25_000", "_25_000_to_49_999"), ("under $50,000",)),
    ("households_25k_50k", "Households earning $25,000-$49,999", "households", ("_25_000_to_49_999",), ()),
    ("households_50k_75k", "Households earning $50,000-$74,999", "households", ("_50_000_to_74_999",), ()),
    ("households_75k_125k", "Households earning $75,000-$124,999", "households", ("_75_000_to_125_000",), ()),
    ("households_125k_plus", "Households earning $125,000 and over", "households", ("_125_000",),
     ("$125,000 and over", "top income band", "high income households", "wealthy households")),
)

CAVEAT = "ACS 2019-2023 5-year figures are survey estimates with margins of error, not counts."
INCOME_EDGES = (0, 25_000, 50_000, 75_000, 125_000)  # each income band's lower edge; the top band is open
MEDIAN_CAVEAT = ("The median household income is an ESTIMATE interpolated from the five ACS income bands (the "
                 "middle household's band, its households assumed spread evenly); where the middle household is in "
                 "the open $125,000+ band the figure is that band's floor, $125,000: read it as 'above $125,000'.")


def _frame(data):
    acs = data.census_acs
    out = acs[["area_number", "total_population"]].rename(columns={"area_number": "community_area"}).copy()
    out["households"] = acs[list(INCOME_BANDS)].sum(axis=1)
    # The age table's own total: its bands differ from total_population by up to 2 in 11 areas (source rounding),
    # so an age group's share is of this total, as its bands add up to 100%.
    out["residents_by_age"] = acs[[f"{sex}_{a}" for sex in ("male", "female") for a in AGES]].sum(axis=1)
    for name, _label, _base, columns, _words in GROUPS:
        out[name] = acs[list(columns)].sum(axis=1)
    return out.reset_index(drop=True)


def frame(data):
    return cached(data, "census", _frame)


_COMMON = dict(dataset="census", grains=("city", "community_area"), caveats=(CAVEAT,))


def _measures():
    out = [Measure("households", "Households", "households", column="households", agg="sum",
                   words=("households",), **_COMMON),
           Measure("residents_by_age", "Residents (age table)", "people", column="residents_by_age", agg="sum",
                   description="the age table's own total (sums of its bands)", **_COMMON)]
    for name, label, base, _columns, words in GROUPS:
        unit = "households" if base == "households" else "people"  # "ages" are people too
        out.append(Measure(name, label, unit, column=name, agg="sum", words=words, **_COMMON))
        share_of = label[0].lower() + label[1:] if label.split()[0] in ("Residents", "Households") else label
        out.append(Measure(f"share_{name}", f"Share of {share_of}", "percent", agg="ratio", numerator=name,
                           denominator={"households": "households", "ages": "residents_by_age"}.get(base, "population"),
                           scale=100.0,
                           decimals=1, words=tuple(f"share {w}" for w in words) + tuple(f"percent {w}" for w in words),
                           **_COMMON))
    out.append(Measure("median_household_income", "Median household income (estimated from income bands)", "dollars",
                       agg="band_median", parts=("households_under_25k", "households_25k_50k", "households_50k_75k",
                                                 "households_75k_125k", "households_125k_plus"),
                       edges=INCOME_EDGES, dataset="census", grains=("city", "community_area"),
                       caveats=(CAVEAT, MEDIAN_CAVEAT), description="an estimate: the data publishes no median, only "
                       "households by income band (semantic/estimates.py); over a set of areas, from their summed bands"))
    return tuple(out)


DATASET = Dataset("census", source="census_acs", title="ACS 2019-2023 5-year, by community area",
                  time="snapshot", frame=frame, dimensions=("community_area",), vintage="2019-2023 (ACS 5-year)",
                  coverage=lambda d: ("2019", "2023"), measures=_measures())
