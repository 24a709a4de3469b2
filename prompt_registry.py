"""Named, versioned prompt templates for the orchestrator.

Templates are plain ``str.format`` strings so the trace can record exactly which wording
produced an answer: ``prompt_version()`` is a short hash over every template and few-shot
example, stored in each RunResult. Change a template and the version changes with it.
"""
from __future__ import annotations

import hashlib
import json
import re
from semantic.catalog import catalog, public_measures
from tools import names

TEMPLATES: dict[str, str] = {
    "system_tools": (
        "You are ChiQA, an assistant answering questions about Chicago public data: homicides, census "
        "demographics, socioeconomic indicators and home values, by community area, ward, police district "
        "and ZIP code.\n"
        "You cannot see the data directly. To get numbers, call a data tool by writing one line per call:\n"
        'TOOL_CALL: {{"name": "<tool name>", "arguments": {{...}}}}\n'
        "Rules:\n"
        "- You can call several tools, in one reply or across replies, to gather data from different "
        "domains (at most {max_calls} calls per question).\n"
        "- After each set of results, decide whether you need more data. Never repeat a call you already made.\n"
        "- If a call fails, read the error, fix the arguments and try again, or continue without it.\n"
        "- {no_call_rule}\n"
        "- Never invent numbers; use only the numbers the tools return.\n"
        "Tools (name(argument: type [choices], ...) - what it does):\n{tool_specs}\n"
        "Examples (<YEAR> and <AREA> stand for the question's own values, or values from a result):\n{examples}"
    ),
    # The answer pass after the reader's own calls starts with this, not the tools' prompt: it needs no tool
    # list, and its ~150 new tokens evaluated after ~1,850 cost twice what they cost after ~100.
    "system_answer": (
        "You are ChiQA, an assistant answering questions about Chicago public data: homicides, census "
        "demographics, socioeconomic indicators and home values, by community area, ward, police district and "
        "ZIP code. The data tools have already run; you are given the question and the figures that answer it. "
        "Write the answer in plain English. Never invent numbers."
    ),
    # Where the reading fell short, the model's one job: write a typed query (the semantic layer's, run by the
    # query_data tool). Its own system prompt, kept as a third saved prefix beside the tools' and the answer's.
    "system_query": (
        "You are ChiQA's query writer. Chicago public data is read through one typed query. Reply with one line:\n"
        'TOOL_CALL: {{"name": "query_data", "arguments": <query>}}\n'
        "or NO_TOOL_CALL when no query can answer the question.\n"
        "A query: measures (what to compute; a measure may be an object with its own \"as\" name, period and "
        "filters), group_by (a place or time grain), period (year, years, months, start/end), filters "
        "(dimension with in, not_in, between or equals), order_by (a column, highest first; "
        '{{"field": ..., "direction": "asc"}} for lowest), limit, offset (rows skipped: the 2nd is offset 1), '
        "members_from (a query whose rows are this query's places), derived (change, pct_change, difference, "
        "ratio, sum of two columns; share_of_total, rank of one), having (a threshold on a column), totals (the "
        "sum over the rows and its share of the city), correlate (two columns).\n"
        "Data: homicides 2001 to 2023-07-19; census ACS 2019-2023 and the 2010 census; socioeconomic "
        "indicators 2008-2012; Zillow home values by ZIP and community area 2000-2024.\n"
        "Measures:\n{measures}\n"
        "Dimensions: {dimensions}\n"
        "Examples:\n{examples}"
    ),
    "query_request": (
        "{history}Question: {question}\n{reading}Write one query that answers the whole question, using the "
        "question's own years and places."
    ),
    "query_reading": "The question analyzer could not use {words}. Its answer without them: {answer}\n",
    "query_no_reading": "The question analyzer found no reading for it.\n",
    "query_repair": "[Error] {error}\nWrite the corrected TOOL_CALL line, or NO_TOOL_CALL.",
    "another_reading": "Another reading (the model's query, {read_as}): {lead}",
    # the reader's answer left part of the question uncomputed: the model's query for that part, said as its own
    "rest_of_question": "For {words}, which my own reading did not compute, the model's query ({read_as}): {lead}",
    "model_reading": "I could not read this question with my own rules; the model read it as one query ({read_as}), "
                     "which you should check: {lead}",
    "no_reading": "I could not read this question into a query over the data{words}. {capabilities}",
    "no_call_rule": (
        "When you have enough data (or the question needs no Chicago data), reply with one line "
        "starting NO_TOOL_CALL (optionally followed by a brief note), for example: NO_TOOL_CALL I have the yearly counts."
    ),
    "question": "{history}Question: {question}{hints}",
    "history": "Earlier in this conversation (the question may leave out what these named):\n{lines}\n\n",
    "hints": "\nNotes from the question analyzer: {hint_text}",
    "results_block": "[Source {source}: {label}] {call}\n{text}",
    "error_block": "[Error] {call}\n{message}",
    "duplicate_note": "[Duplicate] {call} was already called; you already have its result ({where}). Do not repeat it.",
    "skipped_note": "[Skipped] {call}: {reason}",
    "parse_note": "[Unreadable tool call] {error}. Write each call as TOOL_CALL: {{\"name\": ..., \"arguments\": {{...}}}}",
    "trimmed_block": "[Source {source}: {label}] {call}\n(result shortened to fit the context window) {summary}",
    "dropped_block": "[Source {source}: {label}] {call}\n(result removed to fit the context window)",
    "continue": (
        "You can make {remaining} more tool call(s). Call another tool if you still need data; "
        "otherwise reply NO_TOOL_CALL."
    ),
    "no_more_calls": "No more tool calls are allowed.",
    "synthesis_missing": (
        "Your answer leaves out these figures: {numbers}. They come from: {lines}\n"
        "Write one more sentence that states them (it will follow your answer; do not repeat your answer)."
    ),
    "fallback_found": "{reason} before a full answer was written. What the data tools found:\n{found}",
    "fallback_empty": "{reason} before any data was gathered. Please try again or ask a narrower question.",
    "synthesis": (
        "Now write the final answer to the question: \"{question}\"\n"
        "Use only the data from these sources above:\n{source_list}\n{notes}"
        "Write a short, direct answer in plain English that integrates all sources. Quote numbers exactly "
        "as the tools gave them, starting with the figure the question asks for. Do not list sources or "
        "caveats: they are shown separately. Do not write TOOL_CALL."
    ),
    "synthesis_keyed": (
        "Now write the final answer to the question: \"{question}\"\n"
        "The figures that answer it, from the data tools' results:\n{lines}\n{notes}"
        "Write a short, direct answer in plain English. Quote numbers exactly as the tools gave them, starting "
        "with the figure the question asks for, and keep every figure of the lines above and anything they say "
        "is not available. Do not list sources or caveats: they are shown separately. Do not write TOOL_CALL."
    ),
    "synthesis_notes": "Tell the user this too: {notes}\n",
    "synthesis_no_data": (
        "Now answer the question: \"{question}\"\n"
        "No data tool returned data for it.{why} Answer in one or two sentences. If a tool error above explains "
        "the problem (a ward, area or year outside the data), say so and give the valid range it names. "
        "Otherwise say plainly that the data cannot answer this, and what it can answer: {capabilities} "
        "Never guess numbers. Do not write TOOL_CALL.{notes}"
    ),
    "synthesis_strict": (
        "Some numbers in your answer do not appear in the tool results: {numbers}. Rewrite the answer "
        "using ONLY numbers that appear in the sources above (or that you can compute exactly from two "
        "of them). Drop any figure you cannot source."
    ),
    "synthesis_mislabelled": (
        "Some numbers in your answer are called something the tool results do not call them: {facts}. Rewrite "
        "the answer saying what each figure is as the results say it (its measure, year, place and rank), or "
        "drop it."
    ),
}

