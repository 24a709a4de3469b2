"""Dimensions: the places, units of time and row attributes a query groups and filters by.

Each place grain names its members and how a member is written (a number, a name in any spelling, an
alias); an unknown member is a QueryError carrying the nearest ones. The community-area names come from
the gazetteer (tools/data/geography.py), which the rest of ChiQA reads too.
"""
from __future__ import annotations

import calendar
import difflib
import re

from semantic.errors import QueryError
from semantic.holidays import HOLIDAY_NAMES, holiday_day_strings
from semantic.model import Dimension
from semantic.datasets import iucr
from semantic.datasets.common import cached, read_source
from semantic.datasets.redfin import neighborhoods

WEEKDAYS = list(calendar.day_name)  # Monday first, as pandas' dt.day_name()
MONTH_NAMES = list(calendar.month_name)[1:]


def _closest(text: str, names: list[str], n: int = 3) -> list[str]:
    lowered = {name.lower(): name for name in names}
    return [lowered[m] for m in difflib.get_close_matches(str(text).lower(), list(lowered), n=n, cutoff=0.5)]


# ------------------------------------------------------------------ places

def _area(data, value) -> int:
    try:
        return data.geography.resolve_area(value)
    except ValueError as exc:  # the gazetteer's own error names the area and the valid ones
        raise QueryError(str(exc), "unknown_member", suggestions=data.geography.suggest(str(value))) from None


def _whole(value, what: str, valid: list[int]) -> int:
    text = str(value).strip().lower()
    found = re.fullmatch(r"(?:ward|district|#)?\s*(\d{1,3})(?:st|nd|rd|th)?(?:\.0)?", text)
    number = int(found.group(1)) if found and not isinstance(value, bool) else None
    if number is None or number not in valid:
        raise QueryError(f"{what} {value!r} does not exist; valid: {valid[0]}-{valid[-1]}"
                         + (" (13, 21 and 23 were merged away in 2012)" if what == "police district" else ""),
                         "unknown_member")
    return number


def _districts(data) -> list[int]:
    return sorted(int(d) for d in data.police_stations["district"])


def _beats(data) -> list[int]:
    """The police beats the homicide records name (a beat is four digits: its district's two, then its own)."""
    cached = data.__dict__.get("_semantic_beats")
    if cached is None:
        cached = data.__dict__["_semantic_beats"] = sorted(int(b) for b in data.homicides["beat"].dropna().unique())
    return cached


def _beat(data, value) -> int:
    found = re.fullmatch(r"(?:beat\s*)?#?\s*(\d{3,4})(?:\.0)?", str(value).strip().lower())
    if isinstance(value, bool) or not found or int(found.group(1)) not in _beats(data):
        raise QueryError(f"police beat {value!r} is not in the homicide data (beats are four digits: 0111-2535)",
                         "unknown_member")
    return int(found.group(1))


def _zips(data) -> list[str]:
    """Every ZIP the data names, built once per bundle (a set over the 16,000 ZHVI rows costs ~10 ms)."""
    cached = data.__dict__.get("_semantic_zips")
    if cached is None:
        cached = data.__dict__["_semantic_zips"] = sorted(set(data.zhvi["zip"].unique()) |
                                                          set(data.zip_crosswalk["zip"].unique()))
    return cached


def _zip(data, value) -> str:
    text = f"{value:05d}" if isinstance(value, int) and not isinstance(value, bool) else str(value).strip()
    text = text[:5] if re.fullmatch(r"\d{5}(-\d{4})?", text) else text
    known = _zips(data)
    if text not in known:
        raise QueryError(f"ZIP {value!r} is not a Chicago ZIP in the data", "unknown_member",
                         suggestions=difflib.get_close_matches(text, known, n=3, cutoff=0.6))
    return text


# The index's summary series, by the names people use for them (the file names them by their codes)
SUBMARKET_TOTALS = {"CHICAGO": "City of Chicago", "SUBURBS": "Suburban Cook County", "COOK": "Cook County"}


