"""Small helpers shared by the tool modules: formatting, tables, sources, common checks."""
from __future__ import annotations

import math

import pandas as pd

from tools.data.datasets import source_entry
from tools.errors import ToolArgumentError
from tools.registry import ToolResult

# Schema fragments reused by several tools.
AREA_SCHEMA = {"type": ["integer", "string"],
               "description": "community area name (e.g. 'Austin', 'the Loop') or number 1-77"}
COMPARE_SCHEMA = {"type": "array", "items": {"type": ["integer", "string"]}, "maxItems": 10,
                  "description": "other community areas to compare with"}
TOP_N_SCHEMA = {"type": "integer", "minimum": 1, "maximum": 77, "description": "how many rows to rank"}
SORT_SCHEMA = {"type": "string", "enum": ["desc", "asc"], "default": "desc",
               "description": "desc = highest first, asc = lowest first"}


def fmt_int(value) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{int(round(value)):,}"


def fmt_num(value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:,.{digits}f}"


def fmt_money(value) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"${value:,.0f}"


def fmt_pct(value, digits: int = 1) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}%"


def plain(value):
    """numpy / pandas scalars to JSON-friendly Python values."""
    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def table_from_df(df: pd.DataFrame) -> dict:
    """The page's table: column names and rows of plain values."""
    return {"columns": [str(c) for c in df.columns],
            "rows": [[plain(v) for v in row] for row in df.itertuples(index=False, name=None)]}


def resolve_areas(geo, community_area=None, compare_areas=None) -> list[int]:
    """The area numbers a call names, in order, without repeats (raises on an unknown name)."""
    numbers: list[int] = []
    for value in ([community_area] if community_area is not None else []) + list(compare_areas or []):
        number = geo.resolve_area(value)
        if number not in numbers:
            numbers.append(number)
    return numbers


def check_year_range(data, start_year, end_year) -> tuple[int, int]:
    """Homicide years within the snapshot's coverage, with a message naming it otherwise."""
    cov = data.coverage["homicides"]
    first, last = cov["first_year"], cov["last_year"]
    start = first if start_year is None else int(start_year)
    end = last if end_year is None else int(end_year)
    for year in (start, end):
        if not first <= year <= last:
            raise ToolArgumentError(
                f"year {year} is outside the homicide data, which covers {cov['start']} to {cov['end']} "
                f"(years {first}-{last}; {last} is partial)", "out_of_range")
    if start > end:
        raise ToolArgumentError(f"start_year {start} is after end_year {end}", "out_of_range")
    return start, end


def partial_year_caveat(data, start: int, end: int) -> list[str]:
    """The notes on the years asked: the last one is partial; a year with no rows at all is a gap in the file."""
    cov = data.coverage["homicides"]
    out = [empty_year_caveat(year, cov) for year in cov.get("empty_years") or () if start <= year <= end]
    if end >= cov["last_year"]:
        out.append(f"{cov['last_year']} is a partial year: the snapshot ends on {cov['end']}.")
    return out


def empty_year_caveat(year: int, cov: dict) -> str:
    return (f"The data has no homicide rows for {year}, inside its {cov['first_year']}-{cov['last_year']} span: "
            f"the file may be incomplete, so a count of 0 for {year} is not a finding.")


# Caveats that hold for every result of a dataset, whatever was asked. The page and the API list them; the
# model is not shown them (they doubled a short result's tokens, and a small model copied them into answers).
STANDING_CAVEATS: set[str] = set()


def standing_caveat(text: str) -> str:
    STANDING_CAVEATS.add(text)
    return text


HOMICIDE_CODE_CAVEAT = standing_caveat(
    "The homicide snapshot holds IUCR 0110 (first-degree murder) only; second-degree murder, involuntary "
    "manslaughter and reckless homicide are not included. One row per victim.")


