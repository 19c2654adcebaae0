"""Checks every lesson keeps, as plain functions (used by tests/test_lessons.py and by maintainers).

THE PROSE-FIGURE RULE. Every number written in a markdown cell must be printed by a code
cell of the same lesson (its stored outputs: printed text, text/plain and text/html).
Numbers match as whole tokens after normalising their format: thousands commas are dropped
(11,978 = 11978), trailing decimal zeros are dropped (0.80 = 0.8), a sign is ignored, and a
percent sign or the word "percent" after a number is not part of it (13.6 % = 13.6 percent
= 13.6). A number glued to letters (G05, AA26, A001) is a name, not a figure. Exempt, by the
rule and never by a per-lesson list:
- lesson numbers ("lesson 3", "lessons 1 and 3");
- task names (G01..G24) and rule names (AA22), as names glued to letters;
- seeds (the number or numbers right after the word "seed" or "seeds");
- the year of a citation right after "et al." ("Yao et al., 2022", "Kim et al. (2023)"): a date
  that names a source, not a figure;
- anything inside inline code or a fenced code block;
- the markers of an ordered list ("1. " at the start of a line).
Measured figures are written in digits: the number words from "three" up ("three",
"eighteen", "twenty-four", "hundred", ...) may not appear in markdown outside code.
"""

import re
from decimal import Decimal
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")
NUMBER_WORDS = re.compile(
    r"\b(three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)\b",
    re.IGNORECASE,
)
EXEMPT = [
    re.compile(r"```.*?```", re.S),  # fenced code
    re.compile(r"`[^`]*`"),  # inline code
    re.compile(r"\]\([^)]*\)"),  # link and image targets
    re.compile(r"\b[Ll]essons? \d+(?:(?:,| and| or| to) \d+)*"),  # lesson numbers
    re.compile(r"\b[Ss]eeds? \d+(?:(?:,| and| or) \d+)*"),  # seeds
    re.compile(r"\bet\s+al\.,?\s+\(?\d{4}\b"),  # a citation's year
    re.compile(r"^\s*\d+\.\s", re.M),  # ordered-list markers
]


REFRESH = ".venv/bin/python scripts/refresh_lessons.py"


def cell_name(cells, index: int) -> str:
    """A cell as people find it: its place among all cells (1-based), and for a code cell its name in
    nbval ("Cell k", counting code cells from 0) and its prompt in JupyterLab after Run All ("[k+1]")."""
    cell = cells[index]
    if cell.cell_type != "code":
        return f"cell {index + 1} ({cell.cell_type})"
    k = sum(c.cell_type == "code" for c in cells[:index])
    return f"cell {index + 1} (nbval Cell {k}, JupyterLab [{k + 1}])"


def fix_command(stem: str) -> str:
    """The maintainer command that re-executes and re-pairs one lesson."""
    return f"{REFRESH} {stem[:2]}"


IGNORE_OUTPUT = "nbval-ignore-output"  # nbval's cell tag: a cell whose output is not part of the record


def ignores_output(cell) -> bool:
    """Whether a notebook cell carries nbval's tag that leaves its output out of the record (a panel)."""
    return IGNORE_OUTPUT in cell.get("metadata", {}).get("tags", [])


def lesson_notebooks() -> list[Path]:
    """Every lessons/*.ipynb, found by glob."""
    return sorted(LESSONS.glob("*.ipynb"))


def lesson_sources() -> list[Path]:
    """Every lessons/*.py, found by glob."""
    return sorted(LESSONS.glob("*.py"))


def normalise(token: str) -> str:
    """A number token in canonical form: no thousands commas, no trailing decimal zeros."""
    return format(Decimal(token.replace(",", "")).normalize(), "f")


def numbers_in(text: str) -> list[str]:
    """The normalised numbers in a text, in order."""
    return [normalise(whole + (fraction or "")) for whole, fraction in NUMBER.findall(text)]


