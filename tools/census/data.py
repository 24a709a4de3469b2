"""What query_census_demographics reads: the column vocabulary (income bands, race groups, age bands and
the keys built from them), the per-bundle area and city table, and the vintage rule for ``year``."""
from __future__ import annotations

import datetime

from semantic.executor import run_query
from tools.errors import ToolArgumentError
from tools import names

TOOL_NAME = names.CENSUS
CACHE_KEY = "_census_cache"
METRIC_NAMES = ["population", "income", "race", "age", "all", "median_income_estimate"]
ACS_LABEL = "ACS 2019-2023 5-year"
CENSUS_2010_LABEL = "2010 Census"
FIRST_YEAR = 2000
LAST_2010_YEAR = 2015  # years up to here are nearer the 2010 count than the ACS 2019-2023 midpoint (2021)

# (source column, key, label)
INCOME_BANDS = [
    ("under_25_000", "under_25k", "under $25,000"),
    ("_25_000_to_49_999", "25k_to_50k", "$25,000-$49,999"),
    ("_50_000_to_74_999", "50k_to_75k", "$50,000-$74,999"),
    ("_75_000_to_125_000", "75k_to_125k", "$75,000-$125,000"),
    ("_125_000", "125k_plus", "$125,000 and over"),
]
RACE_GROUPS = [
    ("black_or_african_american", "black", "Black"),
    ("hispanic_or_latino", "hispanic_or_latino", "Hispanic or Latino (any race)"),
    ("white_not_hispanic_or_latino", "white_not_hispanic", "White, not Hispanic"),
    ("white", "white", "White (incl. Hispanic)"),
    ("asian", "asian", "Asian"),
    ("american_indian_or_alaska", "american_indian", "American Indian/Alaska Native"),
    ("native_hawaiin_or_pacific", "pacific_islander", "Native Hawaiian/Pacific Islander"),
    ("other_race", "other_race", "some other race"),
    ("multiracial", "multiracial", "two or more races"),
]
AGE_BANDS = [
    ("0_to_17", "age_0_17", "0-17"),
    ("18_to_24", "age_18_24", "18-24"),
    ("25_to_34", "age_25_34", "25-34"),
    ("35_to_49", "age_35_49", "35-49"),
    ("50_to_64", "age_50_64", "50-64"),
    ("65", "age_65_plus", "65+"),
]

INCOME_KEYS = ["households"] + [f"households_{k}" for _, k, _ in INCOME_BANDS] + \
    [f"pct_households_{k}" for _, k, _ in INCOME_BANDS]
RACE_KEYS = ["population"] + [k for _, k, _ in RACE_GROUPS] + [f"pct_{k}" for _, k, _ in RACE_GROUPS]
AGE_KEYS = ["age_total"] + [k for _, k, _ in AGE_BANDS] + [f"pct_{k}" for _, k, _ in AGE_BANDS]
POPULATION_KEYS = ["population", "population_acs_2023", "population_2010", "population_change",
                   "population_change_pct"]
METRIC_KEYS = {"population": POPULATION_KEYS, "income": INCOME_KEYS, "race": RACE_KEYS, "age": AGE_KEYS}
METRIC_KEYS["all"] = POPULATION_KEYS + INCOME_KEYS + RACE_KEYS[1:] + AGE_KEYS

# The columns a comparison or ranking table shows (values["rows"] keep every key of the metric).
TABLE_KEYS = {
    "population": POPULATION_KEYS,
    "income": ["households"] + [f"pct_households_{k}" for _, k, _ in INCOME_BANDS],
    "race": ["population"] + [f"pct_{k}" for _, k, _ in RACE_GROUPS],
    "age": [f"pct_{k}" for _, k, _ in AGE_BANDS],
    "all": ["population", "population_2010", "households", "pct_households_under_25k", "pct_households_125k_plus",
            "pct_black", "pct_hispanic_or_latino", "pct_white_not_hispanic", "pct_asian", "pct_age_0_17",
            "pct_age_65_plus"],
}

# group -> (metric, share column used as the rank key, label)
GROUPS: dict[str, tuple[str, str, str]] = {}
for _, _key, _label in RACE_GROUPS:
    GROUPS[_key] = ("race", f"pct_{_key}", f"share {_label}")