def _submarkets(data) -> dict:
    """code -> name for every IHS series (the city, Cook County and suburbs too), made once per bundle (each row's
    name is looked up here)."""
    def build(data):
        pairs = data.ihs_index[["submarket_code", "submarket_name"]].drop_duplicates()
        return dict(zip(pairs["submarket_code"], pairs["submarket_name"]))
    return cached(data, "submarket_names", build)


def main_submarkets(data) -> dict[int, str]:
    """Each community area's IHS submarket: the one holding the largest share of its land, from the crosswalk. The
    crosswalk names submarkets the price index does not cover (the Loop's): an area still belongs to its own."""
    def build(data):
        rows = read_source(data, "community_area_ihs_submarket_crosswalk.csv")
        rows = rows.dropna(subset=["area_number"]).sort_values("share_of_community_area", ascending=False)
        main = rows.drop_duplicates("area_number")
        return dict(zip(main["area_number"].astype(int), main["submarket_code"]))
    return cached(data, "submarket_main_areas", build)


def submarket_name(data, code: str) -> str:
    def build(data):
        rows = read_source(data, "community_area_ihs_submarket_crosswalk.csv")
        return dict(zip(rows["submarket_code"], rows["submarket_name_2023"]))
    return _submarkets(data).get(code) or cached(data, "crosswalk_submarket_names", build).get(code, code)


def _areas_of_submarket(data, code: str) -> list[int]:
    """The community areas whose land lies mostly in an IHS submarket (each area counted in one submarket)."""
    return sorted(area for area, main in main_submarkets(data).items() if main == code)


def _part(data, value) -> str:
    text = str(value).strip().lower()
    for part, words in (("city", ("city", "chicago", "city of chicago", "in chicago")),
                        ("suburbs", ("suburbs", "suburban", "suburban cook", "cook suburbs"))):
        if text in words:
            return part
    raise QueryError(f"unknown part of Cook County {value!r}: 'city' (the Chicago submarkets) or 'suburbs'",
                     "unknown_member")


def _submarkets_in(data, part: str) -> list[str]:
    """The submarkets of one part of Cook County: the city's are named "Chicago--..." in the file; the summary series
    (CHICAGO, COOK, SUBURBS) belong to neither."""
    return [code for code, name in _submarkets(data).items() if code.startswith("p")
            and name.startswith("Chicago--") == (part == "city")]


def _station_areas(data) -> set:
    """The community areas a district police station stands in (headquarters is not a district station)."""
    return cached(data, "station_areas", lambda d: set(d.police_stations["community_area"].dropna().astype(int)))


def _submarket(data, value) -> str:
    names = _submarkets(data)
    text = str(value).strip()
    if text in names:
        return text
    for code, name in names.items():
        short = name.removeprefix("Chicago--").lower()
        if text.lower() in (name.lower(), short, code.lower()) or text.lower() in short.split("/"):
            return code
    raise QueryError(f"unknown IHS submarket {value!r}", "unknown_member",
                     suggestions=_closest(text, [n.removeprefix("Chicago--") for n in names.values()]))


def _redfin_neighborhood(data, value) -> str:
    known = neighborhoods(data)
    text = str(value).strip().removeprefix("Chicago, IL - ")
    by_lower = {n.lower(): n for n in known}
    if text.lower() in by_lower:
        return by_lower[text.lower()]
    raise QueryError(f"unknown Redfin neighborhood {value!r}", "unknown_member", suggestions=_closest(text, known))


# ------------------------------------------------------------------ time

def _year(data, value) -> int:
    try:
        year = int(str(value).strip())
    except ValueError:
        raise QueryError(f"year must be a whole number such as 2021, got {value!r}", "invalid_period") from None
    if not 1900 <= year <= 2100:
        raise QueryError(f"year {year} is not a year the data could hold", "invalid_period")
    return year


def _month(data, value) -> str:
    found = re.fullmatch(r"(\d{4})-(\d{1,2})", str(value).strip())
    if not found or not 1 <= int(found.group(2)) <= 12:
        raise QueryError(f"month must be written YYYY-MM such as 2021-07, got {value!r}", "invalid_period")
    return f"{found.group(1)}-{int(found.group(2)):02d}"


