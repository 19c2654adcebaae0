"""What a student meets when reading a lesson (issue 19): every lesson opens with its objectives,
what it assumes and how long it takes; links the course glossary (and every glossary anchor it
links exists); draws its setups as Mermaid diagrams; cites the papers its setups come from; and
prints no table wider or longer than a reader can take in.

THE TABLE RULE. In the stored outputs of a code cell, a printed table (a block of lines whose
columns are set apart by runs of 2 or more spaces, as pandas prints them) is at most
TABLE_WIDTH characters wide and at most TABLE_ROWS rows long (its header line not counted).
A longer table is summarised by a cell the lesson shows, and shown whole in a cell tagged
`full-table` whose outputs are folded: each a closed HTML `<details>` block around the table's
plain text, which is the output's text/plain (nbval's record), as `folded_table` makes it;
so a reader opens it on purpose, and it stays folded after Run All. No cell is collapsed by
its metadata (`jupyter: {outputs_hidden: true}`): JupyterLab opens such a cell again when it
runs, and the jupytext pairing then writes the changed metadata into the lesson's .py
(issue 26, item 1).
"""

import html
import re
from pathlib import Path

import nbformat
import pytest
from course_checks import (
    ROOT,
    cell_name,
    hour_problems,
    ignores_output,
    lesson_notebooks,
    lesson_parts,
    prose_words,
    reading,
)

from sim.presentation.tables import folded_table

NOTEBOOKS = lesson_notebooks()
IDS = [p.stem for p in NOTEBOOKS]
GLOSSARY = ROOT / "GLOSSARY.md"
TABLE_WIDTH = 100  # characters a printed line may take (the screen rule)
TABLE_ROWS = 15
FULL_TABLE = "full-table"
COLUMN_GAP = re.compile(r"(?<=\S) {2,}(?=\S)")
MERMAID_KEYWORDS = set("call click end style class classdef linkstyle subgraph default href".split())
FOLDED = re.compile(r"<details><summary>[^<]+</summary><pre>(.*)</pre></details>", re.S)
GLOSSARY_LINK = re.compile(r"\]\(\.\./GLOSSARY\.md(?:#([\w-]+))?\)")
# the papers each setup or method comes from, cited (as an arXiv link) in the lesson that introduces it
SOURCES = {
    "01": {"ReAct": "2210.03629"},
    "02": {"Plan-and-Solve Prompting": "2305.04091", "ReWOO": "2305.18323"},
    "04": {"LLMCompiler": "2312.04511"},
    "05": {"tau-bench": "2406.12045"},
}


def markdown(notebook) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]


def objectives_problems(path: Path) -> list[str]:
    """The first markdown cell holds the objectives (3 to 5 items), what the lesson assumes, and its time."""
    notebook = nbformat.read(path, as_version=4)
    first = markdown(notebook)[0]
    problems = []
    block = re.search(r"\*\*After this lesson you can:\*\*\n\n?((?:- .*\n(?:  .*\n)*)+)", first + "\n")
    items = len(re.findall(r"^- ", block.group(1), re.M)) if block else 0
    if not 3 <= items <= 5:
        problems.append(f"{path.stem}: the first cell lists {items} objectives under "
                        "'**After this lesson you can:**'; 3 to 5 wanted")  # fmt: skip
    for label in ("**It assumes:**", "**Time:**"):
        if label not in first:
            problems.append(f"{path.stem}: the first cell has no {label!r} line")
    return problems


def glossary_problems(path: Path) -> list[str]:
    """The lesson links the glossary near its top, and every anchor it links is defined there."""
    notebook = nbformat.read(path, as_version=4)
    cells = markdown(notebook)
    anchors = set(re.findall(r'<a id="([\w-]+)"></a>', GLOSSARY.read_text()))
    problems = []
    if not GLOSSARY_LINK.search(cells[0]):
        problems.append(f"{path.stem}: the first cell does not link ../GLOSSARY.md")
    for anchor in {a for text in cells for a in GLOSSARY_LINK.findall(text) if a}:
        if anchor not in anchors:
            problems.append(f"{path.stem}: links GLOSSARY.md#{anchor}, which the glossary does not define")
    return problems


def table_blocks(text: str) -> list[list[str]]:
    """The printed tables in a text: runs of 2 or more lines with columns set apart by 2+ spaces."""
    blocks, current = [], []
    for line in text.splitlines():
        gaps = len(COLUMN_GAP.findall(line))
        if gaps >= 2 or (current and gaps >= 1):
            current.append(line)
            continue
        if len(current) >= 2:
            blocks.append(current)
        current = [line] if gaps >= 2 else []
    if len(current) >= 2:
        blocks.append(current)
    return blocks


def cell_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output.get("text", ""))
        elif "image/png" not in output.get("data", {}):
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "".join(parts)