for _, _key, _label in INCOME_BANDS:
    GROUPS[_key] = ("income", f"pct_households_{_key}", f"share of households {_label}")
for _, _key, _label in AGE_BANDS:
    GROUPS[_key] = ("age", f"pct_{_key}", f"share aged {_label}")
GROUP_NAMES = list(GROUPS)
# group -> (count column, label): "the second biggest Black population" ranks by how many, not by the share.
GROUP_COUNTS: dict[str, tuple[str, str]] = {}


def residents_phrase(label: str) -> str:
    """"Hispanic or Latino (any race)" -> "Hispanic or Latino residents (any race)"; "two or more races" ->
    "residents of two or more races"."""
    if label[0].islower():
        return "residents of " + label
    name, bracket, rest = label.partition(" (")
    return f"{name} residents" + (f" ({rest}" if bracket else "")


for _, _key, _label in RACE_GROUPS:
    GROUP_COUNTS[_key] = (_key, f"number of {residents_phrase(_label)}")
for _, _key, _label in INCOME_BANDS:
    GROUP_COUNTS[_key] = (f"households_{_key}", f"number of households earning {_label}")
for _, _key, _label in AGE_BANDS:
    GROUP_COUNTS[_key] = (_key, f"number of residents aged {_label}")
RANK_BY = ["share", "count", "change", "change_pct"]
# "which area grew the most since 2010": the population's change from the 2010 Census to ACS 2019-2023, in residents
# or in percent ("grew faster").
_CHANGE_KEYS = {"change": "population_change", "change_pct": "population_change_pct"}
DEFAULT_RANK = {"population": "population", "income": "pct_households_125k_plus", "race": "population",
                "age": "pct_age_65_plus", "all": "population"}
RANK_LABEL = {"population": "population", "pct_households_125k_plus": "share of households $125,000 and over",
              "pct_age_65_plus": "share aged 65+"}
RANK_LABEL.update({col: label for _, (_, col, label) in GROUPS.items()})
RANK_LABEL.update({col: label for col, label in GROUP_COUNTS.values()})
RANK_LABEL.update({"population_change": "population change since 2010 (residents)",
                   "population_change_pct": "population change since 2010 (percent)"})


def rank_key(metric: str, group: str | None, rank_by: str) -> str:
    """The column a ranking or comparison orders by: the group's share or count, else the metric's default."""
    if rank_by in _CHANGE_KEYS:
        if group or metric not in ("population", "all"):
            raise ToolArgumentError(f"rank_by '{rank_by}' ranks by the population's change since the 2010 Census: "
                                    "give metric 'population' and no group", "invalid_choice")
        return _CHANGE_KEYS[rank_by]
    if group:
        return GROUP_COUNTS[group][0] if rank_by == "count" else GROUPS[group][1]
    if rank_by == "count" and metric not in ("population", "all"):
        raise ToolArgumentError(f"rank_by 'count' needs a group (which residents or households to count) for "
                                f"metric '{metric}'; without one, metric 'population' ranks by the number of "
                                "residents", "invalid_choice")
    return DEFAULT_RANK[metric]


# ------------------------------------------------------------------ per-bundle cache (queries of the layer)

# A record's key -> the layer's measure (semantic/datasets/census.py and population.py); a share key is its
# count's share measure.
LAYER_RACE = {"black": "black", "hispanic_or_latino": "hispanic", "white_not_hispanic": "white_non_hispanic",
              "white": "white", "asian": "asian", "american_indian": "native_american",
              "pacific_islander": "pacific_islander", "other_race": "other_race", "multiracial": "multiracial"}
LAYER_INCOME = {"under_25k": "households_under_25k", "25k_to_50k": "households_25k_50k",
                "50k_to_75k": "households_50k_75k", "75k_to_125k": "households_75k_125k",
                "125k_plus": "households_125k_plus"}
LAYER_AGE = {"age_0_17": "children", "age_18_24": "young_adults", "age_25_34": "age_25_34",
             "age_35_49": "age_35_49", "age_50_64": "age_50_64", "age_65_plus": "seniors"}


