"""How a place name is compared: case, apostrophes, hyphens and punctuation set aside ("Near North-Side" is
"near north side"). The gazetteer (tools/data/geography.py) and the layer's station rule use this one form."""
from __future__ import annotations

import re

_PUNCT = re.compile(r"[^a-z0-9' ]+")


def normalize_name(text: str) -> str:
    text = str(text).lower().replace("’", "'").replace("-", " ")
    text = _PUNCT.sub(" ", text)
    return re.sub(r"\s+", " ", text).strip()
