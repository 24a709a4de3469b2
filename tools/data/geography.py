"""The gazetteer: community areas by number, name (any dataset's spelling) or alias;
valid wards and police districts; the ZIP and IHS-submarket crosswalks."""
from __future__ import annotations

import difflib
import re

from semantic.names import normalize_name
from tools.errors import ToolArgumentError

# One ZIP argument: five digits, optionally with the ZIP+4 suffix.
ZIP_ARGUMENT = re.compile(r"([0-9]{5})(?:-[0-9]{4})?")

# Common neighbourhood names people use for (most of) a community area.
ALIASES = {
    "the loop": 32, "downtown": 32, "loop": 32,
    "o'hare": 76, "ohare": 76, "o hare": 76,
    "back of the yards": 61, "canaryville": 61,
    "little village": 30, "la villita": 30,
    "pilsen": 31,
    "chinatown": 34,
    "bronzeville": 38,
    "wicker park": 24, "ukrainian village": 24, "east village": 24,
    "bucktown": 22,
    "streeterville": 8, "gold coast": 8, "river north": 8, "magnificent mile": 8, "old town": 8,
    "south loop": 33, "printers row": 33,
    "west loop": 28, "little italy": 28, "university village": 28, "greektown": 28,
    "wrigleyville": 6, "boystown": 6, "northalsted": 6, "lakeview": 6,
    "andersonville": 77,
    "ravenswood": 4,
    "lawndale": 29, "k-town": 29,
    "midway": 56,
    "galewood": 25,
    "sauganash": 12, "edgebrook": 12,
    "jeffery manor": 51,
    "marquette park": 66,
    "roseland": 49,
    "south side": None,  # too broad: listed so it is refused with an explanation
    "north side": None,
    "west side": None,
}

__all__ = ["ALIASES", "ZIP_ARGUMENT", "Gazetteer", "normalize_name"]  # normalize_name: semantic/names.py's, used here