def _layer_measures() -> list[tuple[str, str]]:
    """(record key, measure) for every figure a record holds but the population change (a derived column)."""
    out = [("population_acs_2023", "population"), ("population_2010", "population_2010"),
           ("households", "households"), ("age_total", "residents_by_age")]
    out += [(f"households_{k}", m) for k, m in LAYER_INCOME.items()]
    out += [(f"pct_households_{k}", f"share_{m}") for k, m in LAYER_INCOME.items()]
    for mapping in (LAYER_RACE, LAYER_AGE):
        out += [(k, m) for k, m in mapping.items()] + [(f"pct_{k}", f"share_{m}") for k, m in mapping.items()]
    return out


CHANGE = [{"name": "population_change", "op": "change", "of": ["population_2010", "population_acs_2023"]},
          {"name": "population_change_pct", "op": "pct_change", "of": ["population_2010", "population_acs_2023"]}]


def _typed(key: str, value):
    """Counts as whole numbers; shares and the percent change to one decimal, as the tool shows them."""
    if value is None:
        return None
    if key.startswith("pct_") or key == "population_change_pct":
        return round(value, 1)
    return int(round(value))


def _query_records(data) -> tuple[dict, dict]:
    """The 77 areas' records and the city's (the areas' sums, shares recomputed from them): the layer's counts and
    shares by community area and with no grouping, twelve measures a query."""
    pairs = _layer_measures()
    by_area: dict = {}
    city: dict = {}
    for i in range(0, len(pairs), 12):
        chunk = pairs[i:i + 12]
        query = {"measures": [{"measure": m, "as": k} for k, m in chunk]}
        if i == 0:
            query["derived"] = CHANGE
        keys = [k for k, _ in chunk] + [d["name"] for d in query.get("derived", [])]
        for row in run_query(data, {**query, "group_by": ["community_area"]}).rows:
            record = by_area.setdefault(int(row["community_area"]), {"name": row["community_area_name"]})
            record.update({k: _typed(k, row[k]) for k in keys})
        row = run_query(data, query).rows[0]
        city.update({k: _typed(k, row[k]) for k in keys})
    return by_area, city


def bundle_cache(data) -> dict:
    cached = data.__dict__.get(CACHE_KEY)
    if cached is not None and cached["source"] is data.census_acs:
        return cached
    by_area, city_values = _query_records(data)
    order = [k for k in METRIC_KEYS["all"] if k != "population"]
    city = {k: city_values[k] for k in order}
    records = {n: {"community_area": n, "name": r["name"], **{k: r[k] for k in order}}
               for n, r in sorted(by_area.items())}
    cached = {"source": data.census_acs, "records": records, "city": city}
    data.__dict__[CACHE_KEY] = cached
    return cached


# ------------------------------------------------------------------ vintage rule

def vintage_for(year, metric) -> tuple[str, str | None]:
    """(population vintage 'acs' | '2010', note or None) for the asked-for year."""
    now = datetime.date.today().year
    if year is None:
        return "acs", None
    if year < FIRST_YEAR or year > now:
        raise ToolArgumentError(
            f"year {year} is outside what the census tool holds: the 2010 Census population (used for years "
            f"{FIRST_YEAR}-{LAST_2010_YEAR}) and ACS 2019-2023 5-year estimates (used for 2016-{now}); "
            f"give a year from {FIRST_YEAR} to {now} or leave year out for the latest", "out_of_range")
    notes = []
    if year <= LAST_2010_YEAR:
        vintage = "2010" if metric in ("population", "all") else "acs"
        if metric in ("population", "all") and year != 2010:
            notes.append(f"Population for {year} is the 2010 Census count, the nearest count held "
                         f"(rule: {FIRST_YEAR}-{LAST_2010_YEAR} -> 2010 Census, later years -> ACS 2019-2023).")
        if metric != "population":
            notes.append(f"Income, race and age exist only as ACS 2019-2023 estimates, so they describe "
                         f"2019-2023, not {year}.")
    else:
        vintage = "acs"
        if not 2019 <= year <= 2023:
            notes.append(f"No figures for {year} are held; answered with the ACS 2019-2023 5-year estimates "
                         "(the latest vintage held).")
    return vintage, " ".join(notes) or None


def with_population(record: dict, vintage: str) -> dict:
    out = dict(record)
    out["population"] = record["population_2010"] if vintage == "2010" else record["population_acs_2023"]
    return out