# Few-shot examples. They name no real place or year: <AREA> and <YEAR> stand for the question's own values
# (or, in a later reply, values from a result), so a small model cannot copy "Austin" into an unrelated
# question; the question-conditioned grammar keeps it from writing the placeholders themselves.
# Each: question and the replies, one list of calls per gather pass. An example is shown only if every tool it names is
# registered.
EXAMPLES: list[dict] = [
    {"question": "How many homicides were there in <YEAR>?",
     "passes": [[(names.HOMICIDES, {"year": "<YEAR>"})]]},
    # One call per reply: a small model copied a two-call reply into questions that needed one of them.
    {"question": "What is the per capita income in the community area with the most homicides in <YEAR>?",
     "passes": [[(names.HOMICIDES, {"year": "<YEAR>", "group_by": "community_area", "top_n": 1})],
                [(names.SOCIOECONOMIC, {"community_area": "<AREA>", "metric": "income"})]],
     "between": ["(results come back: <AREA> had the most)"]},
]
# The query writer's few-shot examples (question, query), each a valid query over the real data
# (tests/test_query_pass.py runs them) with its keys in the grammar's order. Made-up years would be copied,
# so each example's years differ and the loop refuses a query whose years the question does not name.
QUERY_EXAMPLES: list[tuple[str, dict]] = [
    ("Which 3 community areas had the most homicides in 2019, and how many together?",
     {"measures": ["homicides"], "group_by": ["community_area"], "period": {"year": 2019},
      "order_by": ["homicides"], "limit": 3, "totals": True}),
    ("How many community areas had fewer than 2 homicides in 2017?",
     {"measures": ["homicides"], "group_by": ["community_area"], "period": {"year": 2017},
      "having": [{"field": "homicides", "op": "<", "value": 2}], "totals": True}),
    ("Which area's homicides rose the most from 2014 to 2016?",
     {"measures": [{"measure": "homicides", "as": "h2014", "period": {"year": 2014}},
                   {"measure": "homicides", "as": "h2016", "period": {"year": 2016}}],
      "group_by": ["community_area"], "order_by": ["rise"], "limit": 1,
      "derived": [{"name": "rise", "op": "change", "of": ["h2014", "h2016"]}]}),
    ("Per capita income of the 5 areas with the highest homicide rate in 2012",
     {"measures": ["per_capita_income"], "group_by": ["community_area"],
      "members_from": {"measures": [{"measure": "homicide_rate", "period": {"year": 2012}}],
                       "group_by": ["community_area"], "order_by": ["homicide_rate"], "limit": 5}}),
    ("Arrest rate of domestic homicides in Austin, 2008-2011",
     {"measures": ["arrest_rate"], "period": {"start": "2008", "end": "2011"},
      "filters": [{"dimension": "community_area", "in": ["Austin"]}, {"dimension": "domestic", "equals": True}]}),
    ("Correlation between unemployment and the homicide rate in 2009",
     {"measures": ["pct_unemployed", {"measure": "homicide_rate", "period": {"year": 2009}}],
      "group_by": ["community_area"], "correlate": ["pct_unemployed", "homicide_rate"]}),
]

