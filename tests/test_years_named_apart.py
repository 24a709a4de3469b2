"""Two years named apart over a long range ("the arrest rate in 2002, and in 2022"; "homicides in 2002 and in 2022"):
each year's figure leads, not the 21-year total the tool counted to reach both (blind24's silently wrong answer).
Figures from plain pandas over homicides.csv."""
from __future__ import annotations

import pandas as pd
import pytest

from tests import semantic_reference as ref
from tests.planner_helpers import lead

pytestmark = pytest.mark.full_data


def _raw() -> pd.DataFrame:
    h = pd.read_csv(ref.DATA / "homicides.csv", dtype=str, usecols=["Year", "Arrest"])
    return h.assign(year=h["Year"].astype(int), arrest=h["Arrest"].str.lower() == "true")


def test_each_years_arrest_rate_leads(ask):
    h = _raw()
    rates = {y: h[h.year == y].arrest.mean() * 100 for y in (2002, 2022)}
    text = lead(ask("Homicide arrest rate (percent of cases flagged arrest) in 2002, and in 2022?"))
    assert text.startswith(f"The homicide arrest rate in Chicago went from {rates[2002]:.1f}% in 2002 to "
                           f"{rates[2022]:.1f}% in 2022")


def test_each_years_count_leads(ask):
    counts = _raw()["year"].value_counts()
    text = lead(ask("homicides in 2002 and in 2022?"))
    assert text.startswith(f"There were {counts[2002]:,} homicides in Chicago in 2002; {counts[2022]:,} in 2022.")
    # A range asked as one stays one total.
    total = int(counts[(counts.index >= 2002) & (counts.index <= 2022)].sum())
    assert lead(ask("how many homicides from 2002 to 2022")).startswith(f"There were {total:,} homicides in Chicago "
                                                                        "from 2002 to 2022")
