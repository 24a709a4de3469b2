"""IUCR code lookup: what a crime code means and how many homicide rows use it.

A thin view of the semantic layer: the code list with each code's homicide rows is one query of the layer's IUCR
measures by code (semantic/datasets/iucr.py), made once per bundle; this module keeps the tool's schema, finds a
code by its description and shapes the answer."""
from __future__ import annotations

import difflib
import re

import pandas as pd

from semantic.executor import run_query
from tools.common import HOMICIDE_CODE_CAVEAT, fmt_int, make_result
from tools.errors import ToolArgumentError
from tools.registry import Tool
from tools import names

TOOL_NAME = names.IUCR
HOMICIDE_CODES = ["0110", "0130", "0141", "0142"]

PARAMETERS = {
    "type": "object",
    "properties": {
        "code": {"type": "string",
                 "description": "an IUCR code such as 0110; leave out for an overview of the homicide codes"},
    },
    "required": [],
}

DESCRIPTION = ("Explain Chicago police IUCR crime codes: a code's description, index-crime flag and how many "
               "homicide rows use it; with no code, list the homicide codes (0110, 0130, 0141, 0142).")


def _normalise_code(text: str) -> str:
    code = str(text).strip().upper()
    code = re.sub(r"^(IUCR\s*(CODE)?\s*)", "", code).strip()
    if code.isdigit() and len(code) < 4:
        code = code.zfill(4)
    return code


def _code_record(row: dict) -> dict:
    count = int(row["homicides"])
    return {"code": row["iucr"], "primary": row["iucr_kind"], "secondary": row["iucr_description"],
            "index_code": row["iucr_index_code"], "index_crime": row["iucr_index_code"] == "I",
            "active": bool(row["iucr_active"]), "homicide_rows": count, "in_homicide_snapshot": count > 0}


def _closest(codes: list[str], code: str, n: int = 5) -> list[str]:
    """Numerically nearest codes for a number, else the most similar spellings, else the homicide codes."""
    if code.isdigit():
        return sorted((c for c in codes if c.isdigit()), key=lambda c: (abs(int(c) - int(code)), c))[:n]
    return difflib.get_close_matches(code, codes, n=n, cutoff=0.5) or list(HOMICIDE_CODES)


def _description_words(text: str) -> list[str]:
    """Words of 3+ letters: "OR", "1" or "--" would match inside unrelated descriptions (' OR 1=1 --' -> 1821)."""
    return [w for w in re.split(r"[^A-Z]+", str(text).upper()) if len(w) >= 3]


def _by_description(iucr: pd.DataFrame, text: str) -> pd.DataFrame:
    """Codes whose primary or secondary description contains every word (3+ letters) of ``text``."""
    words = _description_words(text)
    if not words:
        return iucr.iloc[0:0]
    both = iucr["primary"].str.upper() + " " + iucr["secondary"].str.upper()
    mask = pd.Series(True, index=iucr.index)
    for word in words:
        mask &= both.str.contains(rf"\b{word}\b", regex=True)
    return iucr[mask]


CODE_QUERY = {"measures": ["iucr_kind", "iucr_description", "iucr_index_code", "iucr_active", "homicides"],
              "group_by": ["iucr"]}


def _catalogue(data) -> tuple[dict, int]:
    """Per bundle: IUCR code -> its record (kind, description, index code, active, homicide rows), in file order,
    and the homicide rows in all: two queries of the layer."""
    cached = data.__dict__.get("_iucr_catalogue")
    if cached is None or cached[0] is not data.iucr:
        records = {row["iucr"]: _code_record(row) for row in run_query(data, CODE_QUERY).rows}
        total = int(run_query(data, {"measures": ["homicides"]}).rows[0]["homicides"])
        cached = (data.iucr, records, total)
        data.__dict__["_iucr_catalogue"] = cached
    return cached[1], cached[2]


def _table(records: list[dict], columns: list[str]) -> dict:
    return {"columns": columns, "rows": [[r[c] for c in columns] for r in records]}


