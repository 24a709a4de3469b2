"""The question analyzer: entities, years, metrics, ranking and complexity found in a question.

It runs before the first model pass. The orchestrator records the result as the first trace
step and hands it to every backend: the rule planner plans from it directly, and an LLM gets
the short ``hint_text`` block in its prompt. Everything is resolved in the data's own terms:
community areas through the gazetteer (names, portal spellings, aliases, numbers, simple
typos), relative years ("last year") against the homicide snapshot's coverage, not the calendar.

Cheap by design (well under 2 ms): regexes are compiled once at import and the name matcher
is built once per gazetteer.
"""
from __future__ import annotations

import difflib
import re
import threading

# ---------------------------------------------------------------- vocabulary

# metric -> (domain, regex). Order matters only for readability; every pattern is tried.
_METRIC_PATTERNS: list[tuple[str, str, str]] = [
    ("homicides", "homicides",
     r"murder(?:s|ed|ers)?|homicides?|killings?|killed|slain|shot\s+dead|shot\s+and\s+killed|"
     r"deadl(?:y|iest)|dangerous|safe(?:st|r|ty)?|violen(?:t|ce)|victims?"),
    ("income", "socioeconomic",
     r"income|incomes|wealth(?:y|iest|ier)?|earnings?|earn|salar(?:y|ies)|rich(?:est|er)?|"
     r"poor(?:est|er)|affluent|money"),
    ("poverty", "socioeconomic", r"poverty|below\s+the\s+poverty|poor\s+households"),
    ("unemployment", "socioeconomic", r"unemploy(?:ment|ed)|jobless(?:ness)?|out\s+of\s+work|employment"),
    ("education", "socioeconomic",
     r"educat(?:ion|ed)|diplomas?|high\s+school|graduat(?:e|es|ion)|dropouts?|schooling"),
    ("hardship", "socioeconomic", r"hardship"),
    ("crowding", "socioeconomic", r"crowd(?:ed|ing)|overcrowd(?:ed|ing)?"),
    ("dependency", "socioeconomic", r"dependen(?:cy|t)|under\s+18\s+or\s+over\s+64"),
    ("home_value", "property",
     r"home\s+(?:prices?|values?|costs?)|house\s+(?:prices?|values?)|housing\s+(?:prices?|values?|market|costs?)|"
     r"property\s+values?|propert(?:y|ies)\s+prices?|real\s+estate|zillow|zhvi|expensive|cheap(?:est)?|"
     r"affordab(?:le|ility)|homes?\s+(?:cost|worth)|price\s+of\s+(?:a\s+)?(?:home|house)s?|"
     r"home\s+appreciation|price\s+index|typical\s+(?:home|house|condo|property)s?|"
     r"(?:home|house|condo|property)s?\b[\w\s']{0,25}\bworth|value\s+of\s+(?:a\s+)?(?:home|house)s?|"
     r"(?:homes?|houses?)\s+(?:sell|go)\s+for"),
    ("population", "census",
     r"population|populous|inhabitants|people\s+live|live\s+there|how\s+many\s+(?:people\s+(?:live|are)|residents)|"
     r"number\s+of\s+residents"),
    ("race", "census",
     r"race|racial|ethnic(?:ity|ities)?|black|white|hispanic|latino|latinx|asian|demographics?|diversity|diverse"),
    ("age", "census", r"ages?|aged|elderly|seniors?|children|kids|youth|older\s+residents|age\s+groups?|"
                      r"how\s+old"),
    ("arrests", "homicides", r"arrests?|arrested|clearance|cleared|solved|unsolved"),
    ("domestic", "homicides", r"domestic"),
    ("iucr", "iucr", r"iucr|crime\s+codes?|offen[cs]e\s+codes?"),
]

# Words naming where a homicide happened -> the data's location_description values.
_LOCATIONS: dict[str, str] = {
    "street": "STREET", "streets": "STREET", "alley": "ALLEY", "alleys": "ALLEY", "apartment": "APARTMENT",
    "apartments": "APARTMENT", "car": "AUTO", "cars": "AUTO", "auto": "AUTO", "vehicle": "AUTO",
    "vehicles": "AUTO", "porch": "PORCH", "yard": "YARD", "parking lot": "PARKING LOT",
    "parking lots": "PARKING LOT", "park property": "PARK PROPERTY", "parks": "PARK PROPERTY",
    "vacant lot": "VACANT LOT", "gas station": "GAS STATION", "restaurant": "RESTAURANT",
    "tavern": "TAVERN", "bar": "TAVERN", "sidewalk": "SIDEWALK", "hallway": "HALLWAY",
    "residence": "RESIDENCE", "house": "HOUSE", "houses": "HOUSE", "garage": "GARAGE",
    "retail store": "RETAIL STORE", "store": "RETAIL STORE", "gangway": "GANGWAY",
}
_LOCATION_GENERIC = r"location\s+types?|where\s+(?:do|did|are|were)\s+(?:most\s+)?(?:homicides|murders|killings)|" \
                    r"kinds?\s+of\s+(?:places|locations)|types?\s+of\s+(?:places|locations)|locations?"