PLACEHOLDER = re.compile(r'"(<[A-Z]+>)"')  # a quoted placeholder is shown bare: {"year": <YEAR>}

# "[Source N: <label>]": by the result's first dataset, else by the tool's domain.
SOURCE_LABELS = {
    "homicides": "Homicide data", "iucr": "IUCR crime codes", "census_acs": "Census demographics",
    "population_2010": "Census population", "socioeconomic": "Socioeconomic indicators",
    "zhvi": "Home values", "ihs_index": "Home price index", "community_areas": "Community areas",
    "zip_crosswalk": "ZIP crosswalk", "police_stations": "Police stations", "ward_offices": "Ward offices",
}
def template(name: str) -> str:
    return TEMPLATES[name]


def prompt_version() -> str:
    """Short hash over every template and example: recorded in each result and trace."""
    blob = json.dumps([TEMPLATES, EXAMPLES, QUERY_EXAMPLES], sort_keys=True)
    return "p-" + hashlib.sha1(blob.encode()).hexdigest()[:10]


def format_call(name: str, arguments: dict | None) -> str:
    """A call as the model and the trace show it: name(arg=value, ...)."""
    args = ", ".join(f"{k}={json.dumps(v)}" for k, v in (arguments or {}).items())
    return f"{name}({args})"


