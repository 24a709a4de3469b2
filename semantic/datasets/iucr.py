"""The IUCR code list (CPD): each crime code's kind (primary description), its description, whether it is an
index crime, and whether the code is active. Homicide rows carry their code, so they count by it."""
from __future__ import annotations

import re

from semantic.datasets.common import cached
from semantic.errors import QueryError
from semantic.model import Dataset, Measure


def _frame(data):
    i = data.iucr
    return i.assign(iucr=i["iucr"].astype(str), crime_type=i["primary"].astype(str)).reset_index(drop=True)


def frame(data):
    return cached(data, "iucr", _frame)


def codes(data) -> list[str]:
    """Every code, in the file's order (the catalogue's own)."""
    return list(frame(data)["iucr"])


def normal_code(value) -> str:
    """"110", "iucr 0110" -> "0110": the catalogue writes four characters."""
    text = re.sub(r"^IUCR\s*(CODE)?\s*", "", str(value).strip().upper()).strip()
    return text.zfill(4) if text.isdigit() and len(text) < 4 else text


def resolve_code(data, value) -> str:
    code = normal_code(value)
    if code not in set(codes(data)):
        raise QueryError(f"unknown IUCR code {value!r}; homicide codes are "
                         f"{', '.join(codes_of_kind(data, 'HOMICIDE'))}", "unknown_member")
    return code


def kinds(data) -> list[str]:
    return list(dict.fromkeys(frame(data)["crime_type"]))


def resolve_kind(data, value) -> str:
    text = str(value).strip().upper()
    if text not in kinds(data):
        raise QueryError(f"unknown kind of crime {value!r} (the IUCR primary descriptions)", "unknown_member")
    return text


def codes_of_kind(data, kind: str) -> list[str]:
    f = frame(data)
    return list(f.loc[f["crime_type"] == kind, "iucr"])


def _attribute(name, label, column, words, unit="text"):
    return Measure(name, label, unit, "iucr", agg="attribute", column=column, grains=("city",), words=words)


DATASET = Dataset(
    "iucr", source="iucr", title="IUCR codes (CPD)", time="snapshot", frame=frame, dimensions=("iucr", "crime_type"),
    vintage="current list", coverage=lambda d: ("current", "current"), measures=(
        _attribute("iucr_kind", "Kind of crime (IUCR primary description)", "crime_type", ()),
        _attribute("iucr_description", "IUCR description", "secondary", ()),
        _attribute("iucr_index_code", "IUCR index code (I = index crime, N = not)", "index_code", ()),
        _attribute("iucr_active", "IUCR code active", "active", (), unit="flag"),
    ))
