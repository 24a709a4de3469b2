"""get_iucr_info checked against the raw IUCR and homicide CSV files (read with the csv module)."""
import csv

import pytest

NAME = "get_iucr_info"


@pytest.fixture(scope="module")
def iucr_rows(data_dir):
    with open(data_dir / "iucr_codes.csv", newline="") as fh:
        return {row["IUCR"]: row for row in csv.DictReader(fh)}


@pytest.fixture(scope="module")
def homicide_codes(data_dir):
    counts: dict[str, int] = {}
    with open(data_dir / "homicides.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            code = row["IUCR"].zfill(4)
            counts[code] = counts.get(code, 0) + 1
    return counts


@pytest.mark.full_data
def test_overview_lists_homicide_codes(registry, homicide_codes):
    res = registry.run(NAME, {})
    assert res.ok, res.error
    assert [c["code"] for c in res.values["codes"]] == ["0110", "0130", "0141", "0142"]
    assert res.values["present_codes"] == [c for c in ("0110", "0130", "0141", "0142") if c in homicide_codes]
    assert res.values["present_codes"] == ["0110"]
    assert res.values["absent_codes"] == ["0130", "0141", "0142"]
    assert res.values["codes"][0]["homicide_rows"] == homicide_codes["0110"] == 12657
    assert "12,657" in res.text
    assert [s["key"] for s in res.sources] == ["iucr", "homicides"]


@pytest.mark.parametrize("code", ["0110", "110", 110, " 0110 ", "IUCR 0110"])
def test_code_0110(registry, iucr_rows, homicide_codes, code):
    res = registry.run(NAME, {"code": code})
    assert res.ok, res.error
    raw = iucr_rows["0110"]
    v = res.values
    assert (v["code"], v["primary"], v["secondary"]) == ("0110", raw["PRIMARY DESCRIPTION"],
                                                         raw["SECONDARY DESCRIPTION"])
    assert v["index_code"] == raw["INDEX CODE"] and v["active"] == (raw["ACTIVE"] == "true")
    assert v["homicide_rows"] == homicide_codes["0110"]


@pytest.mark.parametrize("code", ["0130", "0141", "0142"])
def test_absent_homicide_codes(registry, iucr_rows, code):
    res = registry.run(NAME, {"code": code})
    assert res.ok
    assert res.values["homicide_rows"] == 0 and res.values["in_homicide_snapshot"] is False
    assert res.values["secondary"] == iucr_rows[code]["SECONDARY DESCRIPTION"]
    assert "absent" in res.text


def test_non_homicide_code(registry, iucr_rows):
    code = next(c for c, r in iucr_rows.items() if r["PRIMARY DESCRIPTION"] != "HOMICIDE")
    res = registry.run(NAME, {"code": code})
    assert res.ok and res.values["primary"] == iucr_rows[code]["PRIMARY DESCRIPTION"]
    assert res.values["homicide_rows"] == 0


def test_description_lookup(registry):
    res = registry.run(NAME, {"code": "reckless homicide"})
    assert res.ok and res.values["code"] == "0142"
    assert registry.run(NAME, {"code": "homicide"}).values["present_codes"] == ["0110"]


@pytest.mark.parametrize("code,needles", [
    ("0111", ["0110", "closest"]),
    ("9999", ["closest"]),
    ("xyz", ["0110"]),
])
def test_unknown_code(registry, code, needles):
    res = registry.run(NAME, {"code": code})
    assert not res.ok
    for needle in needles:
        assert needle in res.error["message"]


def test_unknown_argument(registry):
    res = registry.run(NAME, {"iucr": "0110"})
    assert not res.ok and "code" in res.error["message"]


@pytest.mark.parametrize("code", ["' OR 1=1 --", "1=1; DROP TABLE iucr", "or", "\" or \"\"=\""])
def test_injection_like_codes_match_nothing(registry, code):
    result = registry.run("get_iucr_info", {"code": code})
    assert not result.ok and result.error["code"] == "unknown_code"
    message = result.error["message"]
    assert "no IUCR code matches" in message or "unknown IUCR code" in message
    assert "Homicide codes are 0110" in message  # says what is valid
