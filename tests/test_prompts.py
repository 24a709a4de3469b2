"""Prompt templates: compact tool specs, few-shot examples that parse, a stable version hash."""
import re

import prompt_registry as prompts
from toolcall.protocol import parse_tool_calls

SCHEMAS = [
    {"name": "query_homicides_advanced", "description": "Count homicides.\nSecond line is dropped.",
     "parameters": {"type": "object", "required": ["year"], "properties": {
         "group_by": {"type": "string", "enum": ["year", "ward"]},
         "year": {"type": "integer", "minimum": 2001, "maximum": 2023},
         "community_area": {"type": ["integer", "string"]},
         "compare_areas": {"type": "array", "items": {"type": ["integer", "string"]}}}}},
]


def test_tool_specs_are_compact():
    line = prompts.render_tool_specs(SCHEMAS)
    assert line == ("query_homicides_advanced(year: integer [2001-2023], group_by: string [year|ward]?, "
                    "community_area: integer|string?, compare_areas: integer|string[]?) - Count homicides.")


def test_system_prompt_states_the_conventions(registry):
    text = prompts.system_prompt(registry.schemas(), 4)
    assert "TOOL_CALL:" in text and "NO_TOOL_CALL" in text and "at most 4 calls" in text
    for name in registry.names():
        assert f"\n{name}(" in text


def test_few_shot_calls_parse_and_are_valid(registry):
    # The placeholders stand for the question's own values; filled in, every example call is valid.
    text = prompts.render_examples(set(registry.names()))
    parsed = parse_tool_calls(text.replace("<YEAR>", "2019").replace("<AREA>", "25"))
    assert len(parsed.calls) >= 3 and not parsed.errors  # includes the chained example
    for found in parsed.calls:
        registry.canonicalize(found["name"], found["arguments"])  # raises if an example is invalid
    assert parse_tool_calls("NO_TOOL_CALL I have what I need.").no_call
    chained = [e for e in prompts.EXAMPLES if len(e["passes"]) > 1]
    assert chained and {n for p in chained[0]["passes"] for n, _ in p} >= {"query_homicides_advanced",
                                                                          "query_socioeconomic"}


def test_examples_name_no_real_place_or_year(registry):
    # A small model copied the example's "Austin" into unrelated questions; examples hold placeholders only.
    text = prompts.render_examples(set(registry.names()))
    named = [n for n in registry.data.geography.name_index if re.search(rf"\b{re.escape(n)}\b", text.lower())]
    assert named == []
    assert not re.search(r"\b(19|20)\d\d\b", text)
    assert "<YEAR>" in text and "<AREA>" in text


def test_examples_naming_missing_tools_are_left_out():
    text = prompts.render_examples({"query_homicides_advanced"})
    assert "How many homicides were there in <YEAR>?" in text and "query_socioeconomic" not in text
    assert "NO_TOOL_CALL" in text


def test_prompt_version_tracks_the_templates(monkeypatch):
    version = prompts.prompt_version()
    assert version == prompts.prompt_version() and version.startswith("p-") and len(version) == 12
    monkeypatch.setitem(prompts.TEMPLATES, "synthesis", prompts.TEMPLATES["synthesis"] + " Be brief.")
    assert prompts.prompt_version() != version


def test_messages_and_labels():
    assert prompts.question_message(" Why? ", "Areas: Austin") == "Question: Why?\nNotes from the question analyzer: Areas: Austin"
    assert prompts.question_message("Why?", "  ") == "Question: Why?"
    assert prompts.format_call("t", {"a": 1, "b": "x"}) == 't(a=1, b="x")'
    assert prompts.source_label([{"key": "census_acs"}], "Census data") == "Census demographics"
    assert prompts.source_label([], "Homicide data") == "Homicide data"
    assert prompts.source_label([{"dataset": "Some table"}], "") == "Some table"
    assert "[Source 1: X]" in prompts.synthesis_message("q", ["[Source 1: X] t() - s"])
    assert "No data tool returned data" in prompts.synthesis_message("q", [])
    assert "$9" in prompts.strict_message(["$9", "10%"])


def test_an_answer_that_repeats_its_instructions_loses_those_sentences():
    echoed = ("No data tool returned data for it. Answer in one or two sentences. "
              "There is no community area 999: Chicago's community areas are numbered 1 to 77.")
    assert prompts.clean_answer(echoed) == "There is no community area 999: Chicago's community areas are numbered 1 to 77."
    assert prompts.clean_answer("No data tool returned data for it. Never guess numbers.") == ""
    # A result's own words are kept, and an answer with nothing echoed is left exactly as written.
    kept = "717 homicides (year 2022); arrest rate 35.4%.\n- Austin (25): 49"
    assert prompts.clean_answer(kept) == kept


def test_an_echoed_key_figures_heading_is_dropped_but_the_lines_under_it_stay():
    reply = ("The figures that answer the question, from the results above:\n"
             "- Homicide rate vs poverty: Pearson 0.79.\nThe citywide rate is 17.5 per 100,000.")
    assert prompts.clean_answer(reply) == "- Homicide rate vs poverty: Pearson 0.79.\nThe citywide rate is 17.5 per 100,000."
    sentence = "The figures that answer it show 717 homicides: a lot."
    assert prompts.clean_answer(sentence) == sentence
    # Echoed in front of the answer on the same line (the 1.5B model): the heading goes, the answer stays.
    assert prompts.clean_answer("The figures that answer it, from the results above, include: 56.6% of households.") \
        == "56.6% of households."
    assert prompts.clean_answer("The figures that answer it, from the data tools' results:\n717 homicides.") \
        == "717 homicides."
