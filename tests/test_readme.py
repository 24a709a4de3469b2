"""The README stays a short front page, and every relative link in it and in docs/ leads somewhere."""
import re
from pathlib import Path
from urllib.parse import unquote

from tests.readme_snippets import README, ROOT, code_blocks, documents

QUICK_START = (
    "make run     # sets up .venv (compiles llama-cpp-python once, ~4 min on 2 cores), pulls the default model,"
    " serves http://127.0.0.1:8000",
    "make test    # runs the test suite, including a real-model tier on SmolLM2-135M (what CI runs through .ci/run)",
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(doc: Path) -> list[str]:
    """The targets of the Markdown links in ``doc`` that point inside the repository (code blocks excluded)."""
    text = re.sub(r"^[ \t]*```.*?^[ \t]*```", "", doc.read_text(), flags=re.S | re.M)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t, re.I) and not t.startswith("#")]


def test_readme_is_at_most_200_lines():
    assert len(README.read_text().splitlines()) <= 200


def test_readme_has_the_two_quick_start_commands():
    [block] = code_blocks("bash", "make run     #")
    assert block.splitlines() == list(QUICK_START)
    assert "make test-fast" in README.read_text()


def test_readme_shows_the_file_map_and_the_flow_on_its_first_screen():
    first_screen = README.read_text().splitlines()[:60]
    for heading in ("## Quick start", "## File map", "## The flow of one question"):
        assert heading in first_screen, heading


def test_every_relative_link_points_at_an_existing_file():
    docs = documents()
    assert len(docs) > 1  # the README and at least one page under docs/
    checked = 0
    for doc in docs:
        for target in relative_links(doc):
            path = (doc.parent / unquote(target.split("#", 1)[0])).resolve()
            assert path.exists(), f"{doc.relative_to(ROOT)} links to {target}, which does not exist"
            assert ROOT in path.parents or path == ROOT, f"{doc.relative_to(ROOT)} links outside the repository"
            checked += 1
    assert checked >= 10  # the README's links to docs/ at least


def test_the_readme_links_every_page_under_docs():
    linked = {Path(t.split("#", 1)[0]).name for t in relative_links(README)}
    assert {doc.name for doc in documents()[1:]} <= linked
