"""The answer check: every figure the answer states is backed by the results, and a model's answer states the
figures it was asked for; then the notes the answer must pass on.

Each round is a grounding step in the trace; what follows a failed round is decided in loop/decisions.py
(one added sentence, a strict rewrite, or the planner's answer).
"""
from __future__ import annotations

import re

import prompt_registry as prompts
from analyzer.notes import not_used_note, unstated_notes
from analyzer.reading import read
from loop import decisions, grounding
from loop.answer_form import form_problems, gap_dropped
from loop.context import RunContext
from loop.decisions import CheckAction
from loop.meaning import Places
from loop.state import RunState
from loop.steps import GroundingStep, NotesStep
from loop.synthesis import answer_pass, planner_answer


def check_answer(state: RunState, ctx: RunContext) -> None:
    # Error results count too: the valid ranges they name ("wards 1 to 50") are tool output. The notes the answer
    # was asked to pass on (data coverage, valid ranges) are sources of numbers too.
    outputs = [s.result for s in state.ran_calls()]
    references = grounding.References.build(outputs, state.question, state.notes, places=_places(ctx))
    attempt = 0
    while True:
        attempt += 1
        started = state.now_ms()
        report = grounding.check_grounding(state.answer, outputs, state.question, references)
        missing = missing_lead_figures(state, ctx) + dropped_from_the_reading(state, ctx)
        badly_formed = model_form_problems(state, ctx)
        state.emit(GroundingStep(attempt=attempt, checked=report.checked, ignored=report.ignored,
                                 unmatched=report.unmatched, matches=report.matches, mislabelled=report.mislabelled,
                                 missing_lead_figures=missing, form_problems=badly_formed),
                   started, "grounding_ms")
        state.ungrounded = report.unmatched
        action = decisions.check_action(attempt, report.ok, bool(missing), bool(report.unmatched),
                                        state.used_fallback,
                                        state.time_left() < decisions.MIN_PASS_SECONDS, bool(badly_formed))
        if action == CheckAction.ACCEPT:
            break
        if state.reader_ran and action in (CheckAction.REWRITE, CheckAction.ADD_SENTENCE):
            # After the reading's own calls the planner's answer states every figure asked for, at once; a
            # rewrite pass took 3-10 s and could still fail.
            action = CheckAction.PLANNER_ANSWER
        if action == CheckAction.PLANNER_ANSWER:
            if not planner_answer(state, ctx):
                break
            continue
        first_answer = state.answer
        fix = (prompts.strict_message(report.unmatched, report.mislabelled) if action == CheckAction.REWRITE
               else prompts.missing_figures_message(missing, _lines_with(state, missing)))
        extra = state.synthesis_request + [{"role": "assistant", "content": first_answer},
                                           {"role": "user", "content": fix}]
        answer_pass(state, ctx, extra, strict=True,
                    append_to=first_answer if action == CheckAction.ADD_SENTENCE else "")
    if state.ungrounded:
        state.loop_caveats.append("These figures could not be matched to the data the tools returned: "
                                  + ", ".join(state.ungrounded) + ".")


def _places(ctx: RunContext) -> Places | None:
    """The gazetteer's place names, for reading which place a sentence gives a number; None without data (the
    names the results give are used then)."""
    geography = getattr(getattr(ctx.registry, "data", None), "geography", None)
    return Places.of_gazetteer(geography) if geography is not None else None


def _lines_with(state: RunState, figures: list[str]) -> list[str]:
    """The key lines (else result summaries) the missing figures come from, so the model knows what they are."""
    lines = state.key_lines or [s.result_summary for s in state.ran_calls() if s.status == "ok"]
    return [line for line in lines if any(f in line for f in figures)]


def _figures(text: str) -> list:
    return [n for n in grounding.extract_numbers(grounding.without_place_numbers(text)) if not n.is_year]


# "how many ... between 2015 and 2020" asks for the period's count ("how many more" asks for a difference).
_ASKS_A_COUNT = re.compile(r"\bhow\s+many\b(?!\s+(?:more|fewer|less|times)\b)|\bnumber\s+of\b|\btotal\b", re.I)


