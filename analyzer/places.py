"""Places and codes named in a question: community areas, wards, police districts, ZIPs, IUCR codes.

Community areas are matched through the gazetteer: "area 25"-style numbers, then exact names and
aliases longest first (so "West Englewood" is not "Englewood"), then simple typos. Each piece of
text names one entity: a span, once used, is not read again.
"""
from __future__ import annotations

import difflib
import re
import threading

from analyzer.lexicon import ORDINAL_WORDS, TENS_WORDS, add_unique, counting, overlaps

_FLAGS = re.I
_NUMBER_LIST = r"((?:\d{1,3}(?:\s*,\s*|\s+and\s+|\s+(?:vs\.?|versus)\s+|\s*&\s*))+\d{1,3})"
_AREA_NUMBER_RE = re.compile(r"\b(?:community\s+area|area|ca)\s*(?:#|no\.?|number)?\s*(\d{1,3})\b", _FLAGS)
_AREA_NUMBERS_MORE_RE = re.compile(r"\b(?:community\s+areas|areas)\s+" + _NUMBER_LIST + r"\b", _FLAGS)
_WARD_RE = re.compile(r"\bwards?\s*(?:#|no\.?|number)?\s*(\d{1,3})\b|\b(\d{1,3})(?:st|nd|rd|th)\s+ward\b", _FLAGS)
# "the 24th and 28th wards": ordinals before the plural.
_ORDINAL_LIST = r"((?:\d{1,2}(?:st|nd|rd|th)(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+|\s*&\s*))+\d{1,2}(?:st|nd|rd|th))"
_WARDS_MORE_RE = re.compile(r"\bwards\s+" + _NUMBER_LIST + r"\b|\b" + _ORDINAL_LIST + r"\s+wards\b", _FLAGS)
# "wards 1 to 20", "districts 4-6", "wards 10 through 15": a set of consecutive numbers.
_RANGE = r"(\d{1,2})\s*(?:to|through|thru|-|–)\s*(\d{1,2})\b"
_WARD_RANGE_RE = re.compile(r"\bwards\s+(?:from\s+)?" + _RANGE, _FLAGS)
_DISTRICT_RANGE_RE = re.compile(r"\b(?:police\s+)?districts\s+(?:from\s+)?" + _RANGE, _FLAGS)
_DISTRICT_RE = re.compile(r"\b(?:police\s+)?districts?\s*(?:#|no\.?|number)?\s*(\d{1,3})\b|"
                          r"\b(\d{1,3})(?:st|nd|rd|th)\s+(?:police\s+)?district\b", _FLAGS)
_DISTRICTS_MORE_RE = re.compile(r"\b(?:police\s+)?districts\s+" + _NUMBER_LIST + r"\b|\b" + _ORDINAL_LIST +
                                r"\s+(?:police\s+)?districts\b", _FLAGS)
_ZIP_RE = re.compile(r"\b(60[678]\d{2})(?:-\d{4})?\b")
_IUCR_RE = re.compile(r"\b(?:iucr|code)\s*(?:code\s*)?#?\s*([0-9]{3,4}[a-z]?)\b", _FLAGS)
_BROAD_RE = re.compile(r"\b(?:south|north|west|east)\s+side\b(?!\s+(?:of))", _FLAGS)
_TOKEN_RE = re.compile(r"[a-z][a-z']+")

# Words that never start a fuzzy area match (common English and the app's own vocabulary).
_COMMON = set("""a about after all also an and any are area areas as at be been before between both but by can
change changed chicago city community compare compared could data did do does each ever for from had has have
highest how in income is it its last least lowest many more most much murder murders my near neighborhood
neighborhoods number of on or over people per population poverty rate rates show since tell than that the
their there these this those to top total trend was were what when where which who why will with year years
homicide homicides killings killed arrest arrests domestic street streets alley apartment house home homes value
values price prices property real estate education hardship crowding unemployment jobless wealth earnings
salary race age ages census place places part parts side between versus against capita percent percentage
median average mean rich richest poor poorest safe safest dangerous district districts ward wards zip code codes
iucr mean means meaning explain answer question please give list rank ranking order level levels share""".split())