def get_iucr_info(data, code=None):
    iucr = data.iucr
    catalogue, total_rows = _catalogue(data)
    if code is not None:
        key = _normalise_code(code)
        row = catalogue.get(key)
        if row is None and not key.isdigit() and len(key) > 4:
            found = _by_description(iucr, code)
            if len(found) > 1 and set(found["iucr"]) == set(HOMICIDE_CODES):
                return get_iucr_info(data, None)  # "homicide" asks for the overview
            if len(found) > 1:
                listed = [f"{c} ({p} - {s})" for c, p, s in
                          zip(found["iucr"], found["primary"], found["secondary"])][:8]
                raise ToolArgumentError(
                    f"'{code}' matches {len(found)} IUCR codes: {'; '.join(listed)}. Ask for one code.",
                    "ambiguous_code")
            if len(found) == 1:
                row = catalogue[found["iucr"].iloc[0]]
                key = row["code"]
        if row is None and not re.fullmatch(r"[0-9A-Z]{1,4}", key):
            raise ToolArgumentError(
                f"no IUCR code matches {str(code)[:80]!r}: give a code such as 0110 (4 digits or letters) or words "
                f"of 3+ letters from a code's description. Homicide codes are {', '.join(HOMICIDE_CODES)}.",
                "unknown_code")
        if row is None:
            close = _closest(list(catalogue), key)
            described = [f"{c} ({catalogue[c]['secondary']})" for c in close]
            raise ToolArgumentError(
                f"unknown IUCR code '{code}'. The catalogue has {len(iucr)} codes; closest: "
                f"{', '.join(described)}. Homicide codes are {', '.join(HOMICIDE_CODES)}.", "unknown_code")
        record = dict(row)
        share = 100.0 * record["homicide_rows"] / total_rows if total_rows else 0.0
        record["share_of_homicide_rows_pct"] = round(share, 1)
        text = (f"IUCR {record['code']}: {record['primary']} - {record['secondary']}. "
                f"{'Index' if record['index_crime'] else 'Non-index'} crime (index code {record['index_code']}), "
                f"{'active' if record['active'] else 'inactive'} code. Homicide rows using it: "
                f"{fmt_int(record['homicide_rows'])} of {fmt_int(total_rows)} ({share:.1f}%).")
        if record["primary"] == "HOMICIDE" and not record["in_homicide_snapshot"]:
            text += " This homicide code is absent from the snapshot, which holds IUCR 0110 only."
        summary = f"IUCR {record['code']} = {record['primary']} / {record['secondary']}"
        table = _table([record], ["code", "primary", "secondary", "index_code", "active", "homicide_rows"])
        caveats = [HOMICIDE_CODE_CAVEAT] if record["primary"] == "HOMICIDE" else []
        return make_result(TOOL_NAME, values=record, text=text, summary=summary, datasets=["iucr", "homicides"],
                           data=data, caveats=caveats, table=table, chart=None)

    records = [dict(row) for row in catalogue.values() if row["primary"] == "HOMICIDE"]
    present = [r["code"] for r in records if r["in_homicide_snapshot"]]
    absent = [r["code"] for r in records if not r["in_homicide_snapshot"]]
    other = sorted(c for c, r in catalogue.items() if r["homicide_rows"] and r["primary"] != "HOMICIDE")
    values = {"codes": records, "present_codes": present, "absent_codes": absent,
              "homicide_rows": total_rows, "other_codes_in_snapshot": other}
    lines = ["IUCR homicide codes:"]
    for r in records:
        lines.append(f"- {r['code']} {r['secondary']} (index code {r['index_code']}, "
                     f"{'active' if r['active'] else 'inactive'}): {fmt_int(r['homicide_rows'])} rows in snapshot")
    lines.append(f"Present in the snapshot: {', '.join(present) or 'none'}; absent: {', '.join(absent) or 'none'}. "
                 f"The snapshot has {fmt_int(total_rows)} homicide rows (one per victim).")
    table = _table(records, ["code", "secondary", "index_code", "active", "homicide_rows"])
    return make_result(TOOL_NAME, values=values, text="\n".join(lines),
                       # how many, then which: "the list has how many homicide codes, and how many show up"
                       summary=f"The IUCR list has {len(records)} homicide codes; {len(present)} of them "
                               f"{'appears' if len(present) == 1 else 'appear'} in the homicide data ({', '.join(present) or 'none'}), {len(absent)} do not "
                               f"({', '.join(absent) or 'none'})",
                       datasets=["iucr", "homicides"], data=data, caveats=[HOMICIDE_CODE_CAVEAT], table=table,
                       chart=None)


def register(registry) -> None:
    registry.register(Tool(TOOL_NAME, DESCRIPTION, PARAMETERS, get_iucr_info, domain="homicides",
                           label="IUCR crime codes"))
