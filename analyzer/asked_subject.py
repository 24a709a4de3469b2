"""The subject a question asks for, in its own words, when the reading found no measure the data holds: "what's the
life expectancy in Englewood" asks for "life expectancy", "how many hate crimes were reported in 2021" for "hate
crimes". The answer then declines that subject by name, instead of a place's overview or a decline that names
nothing (either would answer another question).
"""
from __future__ import annotations

import re

# what follows the subject in "how many <subject> were reported": a verb, never the subject itself ("how many
# happened on weekends" names no subject; it takes the one before it)
_VERBS = ("were was are is did do does have has had happened occurred took got reported recorded committed live lived "
          "living reside died die killed murdered shot call calls called").split()
_NOUNS = r"(?P<np>(?!(?:" + "|".join(_VERBS) + r")\b)[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2}?)"
_ASKED_RES = (
    # "how many hate crimes were reported", "how many car thefts in 2019"
    re.compile(r"\bhow\s+many\s+" + _NOUNS + r"\s+(?:" + "|".join(_VERBS) + r"|in|on|at|during|for|across|per|by|"
               r"there)\b"),
    # "what's the life expectancy in englewood", "what is the average commute for logan square"
    re.compile(r"\b(?:what|how)(?:'s|’s|\s+is|\s+was|\s+are|\s+were)\s+(?:the\s+)?(?:average\s+|typical\s+|"
               r"median\s+)?" + _NOUNS + r"\s+(?:in|of|for|at|like|across|around)\b"),
    # "life expectancy in englewood?": the subject opens the question
    # (not a follow-up's opening word: "and in 2021?", "same for 2020", "now in englewood")
    re.compile(r"^(?!(?:and|or|but|so|what|whats|how|which|who|where|when|why|same|it|its|that|this|those|these|now|"
               r"then|also|just|only|even|again|ok|okay|yes|no|please|pls|more|back|up|down|what's|is|are|was|"
               r"were|do|does|did|can|could|any|all|in|on|at|for|by|from|to|with|about)\b)"
               r"(?:the\s+|average\s+|avg\s+|typical\s+|median\s+)?" + _NOUNS + r"\s+(?:in|of|for|at|around)\b"),
)
# Words that ask for a place's figures in general, not a subject the data lacks ("what's the situation in Austin").
GENERAL_WORDS = {"situation", "story", "deal", "status", "stats", "statistics", "data", "numbers", "number", "figures",
                 "picture", "scene", "news", "info", "information", "overview", "summary", "breakdown", "profile",
                 "latest", "count", "total", "difference", "change", "trend", "rate", "rates", "people", "residents",
                 "places", "areas", "neighborhoods", "wards", "districts", "things", "times", "years", "deal", "score",
                 "ppl", "persons", "folks", "individuals", "inhabitants", "humans", "victims", "murders", "homicides",
                 "record", "history", "point", "answer", "thing", "one", "ones", "level", "levels", "stuff", "anything",
                 "everything", "something", "facts", "details", "more", "all"}


def asked_subject(low: str) -> str | None:
    """The question's own words for what it asks about, where a "how many ..." or "what's the ... in" names it;
    None when it names nothing, or only a general word."""
    for pattern in _ASKED_RES:
        m = pattern.search(low)
        if m:
            words = m.group("np").split()
            if words and not all(w in GENERAL_WORDS for w in words) and words[-1] not in GENERAL_WORDS:
                return m.group("np")
    return None