def _joined(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def is_folded(output) -> bool:
    """An output shown as a closed <details> block whose text is the output's plain text."""
    data = output.get("data", {})
    match = FOLDED.fullmatch(_joined(data.get("text/html")))
    return bool(match) and html.unescape(match.group(1)) == _joined(data.get("text/plain"))


def table_problems(path: Path) -> list[str]:
    """Tables wider than TABLE_WIDTH or longer than TABLE_ROWS outside a folded full-table cell,
    and cells collapsed by their metadata."""
    notebook = nbformat.read(path, as_version=4)
    problems = []
    for index, cell in enumerate(notebook.cells):
        where = f"{path.stem}: {cell_name(notebook.cells, index)}"
        if "outputs_hidden" in cell.metadata.get("jupyter", {}):
            problems.append(f"{where} is collapsed by its metadata (jupyter.outputs_hidden): JupyterLab opens "
                            "it again on Run All and the .py then changes; fold its table with folded_table")  # fmt: skip
        if cell.cell_type != "code" or ignores_output(cell):
            continue  # a panel's output is not part of the record
        if FULL_TABLE in cell.metadata.get("tags", []):
            outputs = cell.get("outputs", [])
            if not outputs or not all(map(is_folded, outputs)):
                problems.append(f"{where} is tagged {FULL_TABLE} but does not show its table folded "
                                "(end the cell with folded_table(...))")  # fmt: skip
            continue
        for block in table_blocks(cell_text(cell)):
            width, rows = max(map(len, block)), len(block) - 1
            if width > TABLE_WIDTH or rows > TABLE_ROWS:
                problems.append(f"{where} prints a table {width} characters wide and {rows} rows long "
                                f"(limits {TABLE_WIDTH} and {TABLE_ROWS}); its first line: {block[0].strip()!r}; "
                                f"print a summary, and the whole table folded in a cell tagged {FULL_TABLE}")  # fmt: skip
    return problems


def diagram_problems(path: Path) -> list[str]:
    """The lesson has a Mermaid diagram, and no node of one is named by a Mermaid keyword (JupyterLab then shows
    a parse error in place of the diagram: `call` and `click` start callbacks, `end` closes a subgraph)."""
    diagrams = [d for text in markdown(nbformat.read(path, as_version=4))
                for d in re.findall(r"```mermaid\n(.*?)```", text, re.S)]  # fmt: skip
    if not diagrams:
        return [f"{path.stem} has no Mermaid diagram (a ```mermaid block in a markdown cell)"]
    problems = []
    for diagram in diagrams:
        for node in set(re.findall(r"(?:^\s*|-->\s*|--\s*\"[^\"]*\"\s*-->\s*|-\.->\s*)(\w+)", diagram, re.M)):
            if node.lower() in MERMAID_KEYWORDS:
                problems.append(f"{path.stem}: a diagram names a node {node!r}, a Mermaid keyword; rename it")
    return problems


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_lesson_cites_where_its_setups_come_from(notebook):
    text = "\n".join(markdown(nbformat.read(notebook, as_version=4)))
    missing = [name for name, arxiv in SOURCES.get(notebook.stem[:2], {}).items()
               if f"arxiv.org/abs/{arxiv}" not in text]  # fmt: skip
    assert missing == [], f"{notebook.stem} does not link the paper of {', '.join(missing)}"


# what a reader meets in every lesson: check name -> the function listing its problems
READING_CHECKS = {"objectives, assumptions and time": objectives_problems, "glossary links": glossary_problems,
                  "a diagram": diagram_problems, "tables that fit the page": table_problems}  # fmt: skip


@pytest.mark.parametrize("check", READING_CHECKS)
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_lesson_reads_well(notebook, check):
    problems = READING_CHECKS[check](notebook)
    assert problems == [], "\n".join(problems)


def test_glossary_links_back_to_every_lesson():
    text = GLOSSARY.read_text()
    missing = [p.name for p in NOTEBOOKS if f"(lessons/{p.name})" not in text]
    assert missing == [], f"GLOSSARY.md does not link {missing}"


def test_the_table_rule_catches_a_wide_a_long_an_open_full_table_and_a_collapsed_cell(tmp_path):

    wide = "  ".join(f"column{i:02d}" for i in range(14))
    long = "\n".join(f"{i:>4}  {i * i:>6}  x" for i in range(20))
    folded = folded_table(f"a  b  c\n{long}")
    shown = nbformat.v4.new_output(
        "execute_result", {"text/plain": repr(folded), "text/html": folded._repr_html_()}
    )
    collapsed = {"tags": [FULL_TABLE], "jupyter": {"outputs_hidden": True}}
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("wide", outputs=[nbformat.v4.new_output("stream", text=f"{wide}\n{wide}\n")]),
        nbformat.v4.new_code_cell("long", outputs=[nbformat.v4.new_output("stream", text=f"a  b  c\n{long}\n")]),
        nbformat.v4.new_code_cell("open", metadata={"tags": [FULL_TABLE]},
                                  outputs=[nbformat.v4.new_output("stream", text=f"a  b  c\n{long}\n")]),
        nbformat.v4.new_code_cell("collapsed", metadata=collapsed, outputs=[shown]),
        nbformat.v4.new_code_cell("fine", metadata={"tags": [FULL_TABLE]}, outputs=[shown]),
        nbformat.v4.new_code_cell("untagged", outputs=[shown]),
        nbformat.v4.new_code_cell("prose", outputs=[nbformat.v4.new_output("stream", text="one line. " * 20)]),
    ]  # fmt: skip
    path = tmp_path / "09_x.ipynb"
    nbformat.write(notebook, path)
    problems = table_problems(path)
    assert len(problems) == 5, problems
    assert "cell 1 " in problems[0] and "wide" in problems[0]
    assert "20 rows long" in problems[1]
    assert "cell 3 " in problems[2] and "does not show its table folded" in problems[2]
    assert "cell 4 " in problems[3] and "collapsed by its metadata" in problems[3]
    assert "cell 6 " in problems[4] and "20 rows long" in problems[4]