def make_result(tool: str, *, values: dict, text: str, summary: str, datasets: list[str], data,
                caveats: list[str] | None = None, table: pd.DataFrame | dict | None = None,
                chart: dict | None = None, map: dict | None = None) -> ToolResult:
    """A successful result with sources filled from the dataset catalogue and their coverage."""
    if isinstance(table, pd.DataFrame):
        table = table_from_df(table)
    sources = [source_entry(key, data.coverage.get(key)) for key in datasets]
    return ToolResult(ok=True, tool=tool, values=values, text=text, summary=summary, table=table,
                      chart=chart, map=map, sources=sources, caveats=list(dict.fromkeys(caveats or [])))


# ------------------------------------------------------------------ text and tables for the page

TEXT_BUDGET = 1480  # the registry clips the model's text at 1500 characters


def fit_text(head: list, items: list, tail: list, compact: list | None = None, limit: int = TEXT_BUDGET) -> str:
    """Head, item lines and tail within the text limit: detailed items if they fit, else the compact
    form, else as many compact items as fit plus a pointer to the table. The tail is always kept."""
    def join(body):
        return "\n".join(head + body + tail)

    text = join(items)
    if len(text) <= limit:
        return text
    if compact:
        items = compact
        text = join(items)
        if len(text) <= limit:
            return text
    kept = []
    for item in items:
        more = f"... {len(items) - len(kept) - 1} more rows in the table"
        if len(join(kept + [item, more])) > limit:
            break
        kept.append(item)
    return join(kept + [f"... {len(items) - len(kept)} more rows in the table"])


def rows_table(rows: list, columns: list) -> dict:
    """The page's table straight from row dicts (or tuples), without a DataFrame round trip."""
    if rows and isinstance(rows[0], dict):
        rows = [[row.get(col) for col in columns] for row in rows]
    return {"columns": [str(col) for col in columns], "rows": [list(row) for row in rows]}


# ------------------------------------------------------------------ geography the data does not have
# Several datasets exist for community areas only; a ward or ZIP argument gets an explained error (for a ZIP,
# the community areas it overlaps) so the caller can retry instead of guessing.

WARD_SCHEMA = {"type": "integer", "minimum": 1, "maximum": 50,
               "description": "not available: this data has community areas only (a ward gets an explanation)"}
ZIP_SCHEMA = {"type": "string",
              "description": "not available: community areas only (a ZIP gets the areas it overlaps, to retry with)"}


def unsupported_geography(data, dataset_label: str, *, ward=None, zip_code=None, answered: bool = False) -> list[str]:
    """Explain that ``dataset_label`` has community areas only.

    With ``answered`` False (nothing else to answer) this raises an explained ToolArgumentError; with
    ``answered`` True (the call also named areas) it returns a caveat saying the ward/ZIP was ignored.
    """
    if ward is None and not zip_code:
        return []
    geo = data.geography
    if ward is not None:
        ward = geo.check_ward(ward)
        message = (f"{dataset_label} is published only for Chicago's 77 community areas and the city as a whole, "
                   f"not by ward, so ward {ward} cannot be answered from it. Retry with community_area "
                   "(a name or number 1-77, several via compare_areas), or leave places out for the city-wide figure.")
    else:
        zip_code = geo.check_zip(zip_code)
        overlaps = sorted(geo.zip_to_areas[zip_code], key=lambda pair: -pair[1])
        listing = ", ".join(f"{geo.area_name(number)} (area {number}, {share:.0%} of the ZIP)"
                            for number, share in overlaps)
        message = (f"{dataset_label} is published only for Chicago's 77 community areas and the city as a whole, "
                   f"not by ZIP code. ZIP {zip_code} overlaps these community areas: {listing}. Retry with "
                   "community_area set to one of them (or compare_areas for several).")
    if answered:
        return [f"Ignored the {'ward' if ward is not None else 'ZIP'} argument: {message.split('. ')[0]}."]
    raise ToolArgumentError(message, "geography_not_available")
