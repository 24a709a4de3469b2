"""Place names that are not one Chicago community area: places outside the city, and names shared by two areas.

ChiQA's data covers the City of Chicago only. "Austin, Texas", "Evanston" or "the suburbs" must be declined by name,
never answered with a Chicago figure (Chicago has its own Austin, area 25). And "Garfield Park" is two community
areas (East and West Garfield Park): read as both, with a note, not dropped.

The lists are general (every US state, its two-letter code after a place, the best-known US cities and Chicago's
suburbs), never one question's wording. A name that is also a Chicago community area (Oakland, Riverdale) is read as
Chicago's unless a state follows it.
"""
from __future__ import annotations

import re

from analyzer.lexicon import overlaps

STATES = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
    "connecticut": "CT", "delaware": "DE", "florida": "FL", "georgia": "GA", "hawaii": "HI", "idaho": "ID",
    "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS", "kentucky": "KY", "louisiana": "LA",
    "maine": "ME", "maryland": "MD", "massachusetts": "MA", "michigan": "MI", "minnesota": "MN",
    "mississippi": "MS", "missouri": "MO", "montana": "MT", "nebraska": "NE", "nevada": "NV",
    "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY", "north carolina": "NC",
    "north dakota": "ND", "ohio": "OH", "oklahoma": "OK", "oregon": "OR", "pennsylvania": "PA",
    "rhode island": "RI", "south carolina": "SC", "south dakota": "SD", "tennessee": "TN", "texas": "TX",
    "utah": "UT", "vermont": "VT", "virginia": "VA", "washington state": "WA", "west virginia": "WV",
    "wisconsin": "WI", "wyoming": "WY", "district of columbia": "DC",
}
# Two-letter codes that are also English words: read as a state only when written in capitals.
_WORD_CODES = {"AL", "CO", "DE", "HI", "ID", "IN", "LA", "MA", "ME", "OH", "OK", "OR", "PA", "MO", "NE"}
_CODES = set(STATES.values())

# The best-known US cities and Chicago's suburbs and neighbouring towns (a general list, kept short).
CITIES = """new york city|nyc|new york|los angeles|l\\.a\\.|san francisco|san diego|san jose|houston|dallas|
fort worth|san antonio|phoenix|philadelphia|philly|detroit|milwaukee|st\\.? louis|saint louis|baltimore|boston|
atlanta|miami|new orleans|seattle|denver|minneapolis|st\\.? paul|indianapolis|cleveland|cincinnati|columbus|
memphis|nashville|louisville|kansas city|pittsburgh|portland|las vegas|salt lake city|sacramento|tampa|orlando|
charlotte|raleigh|richmond|buffalo|omaha|tulsa|oklahoma city|albuquerque|tucson|el paso|jacksonville|honolulu|
anchorage|washington,? d\\.?c\\.?|d\\.c\\.|madison|des moines|gary|hammond|east chicago|south bend|joliet|
naperville|aurora|elgin|waukegan|rockford|springfield|peoria|champaign|evanston|skokie|oak park|oak lawn|
oak brook|cicero|berwyn|maywood|harvey|dolton|calumet city|blue island|schaumburg|des plaines|park ridge|
wilmette|winnetka|arlington heights|bolingbrook|orland park|tinley park|downers grove|wheaton|naperville|
palatine|chicago heights|lincolnwood|niles|burbank|bridgeview|melrose park|forest park|river forest|
lansing|homewood|country club hills|markham|glenview|northbrook|highland park|
lake forest|elmhurst|oak forest|evergreen park|alsip|crestwood|bellwood|broadview""".replace("\n", "")

# Regions around or beyond the city: the suburbs, the county, the state or the country as a whole.
REGIONS = (r"(?:the\s+)?(?:chicago(?:['’]s)?\s+|chicagoland\s+|western\s+|northern\s+|southern\s+|north\s+|"
           r"south\s+|west\s+)?suburb(?:s|ia|an\s+(?:cook\s+)?(?:county|areas?|towns?))|chicagoland|"
           r"(?:suburban\s+)?cook\s+county|(?:du\s*page|lake|will|kane|mchenry)\s+county|collar\s+counties|"
           r"outside\s+(?:of\s+)?(?:the\s+)?(?:city(?:\s+limits)?|chicago)(?!\s*['’]s)|"
           r"(?:the\s+)?(?:united\s+states|u\.s\.a?\.?|usa)\b|(?:the\s+)?(?:rest\s+of\s+(?:the\s+)?)?(?:country|"
           r"nation)(?:wide|ally)?\b|nationwide|national\s+(?:average|rate|figures?)")

