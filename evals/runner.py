"""The eval harness: every question through the real Orchestrator with any backend, scored.

    python app.py eval [--backend NAME] [--model PATH] [--output FILE] [--limit N]

Scores per question: tool selection (expected names called successfully, no more unexpected tool
names than allowed, in order when chained), key arguments (areas compared as gazetteer numbers,
``year`` == ``start_year`` == ``end_year``), expected numbers from evals/expected.py present in the
answer (1,234 / $1,234 / 1234 / one decimal), expected words, grounding. The report adds pass
rate, accuracies, grounded share, stop reasons and latency.

The held-out reading questions (``category: reading_heldout``, each with a ``kind``) are judged on the answer
alone, no tool checks. Two keys of theirs: ``stand_in`` (figures a wrong reading would give: one in the answer
without all the expected figures sets the row's ``stand_in_given``) and ``declines`` (phrases naming what the
data cannot answer: the answer must say it cannot, name one of them, and give no stand-in figure).
"""
from __future__ import annotations

import calendar
import json
import re
import statistics
import sys
import time
from pathlib import Path

import yaml

from assembly.services import Services, build_services
from evals import expected, expected_b13, expected_b14, expected_b15, expected_b16, expected_b17, expected_b18, \
    expected_b19, expected_b20, expected_b21, expected_b22, expected_b23, expected_b24, expected_b25, expected_b26, \
    expected_b27, expected_b28, expected_b29, expected_b30, expected_b31, expected_b32, \
    expected_b33, expected_b34, expected_b35, expected_b36, expected_b37, expected_b38, \
    expected_b39, expected_b40, expected_b41, expected_b42, expected_b43, expected_b44
from loop.answer_form import form_problems
from settings.loader import var_dir, with_overrides

QUESTIONS = Path(__file__).resolve().parent / "questions.yaml"
# the questions are split over files so none grows past 2 MB: questions.yaml first, then questions_*.yaml by name
QUESTION_FILES = (QUESTIONS, *sorted(QUESTIONS.parent.glob("questions_*.yaml")))
# Sets written by testers who had not read the analyzer or the planner: measured (docs/measurements.md), not a
# bar for the team set's pass rate.
HELDOUT_CATEGORIES = ("reading_heldout", "own_calls_heldout", "model_calls_heldout", "fresh_blind_heldout",
                      "blind2_heldout", "blind3_heldout", "blind4_heldout",
                      "blind5_heldout", "blind6_heldout", "blind7_heldout", "blind8_heldout",
                      "blind9_heldout", "blind10_heldout", "blind11_heldout", "blind12_heldout",
                      "blind13_heldout", "blind14_heldout", "blind15_heldout", "blind16_heldout",
                      "blind17_heldout", "blind18_heldout", "blind19_heldout", "blind20_heldout",
                      "blind21_heldout", "blind22_heldout", "blind23_heldout", "blind24_heldout", "blind25_heldout", "blind26_heldout",
                      "blind27_heldout", "blind28_heldout", "blind29_heldout", "blind30_heldout",
                      "blind31_heldout", "blind32_heldout", "blind33_heldout", "blind34_heldout", "blind35_heldout",
                      "blind36_heldout", "blind37_heldout",
                      "blind38_heldout", "blind39_heldout",
                      "blind40_heldout", "blind41_heldout", "blind42_heldout", "blind43_heldout", "blind44_heldout")


def load_questions(path=None) -> list:
    """Every evaluation question (or one file's where ``path`` is given), in file order."""
    items: list = []
    for name in [path] if path else QUESTION_FILES:
        with open(name, encoding="utf-8") as fh:
            items += yaml.safe_load(fh) or []
    return items


# ---------------------------------------------------------------- matching helpers

