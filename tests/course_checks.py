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


# THE HOUR RULE (issue 31). A lesson's core path is every cell before its first markdown cell that
# opens with GOING_FURTHER (the whole lesson when it has none); what follows is optional depth.
# A reader's minutes for a part, at the rates below (chosen against a student's read of lessons 1 to 6,
# who put them at 12 to 16 hours; at these rates those lessons, as they stood before issue 31, came to
# 13.4 hours: 26,132 words, 1,744 output lines, 21 figures, 2,074 code lines, 12 exercises):
# prose at WORDS_PER_MINUTE, printed lines at LINES_PER_MINUTE (a folded table counts its one summary
# line), MINUTES_PER_FIGURE per figure, code at CODE_LINES_PER_MINUTE, MINUTES_PER_EXERCISE per
# checked exercise (a cell that prints a `check_…` call), MINUTES_PER_PANEL_EXERCISE per other
# exercise (a numbered item under an Exercises heading that no check checks, answered with the panel:
# readers of the lessons gave each 5 to 7 minutes). The core takes at most CORE_MINUTES.
GOING_FURTHER = "## Going further"
WORDS_PER_MINUTE = 100
LINES_PER_MINUTE = 8
MINUTES_PER_FIGURE = 2
CODE_LINES_PER_MINUTE = 15
MINUTES_PER_EXERCISE = 12
MINUTES_PER_PANEL_EXERCISE = 5
CORE_MINUTES = 65  # "about an hour"
WORD = re.compile(r"[A-Za-z0-9][\w'’.-]*")
CHECKED_EXERCISE = re.compile(r"^print\((?:\w+\.)?check_\w+\(", re.M)
HEADING = re.compile(r"^#+ (.*)$", re.M)
NUMBERED_ITEM = re.compile(r"^\d+\. ", re.M)
# the spoken times a lesson's **Time:** line may give, each with the reader's minutes it stands for
SPOKEN_MINUTES = {
    "a quarter of an hour": (5, 22),
    "half an hour": (18, 42),
    "an hour and a half": (70, 110),
    "an hour": (40, 75),
    "two hours and a half": (130, 170),
    "two hours": (100, 140),
}


def lesson_parts(notebook) -> tuple[list, list]:
    """A lesson's cells split at its Going further heading: (core, optional)."""
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith(GOING_FURTHER):
            return notebook.cells[:index], notebook.cells[index:]
    return notebook.cells, []


def output_lines(cell) -> int:
    """The lines a reader meets in a code cell's stored outputs (a folded table: its summary line)."""
    lines = 0
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            lines += len(output.get("text", "").splitlines())
            continue
        data = output.get("data", {})
        if "image/png" in data:
            continue
        page = data.get("text/html", "")
        if "<details" in page:
            lines += page.count("<details")
        elif page:
            lines += page.count("<tr")
        else:
            lines += len(data.get("text/plain", "").splitlines())
    return lines


def exercise_items(cells) -> int:
    """The numbered items in markdown cells between a heading that names exercises and the next
    heading, which may be in a later cell."""
    items, inside = 0, False
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"```.*?```", " ", cell.source, flags=re.S)
        cuts = [(m.start(), "exercise" in m.group(1).lower()) for m in HEADING.finditer(text)]
        start = 0
        for at, names_exercises in [*cuts, (len(text), None)]:
            if inside:
                items += len(NUMBERED_ITEM.findall(text[start:at]))
            if names_exercises is not None:
                inside, start = names_exercises, at
    return items


def reading(cells) -> dict[str, float]:
    """What a reader meets in some cells, and the minutes it takes at the hour rule's rates."""
    prose = " ".join(prose_words(c.source) for c in cells if c.cell_type == "markdown")
    code = [c for c in cells if c.cell_type == "code"]
    checked = sum(len(CHECKED_EXERCISE.findall(c.source)) for c in code)
    found = {
        "words": len(WORD.findall(prose)),
        "output lines": sum(output_lines(c) for c in code),
        "figures": sum("image/png" in o.get("data", {}) for c in code for o in c.get("outputs", [])),
        "code lines": sum(len([x for x in c.source.splitlines() if x.strip()]) for c in code),
        "exercises": checked,
        "panel exercises": max(0, exercise_items(cells) - checked),
    }
    found["minutes"] = round(
        found["words"] / WORDS_PER_MINUTE
        + found["output lines"] / LINES_PER_MINUTE
        + found["figures"] * MINUTES_PER_FIGURE
        + found["code lines"] / CODE_LINES_PER_MINUTE
        + found["exercises"] * MINUTES_PER_EXERCISE
        + found["panel exercises"] * MINUTES_PER_PANEL_EXERCISE,
        1,
    )
    return found


def prose_words(markdown: str) -> str:
    """A markdown cell's prose as a reader reads it: no fenced code (diagrams), link targets or tags."""
    markdown = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    markdown = re.sub(r"\]\([^)]*\)", "]", markdown)
    return re.sub(r"<[^>]+>", " ", markdown)


def hour_problems(path: Path) -> list[str]:
    """The hour rule: the core within CORE_MINUTES, and the **Time:** line's spoken times bear out."""
    notebook = nbformat.read(path, as_version=4)
    core, optional = lesson_parts(notebook)
    problems = []
    found = reading(core)
    if found["minutes"] > CORE_MINUTES:
        problems.append(f"{path.stem}: the core takes {found['minutes']} reader's minutes, over "
                        f"{CORE_MINUTES} ({found})")  # fmt: skip
    time_line = re.search(r"\*\*Time:\*\*([^\n]*(?:\n(?!\n)[^\n]*)*)", notebook.cells[0].source)
    stated = " ".join(time_line.group(1).split()) if time_line else ""
    claims = [("the core", found["minutes"], r"(%s) for the core")]
    if optional:
        claims.append(("Going further", reading(optional)["minutes"], r"Going further[^.;]*?(%s)"))
    for part, minutes, pattern in claims:
        spoken = re.search(pattern % "|".join(SPOKEN_MINUTES), stated)
        if not spoken:
            problems.append(f"{path.stem}: the **Time:** line gives no time for {part} "
                            f"(one of {list(SPOKEN_MINUTES)}; {stated!r})")  # fmt: skip
            continue
        low, high = SPOKEN_MINUTES[spoken.group(1)]
        if not low <= minutes <= high:
            problems.append(f"{path.stem}: {part} is said to take {spoken.group(1)}, but reads in "
                            f"{minutes} minutes (wanted {low} to {high})")  # fmt: skip
    return problems