class Gazetteer:
    """Resolves places in the data's own terms."""

    def __init__(self, data):
        areas = data.community_areas
        self.area_names: dict[int, str] = dict(zip(areas["area_number"].astype(int), areas["name"]))
        self.name_index: dict[str, int | None] = {}
        for number, upper, pretty, socio in zip(areas["area_number"], areas["community"], areas["name"],
                                                 areas["name_socioeconomic"]):
            for spelling in (upper, pretty, socio):
                self.name_index[normalize_name(spelling)] = int(number)
        for portal_name, number in zip(data.socioeconomic["portal_name"], data.socioeconomic["area_number"]):
            if int(number) > 0:
                self.name_index.setdefault(normalize_name(portal_name), int(number))
        for alias, number in ALIASES.items():
            self.name_index.setdefault(normalize_name(alias), number)
        self.wards = list(range(1, 51))
        self.districts = sorted(int(d) for d in data.police_stations["district"])
        self.district_names = dict(zip(data.police_stations["district"].astype(int), data.police_stations["name"]))
        xw = data.zip_crosswalk
        self.zip_to_areas: dict[str, list[tuple[int, float]]] = {}
        self.area_to_zips: dict[int, list[tuple[str, float]]] = {}
        for number, zip_code, share_ca, share_zip in zip(xw["area_number"], xw["zip"], xw["share_of_community_area"],
                                                        xw["share_of_zip"]):
            self.zip_to_areas.setdefault(zip_code, []).append((int(number), float(share_zip)))
            self.area_to_zips.setdefault(int(number), []).append((zip_code, float(share_ca)))
        sm = data.submarket_crosswalk
        self.area_to_submarkets: dict[int, list[dict]] = {}
        for row in sm.itertuples(index=False):
            self.area_to_submarkets.setdefault(int(row.area_number), []).append({
                "code": row.submarket_code, "name": row.submarket_name_2023,
                "in_price_index": bool(row.in_price_index), "share": float(row.share_of_community_area),
            })

    # ---------------------------------------------------------------- community areas

    def area_name(self, number: int) -> str:
        return self.area_names[int(number)]

    def resolve_area(self, value) -> int:
        """A community area number from a number, a name in any spelling, or an alias."""
        if isinstance(value, bool):
            raise ToolArgumentError(f"community area must be a name or a number 1-77, got {value}", "unknown_area")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        text = str(value).strip()
        match = re.fullmatch(r"(?:community\s*area\s*|area\s*|ca\s*|#)?(\d+)(?:\.0)?", text, re.I)
        if match:
            number = int(match.group(1))
            if 1 <= number <= 77:
                return number
            raise ToolArgumentError(
                f"community area {number} does not exist; Chicago's community areas are numbered 1 to 77",
                "unknown_area")
        key = normalize_name(text)
        for candidate in (key, key.removeprefix("the "), key.removesuffix(" community area"),
                          key.removesuffix(" neighborhood"), key.removesuffix(" neighbourhood")):
            if candidate in self.name_index:
                number = self.name_index[candidate]
                if number is None:
                    raise ToolArgumentError(
                        f"'{text}' covers many community areas; name one of the 77 areas (e.g. Austin, Englewood)",
                        "ambiguous_area")
                return number
        close = difflib.get_close_matches(key, list(self.name_index), n=5, cutoff=0.6)
        suggestions = []
        for name in close:
            number = self.name_index[name]
            if number is not None and self.area_names[number] not in suggestions:
                suggestions.append(self.area_names[number])
        hint = f" Closest matches: {', '.join(suggestions[:3])}." if suggestions else ""
        raise ToolArgumentError(
            f"unknown community area '{text}'. Use one of Chicago's 77 community area names or numbers 1-77.{hint}",
            "unknown_area")

    def suggest(self, text: str, n: int = 3) -> list[str]:
        close = difflib.get_close_matches(normalize_name(text), list(self.name_index), n=n * 2, cutoff=0.6)
        out = []
        for name in close:
            number = self.name_index[name]
            if number is not None and self.area_names[number] not in out:
                out.append(self.area_names[number])
        return out[:n]

    # ---------------------------------------------------------------- wards, districts, ZIPs

    def check_ward(self, ward: int) -> int:
        if int(ward) not in self.wards:
            raise ToolArgumentError(f"ward {ward} does not exist; Chicago has wards 1 to 50", "out_of_range")
        return int(ward)

    def check_district(self, district: int) -> int:
        if int(district) not in self.districts:
            valid = ", ".join(str(d) for d in self.districts)
            raise ToolArgumentError(
                f"police district {district} does not exist; the current districts are {valid} "
                "(13, 21 and 23 were merged away in 2012)", "out_of_range")
        return int(district)

    def check_zip(self, zip_code) -> str:
        """Exactly one ZIP: five digits (a ZIP+4 names the same ZIP). Anything else, e.g. "60614 or 60601",
        is refused rather than cut to its first five characters."""
        raw = zip_code if isinstance(zip_code, str) else None
        if isinstance(zip_code, int) and not isinstance(zip_code, bool) and 0 <= zip_code <= 99999:
            raw = f"{zip_code:05d}"
        found = ZIP_ARGUMENT.fullmatch(raw.strip()) if raw is not None else None
        if found is None:
            shown = repr(zip_code) if len(repr(zip_code)) <= 40 else repr(zip_code)[:37] + "..."
            raise ToolArgumentError(f"zip must be exactly one 5-digit ZIP code such as \"60614\", got {shown}; "
                                    "ask about one ZIP per call", "invalid_argument")
        text = found.group(1)
        if text not in self.zip_to_areas:
            raise ToolArgumentError(
                f"ZIP {zip_code} is not a Chicago ZIP in the crosswalk; valid ZIPs include "
                f"{', '.join(sorted(self.zip_to_areas)[:8])}, ...", "unknown_zip")
        return text
