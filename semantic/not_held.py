"""Subjects people ask about that no dataset here holds (shootings, rents, the weather, victims' ages): declared
once, beside the datasets, so the catalogue can list them and the question reader names them in its answer ("the data
has no shootings") rather than answering a nearby question. Each row is a label and the words that ask for it; a new
subject is a row.
"""
from __future__ import annotations

# Things people ask about that the data does not hold.
UNSUPPORTED: list[tuple[str, str]] = [
    ("shootings", r"shootings?|gun\s+violence|gunshots?|shot(?!\s+(?:dead|and\s+killed))"),
    ("robberies", r"robber(?:y|ies)|mugg(?:ing|ings|ed)"),
    ("carjackings", r"carjack(?:ing|ings|ed|ers?)?"),  # named as asked: "no carjackings", not "no robberies"
    ("burglary", r"burglar(?:y|ies)|break[\s-]?ins?"),
    ("theft", r"thefts?|stolen|steal(?:ing)?|shoplifting"),
    ("assault", r"assaults?|batter(?:y|ies)|sexual\s+assault|rapes?"),
    ("drugs", r"drugs?|narcotics?"),
    # "the housing crash" is the price index's fall, not a traffic crash
    ("traffic", r"traffic|(?<!housing\s)(?<!market\s)(?<!stock\s)(?<!price\s)crash(?:es)?|accidents?|car\s+accidents?|"
                r"pedestrians?"),
    # the homicide rows are first-degree murders (IUCR 0110) only: no manslaughter or reckless homicide
    ("manslaughter", r"(?:involuntary\s+)?manslaughters?|reckless\s+homicides?"),
    ("second-degree murder", r"second[\s-]+degree\s+(?:murders?|homicides?|killings?)"),
    # A graduation rate is a school's figure; the indicators hold adults' diplomas, another measure.
    ("graduation rates", r"graduation\s+rates?|dropout\s+rates?"),
    ("schools", r"schools?(?!ing)|test\s+scores?|cps\b"),
    ("rent", r"rents?|rental|renters?|landlords?"),
    # The data records a CTA train or platform as a kind of place, never which line.
    ("CTA lines", r"(?:red|blue|green|brown|orange|pink|purple|yellow)\s+line"),
    ("transit", r"\bcta\b|transit|trains?|buses|commute"),
    # A figure for the future is no figure in the data ("predict how many murders chicago will have in 2025");
    # "does poverty predict homicides" asks for a correlation, and stays one.
    ("predictions", r"(?:predict|forecast|project)\w*\s+(?:[\w']+\s+){0,6}?(?:will|20[3-9]\d|202[4-9])|"
                    r"how\s+many\s+(?:\w+\s+){1,3}will\s+(?:there\s+)?(?:be|have)"),
    ("weather", r"weather|temperature|rain|snow|forecast"),
    ("air quality", r"air\s+quality|pollution|polluted|smog|emissions"),
    # "how many restaurants are in chinatown": places counted, not a kind of place where homicides happened.
    ("places of business", r"how\s+many\s+(?:restaurants|bars|stores|shops|businesses|hotels|parks|churches|"
                           r"libraries|gas\s+stations|grocery\s+stores)\s+(?:are|is|exist|there)"),
    # The data marks an arrest, not when it came: "solved within a week" asks for a time the rows do not hold.
    ("time to an arrest", r"(?:solved|arrest\w*|cleared|charged|caught)\s+(?:\w+\s+){0,3}?(?:within|in\s+(?:under|"
                          r"less\s+than))\s+(?:a|an|one|two|three|\d+)\s+(?:days?|weeks?|months?|hours?)|"
                          # "how many days passed between a homicide and the arrest", "how long until an arrest"
                          r"(?:days?|weeks?|months?|time)\s+(?:\w+\s+){0,3}?(?:between|before|until|till)\s+"
                          r"(?:\w+\s+){0,5}?(?:arrests?|being\s+arrested)|how\s+long\s+(?:\w+\s+){0,6}?arrest\w*"),
    ("sports", r"bears|bulls|cubs|white\s+sox|blackhawks|sports?|football|baseball|basketball"),
    ("taxes", r"tax(?:es)?|property\s+tax"),
    # the home prices held are Zillow's values, DePaul IHS's index and Redfin's 2012-2019 sales: no assessor records
    ("assessor records", r"(?:cook\s+county\s+)?assessor(?:'s|s)?"),
    ("police response times", r"(?:police\s+)?response\s+times?|911\s+calls?|(?:take|takes|took)\s+to\s+(?:show\s+up|"
                              r"arrive|respond|get\s+there)"),
    ("police staffing", r"cops?|police\s+officers?|officers|policemen|patrol\s+(?:officers?|cars?)|"
                        r"(?:police\s+)?staffing|police\s+budgets?"),
    ("covid", r"covid|coronavirus|pandemic\s+cases|vaccin\w*"),
    ("victim demographics", r"wom[ae]n|females?|gender|victims?'?\s+(?:ages?|race|sex|gender)|"
                            # "break down the victims by race"
                            r"victims\s+(?:\w+\s+){0,2}?by\s+(?:ages?|race|sex|gender|ethnicity)|"
                            r"(?:ages?|race|sex|gender)\s+of\s+(?:the\s+)?(?:homicide\s+|murder\s+)?victims|"
                            # "the typical age of people murdered there"
                            r"(?:ages?|race|sex|gender)\s+of\s+(?:the\s+)?(?:people|persons|those|folks|men|women|"
                            r"kids)\s+(?:who\s+(?:were|was|got)\s+)?(?:murdered|killed|slain|shot)|"
                            r"teen(?:ager)?s|juveniles?|"
                            # "what race were most of the homicide victims", "how old were the victims"
                            r"(?:ages?|races?|sex|gender|ethnicity)\s+(?:(?:were|was|are|is|most|of|the|all|these|"
                            r"those)\s+){1,5}(?:homicide\s+|murder\s+)?victims|"
                            r"how\s+old\s+(?:were|was|are|is)\s+(?:the\s+|most\s+)?(?:homicide\s+|murder\s+)?victims|"
                            # "were most of the victims black or hispanic", "how many hispanic victims"
                            r"victims?(?:\s+(?:in\s+)?[\w']+){0,5}?\s+(?:black|white|hispanic|latin[oax]s?|asian|"
                            r"african[\s-]americans?|males?|men|boys|girls|kids|children|minors|elderly|seniors?|"
                            r"older|younger|(?:over|under|above|below|aged)\s+\d{1,2})"
                            r"(?:\s*(?:,|/|\bor\b|\band\b)\s*(?:black|white|hispanic|latin[oax]s?|asian|"
                            r"african[\s-]americans?))*|"
                            r"(?:black|white|hispanic|latin[oax]|asian|african[\s-]american|male|"
                            r"young|old|older|elderly|child|teen(?:age)?)\s+(?:homicide\s+|murder\s+)?victims?"),
    ("victims' names", r"victims?'?\s+names?|names?\s+of\s+(?:the\s+|all\s+the\s+)?(?:homicide\s+|murder\s+)?"
                       r"(?:victims|people|persons|those|dead|deceased)"),
    ("weapons", r"guns?|firearms?|handguns?|rifles?|knife|knives|stabb(?:ing|ings|ed)|weapons?|blunt\s+objects?"),
    ("gangs, suspects and motives", r"gangs?(?:[\s-]related)?|gang[\s-]?bangers?|motives?|suspects?|offenders?|"
                                    r"perpetrators?|perps?"),
    # The data marks an arrest; what a court did after it is not in the rows.
    ("court outcomes", r"convictions?|convicted|sentenc(?:e|es|ed|ing)|prosecut\w+|acquitt\w+|guilty\s+verdicts?"),
    # Aldermen and Redfin's sales are declared in the semantic layer (semantic/datasets/): read there.
    ("elected officials", r"mayors?|elected\s+officials?"),
]

# Subjects the data lacks that would narrow a homicide count ("how many involved a gun"), not a subject of their own
# like the weather.
FILTERING_SUBJECTS = ("weapons", "victim demographics", "victims' names", "gangs, suspects and motives", "CTA lines",
                      "court outcomes", "predictions")


def labels() -> list[str]:
    return [label for label, _ in UNSUPPORTED]