def _quarter(data, value) -> str:
    found = re.fullmatch(r"(\d{4})\s*-?\s*Q([1-4])", str(value).strip(), re.I)
    if not found:
        raise QueryError(f"quarter must be written YYYYQn such as 2020Q2, got {value!r}", "invalid_period")
    return f"{found.group(1)}Q{found.group(2)}"


def _weekday(data, value) -> str:
    text = str(value).strip().lower()
    for day in WEEKDAYS:
        if day.lower().startswith(text[:3]) and len(text) >= 3 and day.lower().startswith(text):
            return day
    raise QueryError(f"weekday must be a day name such as Saturday, got {value!r}", "unknown_member",
                     suggestions=_closest(text, WEEKDAYS))


def _calendar_month(data, value) -> int:
    text = str(value).strip().lower()
    if text.isdigit() and 1 <= int(text) <= 12:
        return int(text)
    for number, name in enumerate(MONTH_NAMES, start=1):
        if len(text) >= 3 and name.lower().startswith(text):
            return number
    raise QueryError(f"calendar_month must be 1-12 or a month name, got {value!r}", "unknown_member")


def _month_day(data, value) -> str:
    found = re.fullmatch(r"(\d{1,2})-(\d{1,2})", str(value).strip())
    if not found or not 1 <= int(found.group(1)) <= 12 or not 1 <= int(found.group(2)) <= 31:
        raise QueryError(f"a day of the year is written MM-DD such as 12-25, got {value!r}", "invalid_period")
    return f"{int(found.group(1)):02d}-{int(found.group(2)):02d}"


def _hour(data, value) -> int:
    try:
        hour = int(str(value).strip())
    except ValueError:
        hour = -1
    if not 0 <= hour <= 23:
        raise QueryError(f"hour must be 0-23, got {value!r}", "unknown_member")
    return hour