def number_forms(value) -> list:
    """Ways an answer may write ``value``."""
    if isinstance(value, str):
        return [value]
    forms = set()
    number = float(value)
    if number.is_integer():
        n = int(number)
        forms |= {f"{n:,}", str(n), f"${n:,}"}
        if isinstance(value, float):  # a percentage such as 28.0 is written "28.0%" by the tools
            forms |= {f"{number:,.1f}", f"{number:.1f}"}
    else:
        forms |= {f"{number:,.1f}", f"{number:.1f}", f"{number:,.2f}"}
        if round(number, 1).is_integer():
            forms.add(f"{int(round(number))}")
        if abs(number) >= 1000:  # a dollar figure computed unrounded ($496,121.18) is written in whole dollars
            forms |= {f"{round(number):,}", str(round(number))}
    return sorted(forms, key=len, reverse=True)


_FALL_WORDS = re.compile(r"\b(?:drop|dropped|fell|fewer|lost|loss|decrease|decreased|decline|declined|down|lower)\b"
                         r"[^.;]{0,25}$", re.I)


# "1,589 fewer than the 25,681 of the 2010 Census": the fall said after the number
_FALL_AFTER = re.compile(r"\s+(?:fewer|less|lower|down)\b", re.I)


# A decimal written with more places than the expected figure was rounded to ("7.74 times" for an expected 7.7)
_LONGER_DECIMAL = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2,})(?![\d]|[.,]\d)")


# A community area's number after its name ("Near North Side (8)") names the place, not a figure: a count of 8 found
# only there is not given (blind44's "77 areas with income over $70" had passed its "8 areas" that way).
_AFTER_NAME = re.compile(r"[a-z.'\u2019] \($")


def _place_number(answer: str, m: re.Match) -> bool:
    return bool(_AFTER_NAME.search(answer, max(0, m.start() - 3), m.start())) and answer[m.end():m.end() + 1] == ")"


def number_in_answer(value, answer: str) -> bool:
    if isinstance(value, str):
        month = re.fullmatch(r"((?:19|20)\d{2})-(\d{2})", value.strip())
        if month and 1 <= int(month.group(2)) <= 12:  # a month "2022-01" written "January 2022" (or "Jan 2022")
            name = calendar.month_name[int(month.group(2))]
            return bool(re.search(rf"\b{value.strip()}\b|\b(?:{name}|{name[:3]})\.?,?\s+{month.group(1)}\b", answer, re.I))
        # a set's members listed ("Austin, Washington Park, Riverdale"): each named, in any order
        members = [m.strip() for m in re.split(r"[,;] ", value)]  # "a, b" or "a; b"
        if len(members) >= 2 and all(re.fullmatch(r"[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*", m) for m in members):
            return all(m.lower() in answer.lower() for m in members)
        # an IHS submarket named without the data's "Chicago--" prefix ("Logan Square/Irving Park"): the same name
        return value.lower() in answer.lower() or (value.lower().startswith("chicago--") and
                                                   value[9:].lower() in answer.lower())
    for form in number_forms(value):
        pattern = r"(?<![\d.,])" + re.escape(form).lstrip("\\$") + r"(?![\d]|[.,]\d)"
        if any(not _place_number(answer, m) for m in re.finditer(pattern, answer)):
            return True
    number = float(value)
    if abs(number) >= 100 and not number.is_integer() and re.search(  # money shown in whole dollars ($415 a sq ft)
            r"\$" + re.escape(f"{round(abs(number)):,}") + r"(?![\d]|[.,]\d)", answer):
        return True
    if number > 0 and (not number.is_integer() or isinstance(value, float)) and round(number, 1) == number:
        # the figure was given to one decimal (a blind set's convention): the answer's longer decimal rounds to it
        for m in _LONGER_DECIMAL.finditer(answer):
            # both are roundings of one true value: the intervals they stand for overlap ("13.15 times" and an
            # expected 13.1 both hold 13.147; rounding 13.15 again would give 13.2)
            shown, half = float(m.group(1).replace(",", "") + "." + m.group(2)), 0.5 * 10 ** -len(m.group(2))
            if abs(shown - number) <= 0.05 + half + 1e-9 and not number.is_integer():
                return True
            # a one-decimal whole figure ("5.0 times"): only a longer decimal that can round to nothing else ("4.96",
            # not the tie "28.05")
            if number.is_integer() and number - 0.05 - 1e-9 <= shown - half and shown + half <= number + 0.05 + 1e-9:
                return True
    if isinstance(value, (int, float)) and value < 0:  # "-1,822" written as "a drop of 1,822"
        for form in number_forms(-value):
            for m in re.finditer(r"(?<![\d.,-])\$?" + re.escape(form).lstrip("\\$") + r"(?![\d]|[.,]\d)", answer):
                if _FALL_WORDS.search(answer[:m.start()]) or _FALL_AFTER.match(answer, m.end()):
                    return True
    return False