# Things people ask about that the data does not hold.
_UNSUPPORTED: list[tuple[str, str]] = [
    ("shootings", r"shootings?|gun\s+violence|gunshots?|shot(?!\s+(?:dead|and\s+killed))"),
    ("robberies", r"robber(?:y|ies)|mugg(?:ing|ings|ed)|carjack(?:ing|ings|ed)?"),
    ("burglary", r"burglar(?:y|ies)|break[\s-]?ins?"),
    ("theft", r"thefts?|stolen|steal(?:ing)?|shoplifting"),
    ("assault", r"assaults?|batter(?:y|ies)|sexual\s+assault|rapes?"),
    ("drugs", r"drugs?|narcotics?"),
    ("traffic", r"traffic|crash(?:es)?|accidents?|car\s+accidents?|pedestrians?"),
    ("schools", r"schools?(?!ing)|test\s+scores?|cps\b"),
    ("rent", r"rents?|rental|renters?|landlords?"),
    ("transit", r"\bcta\b|transit|trains?|buses|commute"),
    ("weather", r"weather|temperature|rain|snow|forecast"),
    ("sports", r"bears|bulls|cubs|white\s+sox|blackhawks|sports?|football|baseball|basketball"),
    ("taxes", r"tax(?:es)?|property\s+tax"),
    ("covid", r"covid|coronavirus|pandemic\s+cases|vaccin\w*"),
    ("elected officials", r"alder(?:man|men|person|people|woman|women)|council\s*(?:members?|m[ae]n|wom[ae]n)|"
                          r"city\s+council|mayors?|elected\s+officials?"),
]

# Census groups whose share can rank areas (the census tool's ``group`` argument).
_CENSUS_GROUPS: list[tuple[str, str]] = [
    ("black", r"black|african[\s-]american"),
    ("hispanic_or_latino", r"hispanic|latin[oax]s?|latinx"),
    ("white_not_hispanic", r"white"),
    ("asian", r"asian(?:[\s-]americans?)?"),
    ("age_65_plus", r"seniors?|elderly|older\s+(?:residents|people|adults)|retirees|65\s*(?:\+|and\s+over|or\s+older)"),
    ("age_0_17", r"children|kids|minors|youth|under\s+18"),
    ("125k_plus", r"high[\s-]income\s+households|households\b[\w\s']{0,30}?\b(?:earn|earning|make|making)\s+"
                  r"(?:over|more\s+than|above)\s+\$?125(?:k|,000)?"),
    ("under_25k", r"low[\s-]income\s+households|households\b[\w\s']{0,30}?\b(?:earn|earning|make|making)\s+"
                  r"(?:under|less\s+than|below)\s+\$?25(?:k|,000)?"),
]
_CENSUS_GROUP_RES = [(g, re.compile(r"\b(?:" + p + r")\b", re.I)) for g, p in _CENSUS_GROUPS]

_RANK_DESC = r"most|highest|worst|largest|biggest|greatest|max(?:imum)?|deadliest|richest|wealthiest|" \
             r"most\s+dangerous|most\s+expensive|leading|hardest[\s-]hit|hotspots?"
_RANK_ASC = r"least|lowest|fewest|safest|smallest|min(?:imum)?|poorest|cheapest|least\s+expensive|bottom|best"

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20}
_NUM = r"(\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")"

_INJECTION = re.compile(
    r"ignore\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding)?\s*(?:instructions|prompts?|rules)|"
    r"disregard\s+(?:all\s+|the\s+|your\s+|previous\s+|prior\s+)*(?:instructions|rules|prompt)|"
    r"system\s+prompt|you\s+are\s+now|developer\s+mode|jailbreak|act\s+as\s+(?:an?\s+)?(?:unrestricted|different)|"
    r"reveal\s+(?:your\s+)?(?:prompt|instructions)|<\s*/?\s*(?:script|iframe|img|svg|style)\b|javascript:|"
    r"tool_call|call\s+(?:the\s+|every\s+|all\s+)?tools?\s+\d+\s+times|call\s+(?:every|all)\s+tools?|"
    r"\d+\s+tool\s+calls|rm\s+-rf|drop\s+table|;\s*--|\{\{.*\}\}|__import__|os\.system",
    re.I | re.S)

# ---------------------------------------------------------------- compiled patterns

_FLAGS = re.I
_METRIC_RES = [(metric, domain, re.compile(r"\b(?:" + pattern + r")\b", _FLAGS))
               for metric, domain, pattern in _METRIC_PATTERNS]
_UNSUPPORTED_RES = [(label, re.compile(r"\b(?:" + pattern + r")\b", _FLAGS)) for label, pattern in _UNSUPPORTED]
_LOCATION_RE = re.compile(r"\b(" + "|".join(sorted((re.escape(k).replace(r"\ ", r"\s+") for k in _LOCATIONS),
                                                     key=len, reverse=True)) + r")\b(?!\s+(?:prices?|values?))",
                          _FLAGS)
_LOCATION_GENERIC_RE = re.compile(r"\b(?:" + _LOCATION_GENERIC + r")\b", _FLAGS)

_AREA_NUMBER_RE = re.compile(r"\b(?:community\s+area|area|ca)\s*(?:#|no\.?|number)?\s*(\d{1,3})\b", _FLAGS)
_AREA_NUMBERS_MORE_RE = re.compile(r"\b(?:community\s+areas|areas)\s+((?:\d{1,3}(?:\s*,\s*|\s+and\s+|\s+"
                                   r"(?:vs\.?|versus)\s+|\s*&\s*))+\d{1,3})\b", _FLAGS)
