"""Every tool is named in one place (tools/names.py), carries its label, and is known to the planner and the evals."""
from analyzer.question import analyze_question
from evals.runner import load_questions
from rules.answer import TOOL_LABELS
from rules.collaborator import Planner
from tools import names


def test_the_registry_holds_exactly_the_named_tools(registry):
    assert sorted(s["name"] for s in registry.schemas()) == sorted(names.ALL)


def test_every_tool_has_a_label_and_a_planner_description(registry):
    for name in names.ALL:
        assert registry.get(name).label, name
        assert TOOL_LABELS.get(name), name


def test_every_tool_has_an_eval_question_the_planner_drafts_it_for(registry):
    planner = Planner(registry.data)
    questions = load_questions()
    for name in names.ALL:
        expecting = [q for q in questions if name in (q.get("tools") or [])]
        assert expecting, f"no eval question expects {name}"
        drafted = [q["id"] for q in expecting
                   if name in {n for n, _ in planner.next_calls(analyze_question(q["q"], registry.data), [], 4)}]
        # a chained question drafts its later tools only once the first result is in: one first-step draft suffices
        assert drafted or all(q.get("chained") for q in expecting), f"the planner drafts {name} for none of them"