_STREET = r"(?!\s+(?:ave(?:nue)?|st(?:reet)?|blvd|boulevard|rd|road|dr(?:ive)?|avenue|line|branch|stop|station)\b)"
_STATE_RE = re.compile(r"(?<![\w.])(?<!lake\s)(?<!university\s)(?<!university\sof\s)(?:" + "|".join(
    re.escape(s).replace(r"\ ", r"\s+") for s in sorted(STATES, key=len, reverse=True)) + r")\b" + _STREET, re.I)
_CITY_RE = re.compile(r"(?<![\w.])(?:" + CITIES + r")(?![\w])" + _STREET, re.I)
_REGION_RE = re.compile(r"\b(?:" + REGIONS + r")", re.I)
_CITY_BEFORE_RE = re.compile(r"(?<![\w.])(?:" + CITIES + r")\s*,?\s*$", re.I)
_CODE_RE = re.compile(r"(?<=[A-Za-z.])(\s*,\s*|\s+)([A-Za-z]{2})\b(?![\w'’-])")
_CHICAGO_STATE_RE = re.compile(r"\bchicago\s*,?\s*(?:illinois|il)\b(?![\w'’-])", re.I)
_WORD_BEFORE_RE = re.compile(r"([a-z][a-z.'’-]*)\s*,?\s*$", re.I)
# Words that do not name a place before a state ("in Texas", "homicides, Texas?").
_NOT_PLACES = frozenset("in of for from to at the a and or vs versus than like about near homicides murders "
                        "killings deaths crime how many what which is are was were there here".split())


def outside_places(text: str, low: str, mentions: list) -> tuple[list[str], list[tuple], list[tuple]]:
    """Places outside Chicago named in the question (as written), the spans they take, and the spans of a state
    that names Chicago's own state ("Chicago, IL", "Englewood, Illinois"). A Chicago community area just before
    another state ("Austin, Texas") is part of the outside place."""
    own = [m.span() for m in _CHICAGO_STATE_RE.finditer(low)]
    cased = text if len(text) == len(low) else low
    area_spans = [span for kind, _, span in mentions if kind == "area"]
    spans: list[tuple[int, int]] = []
    for m in _STATE_RE.finditer(low):
        if not overlaps(m.span(), own) and not overlaps(m.span(), area_spans):
            _add_state(low, m.start(), m.end(), m.group(0), area_spans, cased, spans, own)
    for m in _CODE_RE.finditer(low):
        start = m.start(2)
        code = cased[start:m.end()]
        if _is_state_code(code, m.group(1)) and not overlaps((start, m.end()), own + spans):
            _add_state(low, start, m.end(), code, area_spans, cased, spans, own, needs_place=True)
    for pattern in (_CITY_RE, _REGION_RE):
        for m in pattern.finditer(low):
            if not overlaps(m.span(), own + area_spans):
                spans.append(m.span())
    spans = _merged(spans)
    return [text[s:e].strip(" ,") for s, e in spans], spans, own


def _add_state(low: str, start: int, end: int, state: str, area_spans: list, cased: str, spans: list, own: list,
               needs_place: bool = False) -> None:
    """A state, with the place written before it, goes to ``spans``; Illinois after a Chicago community area
    ("Englewood, IL") is that area, and goes to ``own``."""
    span = _with_place_before(low, start, end, area_spans, cased)
    if state.lower() in ("illinois", "il") and any(s == span[0] for s, _ in area_spans):
        own.append((start, end))
    elif span[0] < start or not needs_place:  # a code alone is no place ("ok", "me"): only after one
        spans.append(span)


def _is_state_code(code: str, gap: str) -> bool:
    """"TX" after a place; a code that is also a word ("IN", "OR") only in capitals, and lower case only after a
    comma ("austin, tx")."""
    if code.upper() not in _CODES:
        return False
    if code.isupper():
        return code not in _WORD_CODES or "," in gap
    return "," in gap and code.upper() not in _WORD_CODES


def _with_place_before(low: str, start: int, end: int, area_spans: list, cased: str) -> tuple:
    """The span of a state with the place written just before it ("Gary, Indiana", "Austin TX", "salt lake city,
    utah"); the state's own span when no place is written before it ("in Texas")."""
    before = low[:start]
    for s, e in area_spans:
        if e <= start and re.fullmatch(r"\s*,?\s*", before[e:]):
            return s, end
    city = _CITY_BEFORE_RE.search(before)
    if city:
        return city.start(), end
    word = _WORD_BEFORE_RE.search(before)
    # A word before the state is its place when a comma parts them or it is capitalised ("Dayton Ohio").
    if word and word.group(1).lower() not in _NOT_PLACES and \
            ("," in before[word.end(1):] or cased[word.start(1)].isupper()):
        return word.start(1), end
    return start, end


