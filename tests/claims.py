"""THE CLAIM RULE, beside the prose-figure rule of course_checks.py (issue 12).

A sentence of lesson prose that states a direction or a universal (the words in CLAIM_WORDS:
"falls", "more", "fewer", "saves", "the same", "every", "never", "none", "better", ...) is a
claim, and is checked like a figure. It must be covered by an entry of the lesson's registry
(`REGISTRY`, in claims_registry.py): a fragment of the sentence, as written, and its evidence:

- Printed(*texts): the claim quotes a phrase or figure the lesson's own cells print (every text must
  appear in the lesson's stored outputs, which nbval re-computes at the lesson's defaults, as whole
  tokens with whitespace folded, so a column width or padding never decides it); a claim of a direction
  or a universal over a table's values is a Holds check over those values instead;
- Holds(check): a named function of `sim`, evaluated at the lesson's defaults, returns True;
- ByRule(check): the same, for a claim that holds by construction of the model (the lesson
  says so);
- NotAClaim(reason): the word does not claim a result ("more seeds would tell", "every
  lesson"), with the reason written down.

tests/test_claims.py fails, naming lesson, cell and sentence, on a claim sentence that no entry
covers, on an entry whose fragment is no longer in its lesson, and on evidence that no longer holds.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from course_checks import LESSONS, cell_name, printed_text, prose_text

CLAIM_WORDS = re.compile(
    r"\b(falls?|fell|fallen|rises?|rose|risen|more|fewer|less|saves?|saved|the same|every|never|always|"
    r"none|from here on|better|worse|higher|lower|cheaper|dearer)\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9*`(\"])")


@dataclass(frozen=True)
class Printed:
    """The claim quotes printed output: every text appears in the stored outputs as whole tokens
    (`printed_phrase`)."""

    texts: tuple[str, ...]

    def __init__(self, *texts: str):
        object.__setattr__(self, "texts", texts)


@dataclass(frozen=True)
class Holds:
    """A named check, evaluated at the lesson's defaults, returns True."""

    check: Callable[[], bool]


@dataclass(frozen=True)
class ByRule:
    """The claim holds by construction of the model; the check shows the rule does what is said."""

    check: Callable[[], bool]


@dataclass(frozen=True)
class NotAClaim:
    """The word does not claim a result; the reason is written down."""

    reason: str


def normal(text: str) -> str:
    """Whitespace folded, markdown emphasis dropped: how sentences and fragments are compared."""
    return re.sub(r"\s+", " ", text.replace("**", "").replace("*", "")).strip()


def printed_phrase(text: str, printed: str) -> bool:
    """Whether `text` appears in `printed` with whitespace folded on both sides, not cut out of a longer
    token (a figure 0.62 is not found in 0.624)."""
    folded = " ".join(printed.split())
    pattern = r"(?<![\w.])" if text.strip()[:1].isalnum() else ""
    pattern += re.escape(" ".join(text.split()))
    pattern += r"(?![\w])" if text.strip()[-1:].isalnum() else ""
    return re.search(pattern, folded) is not None


LINK = re.compile(r"(?<!!)\[([^\]]*)\]\([^)]*\)")  # [text](target), not an image


def readable(markdown: str) -> str:
    """The prose as a reader reads it: a link is its text (a glossary link leaves the sentence as it was)."""
    return prose_text(LINK.sub(r"\1", markdown))


def claim_sentences(path: Path) -> list[tuple[str, str]]:
    """Every sentence of the lesson's markdown with a claim word: (where, sentence), in order."""
    notebook = nbformat.read(path, as_version=4)
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "markdown":
            continue
        for sentence in SENTENCE_END.split(normal(readable(cell.source))):
            if CLAIM_WORDS.search(sentence):
                found.append((cell_name(notebook.cells, index), sentence))
    return found


def claim_problems(path: Path, registry: dict) -> list[str]:
    """Uncovered claim sentences, stale entries and evidence that fails, for one lesson; [] when clean."""
    stem = path.stem
    entries = registry.get(stem[:2], [])
    problems = []
    sentences = claim_sentences(path)
    prose = " ".join(normal(readable(c.source)) for c in nbformat.read(path, as_version=4).cells
                     if c.cell_type == "markdown")  # fmt: skip
    for where, sentence in sentences:
        if not any(normal(says) in sentence for says, _ in entries):
            problems.append(f"{stem}: {where}: a claim no entry covers: {sentence!r}; register it in "
                            "tests/claims_registry.py with its evidence, or print it from a cell")  # fmt: skip
    printed = printed_text(nbformat.read(path, as_version=4))
    for says, evidence in entries:
        if normal(says) not in prose:
            problems.append(f"{stem}: registered claim {says!r} is no longer in the lesson; remove the entry")
        elif isinstance(evidence, Printed):
            missing = [text for text in evidence.texts if not printed_phrase(text, printed)]
            if missing:
                problems.append(f"{stem}: claim {says!r}: no cell prints {missing[0]!r}")
        elif isinstance(evidence, Holds | ByRule) and not evidence.check():
            problems.append(f"{stem}: claim {says!r}: its check {evidence.check.__name__} no longer holds")
    return problems


def lessons_checked(registry: dict) -> list[Path]:
    """The lessons the claim rule covers: every lesson with an entry list in the registry."""
    return [path for path in sorted(LESSONS.glob("*.ipynb")) if path.stem[:2] in registry]
