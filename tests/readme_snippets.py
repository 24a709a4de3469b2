"""The fenced code blocks of the README and of docs/*.md, so tests can follow their recipes as written."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def documents() -> list[Path]:
    """The README first, then every page under docs/ in name order."""
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def code_blocks(lang: str, containing: str) -> list[str]:
    """Every ```lang block (indentation removed) in the README and docs/*.md whose text holds ``containing``,
    in document order: a test that unpacks one block fails if the recipe is missing or written twice."""
    blocks = []
    for doc in documents():
        blocks += re.findall(r"^[ \t]*```" + re.escape(lang) + r"\n(.*?)^[ \t]*```", doc.read_text(), re.S | re.M)
    return [b for b in blocks if containing in b]
