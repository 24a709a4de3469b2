"""Placeholder: the question analyzer (issue 5) replaces this module."""


def analyze_question(question: str, data=None) -> dict:
    """Entities, years, metrics and complexity found in a question; ``hint_text`` goes to the model."""
    return {"complexity": "simple", "areas": [], "wards": [], "districts": [], "zips": [], "years": [],
            "metrics": [], "unsupported": [], "ranking": None, "warnings": [], "hint_text": ""}