def missing_lead_figures(state: RunState, ctx: RunContext) -> list[str]:
    """The figures a model's answer leaves out. With key figures (the lines the synthesis request named), each
    line's lead figure: the top entry's value of a ranking ("Austin saw the most killings" left out 83), the count
    or rate of a summary; any year of a yearly series; and where the question compares, each compared entry's
    figure ("786 murders in 2016 were higher than in 2017" left out 2017's 672). Without them (no reading),
    any figure of each result counts as using it, since a summary leads with a total the question may not ask for.
    The planner writes its own answers from the summaries: the check is for models."""
    if not ctx.model_decides:
        return []
    stated = _figures(state.answer)

    def said(wanted: list) -> bool:
        return any(abs(abs(n.value) - abs(f.value)) <= max(n.tolerance, f.tolerance) for n in stated for f in wanted)

    a = state.analysis
    # A "top three" ranking is compared entries too: each one's figure is asked for.
    compares = a is not None and (a.comparison or len(a.areas) >= 2 or len(a.years) >= 2 or len(a.periods) >= 2
                                  or bool(a.ranking and a.ranking.top_n and 2 <= a.ranking.top_n <= 3))
    years = list(a.years) if a is not None else []
    whole = a is not None and a.year_range is not None and a.year_range.start < a.year_range.end \
        and bool(_ASKS_A_COUNT.search(state.question))
    if state.key_lines:
        checked = [piece for line in state.key_lines
                   for piece in ctx.planner.key_line_parts(line, compares, years, whole)]
    else:
        checked = [(step.result_summary + "\n" + (step.result.text or ""), False)
                   for step in state.ran_calls() if step.status == "ok"]
    missing = []
    for text, lead_only in checked:
        wanted = _figures(text)[:1] if lead_only else _figures(text)
        if wanted and not said(wanted) and wanted[0].text not in missing:  # two key lines may share a figure
            missing.append(wanted[0].text)
    return missing


def covered(wanted, stated: list, keys: list) -> bool:
    """Whether the answer states ``wanted``, exactly or rounded. A number that is exactly another key figure does not
    also stand for this one by rounding: Austin's "71 in 2021 to 49 in 2022" had passed for its rates 70.8 and 48.9
    too (a population near 100,000 makes a rate near the count), and the 1.5B model left the rate asked for out."""
    def same(a, b) -> bool:
        return abs(abs(a.value) - abs(b.value)) <= 1e-9 * max(1.0, abs(b.value))

    for n in stated:
        if abs(abs(n.value) - abs(wanted.value)) > max(n.tolerance, wanted.tolerance):
            continue
        if same(n, wanted) or not any(same(n, k) for k in keys if k is not wanted):
            return True
    return False


# Words by which the planner's lead says what it could not give ("a 2022 figure is not available", "I could not use
# 'gun'"): a model's answer after the reading's calls must say it too.
# ... and a period past the data answered with another ("2021 is not in the data: ... so the latest ... is given
# instead"): the 0.5B model's synthesis gave Logan Square's 2019 price "for the period ending June 2021"
_QUALIFIER_RE = re.compile(r"\bnot available\b|\bcannot\b|\bcould not\b|\bdoes not (?:include|record|have)\b|"
                           r"\bno population\b|\bpartial\b|\bis not in the data\b|\bgiven instead\b", re.I)


def dropped_from_the_reading(state: RunState, ctx: RunContext) -> list[str]:
    """After the reading's own calls, what a model's answer leaves out: any figure of the key lines it was given (a
    set's total, a share, both rates of a comparison), or the planner's saying what could not be given. On the
    thirteenth blind set the 0.5B model's rewrites dropped each of those and turned "a 2022 figure is not available"
    into "the poverty rate in 2022 was 28.6%", passing the other checks: the model may say the figures in its own
    words, never fewer of them."""
    if not state.reader_ran or state.used_planner_answer or state.used_fallback or not ctx.model_decides:
        return []
    stated = _figures(state.answer)
    keys = [f for line in state.key_lines for f in _figures(line)]
    left = [f.text for f in keys if not covered(f, stated, keys)]
    try:
        planned = ctx.planner.answer(state.question, state.analysis, state.ran_calls())
    except Exception:  # noqa: BLE001 - without the planner's lead only the figures are held to
        planned = ""
    lead = (planned or "").split("\n\nDetails:")[0].split("\n\nNotes:")[0]
    if _QUALIFIER_RE.search(lead) and not _QUALIFIER_RE.search(state.answer):
        left.append("what the answer could not give")
    left += [place for line in state.key_lines for place in places_named(line) if not _names(state.answer, place)]
    said = " ".join(state.answer.lower().split())
    left += [name for line in state.key_lines for name in record_names(line) if name.lower() not in said]
    left += [value for line in state.key_lines for value in text_values(line) if value.lower() not in said]
    return list(dict.fromkeys(left))


# A text column's value as the lead says it ("district name: Harrison", "alderperson: Hopkins"): on blind38 the 0.5B
# model's "District 11 recorded the most homicides" dropped the district's name that was asked for.
_TEXT_VALUE = re.compile(r"\b[a-z][A-Za-z' ]*[A-Za-z]: ([A-Z][\w'’.\-]*(?: [A-Z0-9][\w'’.\-/]*)*)")


def text_values(line: str) -> list[str]:
    return [m.group(1).rstrip(".'’-") for m in _TEXT_VALUE.finditer(line)]


# A record's own name as the data writes it, in capitals: an IUCR code's "FIRST DEGREE MURDER", a kind of place's
# "PARKING LOT". The 1.5B model described IUCR 0110 as "the number of first-degree homicides", which no figure check
# catches: the answer must carry the name, in any case. Pieces split at " / " and " - "; short ones (ACS, IUCR) are
# abbreviations, not names.
_CAPITALS = re.compile(r"\b[A-Z][A-Z'&.]*(?:[ \-/]+[A-Z][A-Z'&.]*)*\b")


