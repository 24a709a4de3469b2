"""Which of a model's own calls refine a drafted call: where the reading left words unused, a model call of the same
tool that keeps the draft's places and years and adds or changes other arguments (the drafted year's count narrowed
to the months the unread words name) answers more of the question than the draft did."""
from __future__ import annotations

from loop.steps import ToolCallStep

# The arguments a refinement keeps: the question's places and years, as the reading found them.
KEPT = ("start_year", "end_year", "years", "community_area", "community_areas", "compare_areas", "ward", "wards",
        "district", "districts", "zip")


def one_year_as_span(args: dict) -> dict:
    """"year": 2021 is "start_year" and "end_year" 2021 (a model writes the one, the planner the other)."""
    if "year" not in args:
        return args
    out = {k: v for k, v in args.items() if k != "year"}
    out.setdefault("start_year", args["year"])
    out.setdefault("end_year", args["year"])
    return out


def _kept(args: dict) -> dict:
    return {k: v for k, v in one_year_as_span(args).items() if k in KEPT}


def refines(entry: ToolCallStep, drafted: list[ToolCallStep]) -> bool:
    mine = _kept(entry.arguments)
    return entry.origin == "model" and any(
        d.name == entry.name and set(entry.arguments) - set(d.arguments) - {"year"}
        and all(mine.get(key) == value for key, value in _kept(d.arguments).items()) for d in drafted)


def refinements(ran: list[ToolCallStep]) -> list[ToolCallStep]:
    """The model's calls among ``ran`` that refine one of the drafted (or planned) calls among them."""
    drafted = [r for r in ran if r.origin != "model"]
    return [r for r in ran if refines(r, drafted)]
