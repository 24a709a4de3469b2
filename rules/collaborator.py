"""The rule planner as the orchestrator's collaborator, in its four roles.

1. ``next_calls``: the calls a question still needs, given what has run (a model is shown them as a draft;
   with no model they are the calls).
2. ``key_figures``: the lead lines of the results gathered, named in a model's synthesis request.
3. ``key_line_parts``: the pieces of a key line whose figures an answer must state (the answer check).
4. ``answer``: a templated answer from the results (the answer with no model, and the stand-in when a model's
   answer fails the check).

It works on the data bundle it is given (place names, coverage): never a process-wide default.
"""
from __future__ import annotations

from analyzer.analysis import Analysis
from loop.steps import ToolCallStep
from rules import answer as answers
from rules.planner import next_calls, part_results


class Planner:
    capabilities = answers.CAPABILITIES

    def __init__(self, data):
        self.data = data

    @property
    def geography(self):
        try:
            return self.data.geography
        except Exception:  # noqa: BLE001 - without boundaries the planner still plans, with fewer place hints
            return None

    def next_calls(self, analysis: Analysis, results: list[ToolCallStep], remaining: int) -> list:
        return next_calls(analysis, results, remaining, geo=self.geography)

    def key_figures(self, question: str, analysis: Analysis, results: list[ToolCallStep], planned: set) -> list[str]:
        if analysis.parts:
            return [line for part in analysis.parts if part.analysis is not None for line in answers.key_figures(
                part.text, part.analysis, part_results(part.analysis, results, self.geography), planned,
                geo=self.geography)]
        return answers.key_figures(question, analysis, results, planned, geo=self.geography)

    @staticmethod
    def key_line_parts(line: str, compares: bool, years, period_total: bool = False) -> list[tuple[str, bool]]:
        return answers.key_line_parts(line, compares, years, period_total)

    @staticmethod
    def declines_the_years(analysis: Analysis) -> bool:
        """Every year the question asks about is outside the homicide data: the answer is that decline."""
        return answers.only_years_outside_the_data(analysis)

    def answer(self, question: str, analysis: Analysis, results: list[ToolCallStep], strict: bool = False) -> str:
        if analysis.parts:
            # a question read in parts: each part's answer from its own results, the leads in the order asked
            # (a part pointing at what an earlier part finds, where that found nothing: said, not skipped)
            return answers.joined_answers([answers.write_answer(
                part.text, part.analysis, part_results(part.analysis, results, self.geography), strict=strict,
                geo=self.geography) if part.analysis is not None else
                f'I could not answer "{part.text}": it asks about what the part before it finds, and that part found '
                'nothing.' for part in analysis.parts])
        return answers.write_answer(question, analysis, results, strict=strict, geo=self.geography)