def prose_text(markdown: str) -> str:
    """Markdown with the exempt parts removed."""
    for pattern in EXEMPT:
        markdown = pattern.sub(" ", markdown)
    return markdown


def printed_text(notebook) -> str:
    """Everything the code cells printed: streams, text/plain and text/html (tags removed)."""
    parts = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                parts.append(output.get("text", ""))
            data = output.get("data", {})
            parts.append(data.get("text/plain", ""))
            parts.append(re.sub(r"<[^>]+>", " ", data.get("text/html", "")))
    return "\n".join(parts)


def prose_figure_problems(path: Path) -> list[str]:
    """Every figure in the lesson's prose that no code cell prints, and every number word; [] when clean."""
    notebook = nbformat.read(path, as_version=4)
    printed = set(numbers_in(printed_text(notebook)))
    problems = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "markdown":
            continue
        prose = prose_text(cell.source)
        where = cell_name(notebook.cells, index)
        for figure in dict.fromkeys(numbers_in(prose)):
            if figure not in printed:
                line = next((ln for ln in cell.source.splitlines() if figure in numbers_in(ln)), "")
                problems.append(
                    f"{path.stem}: figure {figure} in {where} is printed by no code cell; the line: "
                    f"{line.strip()!r}; print it from a code cell, then run {fix_command(path.stem)}"
                )
        for word in dict.fromkeys(w.lower() for w in NUMBER_WORDS.findall(prose)):
            line = next((ln for ln in cell.source.splitlines() if word in ln.lower()), "")
            problems.append(
                f"{path.stem}: number word {word!r} in {where}: write figures in digits; the line: {line.strip()!r}"
            )
    return problems


def pairing_problems(source: Path) -> list[str]:
    """Whether lessons/X.py and lessons/X.ipynb hold the same cells; [] when they do."""
    notebook_path = source.with_suffix(".ipynb")
    if not notebook_path.exists():
        return [f"{source.name} has no paired {notebook_path.name}"]
    from_py = jupytext.read(source)
    from_ipynb = jupytext.read(notebook_path)
    cells_py = [(c.cell_type, c.source.strip()) for c in from_py.cells]
    cells_nb = [(c.cell_type, c.source.strip()) for c in from_ipynb.cells]
    fix = (
        f"edit {source.name} (the source), then run {fix_command(source.stem)} (it re-executes and re-pairs)"
    )
    if cells_py == cells_nb:
        return []
    for index, (a, b) in enumerate(zip(cells_py, cells_nb, strict=False)):
        if a != b:
            lines_py, lines_nb = a[1].splitlines(), b[1].splitlines()
            line = next((i for i, (x, y) in enumerate(zip(lines_py, lines_nb, strict=False)) if x != y),
                        min(len(lines_py), len(lines_nb)))  # fmt: skip
            shown_py = lines_py[line] if line < len(lines_py) else "(no line)"
            shown_nb = lines_nb[line] if line < len(lines_nb) else "(no line)"
            return [
                f"{source.stem}: {cell_name(from_ipynb.cells, index)} differs between .py and .ipynb at its "
                f"line {line + 1}: .py {shown_py!r}, .ipynb {shown_nb!r}; {fix}"
            ]
    return [f"{source.stem}: .py has {len(cells_py)} cells, .ipynb has {len(cells_nb)}; {fix}"]


def execution_problems(path: Path) -> list[str]:
    """Whether every code cell was executed, in order: execution counts 1..N; [] when so."""
    notebook = nbformat.read(path, as_version=4)
    counts = [cell.get("execution_count") for cell in notebook.cells if cell.cell_type == "code"]
    if counts != list(range(1, len(counts) + 1)):
        return [
            f"{path.stem}: code cells carry execution counts {counts}, not 1..{len(counts)} in order (outputs "
            f"stripped, e.g. by `jupytext --to ipynb` without --update?); run {fix_command(path.stem)}"
        ]
    return []