_WARD_RE = re.compile(r"\bwards?\s*(?:#|no\.?|number)?\s*(\d{1,3})\b|\b(\d{1,3})(?:st|nd|rd|th)\s+ward\b", _FLAGS)
_WARDS_MORE_RE = re.compile(r"\bwards\s+((?:\d{1,3}(?:\s*,\s*|\s+and\s+|\s+(?:vs\.?|versus)\s+|\s*&\s*))+\d{1,3})\b",
                            _FLAGS)
_DISTRICT_RE = re.compile(r"\b(?:police\s+)?districts?\s*(?:#|no\.?|number)?\s*(\d{1,3})\b|"
                          r"\b(\d{1,3})(?:st|nd|rd|th)\s+(?:police\s+)?district\b", _FLAGS)
_DISTRICTS_MORE_RE = re.compile(r"\bdistricts\s+((?:\d{1,3}(?:\s*,\s*|\s+and\s+|\s+(?:vs\.?|versus)\s+|\s*&\s*))+"
                                r"\d{1,3})\b", _FLAGS)
_ZIP_RE = re.compile(r"\b(60[678]\d{2})(?:-\d{4})?\b")
_IUCR_RE = re.compile(r"\b(?:iucr|code)\s*(?:code\s*)?#?\s*([0-9]{3,4}[a-z]?)\b", _FLAGS)
_YEAR = r"((?:19|20)\d{2})"
_RANGE_RES = [
    re.compile(r"\bfrom\s+" + _YEAR + r"\s+(?:to|until|till|through|thru|-|–)\s+" + _YEAR + r"\b", _FLAGS),
    re.compile(r"\bbetween\s+" + _YEAR + r"\s+and\s+" + _YEAR + r"\b", _FLAGS),
    re.compile(r"\b" + _YEAR + r"\s*(?:-|–|—|to|through|thru)\s*" + _YEAR + r"\b", _FLAGS),
    re.compile(r"\b" + _YEAR + r"\s*[-–]\s*(\d{2})\b(?!\d)", _FLAGS),
]
_SINCE_RE = re.compile(r"\b(?:since|after|starting\s+(?:in|from)|from)\s+" + _YEAR + r"\b", _FLAGS)
_BEFORE_RE = re.compile(r"\b(?:before|prior\s+to|until|up\s+to)\s+" + _YEAR + r"\b", _FLAGS)
_YEAR_RE = re.compile(r"(?<![\d$,.])" + _YEAR + r"(?!\d|,\d|\s*%)")
_LAST_YEAR_RE = re.compile(r"\b(?:last|previous|past)\s+year\b", _FLAGS)
_THIS_YEAR_RE = re.compile(r"\b(?:this|current)\s+year\b|\bso\s+far\b|\bytd\b|\byear\s+to\s+date\b", _FLAGS)
_LAST_N_RE = re.compile(r"\b(?:last|past|previous)\s+" + _NUM + r"\s+years\b", _FLAGS)
_DECADE_RE = re.compile(r"\b(?:last|past|previous)\s+decade\b", _FLAGS)
_RECENT_RE = re.compile(r"\b(?:recent(?:ly)?|latest|nowadays|currently|today|now)\b", _FLAGS)
_PER_CAPITA_RE = re.compile(r"\bper[\s-]capita\b(?!\s+income)|\bper\s+(?:100\s*k|100,?000|1,?000|person|"
                            r"resident|head)\b|\brates?\b|\badjusted\s+for\s+population\b|"
                            r"\brelative\s+to\s+(?:the\s+)?population\b|\bper\s+population\b", _FLAGS)
_PER_CAPITA_INCOME_RE = re.compile(r"\bper[\s-]capita\s+income\b", _FLAGS)
_TREND_RE = re.compile(r"\btrends?\b|\bchang(?:e|ed|es|ing)\b|\bover\s+time\b|\bincreas(?:e|ed|es|ing)\b|"
                       r"\bdecreas(?:e|ed|es|ing)\b|\b(?:go|gone|went)\s+(?:up|down)\b|\brise\b|\brisen\b|"
                       r"\brose\b|\bfall(?:en)?\b|\bfell\b|\bdrop(?:ped)?\b|\bgrow(?:n|th)?\b|\bgrew\b|"
                       r"\bappreciat\w*|\byear\s+over\s+year\b|\bevolv\w*|\bcompared?\s+(?:to|with)\s+"
                       + _YEAR, _FLAGS)
_BY_YEAR_RE = re.compile(r"\b(?:by|per|each|every)\s+year\b|\byearly\b|\bannual(?:ly)?\b|\beach\s+year\b|"
                         r"\byear\s+by\s+year\b", _FLAGS)
_BY_MONTH_RE = re.compile(r"\b(?:by|per|each|every)\s+month\b|\bmonthly\b|\bwhich\s+months?\b|\bseason\w*|"
                          r"\bsummer\b|\bwinter\b", _FLAGS)
_CORRELATION_RE = re.compile(r"\bcorrelat\w*|\brelationship\b|\brelated\b|\blink(?:ed)?\b|\bassociat\w*|"
                             r"\bconnection\b|\bconnected\b|\bpredict\w*|\bexplain\w*\s+by\b", _FLAGS)