def _area_number(value, geo):
    try:
        return geo.resolve_area(value)
    except Exception:
        return value


def _norm_args(args: dict, geo) -> dict:
    out = dict(args or {})
    if "year" in out and out.get("year") is not None:
        out.setdefault("start_year", out["year"])
        out.setdefault("end_year", out["year"])
    if "start_year" in out and "end_year" in out and out["start_year"] == out["end_year"]:
        out.setdefault("year", out["start_year"])
    if out.get("community_area") is not None and geo is not None:
        out["community_area"] = _area_number(out["community_area"], geo)
    return out


def _value_eq(expected, got) -> bool:
    if isinstance(expected, list):
        return isinstance(got, list) and [str(x).lower() for x in expected] == [str(x).lower() for x in got]
    return str(expected).strip().lower() == str(got).strip().lower()


def score_arguments(expected: dict, calls: list, geo) -> tuple:
    """(matched, total, misses) over the expected key arguments."""
    matched = total = 0
    misses = []
    for tool, keys in (expected or {}).items():
        tool_calls = [_norm_args(c.get("arguments") or {}, geo) for c in calls if c.get("name") == tool]
        for key, value in (keys or {}).items():
            total += 1
            want = _norm_args({key: value}, geo).get(key, value)
            if key == "year":
                ok = any(_value_eq(want, c.get("year")) or (_value_eq(want, c.get("start_year")) and
                                                            _value_eq(want, c.get("end_year"))) for c in tool_calls)
            elif key == "start_year":
                ok = any(_value_eq(want, c.get("start_year")) or _value_eq(want, c.get("year")) for c in tool_calls)
            else:
                ok = any(_value_eq(want, c.get(key)) for c in tool_calls)
            if ok:
                matched += 1
            else:
                misses.append(f"{tool}.{key}={value}")
    return matched, total, misses


# The newer blind sets' functions are their own modules (written blind, self-contained), found by their prefix.
BLIND_MODULES = {"b13_": expected_b13, "b14_": expected_b14, "b15_": expected_b15, "b16_": expected_b16,
                 "b17_": expected_b17, "b18_": expected_b18, "b19_": expected_b19, "b20_": expected_b20,
                 "b21_": expected_b21, "b22_": expected_b22, "b23_": expected_b23, "b24_": expected_b24, "b25_": expected_b25, "b26_": expected_b26,
                 "b27_": expected_b27, "b28_": expected_b28, "b29_": expected_b29, "b30_": expected_b30,
                 "b31_": expected_b31, "b32_": expected_b32, "b33_": expected_b33, "b34_": expected_b34,
                 "b35_": expected_b35, "b36_": expected_b36, "b37_": expected_b37, "b38_": expected_b38, "b39_": expected_b39,
                 "b40_": expected_b40, "b41_": expected_b41, "b42_": expected_b42, "b43_": expected_b43, "b44_": expected_b44}


def expected_module(name: str):
    return next((m for prefix, m in BLIND_MODULES.items() if name.startswith(prefix)), expected)


def expected_values(item: dict, key: str = "expect") -> list:
    """(label, value) for each [function, {args}] under ``key`` ("expect", or "stand_in": figures a wrong reading
    would give)."""
    out = []
    for name, kwargs in item.get(key) or []:
        fn = getattr(expected_module(name), name)
        out.append((f"{name}({', '.join(f'{k}={v}' for k, v in (kwargs or {}).items())})", fn(**(kwargs or {}))))
    return out


# ---------------------------------------------------------------- one question