def _arg_spec(name: str, spec: dict) -> str:
    kind = spec.get("type", "string")
    if isinstance(kind, list):
        kind = "|".join(kind)
    if kind == "array":
        item = spec.get("items", {}).get("type", "string")
        kind = ("|".join(item) if isinstance(item, list) else item) + "[]"
    text = f"{name}: {kind}"
    if spec.get("enum"):
        text += " [" + "|".join(str(c) for c in spec["enum"]) + "]"
    elif spec.get("minimum") is not None and spec.get("maximum") is not None:
        text += f" [{spec['minimum']}-{spec['maximum']}]"
    return text


def render_tool_specs(schemas: list[dict]) -> str:
    """One line per tool: name(arg: type [choices], ...) - description. Required args come first."""
    lines = []
    for schema in schemas:
        params = schema.get("parameters", {})
        props = params.get("properties", {})
        required = params.get("required", [])
        names = [n for n in required if n in props] + [n for n in props if n not in required]
        args = ", ".join(_arg_spec(n, props[n]) + ("" if n in required else "?") for n in names)
        description = (schema.get("description") or "").strip().splitlines()[0] if schema.get("description") else ""
        lines.append(f"{schema['name']}({args}) - {description}")
    return "\n".join(lines)


def _call_line(name: str, arguments: dict) -> str:
    return PLACEHOLDER.sub(r"\1", f'TOOL_CALL: {json.dumps({"name": name, "arguments": arguments})}')


def render_examples(tool_names: set[str]) -> str:
    """The few-shot block."""
    shown = []
    for example in EXAMPLES:
        passes = example["passes"]
        if not all(name in tool_names for calls in passes for name, _ in calls):
            continue
        lines = [f"Question: {example['question']}"]
        between = example.get("between") or []
        for number, calls in enumerate(passes, 1):
            lines.append(f"Reply {number}:")
            lines += [_call_line(n, a) for n, a in calls]
            lines.append(between[number - 1] if number <= len(between) else "(results come back)")
        lines.append(f"Reply {len(passes) + 1}:\nNO_TOOL_CALL")
        shown.append("\n".join(lines))
    shown.append("Question: What does MCP stand for?\nReply 1:\nNO_TOOL_CALL This needs no Chicago data.")
    return "\n\n".join(shown)


def system_prompt(schemas: list[dict], max_calls: int) -> str:
    names = {s["name"] for s in schemas}
    return TEMPLATES["system_tools"].format(
        max_calls=max_calls, no_call_rule=TEMPLATES["no_call_rule"],
        tool_specs=render_tool_specs(schemas), examples=render_examples(names))


def answer_system_prompt() -> str:
    return TEMPLATES["system_answer"]


def query_system_prompt() -> str:
    """The query writer's system prompt: the layer's measures (by dataset) and dimensions, from the declarations,
    so a new measure is offered to the model by its declaration alone."""
    grouped: dict[str, list[str]] = {}
    for name in public_measures():
        measure = catalog().measures[name]
        grouped.setdefault(catalog().datasets[measure.dataset].title, []).append(name)
    measures = "\n".join(f"- {title}: {', '.join(names_)}" for title, names_ in grouped.items())
    examples = "\n".join(f"Question: {q}\nTOOL_CALL: " + json.dumps({"name": names.QUERY, "arguments": query})
                         for q, query in QUERY_EXAMPLES)
    return TEMPLATES["system_query"].format(measures=measures, dimensions=", ".join(catalog().dimensions),
                                            examples=examples)