# "Do poorer neighbourhoods have more homicides?" contrasts kinds of areas: a correlation question.
_GROUP_CONTRAST_RE = re.compile(
    r"\b(?:poorer|richer|wealthier|more\s+affluent|low[\s-]income|high[\s-]income|higher[\s-]poverty|"
    r"lower[\s-]income|higher[\s-]income|disadvantaged|less\s+educated)\s+(?:neighbou?rhoods|areas|communities|"
    r"community\s+areas|places|parts\s+of\s+(?:the\s+)?city)\b", _FLAGS)
_COMPARE_RE = re.compile(r"\bcompar\w*|\bvs\.?\b|\bversus\b|\bdifference\s+between\b|\bagainst\b|"
                         r"\bhigher\s+than\b|\blower\s+than\b|\bmore\s+than\b|\bfewer\s+than\b|\bless\s+than\b",
                         _FLAGS)
_UNSUPPORTED_ANY = re.compile("|".join(r"\b(?:" + p + r")\b" for _, p in _UNSUPPORTED), _FLAGS)
_RANK_DESC_RE = re.compile(r"\b(?:" + _RANK_DESC + r")\b", _FLAGS)
_RANK_ASC_RE = re.compile(r"\b(?:" + _RANK_ASC + r")\b", _FLAGS)
_TOP_N_RE = re.compile(r"\b(?:top|bottom|first|worst|best)\s+" + _NUM + r"\b|\b" + _NUM +
                       r"\s+(?:most|least|highest|lowest|safest|deadliest|richest|poorest|wealthiest|"
                       r"cheapest|fewest|biggest|largest|smallest|worst|best|areas|neighbou?rhoods|"
                       r"communit(?:y|ies)|community\s+areas|wards|districts)\b", _FLAGS)
_WHICH_RE = re.compile(r"\b(?:which|what|where)\b.{0,40}?\b(?:area|neighbou?rhood|community|part|ward|district|"
                       r"place|zip|month|year|location)s?\b", _FLAGS | re.S)
_GROUP_WORDS = [
    ("community_area", re.compile(r"\b(?:community\s+areas?|neighbou?rhoods?|areas|communities|by\s+area|"
                                  r"which\s+area|what\s+area|which\s+part|what\s+part|parts\s+of)\b", _FLAGS)),
    ("ward", re.compile(r"\b(?:which|what|by|each|per|every|the)\s+wards?\b|\bwards\b", _FLAGS)),
    ("district", re.compile(r"\b(?:which|what|by|each|per|every|the)\s+(?:police\s+)?districts?\b|\bdistricts\b",
                            _FLAGS)),
    ("month", _BY_MONTH_RE),
    ("year", re.compile(r"\b(?:which|what)\s+years?\b|\bby\s+year\b|\beach\s+year\b|\bper\s+year\b|\byearly\b|"
                        r"\bannual(?:ly)?\b|\byear\s+by\s+year\b", _FLAGS)),
]
_BROAD_RE = re.compile(r"\b(?:south|north|west|east)\s+side\b(?!\s+(?:of))", _FLAGS)
_CITYWIDE_RE = re.compile(r"\b(?:chicago|city[\s-]?wide|the\s+city|whole\s+city|all\s+of\s+chicago)\b", _FLAGS)
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


# ---------------------------------------------------------------- helpers

def _number(text: str) -> int:
    text = text.lower()
    return _NUMBER_WORDS[text] if text in _NUMBER_WORDS else int(text)


def _add(items: list, value) -> None:
    if value not in items:
        items.append(value)


def _list_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d{1,3}", text)]


def _coverage(data) -> dict:
    """Homicide coverage: first year, last year, last full year."""
    cov = {}
    try:
        cov = dict(data.coverage.get("homicides") or {})
    except Exception:
        cov = {}
    first = int(cov.get("first_year", 2001))
    last = int(cov.get("last_year", 2023))
    end = str(cov.get("end", f"{last}-12-31"))
    last_full = last if end.endswith("-12-31") else last - 1
    return {"first": first, "last": last, "last_full": last_full, "end": end, "start": cov.get("start", f"{first}-01-01")}


def _other_coverage(data, key: str, default: tuple) -> tuple:
    try:
        cov = data.coverage[key]
        return int(str(cov["start"])[:4]), int(str(cov["end"])[:4])
    except Exception:
        return default


# ---------------------------------------------------------------- the analyzer