def _check_tools(item: dict, calls: list) -> tuple:
    """(tools_ok, failures, the tools called): the calls against the item's expected tools (None: not judged)."""
    ok_statuses = ("ok", "error") if item.get("allow_error") else ("ok",)
    called_ok = [c["name"] for c in calls if c.get("status") in ok_statuses]
    called_any = [c["name"] for c in calls if c.get("status") not in ("skipped", "duplicate")]
    expected_tools = list(item.get("tools") or [])
    failures = []
    if judges_answer_only(item):
        tools_ok = None  # the held-out reading questions judge the answer, not the calls
    elif item.get("no_tools"):
        tools_ok = not called_any
        if not tools_ok:
            failures.append(f"expected no tool calls, got {called_any}")
    else:
        missing = [t for t in expected_tools if t not in called_ok]
        unexpected = sorted(set(called_any) - set(expected_tools))
        allowance = int(item.get("extra", 1))
        tools_ok = not missing and len(unexpected) <= allowance
        if missing:
            failures.append(f"missing tools {missing}")
        if len(unexpected) > allowance:
            failures.append(f"unexpected tools {unexpected}")
        if item.get("chained") and not missing:
            order = [called_ok.index(t) for t in expected_tools]
            if order[0] != min(order):
                tools_ok = False
                failures.append(f"chain order wrong: {called_ok}")
    return tools_ok, failures, called_any


def evaluate(item: dict, result: dict, geo, latency_ms: float) -> dict:
    answer = result.get("answer") or ""
    calls = result.get("tool_calls") or []
    tools_ok, failures, called_any = _check_tools(item, calls)
    matched, total, misses = score_arguments(item.get("args") or {}, calls, geo)
    if misses:
        failures.append("argument misses: " + ", ".join(misses))
    numbers = []
    for label, value in expected_values(item):
        found = number_in_answer(value, answer)
        numbers.append({"expected": label, "value": value, "found": found})
        if not found:
            failures.append(f"expected {label} = {value} not in answer")
    # Found only in the details below the answer: the figure is there, but the answer a reader sees leads with
    # something else (a wrong lead over right details passed on "found" alone: "the most" for "came in third").
    lead = answer.split("\nDetails:", 1)[0]
    buried = [n["expected"] for n in numbers if n["found"] and not number_in_answer(n["value"], lead)]
    if buried:
        failures.append("expected figures only in the details, not in the answer: " + ", ".join(buried))
    for word in item.get("expect_text") or []:
        if str(word).lower() not in answer.lower():
            failures.append(f"expected text {word!r} not in answer")
    stand_ins = [{"stand_in": label, "value": value, "found": number_in_answer(value, answer)}
                 for label, value in expected_values(item, key="stand_in")]
    given_stand_ins = [s for s in stand_ins if s["found"]]
    declined = None
    if item.get("declines"):
        declined = says_it_cannot(answer, item["declines"])
        if not declined:
            failures.append(f"expected a refusal naming one of {item['declines']}")
        if given_stand_ins:
            failures.append("gave a stand-in figure for a part the data cannot answer: "
                            + ", ".join(f"{s['stand_in']} = {s['value']}" for s in given_stand_ins))
    # Silently wrong: a figure a wrong reading gives is there, and the right figures are not (or the part the
    # data cannot answer was not declined).
    # An answer that names the part of the question it could not use ("I could not use 'gun'") is not silent: the
    # reader sees which question its figures answer (the reading's not-used list, told in the answer).
    unused = ((result.get("reading") or {}).get("not_used") or []) if isinstance(result.get("reading"), dict) else []
    told = bool(unused) and all(f"'{phrase}'" in answer for phrase in unused)
    stand_in_given = bool(given_stand_ins) and (not all(n["found"] for n in numbers) or declined is False) \
        and not told
    reading = result.get("reading") if isinstance(result.get("reading"), dict) else None
    reading_line = (reading or {}).get("line")
    called_ok_any = [c for c in calls if c.get("status") == "ok"]
    grounding = [s for s in result.get("trace") or [] if s.get("type") == "grounding"]
    checked = len(grounding[-1].get("checked") or []) if grounding else 0
    ungrounded = list(result.get("ungrounded_numbers") or [])
    if ungrounded:
        failures.append(f"ungrounded numbers {ungrounded}")
    if not answer.strip():
        failures.append("empty answer")
    # The model did not write the answer: the planner's templated one, or a summary built without the model.
    synthesis = [s for s in result.get("trace") or [] if s.get("type") == "synthesis"]
    planner_answer = bool(synthesis) and bool(synthesis[-1].get("planner_answer") or synthesis[-1].get("fallback"))
    passed = not failures
    # Strictly counted (the reading issue's rule): a wrong or incomplete answer is silently wrong unless its lead
    # says what it could not compute. Counting only the stand-in figures someone foresaw missed every misreading
    # nobody foresaw.
    flagged = not passed and names_a_gap(lead)
    verdict = "right" if passed else "flagged" if flagged else "silently_wrong"
    return {
        "id": item.get("id"), "question": item.get("q"), "category": item.get("category"),
        "passed": passed, "failures": failures, "tools_ok": tools_ok, "called": called_any,
        "args_matched": matched, "args_total": total, "numbers": numbers, "numbers_checked": checked,
        "ungrounded": ungrounded, "stopped_because": result.get("stopped_because"), "latency_ms": round(latency_ms, 1),
        "planner_answer": planner_answer, "answer": answer[:1000], "error": result.get("error"),
        "first_word_ms": first_word_ms(result.get("trace") or []),
        "passes": _pass_digest(result),
        "kind": item.get("kind"), "stand_ins": stand_ins, "declined": declined, "stand_in_given": stand_in_given,
        "verdict": verdict, "silently_wrong": verdict == "silently_wrong",
        "reading": reading_line, "form_problems": form_problems(answer, reading, answered=bool(called_ok_any)),
        "buried_figures": buried,
    }