def test_the_citation_year_is_exempt_from_the_prose_figure_rule():
    from course_checks import numbers_in, prose_text

    assert numbers_in(prose_text("ReAct (Yao et al., 2022); LLMCompiler, Kim et al. (2023)")) == []
    assert numbers_in(prose_text("it cost 2022 tokens")) == ["2022"]


def test_the_diagram_check_catches_a_keyword_node(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell('```mermaid\nflowchart LR\n    a --> call["x"]\n    call --> b\n```')
    ]
    path = tmp_path / "09_x.ipynb"
    nbformat.write(notebook, path)
    assert diagram_problems(path) == ["09_x: a diagram names a node 'call', a Mermaid keyword; rename it"]


@pytest.mark.parametrize("notebook", lesson_notebooks(), ids=lambda path: path.stem)
def test_no_testing_marker_in_the_code_students_read(notebook):
    """nbval's markers are cell tags, not comments in a lesson's code, and no formatter's marker
    (`# fmt: skip`, `# fmt: off`) sits there either; the panel's cell carries the tag."""
    from sim.presentation.panel import RUN_FIRST

    cells = nbformat.read(notebook, as_version=4).cells
    marked = [
        cell_name(cells, i)
        for i, cell in enumerate(cells)
        if cell.cell_type == "code" and re.search(r"NBVAL|# fmt: (?:skip|off|on)", cell.source)
    ]
    assert marked == [], f"{notebook.stem}: testing or formatter markers as comments in {marked}"
    panels = [cell for cell in cells if cell.cell_type == "code"
              and any(o.get("data", {}).get("text/plain") == RUN_FIRST for o in cell.get("outputs", []))]  # fmt: skip
    assert panels and all(ignores_output(cell) for cell in panels), (
        f"{notebook.stem}: the panel's cell lacks its tag"
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_lesson_core_takes_about_an_hour(notebook):
    """The hour rule (course_checks): the core path within CORE_MINUTES, and the times it states bear out."""
    assert hour_problems(notebook) == []


def test_the_hour_rule_counts_what_a_reader_meets(tmp_path):
    """Prose, printed lines (a folded table as one), figures, code, checked exercises and the other
    numbered exercises (under an Exercises heading, not under the next), split at Going further."""
    cells = [
        nbformat.v4.new_markdown_cell(
            "# L\n\n**Time:** about an hour for the core; Going further a quarter"
            " of an hour.\n\n```mermaid\nflowchart TD\n a --> b\n```\nfour words [here](x.md)"
        ),
        nbformat.v4.new_markdown_cell(
            "## Exercises\n\n1. Press **new seed**.\n2. Write `x`.\n\n## Explore\n\n3. no"
        ),
        nbformat.v4.new_code_cell("x = 1\n\nprint(check_x(1, x))"),
        nbformat.v4.new_markdown_cell("## Going further (optional)\n\nmore"),
        nbformat.v4.new_code_cell("print(2)"),
    ]
    cells[2].outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="a\nb\n"),
        nbformat.v4.new_output(
            "display_data", data={"text/plain": "t\nu", "text/html": folded_table("t\nu")._repr_html_()}
        ),
    ]
    notebook = nbformat.v4.new_notebook(cells=cells)
    core, optional = lesson_parts(notebook)
    assert [len(core), len(optional)] == [3, 2]
    found = reading(core)
    counted = ("output lines", "figures", "code lines", "exercises", "panel exercises")
    assert {k: found[k] for k in counted} == {
        "output lines": 3,
        "figures": 0,
        "code lines": 2,
        "exercises": 1,
        "panel exercises": 1,
    }
    assert "flowchart" not in prose_words(cells[0].source) and "x.md" not in prose_words(cells[0].source)
    path = tmp_path / "99_x.ipynb"
    nbformat.write(notebook, path)
    problems = hour_problems(path)
    # both parts read in far less than they are said to take
    assert [p.split(": ")[1].split(" is said")[0] for p in problems] == ["the core", "Going further"]
