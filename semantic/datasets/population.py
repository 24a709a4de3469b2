"""Population by community area: the 2010 census count, the ACS 2019-2023 estimate, and the person-years
a homicide rate divides by (each year of a period counts its vintage's population once)."""
from __future__ import annotations

import pandas as pd

from semantic.datasets.common import cached
from semantic.model import Dataset, Measure

SWITCH_YEAR = 2016  # first year whose denominator is the ACS estimate (the tools' rule: tools/homicide/rates.py)
POPULATIONS = {"auto": "population_auto", "acs_2019_2023": "population_acs", "census_2010": "population_2010",
               "acs_age_18_34": "population_18_34"}
POPULATION_LABELS = {"auto": "the 2010 census to 2015 and the ACS 2019-2023 estimate from 2016",
                     "acs_2019_2023": "the ACS 2019-2023 5-year estimate", "census_2010": "the 2010 census",
                     "acs_age_18_34": "the residents aged 18-34 (ACS 2019-2023 5-year estimate)"}
# an age band a rate can be "per 100,000 residents aged ..." of: its ACS columns
AGE_BANDS = {"population_18_34": ("male_18_to_24", "female_18_to_24", "male_25_to_34", "female_25_to_34")}
AGE_POPULATIONS = {"acs_age_18_34": "residents aged 18-34"}  # a rate's label names the band it is per


def _areas(data) -> pd.DataFrame:
    acs = data.census_acs.set_index("area_number")["total_population"]
    p10 = data.population_2010.set_index("area_number")["population"]
    land = data.community_areas.set_index("area_number")["area_sq_mi"]
    bands = {name: data.census_acs.set_index("area_number")[list(columns)].sum(axis=1)
             for name, columns in AGE_BANDS.items()}
    return pd.DataFrame({"community_area": range(1, 78)}).assign(
        **{name: (lambda f, s=s: f["community_area"].map(s).astype(float)) for name, s in bands.items()},
        population_acs=lambda f: f["community_area"].map(acs).astype(float),
        population_2010=lambda f: f["community_area"].map(p10).astype(float),
        land_sq_mi=lambda f: f["community_area"].map(land).astype(float))


def _person_years(data) -> pd.DataFrame:
    cov = data.coverage["homicides"]
    areas = _areas(data)
    years = pd.DataFrame({"year": range(int(cov["first_year"]), int(cov["last_year"]) + 1)})
    out = areas.merge(years, how="cross")
    out["population_auto"] = out["population_2010"].where(out["year"] < SWITCH_YEAR, out["population_acs"])
    return out


def person_years_frame(data):
    return cached(data, "person_years", _person_years)


def area_frame(data):
    return cached(data, "population_areas", _areas)


PERSON_YEARS = Dataset(
    "person_years", source="census_acs", title="Population by year (2010 census / ACS 2019-2023)", time="event", vintage="2001-2023",
    frame=person_years_frame, dimensions=("community_area", "year"),
    coverage=lambda d: (f"{d.coverage['homicides']['first_year']}-01-01", d.coverage["homicides"]["end"]),
    measures=(Measure("person_years", "Person-years", "person-years", "person_years", agg="sum",
                      column="{population}", grains=("city", "community_area"),
                      description="population x years in the period, by the query's population choice"),))

POPULATION = Dataset(
    "population", source="census_acs", title="Population by community area", time="snapshot",
    frame=area_frame, dimensions=("community_area",), coverage=lambda d: ("2010", "2023"), vintage="2010; 2019-2023",
    measures=(
        Measure("population", "Residents (ACS 2019-2023)", "people", "population", agg="sum", column="population_acs",
                grains=("city", "community_area"), words=("population", "residents", "people", "live"),
                caveats=("ACS populations are survey estimates with margins of error, not counts.",),
                description="ACS 2019-2023 5-year estimate of total population"),
        Measure("population_2010", "Residents (2010 census)", "people", "population", agg="sum",
                column="population_2010", grains=("city", "community_area"), words=("2010 census", "2010 population"),
                description="the 2010 census count"),
        Measure("land_area", "Land area", "square miles", "population", agg="sum", column="land_sq_mi", decimals=2,
                grains=("city", "community_area"),
                words=("land area", "square miles", "sq miles", "size in square", "by size"),
                description="the community area's land area (community_areas.csv)"),
        Measure("population_density", "Residents per square mile (ACS 2019-2023)", "people per square mile",
                "population", agg="ratio", numerator="population", denominator="land_area", scale=1.0,
                grains=("city", "community_area"), words=(
                    "population density", "density", "densities", "densely populated", "densely settled", "densest",
                    "denser populated", "denser settled", "denser", "less dense",
                    *(f"{who} {per} {unit}" for who in ("people", "residents", "persons") for per in ("per", "a")
                      for unit in ("square mile", "sq mile", "sq mi", "square mi"))),
                description="ACS 2019-2023 population / land area"),
        Measure("population_change", "Population change, 2010 census to ACS 2019-2023", "people", "population",
                agg="ratio", numerator="population", denominator="population_2010", scale=1.0, decimals=3,
                grains=("city", "community_area"), words=("grew", "growth", "lost people"),
                description="ACS 2019-2023 population / 2010 census population (1.05 = 5% more)"),
    ))