def judges_answer_only(item: dict) -> bool:
    """Questions scored on the answer alone (no tool checks): the held-out reading set, or any item that names a
    ``kind`` and no ``tools``."""
    return item.get("category") == "reading_heldout" or ("kind" in item and "tools" not in item)


# Ways an answer says the data cannot answer something (curly apostrophes are straightened first).
REFUSAL_MARKERS = ("can't", "cannot", "can not", "could not", "couldn't", "not able", "unable", "no data",
                   "doesn't have", "does not have", "don't have", "do not have", "not available", "isn't available",
                   "not in the data", "only covers", "only cover", "doesn't cover", "does not cover", "not covered",
                   "doesn't include", "does not include", "not included", "no information", "isn't in the data",
                   "has nothing on", "have nothing on", "holds nothing on",  # "It has nothing on carjackings" (1.5B)
                   "outside the homicide data", "outside the data")  # "Year(s) 2024 are outside the homicide data"


def names_a_gap(lead: str) -> bool:
    """The answer's lead (its first paragraph) says there is a part it could not compute or use: a refusal marker
    ("I could not use 'gun'", "2024 is not in the data", "does not include")."""
    first = (lead or "").strip().split("\n\n", 1)[0].lower().replace("\u2019", "'").replace("\u2018", "'")
    return any(m in first for m in REFUSAL_MARKERS) or "not in the data" in first


def says_it_cannot(answer: str, phrases) -> bool:
    """True when the answer carries a refusal marker and names one of the declined phrases (case-insensitive)."""
    text = (answer or "").lower().replace("\u2019", "'").replace("\u2018", "'")
    return any(m in text for m in REFUSAL_MARKERS) and any(str(p).lower() in text for p in phrases)


def first_word_ms(trace: list) -> float | None:
    """From the end of the last tool call to the answer's first token (the wait once the data is in), or None
    when no tool ran or the backend does not time first tokens."""
    calls = [s for s in trace if s.get("type") == "tool_call" and s.get("status") in ("ok", "error")]
    if not calls:
        return None
    ready = max(s.get("started_ms", 0) + s.get("duration_ms", 0) for s in calls)
    answer = next((s for s in trace if s.get("type") == "synthesis" and s.get("first_token_ms") is not None
                   and s.get("started_ms", 0) >= ready), None)
    return None if answer is None else round(answer["started_ms"] + answer["first_token_ms"] - ready, 1)


