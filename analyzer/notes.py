"""What an answer must tell the user about the question itself, whatever the data says: a relative year's
meaning, places or years outside the data, figures published for another geography, subjects the data lacks.
The rule planner writes these into its answers; a model is asked to (intelligent_mcp.py)."""
from __future__ import annotations

from analyzer.analysis import Analysis


def user_notes(analysis: Analysis | None) -> list[str]:
    if analysis is None or analysis.error:
        return []
    notes = []
    if analysis.relative_year_note:
        notes.append(analysis.relative_year_note[0].upper() + analysis.relative_year_note[1:] + ".")
    notes += [w for w in analysis.warnings if "instruction-like" not in w]
    if analysis.unsupported:
        notes.append("The data does not include " + ", ".join(analysis.unsupported) +
                     "; the figures above are what it does hold.")
    return notes
