"""Shared pieces of the loop tests: TOOL_CALL lines for the scripted model, the tools' own figures, shortcuts."""
import json

import pandas as pd

from backends.scripted import ScriptedBackend
from intelligent_mcp import Orchestrator
from tools import names

HOMICIDES = names.HOMICIDES
SOCIO = names.SOCIOECONOMIC
RATES = names.AREA_RATES
CENSUS = names.CENSUS
# Tests of the model's gathering passes shown the planner's draft: the path every question took before
# model_calls "gaps", and the one a question takes where the reading falls short.
DRAFT_PASSES = {"orchestrator.model_calls": "always"}
# Tests about the passes after the plan has run turn the sufficiency stop off.
KEEP_GATHERING = {**DRAFT_PASSES, "orchestrator.stop_when_plan_done": False}


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
    """Canned replies, but treated like a model: it is shown the planner's draft calls."""

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