def _spread(values: list) -> dict:
    ordered = sorted(values)
    if not ordered:
        return {"median": None, "p95": None, "questions": 0}
    return {"median": round(statistics.median(ordered), 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1), "questions": len(ordered)}


def _pass_digest(result: dict) -> list:
    """Each model pass in a line or two: what it read and wrote and how long it took (to see why a question
    failed or was slow without re-running it)."""
    out = []
    for step in result.get("trace") or []:
        if step.get("type") in ("model_pass", "synthesis"):
            out.append({"type": step["type"], "ms": step.get("duration_ms"), "evaluated": step.get("evaluated_tokens"),
                        "generated": step.get("completion_tokens"), "finish": step.get("finish_reason"),
                        "text": (step.get("raw_output") or "")[:300]})
    return out


# ---------------------------------------------------------------- the whole set

def run_eval(services: Services, questions=None, limit=None, categories=None, progress=None, ids=None) -> dict:
    items = questions if questions is not None else load_questions()
    if categories:
        items = [item for item in items if item.get("category") in set(categories)]
    if ids:
        unknown = set(ids) - {item.get("id") for item in items}
        if unknown:
            raise ValueError("no eval question has the id " + ", ".join(sorted(unknown)))
        items = [item for item in items if item.get("id") in set(ids)]
    if limit is not None:
        if int(limit) < 1:
            raise ValueError(f"the limit must be a positive number of questions, got {limit}")
        items = items[: int(limit)]
    orchestrator, backend = services.orchestrator, services.backend
    geo = services.data.geography
    rows = []
    started = time.perf_counter()
    for item in items:
        t0 = time.perf_counter()
        try:
            result = orchestrator.run(item["q"]).to_dict()
        except Exception as exc:  # a crash is a failed question, not a failed run
            result = {"answer": "", "tool_calls": [], "trace": [], "stopped_because": f"crash: {exc}"}
        rows.append(evaluate(item, result, geo, (time.perf_counter() - t0) * 1000))
        if progress is not None:
            progress(len(rows), len(items), rows[-1])
    latencies = [r["latency_ms"] for r in rows] or [0.0]
    args_total = sum(r["args_total"] for r in rows)
    checked = sum(r["numbers_checked"] for r in rows)
    ungrounded = sum(len(r["ungrounded"]) for r in rows)
    stops: dict = {}
    for r in rows:
        stops[r["stopped_because"]] = stops.get(r["stopped_because"], 0) + 1
    by_category: dict = {}
    for r in rows:
        cat = by_category.setdefault(r["category"] or "other", {"questions": 0, "passed": 0, "flagged": 0,
                                                                "silently_wrong": 0})
        cat["questions"] += 1
        cat["passed"] += int(r["passed"])
        cat["flagged"] += int(r["verdict"] == "flagged")
        cat["silently_wrong"] += int(r["silently_wrong"])
    by_kind: dict = {}
    for r in rows:
        if r["kind"]:
            kind = by_kind.setdefault(r["kind"], {"questions": 0, "passed": 0, "flagged": 0, "silently_wrong": 0})
            kind["questions"] += 1
            kind["passed"] += int(r["passed"])
            kind["flagged"] += int(r["verdict"] == "flagged")
            kind["silently_wrong"] += int(r["silently_wrong"])
    judged = [r for r in rows if r["tools_ok"] is not None]  # the held-out reading questions do not judge calls
    n = max(1, len(rows))
    return {
        "backend": backend.info(),
        "questions": len(rows),
        "passed": sum(r["passed"] for r in rows),
        "pass_rate": round(sum(r["passed"] for r in rows) / n, 4),
        "tool_selection_accuracy": round(sum(r["tools_ok"] for r in judged) / len(judged), 4) if judged else 1.0,
        # right (passed) / flagged (failed, and the lead says what it could not compute) / silently wrong (the rest)
        "flagged": sum(r["verdict"] == "flagged" for r in rows),
        "silently_wrong": sum(r["silently_wrong"] for r in rows),
        "stand_ins_given": sum(r["stand_in_given"] for r in rows),
        # Answers whose form fails loop/answer_form.py: a chain, a bare key line, a first sentence without the
        # reading's place, period or a figure.
        "form_problems": sum(bool(r["form_problems"]) for r in rows),
        # Answers with an expected figure only in their details, not in the answer above them (each also fails).
        "buried_figures": sum(bool(r.get("buried_figures")) for r in rows),
        "argument_accuracy": round(sum(r["args_matched"] for r in rows) / args_total, 4) if args_total else 1.0,
        "grounded_share": round((checked - ungrounded) / checked, 4) if checked else 1.0,
        "stop_reasons": stops,
        "planner_answer_share": round(sum(r["planner_answer"] for r in rows) / n, 4),
        "latency_ms": _spread(latencies),
        # The wait from the last tool result to the first answer word (backends that time first tokens only).
        "first_word_ms": _spread([r["first_word_ms"] for r in rows if r["first_word_ms"] is not None]),
        "by_category": by_category,
        "by_kind": by_kind,
        "total_seconds": round(time.perf_counter() - started, 2),
        "failures": [{"id": r["id"], "question": r["question"], "failures": r["failures"]} for r in rows
                     if not r["passed"]],
        "results": rows,
    }


