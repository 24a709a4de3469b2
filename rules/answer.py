"""The rule planner's answer writer: a templated answer built only from the tool results.

Every number in the answer is copied from a result's summary, text, sources or caveats as the
tool formatted it, so the grounding check can match it. Each part is checked with the same
grounding rules before it is kept: a note whose small whole numbers are not in the results is
rewritten with the numbers in words (they come from the gazetteer or coverage, not the data),
and any other part with an unmatched number is dropped. ``strict`` keeps only the parts copied
verbatim from the results. Sources and caveats are not repeated in the text: the result carries them in
its own fields, which the page and the CLI show once, after the answer.
"""
from __future__ import annotations

import re

from loop import grounding

TOOL_LABELS = {
    "query_homicides_advanced": "homicide counts",
    "get_iucr_info": "the IUCR code lookup",
    "query_census_demographics": "census demographics",
    "query_socioeconomic": "socioeconomic indicators",
    "query_property_values": "home values",
    "analyze_homicide_rates_by_community_area": "homicide rates per 100,000 residents",
    "analyze_homicide_socioeconomic_context": "the homicide / socioeconomic comparison",
    "compare_homicide_district_trends": "the period comparison",
}
CAPABILITIES = ("ChiQA answers questions about Chicago public data: homicides (counts by year, month, community "
                "area, ward or police district, arrests, domestic cases, location types, rates per 100,000 "
                "residents), census demographics by community area (population, race and ethnicity, age), "
                "socioeconomic indicators (per capita income, poverty, unemployment, education, hardship) and "
                "home values by community area or ZIP.")
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_INT_TOKEN = re.compile(r"(?<![\w.,$])(\d{1,3})(?![\w.,%]|\d)")
_RANK_LINE = re.compile(r"^\s*(?:1\.|-)\s+(.+)$")


def _words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    return str(n)


class _Checker:
    """Keeps only parts whose numbers the grounding check accepts."""

    def __init__(self, ok_results: list, question: str):
        self.results = ok_results
        self.question = question
        self.refs = grounding.References.build(ok_results, question)

    def unmatched(self, text: str) -> list:
        return grounding.check_grounding(text, self.results, self.question, self.refs).unmatched

    def keep(self, text: str, rewrite: bool = True) -> str | None:
        if not text or not self.unmatched(text):
            return text
        if rewrite:
            bad = set(self.unmatched(text))

            def spell(m):
                return _words(int(m.group(1))) if m.group(1) in bad and int(m.group(1)) < 100 else m.group(0)

            fixed = _INT_TOKEN.sub(spell, text)
            if not self.unmatched(fixed):
                return fixed
        return None


def _lines(text: str, limit: int = 14) -> list:
    lines = [line.rstrip() for line in (text or "").splitlines() if line.strip()]
    if len(lines) > limit:
        lines = lines[:limit] + ["…"]
    return lines


def _ranking_lead(entry: dict, analysis: dict) -> str | None:
    """For a ranked result: its first row, as the tool wrote it."""
    result = entry.get("result") or {}
    args = entry.get("arguments") or {}
    values = result.get("values") or {}
    ranked = values.get("scope") == "ranking" or (bool(analysis.get("ranking")) and (
        values.get("group_by") in ("community_area", "ward", "district", "location_type")
        or isinstance(values.get("breakdown"), list)))
    if values.get("group_by") in ("year", "month") and analysis.get("ranking"):
        # A time series is listed in date order: its peak line, not its first row, answers "which year".
        peak = next((line for line in _lines(result.get("text"), 60) if line.startswith("Highest:")), None)
        return peak.rstrip(".") if peak else None
    if not ranked or args.get("community_area") or args.get("ward") or args.get("district"):
        return None
    for line in _lines(result.get("text"), 40):
        m = _RANK_LINE.match(line)
        if m:
            order = (args.get("sort_order") or (analysis.get("ranking") or {}).get("order") or "desc")
            word = "lowest" if order == "asc" else "highest"
            return f"Ranked {word}: {m.group(1).strip()}"
    return None