def _flag(data, value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    raise QueryError(f"a flag is true or false, got {value!r}", "invalid_filter")


# People's words for kinds of place -> the data's location_description values (a plural is read as its word).
LOCATION_WORDS: dict[str, str] = {
    "street": "STREET", "streets": "STREET", "alley": "ALLEY", "alleys": "ALLEY", "apartment": "APARTMENT",
    "apartments": "APARTMENT", "car": "AUTO", "cars": "AUTO", "auto": "AUTO", "vehicle": "AUTO",
    "vehicles": "AUTO", "porch": "PORCH", "yard": "YARD", "parking lot": "PARKING LOT",
    "parking lots": "PARKING LOT", "park property": "PARK PROPERTY", "parks": "PARK PROPERTY",
    "vacant lot": "VACANT LOT", "gas station": "GAS STATION", "restaurant": "RESTAURANT",
    "tavern": "TAVERN", "bar": "TAVERN", "sidewalk": "SIDEWALK", "hallway": "HALLWAY",
    "residence": "RESIDENCE", "house": "HOUSE", "houses": "HOUSE", "garage": "GARAGE",
    "retail store": "RETAIL STORE", "store": "RETAIL STORE", "gangway": "GANGWAY",
    # the Housing Authority's places: a family of kinds (CHA APARTMENT, CHA HALLWAY, ...) with no row of its own
    "cha": "CHA", "chicago housing authority": "CHA", "public housing": "CHA",
}


def _location_type(data, value) -> str:
    known = _location_types(data)
    word = re.sub(r"\s+", " ", str(value).strip().lower())
    # a query may say the kind as people do ("car", "parking lots"): the declared word's member
    text = LOCATION_WORDS.get(word) or LOCATION_WORDS.get(word[:-1] if word.endswith("s") else "") or word.upper()
    if text in known or any(k.startswith(text + " ") for k in known):  # "CHA": the family of "CHA ..." kinds
        return text
    raise QueryError(f"unknown location type {value!r}", "unknown_member", suggestions=_closest(text, known))


def _location_types(data) -> list[str]:
    return sorted(str(c) for c in data.homicides["location_description"].cat.categories)


def _location_family(data, member: str) -> list[str]:
    """A kind of place with the kinds recorded as its sub-kinds (names that are its name and more words):
    asked about murders at gas stations, plain "GAS STATION" alone left out 67 of 145 (tools/homicide/common.py)."""
    return [member] + [other for other in _location_types(data) if other.startswith(member + " ")]


def _holiday(data, value) -> str:
    text = str(value).strip().lower().replace("'", "").replace(" ", "_").replace("-", "_")
    if text in HOLIDAY_NAMES:
        return text
    raise QueryError(f"unknown holiday {value!r}; moving holidays: {', '.join(HOLIDAY_NAMES)} (a fixed day such as "
                     "Christmas is a month_day)", "unknown_member", suggestions=_closest(text, HOLIDAY_NAMES))


def _on_holidays(data, frame, members) -> "pd.Series":
    """Rows dated on one of the holidays in their own year (each year's Thanksgiving is its own date)."""
    years = [int(y) for y in frame["year"].unique()]
    return frame["date"].isin(holiday_day_strings(list(members), years))


def _date(data, value) -> str:
    found = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", str(value).strip())
    if not found:
        raise QueryError(f"a date is written YYYY-MM-DD, got {value!r}", "invalid_period")
    return found.group(0)


DIMENSIONS = [
    Dimension("community_area", "Community area", "place", ("community area", "neighborhood", "area"),
              members=lambda d: list(range(1, 78)), resolve=_area, display=lambda d, m: d.geography.area_name(m),
              value_type="integer", description="Chicago's 77 community areas, by number (1-77) or name"),
    Dimension("ward", "Ward", "place", ("ward",), members=lambda d: list(range(1, 51)),
              resolve=lambda d, v: _whole(v, "ward", list(range(1, 51))), display=lambda d, m: f"Ward {m}",
              value_type="integer", description="City council wards 1-50 (as each record was geocoded)"),
    Dimension("district", "Police district", "place", ("police district", "district"), members=_districts,
              resolve=lambda d, v: _whole(v, "police district", _districts(d)),
              display=lambda d, m: f"District {m}", value_type="integer",
              description="Police districts (post-2012 numbering)"),
    Dimension("beat", "Police beat", "place", ("police beat", "beat"), members=_beats,
              resolve=_beat,
              display=lambda d, m: f"Beat {int(m):04d}", value_type="integer",
              description="CPD police beats as each homicide record names them (1733: district 17, beat 33)"),
    Dimension("zip", "ZIP code", "place", ("zip", "zip code"), members=_zips, resolve=_zip,
              display=lambda d, m: f"ZIP {m}", description="Chicago ZIP codes, five digits"),
    Dimension("submarket", "IHS submarket", "place", ("submarket",), members=lambda d: list(_submarkets(d)),
              resolve=_submarket, display=lambda d, m: SUBMARKET_TOTALS.get(m) or _submarkets(d).get(m, m),
              description="DePaul IHS price-index submarkets (code p31xx, or CHICAGO, COOK, SUBURBS)"),
    Dimension("area_submarket", "IHS submarket (community areas mostly in it)", "attribute", ("submarket",),
              members=lambda d: list(_submarkets(d)), resolve=_submarket, parent="community_area",
              lookup=_areas_of_submarket, groups=main_submarkets, display=submarket_name,
              picked=lambda d, named: "mostly in the IHS submarket " + " or ".join(submarket_name(d, c) for c in named),
              description="the community areas whose land lies mostly in an IHS submarket: a filter on it is one on "
                          "those areas (their homicides, their residents)"),
    Dimension("has_station", "Holds a district police station", "attribute", ("police station", "district station"),
              members=lambda d: [True, False], resolve=_flag, parent="community_area", value_type="boolean",
              lookup=lambda d, v: sorted(a for a in range(1, 78) if (a in _station_areas(d)) == v),
              groups=lambda d: {a: a in _station_areas(d) for a in range(1, 78)},
              picked=lambda d, named: ("that hold a district police station" if named == [True] else
                                       "that hold no district police station" if named == [False] else ""),
              description="true: the community areas a district police station stands in (22; headquarters is not "
                          "one); a filter on it is one on those areas"),
    Dimension("submarket_part", "Part of Cook County (IHS submarkets)", "attribute", ("chicago submarkets",),
              members=lambda d: ["city", "suburbs"], resolve=_part, parent="submarket", lookup=_submarkets_in,
              description="'city' (the 18 Chicago submarkets) or 'suburbs' (the suburban Cook ones): a filter on it "
                          "is one on those submarkets"),
    Dimension("redfin_neighborhood", "Redfin neighborhood", "place", ("neighborhood",),
              members=neighborhoods,
              resolve=_redfin_neighborhood, display=lambda d, m: m, description="Redfin's Chicago neighborhoods"),
    Dimension("year", "Year", "time", ("year",), resolve=_year, value_type="integer"),
    Dimension("quarter", "Quarter", "time", ("quarter",), resolve=_quarter, description="YYYYQn"),
    Dimension("month", "Month", "time", ("month",), resolve=_month, description="YYYY-MM"),
    Dimension("date", "Date", "time", ("day", "date"), resolve=_date, description="YYYY-MM-DD"),
    Dimension("window_start", "Window starting", "time", tuple(
                  f"{noun} {verb}" for noun in ("window", "period", "days") for verb in (
                      "starting", "beginning", "that starts", "that started", "that begins", "that began"))
              + ("90-day window", "90 day window", "90-day period", "90 day period"), resolve=_date,
              description="the first day of a Redfin 90-day window (its date is the window's last day), YYYY-MM-DD"),
    Dimension("calendar_month", "Month of the year", "time", ("month of the year",), resolve=_calendar_month,
              display=lambda d, m: MONTH_NAMES[int(m) - 1], value_type="integer", description="1-12, any year"),
    Dimension("month_day", "Day of the year", "time", (), resolve=_month_day,
              description="MM-DD, the same calendar day in every year"),
    Dimension("weekday", "Day of the week", "time", ("weekday", "day of the week"), resolve=_weekday,
              members=lambda d: WEEKDAYS),
    Dimension("night_weekday", "Night of (day of the week)", "time", (), resolve=_weekday, members=lambda d: WEEKDAYS,
              description="the day whose night an hour belongs to: an hour before noon counts with the day before, "
                          "so 'Friday nights from 22 to 02' is night_weekday Friday with hours 22-23 and 0-2"),
    Dimension("holiday", "Moving holiday", "time", (), resolve=_holiday, members=lambda d: HOLIDAY_NAMES,
              mask=_on_holidays, needs=("date", "year"),
              description="holidays whose date moves (thanksgiving, memorial_day_weekend, ...), each year on its own "
                          "dates"),
    Dimension("hour", "Hour of the day", "time", ("hour", "time of day"), resolve=_hour,
              members=lambda d: list(range(24)), value_type="integer"),
    Dimension("location_type", "Kind of place", "attribute", ("location", "kind of place"),
              resolve=_location_type, members=_location_types, expand=_location_family,
              member_words=tuple(LOCATION_WORDS.items()),
              description="the homicide record's location description (STREET, ...); a kind includes its sub-kinds"),
    Dimension("arrest", "Arrest made", "attribute", ("arrest",), resolve=_flag, value_type="boolean",
              members=lambda d: [True, False]),
    Dimension("domestic", "Domestic", "attribute", ("domestic",), resolve=_flag, value_type="boolean",
              members=lambda d: [True, False]),
    Dimension("iucr", "IUCR code", "attribute", (), resolve=iucr.resolve_code, members=iucr.codes,
              description="the CPD crime code (0110 is first-degree murder), four characters"),
    Dimension("crime_type", "Kind of crime", "attribute", (), resolve=iucr.resolve_kind, members=iucr.kinds,
              parent="iucr", lookup=iucr.codes_of_kind,
              description="an IUCR code's primary description (HOMICIDE, ...); a filter on it is one on its codes"),
]

PLACE_GRAINS = tuple(d.name for d in DIMENSIONS if d.kind == "place")