def analyze_question(question: str, data=None) -> dict:
    """Entities, years, metrics and complexity found in a question; ``hint_text`` goes to the model."""
    text = str(question or "")[:2000]
    if data is None:
        try:
            from tools.data_loader import shared_data

            data = shared_data()
        except Exception:
            data = None
    geo = None
    if data is not None:
        try:
            geo = data.geography
        except Exception:
            geo = None
    low = text.lower().replace("’", "'")
    cov = _coverage(data)
    warnings: list[str] = []
    invalid: dict = {"areas": [], "wards": [], "districts": [], "zips": []}

    # ---------------- places
    areas: list[dict] = []
    taken: list[tuple[int, int]] = []  # character spans already used by an entity

    def add_area(number, name_text, span, how="name"):
        if any(a["number"] == number for a in areas):
            return
        areas.append({"number": number, "name": geo.area_name(number) if geo else str(number),
                      "text": name_text, "match": how, "_pos": span[0]})

    def free(span):
        return all(span[1] <= s or span[0] >= e for s, e in taken)

    wards: list[int] = []
    for m in _WARDS_MORE_RE.finditer(low):
        for n in _list_numbers(m.group(1)):
            _add(wards, n)
        taken.append(m.span())
    for m in _WARD_RE.finditer(low):
        if free(m.span()):
            _add(wards, int(m.group(1) or m.group(2)))
            taken.append(m.span())
    districts: list[int] = []
    for m in _DISTRICTS_MORE_RE.finditer(low):
        for n in _list_numbers(m.group(1)):
            _add(districts, n)
        taken.append(m.span())
    for m in _DISTRICT_RE.finditer(low):
        if free(m.span()):
            _add(districts, int(m.group(1) or m.group(2)))
            taken.append(m.span())
    zips: list[str] = []
    for m in _ZIP_RE.finditer(low):
        _add(zips, m.group(1))
        taken.append(m.span())
    iucr_codes: list[str] = []
    for m in _IUCR_RE.finditer(low):
        code = m.group(1).upper()
        if not re.fullmatch(r"(?:19|20)\d{2}", code) or "iucr" in m.group(0).lower():
            _add(iucr_codes, code.zfill(4) if code.isdigit() else code)
            taken.append(m.span())

    numbered: list[tuple[int, tuple]] = []
    for m in _AREA_NUMBERS_MORE_RE.finditer(low):
        for n in _list_numbers(m.group(1)):
            numbered.append((n, m.span()))
        taken.append(m.span())
    for m in _AREA_NUMBER_RE.finditer(low):
        if free(m.span()) and not re.match(r"(?:19|20)\d{2}$", m.group(1)):
            numbered.append((int(m.group(1)), m.span()))
            taken.append(m.span())
    for n, span in numbered:
        if geo is not None and 1 <= n <= 77:
            add_area(n, text[span[0]:span[1]], span, "number")
        elif not 1 <= n <= 77:
            _add(invalid["areas"], n)

    broad: list[str] = []
    if geo is not None:
        index = _area_index(geo)
        for m in index.exact_re.finditer(low):
            if not free(m.span()):
                continue
            number = index.resolve_exact(m.group(0))
            if number is None:
                _add(broad, m.group(0))
                taken.append(m.span())
                continue
            add_area(number, text[m.start():m.end()], m.span())
            taken.append(m.span())
        # Simple typos: n-grams of uncommon words close to a name with the same word count.
        tokens = [(m.group(0), m.span()) for m in _TOKEN_RE.finditer(low)]
        for size in (3, 2, 1):
            for i in range(len(tokens) - size + 1):
                group = tokens[i:i + size]
                span = (group[0][1][0], group[-1][1][1])
                if not free(span):
                    continue
                words = [w for w, _ in group]
                if words[0] in _COMMON or words[-1] in _COMMON or (size == 1 and len(words[0]) < 5):
                    continue
                ngram = " ".join(words)
                name, _ratio = index.fuzzy(ngram, size)
                if name is None:
                    continue
                number = geo.name_index.get(name)
                if number is None:
                    continue
                add_area(number, text[span[0]:span[1]], span, "fuzzy")
                taken.append(span)
    areas.sort(key=lambda a: a.pop("_pos"))
    for m in _BROAD_RE.finditer(low):
        _add(broad, m.group(0))

    # ---------------- years
    years: list[int] = []
    year_range = None
    periods: list[dict] = []
    relative_note = None
    year_spans: list[tuple[int, int]] = []
    for pattern in _RANGE_RES:
        for m in pattern.finditer(low):
            if any(not (m.end() <= s or m.start() >= e) for s, e in year_spans):
                continue
            start = int(m.group(1))
            end_text = m.group(2)
            end = int(end_text) if len(end_text) == 4 else int(m.group(1)[:2] + end_text)
            if end < start:
                continue
            periods.append({"start": start, "end": end, "_pos": m.start()})
            year_spans.append(m.span())
    periods.sort(key=lambda p: p.pop("_pos"))
    for m in _SINCE_RE.finditer(low):
        if any(not (m.end() <= s or m.start() >= e) for s, e in year_spans):
            continue
        start = int(m.group(1)) + (1 if m.group(0).lower().startswith("after") else 0)
        periods.append({"start": start, "end": max(cov["last"], start)})
        year_spans.append(m.span())
    for m in _BEFORE_RE.finditer(low):
        if any(not (m.end() <= s or m.start() >= e) for s, e in year_spans):
            continue
        end = int(m.group(1)) - (0 if m.group(0).lower().startswith(("until", "up")) else 1)
        periods.append({"start": min(cov["first"], end), "end": end})
        year_spans.append(m.span())
    for m in _YEAR_RE.finditer(low):
        if any(s <= m.start() < e for s, e in year_spans) or any(s <= m.start() < e for s, e in taken):
            continue
        _add(years, int(m.group(1)))
    for p in periods:
        _add(years, p["start"])
        _add(years, p["end"])
    m = _LAST_N_RE.search(low)
    if m:
        n = max(1, min(_number(m.group(1)), 30))
        periods.append({"start": cov["last_full"] - n + 1, "end": cov["last_full"]})
        relative_note = (f"'{m.group(0)}' read against the homicide data, whose last full year is "
                         f"{cov['last_full']}: {cov['last_full'] - n + 1}-{cov['last_full']}")
    elif _DECADE_RE.search(low):
        periods.append({"start": cov["last_full"] - 9, "end": cov["last_full"]})
        relative_note = (f"'last decade' read against the homicide data, whose last full year is {cov['last_full']}: "
                         f"{cov['last_full'] - 9}-{cov['last_full']}")
    if _LAST_YEAR_RE.search(low) and not m:
        _add(years, cov["last_full"])
        relative_note = (f"'last year' means {cov['last_full']}, the last full year in the homicide data "
                         f"(the snapshot ends {cov['end']}), not the calendar year")
    if _THIS_YEAR_RE.search(low):
        _add(years, cov["last"])
        relative_note = (f"'this year' means {cov['last']}, the latest year in the homicide data; it is partial "
                         f"(the snapshot ends {cov['end']})")
    if periods:
        year_range = {"start": periods[0]["start"], "end": periods[0]["end"]}
        for p in periods:
            _add(years, p["start"])
            _add(years, p["end"])
    elif len(years) == 1:
        year_range = {"start": years[0], "end": years[0]}
    elif len(years) >= 2:  # "more murders in 2016 than 2015": the span, shown year by year
        year_range = {"start": min(years), "end": max(years)}
    recent = bool(_RECENT_RE.search(low))

    # ---------------- metrics and domains
    metrics: list[str] = []
    domains: list[str] = []
    metric_pos: dict[str, int] = {}
    for metric, domain, pattern in _METRIC_RES:
        found = pattern.search(low)
        if found:
            _add(metrics, metric)
            _add(domains, domain)
            metric_pos[metric] = found.start()
    if _PER_CAPITA_INCOME_RE.search(low):
        _add(metrics, "income")
        _add(domains, "socioeconomic")
    if "poverty" in metrics and "income" in metrics and re.search(r"\bpoor(?:est|er)\b", low) and \
            not re.search(r"\bincome", low):
        metrics.remove("income")
    if iucr_codes:
        _add(metrics, "iucr")
        _add(domains, "iucr")
        if "homicides" in metrics and not re.search(r"\bhow\s+many|\bcount|\bnumber\s+of\b", low):
            metrics.remove("homicides")
            domains.remove("homicides")
    locations: list[str] = []
    if "home_value" not in metrics or "homicides" in metrics:
        for m in _LOCATION_RE.finditer(low):
            word = re.sub(r"\s+", " ", m.group(1).lower())
            if word == "house" and "home_value" in metrics:
                continue
            _add(locations, _LOCATIONS[word])
    if locations or (_LOCATION_GENERIC_RE.search(low) and "homicides" in metrics):
        _add(metrics, "location_type")
        _add(domains, "homicides")
    if "homicides" not in metrics and ({"arrests", "domestic", "location_type"} & set(metrics)):
        _add(metrics, "homicides")
        _add(domains, "homicides")
    if "age" in metrics and re.search(r"\bage\s+of\s+(?:the\s+)?(?:victims?|homes?|houses?)\b", low):
        metrics.remove("age")
        if not any(m_ in metrics for m_ in ("population", "race")):
            domains.remove("census")
    census_group = next((g for g, rx in _CENSUS_GROUP_RES if rx.search(low)), None)
    if census_group in ("125k_plus", "under_25k") and "household_income" not in metrics and \
            ("income" in metrics or not domains):
        # Household income bands live in the ACS table, not the per-capita socioeconomic one.
        if "income" in metrics:
            metrics.remove("income")
        _add(metrics, "household_income")
        _add(domains, "census")
        if not any(m_ in metrics for m_ in ("poverty", "unemployment", "education", "hardship", "crowding",
                                            "dependency")) and "socioeconomic" in domains:
            domains.remove("socioeconomic")
    # "safe"/"dangerous" alone means homicides; "more than"/"less than" are not metrics.
    per_capita = bool(_PER_CAPITA_RE.search(low)) and "homicides" in metrics
    if re.search(r"\b(?:unemployment|poverty|crime|murder|homicide|arrest|clearance)\s+rates?\b", low) and \
            not re.search(r"\b(?:homicide|murder|killing)\s+rates?\b", low) and \
            not re.search(r"\bper[\s-]capita\b(?!\s+income)|\bper\s+(?:100|1,?000|person|resident)", low):
        per_capita = bool(re.search(r"\b(?:crime|murder|homicide)\s+rates?\b", low))
    trend = bool(_TREND_RE.search(low))
    by_year = bool(_BY_YEAR_RE.search(low))
    correlation = bool(_CORRELATION_RE.search(low) or _GROUP_CONTRAST_RE.search(low)) and len(domains) >= 2
    if trend:
        _add(metrics, "trend")
    if correlation:
        _add(metrics, "correlation")
    if "home_value" in metrics and trend:
        _add(metrics, "price_trend")
    if not metrics and (areas or wards or districts) and re.search(r"\bcrime\b", low):
        _add(metrics, "homicides")
        _add(domains, "homicides")
    if not domains and not _UNSUPPORTED_ANY.search(low) and (wards or districts or (years and (areas or periods))):
        _add(metrics, "homicides")  # wards, districts and year ranges only exist in the homicide data
        _add(domains, "homicides")

    unsupported: list[str] = []
    for label, pattern in _UNSUPPORTED_RES:
        if pattern.search(low):
            if label == "schools" and "education" in metrics and not re.search(r"\bschools\b", low):
                continue
            if label == "taxes" and not re.search(r"\btax", low):
                continue
            unsupported.append(label)
    if re.search(r"\bcrimes?\b", low) and not re.search(r"\bcrime\s+codes?\b", low) and \
            "homicides" in metrics and not re.search(r"murder|homicide|killing|killed|slain|shot\s+dead", low):
        unsupported.append("crime other than homicide")

    # ---------------- ranking and comparison
    ranking = None
    desc = _RANK_DESC_RE.search(low)
    asc = _RANK_ASC_RE.search(low)
    top = _TOP_N_RE.search(low)
    if desc or asc or top:
        order = "desc"
        if asc and (not desc or asc.start() < desc.start() or
                    re.match(r"(?:most|least)$", desc.group(0), re.I) and asc.group(0).lower() != "least"):
            order = "asc"
        if re.search(r"\bpoor(?:est|er)\b", low) and "poverty" in metrics:
            order = "desc"
        if re.search(r"\b(?:least|lowest|fewest|smallest)\b", low) and re.search(r"\b(?:most|highest)\b", low):
            order = "asc" if asc and desc and asc.start() < desc.start() else "desc"
        top_n = None
        if top:
            top_n = _number(top.group(1) or top.group(2))
            if re.search(r"\bbottom\b", top.group(0), re.I):
                order = "asc"
        ranking = {"order": order, "top_n": top_n, "metric": _ranked_metric(low, metrics, metric_pos, desc, asc, top)}
        if top_n is None and _WHICH_RE.search(low) and not re.search(
                r"\b(?:areas|neighbou?rhoods|communities|wards|districts|zips|places)\b", low):
            ranking["singular"] = True
    group_by = None
    for name, pattern in _GROUP_WORDS:
        if pattern.search(low):
            group_by = name
            break
    if group_by == "ward" and wards and not re.search(r"\bwhich\s+ward|\bwards\b|\bby\s+ward|\beach\s+ward", low):
        group_by = None
    if group_by == "district" and districts and not re.search(r"\bwhich\s+(?:police\s+)?district|\bdistricts\b|"
                                                              r"\bby\s+district|\beach\s+district", low):
        group_by = None
    if group_by == "community_area" and areas and not ranking:
        group_by = None
    if group_by is None and (by_year or (trend and not periods) or (len(years) >= 2 and not periods)):
        group_by = "year"
    if _BY_MONTH_RE.search(low):
        group_by = "month"
    places = len(areas) + len(wards) + len(districts) + len(zips)
    comparison = bool(_COMPARE_RE.search(low)) or places >= 2 or len(periods) >= 2
    if comparison and places >= 2 and "homicides" in metrics and \
            re.search(r"\b(?:dangerous|safer?|safest|violent|deadl(?:y|ier|iest))\b", low):
        per_capita = True  # "safer" between areas of different sizes means the rate, not the count

    # ---------------- warnings
    for n in invalid["areas"]:
        warnings.append(f"There is no community area {n}: Chicago's community areas are numbered 1 to 77.")
    geo_wards = getattr(geo, "wards", list(range(1, 51)))
    geo_districts = getattr(geo, "districts", [])
    for w in wards:
        if w not in geo_wards:
            _add(invalid["wards"], w)
            warnings.append(f"There is no ward {w}: Chicago has wards 1 to 50.")
    for d in districts:
        if geo_districts and d not in geo_districts:
            _add(invalid["districts"], d)
            warnings.append(f"There is no police district {d}; the current districts are "
                            f"{', '.join(str(x) for x in geo_districts)}.")
    if geo is not None:
        for z in zips:
            if z not in geo.zip_to_areas:
                _add(invalid["zips"], z)
                warnings.append(f"ZIP {z} is not a Chicago ZIP in the crosswalk.")
    for b in broad:
        warnings.append(f"'{b}' covers many community areas; the data is by the 77 community areas, "
                        "so name one (e.g. Austin, Englewood) or ask for a ranking.")
    area_domains = [d for d in domains if d in ("census", "socioeconomic", "property")]
    if area_domains and (wards or districts) and not areas and not zips:
        kinds = " and ".join(x for x in (("ward" if wards else ""), ("police district" if districts else "")) if x)
        labels = {"census": "census demographics", "socioeconomic": "socioeconomic indicators",
                  "property": "home values"}
        warnings.append(
            f"{', '.join(labels[d] for d in area_domains).capitalize()} are published by community area "
            f"(home values also by ZIP), not by {kinds}; homicide counts are available by ward and district. "
            "Name a community area to get those figures.")
    if zips and ("census" in domains or "socioeconomic" in domains) and not areas:
        warnings.append("Census and socioeconomic figures are by community area, not ZIP; a ZIP can be mapped "
                        "to the community areas it overlaps.")
    if zips and "homicides" in domains and not areas:
        warnings.append("The homicide data has no ZIP field; counts are by community area, ward or district.")
    out_years = []
    for y in years:
        if "homicides" in domains or not domains:
            if not cov["first"] <= y <= cov["last"]:
                out_years.append(y)
        elif "property" in domains:
            first, last = _other_coverage(data, "zhvi", (2000, 2024))
            if not first <= y <= last:
                out_years.append(y)
    if out_years:
        names = ", ".join(str(y) for y in out_years)
        if "property" in domains and "homicides" not in domains:
            first, last = _other_coverage(data, "zhvi", (2000, 2024))
            warnings.append(f"Year(s) {names} are outside the home value data, which covers {first} to {last}.")
        else:
            warnings.append(f"Year(s) {names} are outside the homicide data, which covers {cov['start']} to "
                            f"{cov['end']} ({cov['last']} is partial).")
    if "socioeconomic" in domains and years and not out_years and any(y > 2012 or y < 2008 for y in years) and \
            "homicides" not in domains:
        warnings.append("The socioeconomic indicators are a single 2008-2012 ACS snapshot, not a yearly series.")
    if "census" in domains and any(y not in (2010,) and not 2019 <= y <= 2023 for y in years) and \
            "homicides" not in domains:
        warnings.append("Census figures are the 2019-2023 ACS 5-year estimates (and 2010 census population); "
                        "other years are not available.")
    injection = bool(_INJECTION.search(text))
    if injection:
        warnings.append("The question contains instruction-like text or markup; it is treated as plain text.")
    if unsupported and not domains:
        warnings.append("ChiQA's data covers homicides (not other crimes), census demographics, socioeconomic "
                        "indicators and home values; it has nothing on " + ", ".join(unsupported) + ".")

    # ---------------- complexity
    chained = bool(ranking) and len([d for d in domains if d != "iucr"]) >= 2
    score = max(0, len(domains) - 1) * 2 + max(0, places - 1) + (1 if comparison else 0) + \
        (2 if chained else 0) + (2 if correlation else 0) + (1 if per_capita else 0) + (1 if len(periods) >= 2 else 0)
    complexity = "simple" if score == 0 else ("medium" if score <= 2 else "complex")
    if len(domains) >= 3:
        complexity = "complex"

    result = {
        "complexity": complexity,
        "areas": areas,
        "wards": wards,
        "districts": districts,
        "zips": zips,
        "iucr_codes": iucr_codes,
        "years": years,
        "year_range": year_range,
        "periods": periods,
        "relative_year_note": relative_note,
        "recent": recent,
        "metrics": metrics,
        "domains": domains,
        "locations": locations,
        "group_by": group_by,
        "unsupported": unsupported,
        "ranking": ranking,
        "per_capita": per_capita,
        "trend": trend,
        "census_group": census_group,
        # "domestic homicides" asks for the domestic cases only, not a domestic/non-domestic split.
        "domestic_filter": bool(re.search(r"\bdomestic(?:[- ]violence)?\s+(?:homicides?|murders?|killings?|"
                                          r"cases?|deaths?)\b", low)),
        "correlation": correlation,
        "comparison": comparison,
        "chained": chained,
        "citywide": bool(_CITYWIDE_RE.search(low)),
        "broad_places": broad,
        "invalid": invalid,
        "out_of_range_years": out_years,
        "coverage": {"homicides": {"first_year": cov["first"], "last_year": cov["last"],
                                   "last_full_year": cov["last_full"], "end": cov["end"]}},
        "warnings": warnings,
        "injection_suspected": injection,
    }
    result["hint_text"] = _hint_text(result)
    return result