def _no_data_answer(question: str, analysis: dict, checker: _Checker) -> str:
    parts = []
    unsupported = analysis.get("unsupported") or []
    warnings = [w for w in analysis.get("warnings") or [] if "instruction-like" not in w]
    if unsupported:
        parts.append("The data behind ChiQA does not include " + ", ".join(unsupported) +
                     ", so I cannot answer that from it.")
    if analysis.get("broad_places"):
        parts.append("That place name covers many community areas; name one of the community areas "
                     "(for example Austin or Englewood) or ask for a ranking.")
    for w in warnings:
        if "ChiQA's data covers" in w or "covers many community areas" in w:
            continue
        kept = checker.keep(w)
        if kept:
            parts.append(kept)
    if analysis.get("injection_suspected"):
        parts.append("Your message contains text that looks like instructions or markup; I read it only as a "
                     "question and did not act on it.")
    if not parts:
        parts.append("That question is outside the data ChiQA holds, so no data tool was called.")
    parts.append(CAPABILITIES)
    if analysis.get("injection_suspected") or not analysis.get("domains"):
        parts.append("Try, for example: \"How many homicides were there in Englewood last year?\" or "
                     "\"Which community area has the highest per capita income?\"")
    return "\n\n".join(p for p in (checker.keep(x, rewrite=True) for x in parts) if p)


def write_answer(question: str, analysis: dict, results: list, strict: bool = False, geo=None) -> str:
    analysis = analysis or {}
    ok = [r for r in results or [] if r.get("status") == "ok" and (r.get("result") or {}).get("ok")]
    errors = [r for r in results or [] if r.get("status") == "error"]
    checker = _Checker([r["result"] for r in ok + errors if r.get("result")], question)
    if not ok and not errors:
        return _no_data_answer(question, analysis, checker)

    lead: list[str] = []
    details: list[str] = []
    notes: list[str] = []
    chained = len(ok) >= 2 and bool(analysis.get("ranking")) and not analysis.get("areas")
    for i, entry in enumerate(ok):
        result = entry["result"]
        summary = (result.get("summary") or "").strip()
        first = _ranking_lead(entry, analysis)
        if first and (i == 0 or not chained):
            lead.append(first + ("." if not first.endswith(".") else ""))
            if summary and summary not in first:
                lead.append(f"Overall ({TOOL_LABELS.get(entry['name'], entry['name'])}): {summary}.")
        elif summary:
            several = bool((entry.get("arguments") or {}).get("compare_areas"))
            prefix = ("Then, for those areas: " if several else "Then, for that area: ") if chained and i > 0 else ""
            lead.append(prefix + summary.rstrip(".") + ".")
        text_lines = _lines(result.get("text"))
        if text_lines:
            details.append("\n".join(text_lines))
    for entry in errors:
        result = entry.get("result") or {}
        message = ((result.get("error") or {}).get("message") or result.get("summary") or "").strip()
        label = TOOL_LABELS.get(entry.get("name"), entry.get("name"))
        notes.append(f"I could not get {label}: {message}")
    if not strict:
        if analysis.get("relative_year_note"):
            notes.append(analysis["relative_year_note"][0].upper() + analysis["relative_year_note"][1:] + ".")
        if analysis.get("out_of_range_years") and ok:
            notes.append("The year you asked about is outside the homicide data, so the figures above show the "
                         "years it does cover.")
        for w in analysis.get("warnings") or []:
            if "instruction-like" in w:
                continue
            notes.append(w)
        if analysis.get("unsupported"):
            notes.append("The data does not include " + ", ".join(analysis["unsupported"]) +
                         "; the figures above are what it does hold.")
        if analysis.get("injection_suspected"):
            notes.append("Parts of your message looked like instructions or markup; they were read as text only.")

    out: list[str] = []
    kept_lead = [x for x in (checker.keep(line, rewrite=False) for line in lead) if x]
    if kept_lead:
        out.append(" ".join(kept_lead))
    if details:
        out.append("Details:\n" + "\n\n".join(x for x in (checker.keep(d, rewrite=False) for d in details) if x))
    kept_notes = []
    for note in dict.fromkeys(notes):
        kept = checker.keep(note, rewrite=not strict)
        if kept:  # a note with numbers the results cannot back is left out
            kept_notes.append("- " + kept)
    if kept_notes:
        out.append("Notes:\n" + "\n".join(kept_notes))
    if not ok:
        out.append(CAPABILITIES)
    return "\n\n".join(x for x in out if x).strip()