def query_message(question: str, unused: list[str], reader_answer: str, history_lines: list | None = None) -> str:
    history = TEMPLATES["history"].format(lines="\n".join(history_lines)) if history_lines else ""
    if reader_answer:
        words = ", ".join(f"'{w}'" for w in unused[:4]) or "part of the question"
        reading = TEMPLATES["query_reading"].format(words=words, answer=reader_answer[:400])
    else:
        reading = TEMPLATES["query_no_reading"]
    return TEMPLATES["query_request"].format(history=history, question=question.strip(), reading=reading)


def question_message(question: str, hint_text: str = "", history_lines: list | None = None) -> str:
    hints = TEMPLATES["hints"].format(hint_text=hint_text.strip()) if hint_text and hint_text.strip() else ""
    history = TEMPLATES["history"].format(lines="\n".join(history_lines)) if history_lines else ""
    return TEMPLATES["question"].format(question=question.strip(), hints=hints, history=history)


def source_label(sources: list | None, tool_label: str) -> str:
    """'Homicide data', 'Census demographics', ...: the first dataset's label, else the tool's own."""
    first = (sources or [{}])[0]
    if first.get("key") in SOURCE_LABELS:
        return SOURCE_LABELS[first["key"]]
    return tool_label or str(first.get("dataset") or "")


def synthesis_message(question: str, source_lines: list[str], capabilities: str = "", why: str = "",
                      notes: list[str] | None = None, key_figures: list[str] | None = None) -> str:
    """The synthesis request; with no results, what the data covers (and why no tool applied, if known).
    ``notes``: what the answer must tell the user about the question itself (analyzer/notes.py).
    ``key_figures``: the result lines that answer the question (rules/answer.py key_figures)."""
    if not source_lines:
        told = ("\nYour answer must also tell the user this: " + " ".join(notes)) if notes else ""
        return TEMPLATES["synthesis_no_data"].format(question=question.strip(), capabilities=capabilities,
                                                     why=f" The question analyzer found that {why}." if why else "",
                                                     notes=told)
    # Before the instructions, not after them: a small model acted on what it read last and skipped the notes
    # ("There were 12,657 homicides in 1995" for a year the data does not have).
    told = TEMPLATES["synthesis_notes"].format(notes=" ".join(notes)) if notes else ""
    if key_figures:
        # The results are in the conversation already; the request names only the lines that answer the
        # question (fewer tokens to evaluate than a second copy of every result, and no period total to misread).
        return TEMPLATES["synthesis_keyed"].format(question=question.strip(), notes=told,
                                                   lines="\n".join(f"- {line}" for line in key_figures))
    return TEMPLATES["synthesis"].format(question=question.strip(), source_list="\n".join(source_lines),
                                         notes=told)


def missing_figures_message(numbers: list[str], lines: list[str]) -> str:
    return TEMPLATES["synthesis_missing"].format(numbers=", ".join(numbers), lines=" ".join(lines))


LISTED_ROWS = 8  # rows of a result's list repeated in the synthesis request


def listed_rows(text: str) -> str:
    """A result's list rows ("- Austin (25): 71 ..."), the first few, to follow its summary in the synthesis
    request: the summary of a grouped result leads with the total, and a small model answered "which area"
    questions from that total or from the wrong row."""
    rows = [line[2:].strip() for line in (text or "").splitlines() if line.startswith("- ")][:LISTED_ROWS]
    return ("; rows: " + "; ".join(rows)) if rows else ""


CORRECTION_WORDS = " in the results, not "  # how a correction names a mislabelled figure; never an answer's words