# ---------------------------------------------------------------- per-gazetteer index

class _AreaIndex:
    """Exact names as one longest-first regex plus fuzzy candidates grouped by word count."""

    def __init__(self, geo):
        self.geo = geo
        names = {name: number for name, number in geo.name_index.items() if name}
        parts = []
        for name in sorted(names, key=len, reverse=True):
            words = name.split(" ")
            parts.append(r"[\s\-]+".join(re.escape(w).replace("'", "['’]?") for w in words))
        self.exact_re = re.compile(r"(?<![a-z0-9])(?:" + "|".join(parts) + r")(?![a-z0-9])", re.I)
        self.lookup = {re.sub(r"[\s\-’']+", " ", k).strip(): v for k, v in names.items()}
        self.lookup.update({k.replace("'", ""): v for k, v in names.items()})
        self.by_words: dict[int, list[str]] = {}
        for name in names:
            self.by_words.setdefault(len(name.split(" ")), []).append(name)
        self.area_names = dict(geo.area_names)

    def key_of(self, text: str) -> str:
        return re.sub(r"[\s\-]+", " ", text.lower().replace("’", "'")).strip()

    def resolve_exact(self, text: str):
        key = self.key_of(text)
        if key in self.geo.name_index:
            return self.geo.name_index[key]
        return self.lookup.get(key.replace("'", ""), self.lookup.get(key))

    def fuzzy(self, ngram: str, words: int):
        best, best_ratio = None, 0.0
        for name in self.by_words.get(words, ()):
            if name[0] != ngram[0] or abs(len(name) - len(ngram)) > 2:
                continue
            ratio = difflib.SequenceMatcher(None, ngram, name).ratio()
            if ratio > best_ratio:
                best, best_ratio = name, ratio
        cutoff = 0.84 if words > 1 else 0.875
        return (best, best_ratio) if best is not None and best_ratio >= cutoff else (None, 0.0)


_INDEX_CACHE: dict[int, _AreaIndex] = {}
_INDEX_LOCK = threading.Lock()


def _area_index(geo) -> _AreaIndex:
    index = _INDEX_CACHE.get(id(geo))
    if index is None or index.geo is not geo:
        with _INDEX_LOCK:
            index = _AreaIndex(geo)
            if len(_INDEX_CACHE) > 8:
                _INDEX_CACHE.clear()
            _INDEX_CACHE[id(geo)] = index
    return index


# ---------------------------------------------------------------- extraction