def _merged(spans: list) -> list:
    out: list[list[int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [tuple(x) for x in out]


def outside_note(names: list[str]) -> str:
    """The note an answer gives for places outside the city (the data has nothing on them)."""
    quoted = " or ".join(f"'{n}'" for n in names)
    theirs = "those places'" if len(names) > 1 else "that place's"
    return (f"ChiQA's data covers the City of Chicago only: it does not cover {quoted}, so I cannot give figures "
            f"for {'them' if len(names) > 1 else 'it'}; any figures here are Chicago's, not {theirs}.")


# ---------------------------------------------------------------- names shared by two or more community areas

# Words that name no place alone ("park", "west side"): a shared part made only of these is not a place name.
_GENERIC = frozenset("north south east west near lower upper greater new old the of park parks square side heights "
                     "lawn ridge town shore center centre village city boulevard glen crossing chicago mount".split())
_SHARED_CACHE: dict[int, tuple] = {}


def shared_names(geo) -> dict[str, tuple[list[int], re.Pattern]]:
    """Phrases that begin or end two or more community areas' names and are no area's own name ("garfield park":
    East and West Garfield Park; "lawndale": North and South Lawndale), with the areas and the phrase's pattern,
    from the gazetteer (built once per gazetteer)."""
    cached = _SHARED_CACHE.get(id(geo))
    if cached and cached[0] is geo:
        return cached[1]
    parts: dict[str, set[int]] = {}
    official = {name.lower() for name in geo.area_names.values()}
    for number, name in geo.area_names.items():
        words = name.lower().split()
        for k in range(1, len(words)):
            for phrase in (" ".join(words[:k]), " ".join(words[k:])):
                parts.setdefault(phrase, set()).add(number)
    broad = {k for k, v in geo.name_index.items() if v is None}
    found = {p: (sorted(n), re.compile(r"(?<![a-z0-9])" + r"[\s-]+".join(map(re.escape, p.split())) +
                                       r"(?![a-z0-9])"))
             for p, n in parts.items() if len(n) >= 2 and p not in official and p not in broad
             and any(w not in _GENERIC for w in p.split())}
    _SHARED_CACHE[id(geo)] = (geo, found)
    return found


def shared_name_mentions(low: str, geo, mentions: list) -> list[tuple[str, list[int], tuple[int, int]]]:
    """Each shared name the question uses alone (not inside a longer name it also matched: "north lawndale")."""
    out = []
    names = shared_names(geo) if geo is not None else {}
    longer = [span for kind, _, span in mentions if kind == "area"]
    for phrase, (numbers, pattern) in sorted(names.items(), key=lambda kv: -len(kv[0])):
        for m in pattern.finditer(low):
            inside = [s for s in longer if s[0] <= m.start() and m.end() <= s[1] and s != m.span()]
            if not inside and not overlaps(m.span(), [s for _, _, s in out]):
                out.append((phrase, numbers, m.span()))
    return out


def shared_note(text: str, names: list[str], left_out: bool = False) -> str:
    """"'Garfield Park' is two community areas, East Garfield Park (27) and West Garfield Park (26); ..."."""
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    both = "both" if len(names) == 2 else "each"
    tail = ("both" if len(names) == 2 else "all") + " are left out." if left_out else f"figures for {both} are given."
    return f"'{text}' is {_count_word(len(names))} community areas, {listed}; {tail}"


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))


# ---------------------------------------------------------------- names that are no community area

# A place word after an area's name makes a name of its own ("Lakeview Heights", "Austin Village"): not that area.
_SUFFIX_RE = re.compile(r"[ \t-]+(heights|park|village|square|hills|ridge|lawn|grove|manor|shores|estates|gardens|"
                        r"terrace|point|harbou?r|woods|springs|meadows|highlands|commons)\b(?![ \t-]+(?:district|"
                        r"station|area|neighbou?rhood|zip))", re.I)


def unknown_names(text: str, low: str, mentions: list, geo) -> list[tuple[str, tuple, tuple]]:
    """(the name as written, its span, the area mention it held) for each area name followed by a place word that
    together name no Chicago community area: "Lakeview Heights" is no area, and Lake View is not it."""
    found = []
    for mention in mentions:
        kind, numbers, (start, end) = mention
        suffix = _SUFFIX_RE.match(low, end) if kind == "area" and not text[start:end].strip().isdigit() else None
        if suffix is None or geo is None:
            continue
        joined = re.sub(r"[\s-]+", " ", low[start:suffix.end()]).strip()
        if joined in geo.name_index:
            continue
        found.append((text[start:suffix.end()], (start, suffix.end()), mention))
    return found


def unknown_note(names: list[str], areas: list[str]) -> str:
    """The note an answer gives for a name that is no community area, with the area whose name it holds."""
    quoted = " or ".join(f"'{n}'" for n in names)
    return (f"There is no Chicago community area named {quoted} (the data is by community area; the nearest name is "
            f"{' and '.join(areas)}), so I cannot give figures for it.")