_RANK_WORD_METRIC = [
    (re.compile(r"safe|deadl|dangerous|violent", re.I), "homicides"),
    (re.compile(r"rich|wealth|poor", re.I), "income"),
    (re.compile(r"cheap|expensive", re.I), "home_value"),
]


def _ranked_metric(low: str, metrics: list, metric_pos: dict, *matches) -> str | None:
    """The metric a ranking word applies to: the word's own meaning, else the next metric named after it."""
    found = [m for m in matches if m]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    for pattern, metric in _RANK_WORD_METRIC:
        for m in found:
            if pattern.search(m.group(0)) and metric in metrics:
                return "poverty" if metric == "income" and "poverty" in metrics and "income" not in metrics else metric
    candidates = [(pos, metric) for metric, pos in metric_pos.items() if metric in metrics]
    if not candidates:
        return metrics[0] if metrics else None
    after = [c for c in candidates if c[0] >= first.start()]
    if after:
        return min(after)[1]
    return max(candidates)[1]


def _hint_text(a: dict) -> str:
    """A short block for an LLM prompt (at most 400 characters)."""
    parts = []
    if a["areas"]:
        parts.append("Areas: " + ", ".join(f"{x['name']} ({x['number']})" for x in a["areas"][:4]))
    if a["wards"]:
        parts.append("Wards: " + ", ".join(map(str, a["wards"][:4])))
    if a["districts"]:
        parts.append("Districts: " + ", ".join(map(str, a["districts"][:4])))
    if a["zips"]:
        parts.append("ZIPs: " + ", ".join(a["zips"][:4]))
    if a["periods"]:
        parts.append("Years: " + "; ".join(f"{p['start']}-{p['end']}" for p in a["periods"][:2]))
    elif a["years"]:
        parts.append("Years: " + ", ".join(map(str, a["years"][:4])))
    if a["metrics"]:
        parts.append("Metrics: " + ", ".join(a["metrics"][:6]))
    if a["ranking"]:
        r = a["ranking"]
        parts.append(f"Rank: {r['order']}" + (f" top {r['top_n']}" if r.get("top_n") else ""))
    if a["per_capita"]:
        parts.append("Per capita")
    if a["unsupported"]:
        parts.append("Not in data: " + ", ".join(a["unsupported"][:3]))
    line = "; ".join(parts)
    for w in a["warnings"][:2]:
        line += ("\n" if line else "") + "Note: " + w
    if len(line) > 400:
        line = line[:397].rstrip() + "..."
    return line
