"""Shared pieces of the loop tests: TOOL_CALL lines for the scripted model, the tools' own figures, shortcuts."""
import json
import re

import pandas as pd

from analyzer.question import analyze_question
from backends.scripted import ScriptedBackend
from intelligent_mcp import Orchestrator
from rules.collaborator import Planner
from toolcall.protocol import format_tool_call
from tools import names

HOMICIDES = names.HOMICIDES
SOCIO = names.SOCIOECONOMIC
RATES = names.AREA_RATES
CENSUS = names.CENSUS
# Tests of the design's plain loop, the model writing every call itself (model_calls "own").
OWN_PASSES = {"orchestrator.model_calls": "own"}


def the_reading(registry):
    """A scripted reply that writes the calls the question's reading makes first: what a model that reads the
    question as the planner does writes in its first pass (model_calls "own")."""
    planner = Planner(registry.data)

    def reply(request):
        user = next(m["content"] for m in request.messages if m["role"] == "user")
        question = re.search(r"^Question: (.*)$", user, re.M).group(1)
        planned = planner.next_calls(analyze_question(question, registry.data), [], 4)
        return "\n".join(format_tool_call(n, a) for n, a in planned)
    return reply


def call(name, **arguments):
    return "TOOL_CALL: " + json.dumps({"name": name, "arguments": arguments})


def calls(*pairs):
    return "\n".join(call(name, **args) for name, args in pairs)


def tool_values(registry, name, **arguments):
    """A tool's own figures for these arguments, as the loop would get them."""
    return registry.run(name, registry.canonicalize(name, arguments)).values


def orchestrate(registry, settings, replies, delay=0.0, backend_cls=ScriptedBackend):
    backend = backend_cls(replies, delay=delay)
    return Orchestrator(backend, registry, settings), backend


def statuses(result):
    return [c.status for c in result.calls]


def step_types(result):
    return [s.type for s in result.steps]


class SuggestibleModel(ScriptedBackend):
    """Canned replies, but treated like a model: the planner gives it the reading, key figures and checks."""

    is_language_model = True


def answered_without_gathering(registry, settings, question, reply):
    """Run a question no tool can apply to: the only model request is the synthesis (stop no_data_needed)."""
    backend = SuggestibleModel([reply])
    result = Orchestrator(backend, registry, settings).run(question)
    assert [r.phase for r in backend.requests] == ["synthesis"] and result.stopped_because == "no_data_needed"
    assert result.calls == []
    return result, backend


def yearly_counts(data_dir, years):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str, usecols=["Date"])
    counts = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year.value_counts()
    return {year: int(counts[year]) for year in years}
