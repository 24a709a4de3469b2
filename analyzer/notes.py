"""What an answer must tell the user about the question itself, whatever the data says: a relative year's
meaning, places or years outside the data, figures published for another geography, subjects the data lacks.
The rule planner writes these into its answers; a model is asked to (intelligent_mcp.py)."""
from __future__ import annotations

import re

from analyzer.analysis import Analysis


def user_notes(analysis: Analysis | None) -> list[str]:
    if analysis is None or analysis.error:
        return []
    notes = []
    if analysis.relative_year_note:
        notes.append(analysis.relative_year_note[0].upper() + analysis.relative_year_note[1:] + ".")
    notes += [w for w in analysis.warnings if "instruction-like" not in w]
    if analysis.not_used:
        notes.append(not_used_note(analysis.not_used))
    if analysis.unsupported:
        # With no subject the data has, nothing is looked up: there are no figures above to point to.
        held = "; the figures above are what it does hold." if analysis.domains else "."
        notes.append("The data does not include " + unsupported_named(analysis) + held)
    return notes


def unsupported_named(analysis: Analysis, only=None) -> str:
    """"shootings ('shot'), victim demographics ('ages of the victims')": each subject the data lacks (of ``only``,
    when given), with the question's own words when they differ from its name."""
    words = analysis.unsupported_words or analysis.unsupported

    def named(label: str, word: str) -> str:
        asides = [a for a in (_DESCRIBED.get(label), None if word.lower() in label.lower() else f"'{word}'") if a]
        return label + (f" ({'; '.join(asides)})" if asides else "")

    return ", ".join(named(label, word) for label, word in zip(analysis.unsupported, words)
                     if only is None or label in only)


# What a subject's name covers, where the name alone does not say ("most victims black or hispanic" is declined as
# victim demographics: the reader should see that race is among them).
_DESCRIBED = {"victim demographics": "the victims' age, sex, race or ethnicity",
              "elected officials": "the data folder has each ward's alderperson, but no mayor",
              "assessor records": "the property sales and assessments the Cook County Assessor records"}


def not_used_note(phrases: list[str]) -> str:
    """What the answer must say when part of the question went unread: the answer is to another question unless
    the reader knows which part was left out."""
    quoted = " or ".join(f"'{p}'" for p in phrases)
    them = "them" if len(phrases) > 1 else "it"
    return f"I could not use {quoted} from the question, so the figures do not take {them} into account."


_NOTE_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
_COMMON = {"the", "and", "are", "not", "for", "that", "this", "with", "what", "does", "also", "above", "figures",
           "data", "name", "those", "them", "they", "from", "have", "which", "your", "there", "here", "it's"}


def _stems(text: str) -> list[str]:
    return [w[:-1] if w.endswith("s") and len(w) > 4 else w for w in _NOTE_WORD.findall(text.lower())]


def note_stated(note: str, answer: str, subjects: list[str] | tuple = (), share: float = 0.4) -> bool:
    """Whether an answer already tells the user this note. A note about a subject the data lacks is told when the
    answer names that subject ("The data has no weather."); any other when enough of the note's telling words (not
    its filler) appear in the answer, with one of its numbers if it has any. A model that restates a note in its
    own words keeps them ("partial", "community area"); one that leaves the note out does not."""
    said = set(_stems(answer or ""))
    named = [s for s in subjects if s.lower() in note.lower()]
    if named:
        return any(all(w in said for w in _stems(subject)) for subject in named)
    numbers = {w for w in _stems(note) if w.isdigit() and len(w) >= 2}
    if numbers and not numbers & said:
        # "There is no community area 999": an answer listing what the data covers by community area shares the
        # words, not the 999.
        return False
    telling = [w for w in dict.fromkeys(_stems(note)) if len(w) >= 4 and w not in _COMMON]
    if not telling:
        return True
    return sum(w in said for w in telling) >= share * len(telling)


def unstated_notes(analysis: Analysis | None, notes: list[str], answer: str) -> list[str]:
    """The notes an answer leaves out, in order; a note the ones before it already tell is not repeated."""
    subjects = list(analysis.unsupported) if analysis is not None else []
    told, out = answer or "", []
    for note in notes:
        if not note_stated(note, told, subjects):
            out.append(note)
            told += "\n" + note
    return out
