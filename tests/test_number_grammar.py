"""The synthesis number grammar (orchestrator.number_grammar): an answer's numerals come from the results."""
import re

import pandas as pd
import pytest

from backends.base import GenerationRequest
from backends.llama_cpp import LlamaCppBackend, validate_grammar
from loop.number_grammar import allowed_numerals, build_number_grammar
from settings.loader import load_settings


@pytest.fixture(scope="module")
def ranking(registry):
    return registry.run("query_homicides_advanced", {"group_by": "community_area", "year": 2021})


@pytest.mark.full_data
def test_numerals_are_the_results_own(ranking, data_dir):
    raw = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    total = int((raw["Date"].str[6:10] == "2021").sum())
    numerals = allowed_numerals([ranking], "Which area had the most homicides in 2021?")
    assert str(total) in numerals and "2021" in numerals
    assert f"{ranking.values['arrest_rate_pct']:.1f}" in numerals  # a value as the tools print it
    assert {"0", "5", "10"} <= set(numerals)  # list numbering and "top 5"
    assert str(total + 1) not in numerals


@pytest.mark.slow  # loads the tiny model in llama.cpp and samples from it
def test_the_grammar_parses_and_admits_only_listed_numbers(tiny_gguf_path, ranking):
    settings = load_settings(overrides={"model.path": str(tiny_gguf_path), "model.n_ctx": 1024,
                                        "model.n_threads": 1, "model.temperature": 1.0, "model.queue_size": 2})
    backend = LlamaCppBackend.from_settings(settings)
    try:
        numerals = allowed_numerals([ranking], "q")
        gbnf = build_number_grammar(numerals)
        assert validate_grammar(backend.llm, gbnf)
        messages = [{"role": "user", "content": "Write numbers: 1 22 333 804 12.5"}]
        written = []
        for seed in range(4):
            backend.seed = seed
            text = backend.generate(GenerationRequest(messages=messages, grammar=gbnf, max_tokens=60)).text
            written += re.findall(r"\d[\d.,]*\d|\d", text)
        # A random-weight model writes digits freely; each run of digits must be a listed number (a trailing
        # "." or "," before text is punctuation).
        assert written, "the random model wrote no digits: nothing was checked"
        for run in written:
            assert run.rstrip(".,") in numerals, (run, written)
    finally:
        backend.close()


def test_a_number_cannot_be_extended_past_its_listed_form():
    gbnf = build_number_grammar(["804", "33.5", "8"])
    assert 'num ::= "804" | "33.5" | "8"' in gbnf
    assert "sep ::= [^0-9.,] | [.,] [^0-9]" in gbnf  # after a number: no digit, no "." or "," before a digit
