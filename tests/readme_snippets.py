"""The README's fenced code blocks, so tests can follow its recipes as written."""
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def code_blocks(lang: str, containing: str) -> list[str]:
    """Every ```lang block of the README (indentation removed) whose text holds ``containing``."""
    blocks = re.findall(r"^[ \t]*```" + re.escape(lang) + r"\n(.*?)^[ \t]*```", README.read_text(), re.S | re.M)
    return [b for b in blocks if containing in b]