def strict_message(numbers: list[str], mislabelled: list[dict] | None = None) -> str:
    """The strict rewrite's request: the numbers the data does not back, and for a number given the wrong label
    what the results say it is ("35.4% is the arrest rate in 2022 in the results, not the domestic share")."""
    wrong = {m["number"] for m in mislabelled or []}
    unbacked = [n for n in numbers if n not in wrong]
    parts = [TEMPLATES["synthesis_strict"].format(numbers=", ".join(unbacked))] if unbacked else []
    if mislabelled:
        facts = "; ".join(f"{m['number']} is {m['data']}{CORRECTION_WORDS}{m['claimed']}" for m in mislabelled)
        parts.append(TEMPLATES["synthesis_mislabelled"].format(facts=facts))
    return " ".join(parts) or TEMPLATES["synthesis_strict"].format(numbers=", ".join(numbers))


def fallback_answer(timed_out: bool, found_lines: list[str]) -> str:
    """The deterministic answer when no model answer can be written: one line per result summary."""
    reason = "Time ran out" if timed_out else "The model could not finish"
    found = "\n".join(f"- {line}" for line in found_lines)
    return TEMPLATES["fallback_found" if found else "fallback_empty"].format(reason=reason, found=found)


_CALL_LINE = re.compile(r"^\s*(NO_)?TOOL_CALL\b:?", re.IGNORECASE)
# "Sources:", "**Caveats**", "## Data sources": a section the page already shows in its own panel.
_PANEL_LINE = re.compile(r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:data\s+)?(?:sources?|caveats?)\s*(?:\*\*|__)?\s*(?::|$)",
                         re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def strip_panels(text: str) -> str:
    """The answer without Sources / Caveats sections (a heading line and the list under it)."""
    out, skipping = [], False
    for line in (text or "").splitlines():
        if _PANEL_LINE.match(line):
            skipping = True
            continue
        if skipping and (not line.strip() or _LIST_ITEM.match(line)):
            continue
        skipping = False
        out.append(line)
    stripped = "\n".join(out).strip()
    return stripped or (text or "").strip()  # never strip an answer down to nothing


def _plain(text: str) -> str:
    return " ".join(re.sub(r"\{[a-z_]+\}", " ", text).lower().split())


# The synthesis instructions' fixed words, normalised once (checked against every answer).
_SYNTHESIS_INSTRUCTIONS = _plain(" ".join(TEMPLATES[k] for k in TEMPLATES if k.startswith("synthesis")))


def without_echoed_instructions(answer: str) -> str:
    """The answer minus sentences copied from the synthesis instructions: a small model sometimes repeats
    its request ("No data tool returned data for it. Answer in one or two sentences...") as its answer."""
    instructions = _SYNTHESIS_INSTRUCTIONS
    sentences = re.split(r"(?<=[.!?:])\s+", answer.strip())
    kept = [s for s in sentences if len(s.split()) < 3 or _plain(s).rstrip(".:") not in instructions]
    return answer.strip() if len(kept) == len(sentences) else " ".join(kept).strip()


def clean_answer(text: str) -> str:
    """A synthesis reply without stray TOOL_CALL / NO_TOOL_CALL markers, call objects or Sources/Caveats sections."""
    lines = [_CALL_LINE.sub("", line, count=1).strip() if _CALL_LINE.match(line) else line
             for line in (text or "").strip().splitlines()]
    lines = [line for line in lines if not line.lstrip().startswith('{"name"')]
    # An echoed heading goes with its line when nothing follows it; blank lines between paragraphs stay.
    lines = [_ECHOED_HEADING.sub("", line) for line in lines if not _ECHOED_HEADING.fullmatch(line)]
    return without_echoed_instructions(strip_panels("\n".join(lines)))


# The key figures' heading, repeated at the start of a line ("The figures that answer the question, from the
# results above:", also with "include:" and text after it); what follows it is the answer and stays.
_ECHOED_HEADING = re.compile(r"^\s*(?:here are\s+)?the figures that answer\b[^:]*\b(?:above|include|are|results)\s*:\s*",
                             re.IGNORECASE)