def extract_places(text: str, low: str, geo, skip: list | tuple = ()) -> dict:
    """Places and codes in mention order; ``taken`` is the text they used, for the year extractor. ``skip``: spans
    already read as something else (an IHS submarket's slash-joined name, "Logan Square/Irving Park", which is
    one submarket, not two community areas)."""
    taken: list[tuple[int, int]] = list(skip)
    # (kind, values, span) of every place named, so a reader can tell which were excluded ("excluding ward 3").
    mentions: list[tuple[str, list, tuple[int, int]]] = []
    # Lists first: "wards 3, 4 and 5" must not be read as ward 3 alone.
    wards = _numbered_places(low, _WARDS_MORE_RE, _WARD_RE, taken, _WARD_RANGE_RE, mentions, "ward")
    districts = _numbered_places(low, _DISTRICTS_MORE_RE, _DISTRICT_RE, taken, _DISTRICT_RANGE_RE, mentions,
                                 "district")
    zips: list[str] = []
    for m in _ZIP_RE.finditer(low):
        add_unique(zips, m.group(1))
        taken.append(m.span())
        mentions.append(("zip", [m.group(1)], m.span()))
    iucr_codes: list[str] = []
    for m in _IUCR_RE.finditer(low):
        code = m.group(1).upper()
        if not re.fullmatch(r"(?:19|20)\d{2}", code) or "iucr" in m.group(0).lower():
            add_unique(iucr_codes, code.zfill(4) if code.isdigit() else code)
            taken.append(m.span())

    areas: list[dict] = []
    invalid_areas: list[int] = []

    def add_area(number, span, how):
        mentions.append(("area", [number], span))
        if any(a["number"] == number for a in areas):
            return
        areas.append({"number": number, "name": geo.area_name(number) if geo else str(number),
                      "text": text[span[0]:span[1]], "match": how, "_pos": span[0]})

    numbered: list[tuple[int, tuple]] = []
    for m in _AREA_NUMBERS_MORE_RE.finditer(low):
        for n in _list_numbers(m.group(1)):
            numbered.append((n, m.span()))
        taken.append(m.span())
    for m in _AREA_NUMBER_RE.finditer(low):
        if not overlaps(m.span(), taken) and not re.match(r"(?:19|20)\d{2}$", m.group(1)):
            numbered.append((int(m.group(1)), m.span()))
            taken.append(m.span())
    for n, span in numbered:
        if geo is not None and 1 <= n <= 77:
            add_area(n, span, "number")
        elif not 1 <= n <= 77:
            add_unique(invalid_areas, n)

    broad: list[str] = []
    if geo is not None:
        index = _area_index(geo)
        for m in index.exact_re.finditer(low):
            if overlaps(m.span(), taken):
                continue
            number = index.resolve_exact(m.group(0))
            if number is None:  # an alias too broad for one area ("south side")
                add_unique(broad, m.group(0))
            else:
                add_area(number, m.span(), "name")
            taken.append(m.span())
        for number, span in _fuzzy_areas(low, geo, index, taken):
            add_area(number, span, "fuzzy")
    areas.sort(key=lambda a: a.pop("_pos"))
    for m in _BROAD_RE.finditer(low):
        if not overlaps(m.span(), taken):  # "near south side" is an area, not the South Side
            add_unique(broad, m.group(0))
    mentions.sort(key=lambda m: m[2])
    return {"areas": areas, "wards": wards, "districts": districts, "zips": zips, "iucr_codes": iucr_codes,
            "broad": broad, "invalid_areas": invalid_areas, "taken": taken, "mentions": mentions}


def _numbered_places(low: str, list_re: re.Pattern, one_re: re.Pattern, taken: list,
                     range_re: re.Pattern | None = None, mentions: list | None = None, kind: str = "") -> list[int]:
    found: list[int] = []
    mentions = [] if mentions is None else mentions

    def take(numbers: list[int], span: tuple) -> None:
        for n in numbers:
            add_unique(found, n)
        taken.append(span)
        mentions.append((kind, numbers, span))

    for m in range_re.finditer(low) if range_re else ():
        first, last = sorted((int(m.group(1)), int(m.group(2))))
        if last - first <= 60:  # a range, not two unrelated numbers
            take(list(range(first, last + 1)), m.span())
    for m in list_re.finditer(low):
        if not overlaps(m.span(), taken):
            take(_list_numbers(next(g for g in m.groups() if g)), m.span())
    for m in one_re.finditer(low):
        if not overlaps(m.span(), taken):
            take([int(m.group(1) or m.group(2))], m.span())
    return found


def _list_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d{1,3}", text)]


def _fuzzy_areas(low: str, geo, index: _AreaIndex, taken: list):
    """Simple typos: n-grams of uncommon words close to a name with the same word count."""
    tokens = [(m.group(0), m.span()) for m in _TOKEN_RE.finditer(low)]
    for size in (3, 2, 1):
        for i in range(len(tokens) - size + 1):
            group = tokens[i:i + size]
            span = (group[0][1][0], group[-1][1][1])
            if overlaps(span, taken):
                continue
            words = [w for w, _ in group]
            words[-1] = re.sub(r"['’]s$", "", words[-1])  # "chatam's hardship index": the name, not its 's
            if words[0] in _COMMON or words[-1] in _COMMON or (size == 1 and len(words[0]) < 5):
                continue
            name, _ratio = index.fuzzy(" ".join(words), size)
            number = geo.name_index.get(name) if name is not None else None
            if number is None:
                continue
            taken.append(span)
            yield number, span


