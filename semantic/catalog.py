"""Every declaration gathered once: the datasets, their measures, the dimensions and the join paths."""
from __future__ import annotations

import functools

from semantic.datasets import (census, crosswalk, home_values, homicides, iucr, population, price_index, redfin,
                               socioeconomic, stations, ward_offices)
from semantic.dimensions import DIMENSIONS
from semantic.model import Catalog
from semantic.not_held import labels as not_held

DATASETS = (homicides.DATASET, population.PERSON_YEARS, population.POPULATION, socioeconomic.DATASET,
            census.DATASET, home_values.DATASET, price_index.INDEX, price_index.SUMMARY, stations.DATASET,
            stations.STANDING, stations.HEADQUARTERS, ward_offices.DATASET, ward_offices.BY_AREA, redfin.DATASET,
            iucr.DATASET, crosswalk.ZIP_AREAS, crosswalk.AREA_ZIPS)
JOINS = (home_values.JOIN, stations.JOIN, price_index.JOIN)


@functools.lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The declarations, checked once: a measure names a dataset, and a ratio's parts exist."""
    cat = Catalog()
    for dataset in DATASETS:
        cat.datasets[dataset.name] = dataset
        for measure in dataset.measures:
            if measure.name in cat.measures:
                raise ValueError(f"measure {measure.name} is declared twice")
            cat.measures[measure.name] = measure
    for dimension in DIMENSIONS:
        cat.dimensions[dimension.name] = dimension
    cat.joins.extend(JOINS)
    for measure in cat.measures.values():
        if measure.dataset not in cat.datasets:
            raise ValueError(f"measure {measure.name}: unknown dataset {measure.dataset}")
        for part in (measure.numerator, measure.denominator, measure.weight, measure.of, *measure.parts):
            if part is not None and part not in cat.measures:
                raise ValueError(f"measure {measure.name}: unknown part {part}")
    return cat


def public_measures() -> list[str]:
    """The measures a query may ask for (person-years is a rate's denominator, not a figure of its own)."""
    return [name for name in catalog().measures if name != "person_years"]


def describe() -> dict:
    """The catalogue as data, for /api/query/catalog, the MCP list tool and the docs."""
    cat = catalog()
    return {
        "measures": [{"name": m.name, "label": m.label, "unit": m.unit, "dataset": m.dataset,
                      "aggregation": m.agg, "grains": list(m.grains), "derived_grains": list(m.derived_grains),
                      "period": cat.datasets[m.dataset].vintage, "description": m.description,
                      "words": list(m.words), "caveats": list(m.caveats)}
                     for m in cat.measures.values() if m.name in public_measures()],
        "dimensions": [{"name": d.name, "label": d.label, "kind": d.kind, "description": d.description,
                        "words": list(d.words), **({"member_words": dict(d.member_words)} if d.member_words else {})}
                       for d in cat.dimensions.values()],
        "joins": [{"from": j.source, "to": j.target, "method": j.method} for j in cat.joins],
        "not_held": not_held(),  # subjects asked about that no dataset holds
    }