def record_names(line: str) -> list[str]:
    pieces = [p.strip() for run in _CAPITALS.findall(line) for p in re.split(r"\s+[/\-]\s+|/", run)]
    return [" ".join(p.split()) for p in pieces if len(p.replace(" ", "")) >= 5]


# A place as the key lines name it: "Gage Park (63)", "ward 48", "district 20", "60614". The figures check leaves
# place numbers out, so the 0.5B model's "the ward with the fewest was Ward 47" passed with ward 48, tied with it,
# left out, and "the most Hispanic community area had 92.3%" passed with no area named.
_AREA_NAMED = re.compile(r"\b([A-Z][A-Za-z'’.\-]+(?: [A-Z][A-Za-z'’.\-]+){0,3}) \((\d{1,2})\)")
_GRAIN_NAMED = re.compile(r"\b(ward|district)s?\s+#?(\d{1,2})\b|\b(606\d\d)\b", re.IGNORECASE)


# An IHS submarket as the release names it: the 0.5B model wrote "Chicago had the largest year-over-year change" for
# "Chicago--South Lawndale/Brighton Park" (the figure right, the place lost); its name after "Chicago--" is held to
_WORD = r"[A-Z][A-Za-z'’.\-]*"
_SUBMARKET_NAMED = re.compile(rf"\bChicago--({_WORD}(?: {_WORD})*(?:/{_WORD}(?: {_WORD})*)*)")


def places_named(line: str) -> list[str]:
    """The places a key line names, each as the words an answer must carry."""
    found = [m.group(1) for m in _AREA_NAMED.finditer(line)] + [m.group(1) for m in _SUBMARKET_NAMED.finditer(line)]
    found += [f"{m.group(1).lower()} {m.group(2)}" if m.group(2) else m.group(3) for m in _GRAIN_NAMED.finditer(line)]
    return list(dict.fromkeys(found))


def _names(answer: str, place: str) -> bool:
    grain, _, number = place.partition(" ")
    if grain in ("ward", "district") and number.isdigit():  # "wards 47 and 48" names ward 48 too
        return bool(re.search(rf"\b{grain}s?\b[^.;]*?(?<!\d){number}(?!\d)", answer, re.IGNORECASE))
    return place.lower() in answer.lower()


def model_form_problems(state: RunState, ctx: RunContext) -> list[str]:
    """What keeps a model's answer from reading as an answer (loop/answer_form.py), where the planner has one to
    give instead. The planner's own answers and the summary fallback are not refused for their form."""
    if not ctx.model_decides or ctx.planner_decides or state.used_planner_answer or state.used_fallback:
        return []
    answered = any(step.status == "ok" for step in state.ran_calls())
    reading = read(state.analysis)
    # a gap a note names is passed on after the answer anyway (pass_on_notes), the words not used beside its figures
    unused = state.analysis.not_used if state.analysis is not None else []
    passed = list(state.notes) + ([not_used_note(unused)] if unused else [])
    return form_problems(state.answer, reading.to_dict() if reading else None, answered) + \
        gap_dropped(state.answer, _planner_text(state, ctx), passed)


def _planner_text(state: RunState, ctx: RunContext) -> str:
    """The planner's answer from the calls it drafted (what planner_answer would show), "" where it has none."""
    if state.reader_answer:
        return state.reader_answer
    if state.planner_text is None:  # the calls are all run before the first check: one planner answer serves each round
        drafted = [step for step in state.ran_calls() if step.origin != "model"]
        try:
            state.planner_text = ctx.planner.answer(state.question, state.analysis, drafted) or "" if drafted else ""
        except Exception:  # noqa: BLE001 - no planner answer: nothing to compare with
            state.planner_text = ""
    return state.planner_text


def pass_on_notes(state: RunState) -> None:
    """Each note the answer leaves out is added after it, word for word: asked to pass notes on, the 0.5B model
    often answered "33 homicides in ward 20" and never said that poverty is not published by ward."""
    started = state.now_ms()
    unused = state.analysis.not_used if state.analysis is not None else []
    added = unstated_notes(state.analysis, state.notes, state.answer)
    unread = [n for n in added if unused and n == not_used_note(unused)]
    if unread and state.answer.strip():
        # The words the reading could not use qualify the figures: said beside them, at the end of the answer's
        # first paragraph, not only at its foot (as the planner's own answer does, rules/answer.py).
        added = [n for n in added if n not in unread]
        head, gap, rest = state.answer.partition("\n\n")
        state.answer = f"{head.rstrip()} {unread[0]}{gap}{rest}"
    if added:
        state.answer = "\n\n".join([state.answer.rstrip()] * bool(state.answer.strip())
                                   + ["Note: " + note for note in added])
    state.emit(NotesStep(notes=list(state.notes), added=added), started)