def place_warnings(places: dict, geo) -> tuple[dict, list[str]]:
    """Places the data does not have, and the warnings that say so (areas, wards, districts, ZIPs, regions)."""
    invalid: dict = {"areas": list(places["invalid_areas"]), "wards": [], "districts": [], "zips": []}
    warnings = [f"There is no community area {n}: Chicago's community areas are numbered 1 to 77."
                for n in invalid["areas"]]
    geo_wards = getattr(geo, "wards", list(range(1, 51)))
    geo_districts = getattr(geo, "districts", [])
    for w in places["wards"]:
        if w not in geo_wards:
            add_unique(invalid["wards"], w)
            warnings.append(f"There is no ward {w}: Chicago has wards 1 to 50.")
    for d in places["districts"]:
        if geo_districts and d not in geo_districts:
            add_unique(invalid["districts"], d)
            warnings.append(f"There is no police district {d}; the current districts are "
                            f"{', '.join(str(x) for x in geo_districts)}.")
    if geo is not None:
        for z in places["zips"]:
            if z not in geo.zip_to_areas:
                add_unique(invalid["zips"], z)
                warnings.append(f"ZIP {z} is not a Chicago ZIP in the crosswalk.")
    for b in places["broad"]:
        warnings.append(f"'{b}' covers many community areas; the data is by the 77 community areas, "
                        "so name one (e.g. Austin, Englewood) or ask for a ranking.")
    return invalid, warnings


# Place words the coverage check (analyzer/coverage.py) counts as read even where no place was taken from them.
VOCABULARY = [_BROAD_RE, _WARD_RE, _WARDS_MORE_RE, _WARD_RANGE_RE, _DISTRICT_RE, _DISTRICTS_MORE_RE, _DISTRICT_RANGE_RE,
              _AREA_NUMBER_RE, _AREA_NUMBERS_MORE_RE, _ZIP_RE, _IUCR_RE]


# ---------------------------------------------------------------- ward and district numbers in words

_ONES = list(counting(9))
_ONES_ORD = [word for word, n in ORDINAL_WORDS.items() if n < 10]
_TEENS = list(counting(19, low=10))
_TEENS_ORD = ["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
              "eighteenth", "nineteenth"]
_TENS = {word: n for word, n in TENS_WORDS.items() if n <= 50}
_TENS_ORD = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50}


def _number_words() -> dict[str, int]:
    """"twenty-eighth" -> 28, "twenty eight" -> 28, "third" -> 3: every number word from 1 to 59."""
    words = {w: i + 1 for i, w in enumerate(_ONES)} | {w: i + 1 for i, w in enumerate(_ONES_ORD)}
    words |= {w: i + 10 for i, w in enumerate(_TEENS)} | {w: i + 10 for i, w in enumerate(_TEENS_ORD)}
    words |= dict(_TENS) | dict(_TENS_ORD)
    for tens, value in _TENS.items():
        for i, (one, one_ord) in enumerate(zip(_ONES, _ONES_ORD)):
            for sep in ("-", " "):
                words[f"{tens}{sep}{one}"] = words[f"{tens}{sep}{one_ord}"] = value + i + 1
    return words


_NUMBER_WORDS = _number_words()
_WORDS = "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in _NUMBER_WORDS), key=len, reverse=True))
_KIND = r"(?:police\s+)?(?:ward|district)"
_ORDINAL_BEFORE_RE = re.compile(r"\b(" + _WORDS + r")\s+(" + _KIND + r")\b", _FLAGS)
# Not "the Austin district two years ago": a count of something else follows.
_NUMBER_AFTER_RE = re.compile(r"\b(" + _KIND + r")\s+(?:number\s+)?(" + _WORDS + r")\b(?!\s+(?:years?|months?|weeks?|"
                              r"days?|times|decades?|of|more|fewer|less|or)\b)", _FLAGS)