def _print_progress(done: int, total: int, row: dict) -> None:
    """One line per question on stderr, so a long real-model run shows where it is."""
    verdict = "pass" if row["passed"] else "FAIL (flagged)" if row["verdict"] == "flagged" else "FAIL (silent)"
    print(f"[{done}/{total}] {verdict} {row['id']} {row['latency_ms'] / 1000:.1f} s ({row['stopped_because']})",
          file=sys.stderr, flush=True)


def _error(message: str) -> int:
    """The CLI's one error line (exit 2): bad input or setup, nothing was run."""
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    return 2


def run_eval_command(args, settings) -> int:
    limit = getattr(args, "limit", None)
    if limit is not None and limit < 1:
        return _error(f"--limit must be a positive number of questions, got {limit}")
    settings = with_overrides(settings, {"model.path": getattr(args, "model", None)})
    output = getattr(args, "output", None)
    path = Path(output) if output else var_dir(settings) / "evals" / f"report-{time.strftime('%Y%m%d-%H%M%S')}.json"
    # Each question's row is kept as it finishes: a long real-model run that is stopped still leaves its rows.
    rows_path = path.with_suffix(".rows.jsonl")
    # The report's place is checked before any question runs, so a long run never ends unable to save.
    if path.is_dir():
        return _error(f"--output {path} is a folder; give a file path for the JSON report")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        rows_path.write_text("", encoding="utf-8")
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return _error(f"cannot write the report to {path}: {exc.strerror or exc}")

    def progress(done, total, row):
        _print_progress(done, total, row)
        with rows_path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row, default=str) + "\n")

    services = build_services(settings, backend_name=getattr(args, "backend", None))
    try:
        report = run_eval(services, limit=getattr(args, "limit", None), categories=getattr(args, "category", None),
                          progress=progress, ids=getattr(args, "id", None))
    except ValueError as exc:  # an unknown --id
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        services.close()
    try:
        path.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    except OSError as exc:
        return _error(f"cannot write the report to {path}: {exc.strerror or exc} (each question's row is in "
                      f"{rows_path})")
    summary = {k: report[k] for k in ("backend", "questions", "passed", "pass_rate", "tool_selection_accuracy",
                                      "argument_accuracy", "grounded_share", "stop_reasons", "planner_answer_share",
                                      "latency_ms", "first_word_ms", "flagged", "silently_wrong", "stand_ins_given",
                                      "form_problems", "buried_figures",
                                      "by_category", "by_kind")}
    print(json.dumps(summary, indent=2, default=str))
    for failure in report["failures"]:
        print(f"FAIL {failure['id']}: {failure['question']}\n     " + "; ".join(failure["failures"]))
    print(f"report saved to {path}")
    return 0