def _value(words: str) -> int:
    return _NUMBER_WORDS[re.sub(r"\s+", " ", words.lower())]


def spell_place_numbers(text: str) -> str:
    """Ward and district numbers written as words, as digits: "the twenty-eighth ward" -> "the 28th ward", "ward
    twenty-eight" -> "ward 28", "the third police district" -> "the 3rd police district"."""
    def ordinal(m: re.Match) -> str:
        n = _value(m.group(1))
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix} {m.group(2)}"

    text = _ORDINAL_BEFORE_RE.sub(ordinal, text)
    return _NUMBER_AFTER_RE.sub(lambda m: f"{m.group(1)} {_value(m.group(2))}", text)


# "the #2 ward on that list", "the 3rd district of those": a place in a ranked list by its position, not its number
_IN_LIST_RE = re.compile(r"\b(\d{1,2}(?:st|nd|rd|th))\s+(?:police\s+district|community\s+area|ward|district|area|zip)\b"
                         r"(?=\s+(?:(?:on|in)\s+(?:that|the|this|your)\s+list|of\s+(?:those|them|these)|"
                         r"among\s+(?:them|those|these)))", _FLAGS)


def positions_in_lists(low: str) -> str:
    return _IN_LIST_RE.sub(lambda m: f"{m.group(1)} one", low)


# ---------------------------------------------------------------- wards named by their alderperson

_TITLE = r"(?:ald(?:erman|erwoman|erperson)?\.?|council\s*(?:member|woman|man)|councillor)"


def _alderperson_re(data) -> re.Pattern | None:
    """One pattern naming every alderperson of the ward office file, built once per data bundle: the full name
    ("Brian Hopkins", "Sophia D. King"), the surname after a title ("Ald. Hopkins") or before "ward" ("Hopkins'
    ward"). A surname alone is not read: "King", "Moore" and "Hall" are also ordinary words and street names."""
    cached = data.__dict__.get("_alderperson_re", False)
    if cached is not False:
        return cached
    offices = getattr(data, "ward_offices", None)
    names = []
    for ward, name in zip(offices["ward"], offices["alderperson"]) if offices is not None else ():
        last, _, given = str(name).partition(",")
        first = given.split()[0] if given.split() else ""
        if last.strip() and first:
            names.append((int(ward), re.escape(first), re.escape(last.strip()).replace(r"\ ", r"\s+")))
    if not names:
        data.__dict__["_alderperson_re"] = None
        return None
    alternatives = "|".join(rf"(?P<w{ward}>(?:{_TITLE}\s+)?{first}\s+(?:[a-z]\.?\s+)?{last}|{_TITLE}\s+{last}|"
                            rf"{last}(?='s?\s+ward\b|'\s+ward\b))" for ward, first, last in names)
    pattern = data.__dict__["_alderperson_re"] = re.compile(
        rf"\b(?:{alternatives})(?P<pos>'s\b|')?(?P<again>\s+ward\b(?!\s+office))?", _FLAGS)
    return pattern


def name_alderpersons(text: str, data) -> str:
    """A ward named by its alderperson reads as the ward: "Ald. Brian Hopkins' ward office" -> "ward 2's ward office".
    The names come from the ward office file (the 2019-2023 council), so no word list here needs a new council."""
    pattern = _alderperson_re(data) if data is not None else None
    if pattern is None:
        return text

    def ward(m: re.Match) -> str:
        number = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None and k[1:].isdigit())
        if m.group("again"):  # "Hopkins's ward": the ward, its word read once
            return f"ward {number}"
        return f"ward {number}" + ("'s" if m.group("pos") else "")

    return pattern.sub(ward, text)
