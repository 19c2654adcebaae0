"""What a student reads on screen (issue 26, item 7): no raw Python in the text a lesson prints.

In the stored outputs of every lesson's code cells (a panel's output is not part of the record):
- no pandas or Python placeholders a reader has to decode: `<NA>`, `NaN`, `None`, `True`, `False`
  (a missing value is a blank or a word, a switch is "yes"/"no" or "on"/"off"); a cell that prints
  the course's own code (`code_of`) is exempt from this one, code is code, and so is a value in
  code quoted in a sentence (`max_turns=None`);
- no type reprs (`<class 'str'>`, `collections.abc.Callable[...]`, `typing.`);
- no figure with 6 or more decimals (a share is printed with at most 4);
- no table header naming a column by a Python identifier (`tokens_per_success`): the five tools'
  names (`read_meter`, ...) are the world's own names and stay;
- no two tables printed back to back without an empty line between them;
- no printed line longer than LINE_WIDTH characters: JupyterLab wraps a longer monospace line at its
  default width, mid-word (a line that is one word, a web address, cannot be broken and is exempt). A cell tagged `full-table` is exempt: it is collapsed (and shown as an
  HTML block whose lines scroll, not wrap), the table rule of tests/test_reading.py covers it.
And a panel's own labels and status lines read as words.
"""

import html
import itertools
import re
from collections.abc import Callable

import nbformat
import pytest
from course_checks import cell_name, ignores_output, lesson_notebooks

from sim.exercises import contract as exercises_contract
from sim.exercises import how_many_seeds as exercises_how_many_seeds
from sim.exercises import step_budget as exercises_step_budget
from sim.exercises import your_agent as exercises_your_agent
from sim.model.world import TOOL_NAMES

NOTEBOOKS = lesson_notebooks()
IDS = [p.stem for p in NOTEBOOKS]
LINE_WIDTH = 100  # characters: a monospace line JupyterLab shows whole at its default width
# not a value in code a lesson quotes (`max_turns=None`, `return_full_result=True`)
RAW_WORDS = re.compile(r"<NA>|\bNaN\b|(?<![=\w])(?:None|True|False)\b")
TYPE_REPR = re.compile(r"<class '|collections\.abc\.|\btyping\.")
LONG_DECIMALS = re.compile(r"\d\.\d{6,}")
COLUMN_GAP = re.compile(r"(?<=\S) {2,}(?=\S)")
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def printed(cell) -> str:
    """What a code cell printed: its streams and the plain text of what it displayed (not images)."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output.get("text", ""))
        elif not {"image/png", "text/html"} & set(output.get("data", {})):
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "".join(parts)


def tables(text: str) -> list[list[str]]:
    """Blocks of 2 or more consecutive lines whose columns are set apart by 2+ spaces."""
    blocks, current = [], []
    for line in [*text.splitlines(), ""]:
        if len(COLUMN_GAP.findall(line)) >= 1 and line.strip():
            current.append(line)
            continue
        if len(current) >= 2:
            blocks.append(current)
        current = []
    return blocks


def back_to_back(block: list[str]) -> bool:
    """Two pandas tables in one block: pandas pads every line of a table to one width, so a block
    made of two or more runs of lines, each run of one width (2 lines at least), is two tables
    printed with no empty line between them."""
    runs = [len(list(lines)) for _width, lines in itertools.groupby(block, len)]
    return len(runs) >= 2 and min(runs) >= 2


def screen_problems(path) -> list[str]:
    notebook = nbformat.read(path, as_version=4)
    problems = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code" or ignores_output(cell):
            continue
        where = f"{path.stem}: {cell_name(notebook.cells, index)}"
        text = printed(cell)
        shows_code = "code_of(" in cell.source
        full_table = "full-table" in cell.metadata.get("tags", [])
        for line in text.splitlines():
            if not shows_code and (found := RAW_WORDS.search(line)):
                problems.append(f"{where} prints {found.group()!r}: {line.strip()[:80]!r}")
            if found := TYPE_REPR.search(line):
                problems.append(f"{where} prints a type repr {found.group()!r}: {line.strip()[:80]!r}")
            if found := LONG_DECIMALS.search(line):
                problems.append(
                    f"{where} prints {found.group()!r} (6 or more decimals): {line.strip()[:80]!r}"
                )
            if len(line) > LINE_WIDTH and not full_table and " " in line.strip():  # one address cannot break
                problems.append(f"{where} prints a line {len(line)} characters long (at most {LINE_WIDTH}): "
                                f"{line.strip()[:60]!r}...")  # fmt: skip
        if shows_code:
            continue
        for block in tables(text):
            names = set(IDENTIFIER.findall(block[0])) - set(TOOL_NAMES)
            if names:
                problems.append(f"{where} heads a table column {sorted(names)[0]!r}: name it in words")
            if back_to_back(block) and not full_table:
                problems.append(
                    f"{where} prints two tables with no empty line between them: {block[0].strip()!r}"
                )
    return problems


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_what_a_lesson_prints_reads_as_words_and_fits_the_screen(notebook):
    problems = screen_problems(notebook)
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


def test_the_screen_check_catches_each_kind(tmp_path):
    notebook = nbformat.v4.new_notebook()
    stream = lambda text: [nbformat.v4.new_output("stream", text=text)]  # noqa: E731
    notebook.cells = [
        nbformat.v4.new_code_cell("a", outputs=stream(" x     y\n G01  <NA>\n G02  None\n")),
        nbformat.v4.new_code_cell("b", outputs=stream("every run stopped: True\n")),
        nbformat.v4.new_code_cell("c", outputs=stream("field  type\n    x  <class 'str'>\n")),
        nbformat.v4.new_code_cell("d", outputs=stream("success  0.708333\n")),
        nbformat.v4.new_code_cell("e", outputs=stream("entrant  tokens_per_success\n    one                 3.5\n")),
        nbformat.v4.new_code_cell("f", outputs=stream(" a  b\n 1  2\nrun  one  two\n  A    1    2\n")),
        nbformat.v4.new_code_cell("g", outputs=stream("word " * 25 + "\n")),
        nbformat.v4.new_code_cell("print(code_of(f))", outputs=stream("    return None\n")),
        nbformat.v4.new_code_cell("fine", outputs=stream(" tool  share\n read_meter  0.7083\n\nall stopped: yes\n")),
    ]  # fmt: skip
    path = tmp_path / "09_x.ipynb"
    nbformat.write(notebook, path)
    problems = screen_problems(path)
    expected = ["'<NA>'", "'None'", "'True'", "type repr", "6 or more decimals", "'tokens_per_success'",
                "two tables", "125 characters long"]  # fmt: skip
    assert len(problems) == len(expected), problems
    for problem, kind in zip(problems, expected, strict=True):
        assert kind in problem, (kind, problem)


@pytest.mark.parametrize(
    "make",
    [
        "planner_executor_panel",
        "single_loop_panel",
        "step_budget_panel",
        "contract_panel",
        "how_many_seeds_panel",
        "your_agent_panel",
    ],
)
def test_a_panels_labels_and_status_read_as_words(make):
    import importlib

    module = {"planner_executor_panel": "sim.presentation.panel_planner_executor", "single_loop_panel": "sim.presentation.panel_single_loop", "step_budget_panel": "sim.presentation.panel_step_budget",
              "contract_panel": "sim.presentation.panel_contract", "how_many_seeds_panel": "sim.presentation.panel_how_many_seeds",
              "your_agent_panel": "sim.presentation.panel_your_agent"}[make]  # fmt: skip
    panel = getattr(importlib.import_module(module), make)()
    for name, control in panel.extra.items():
        assert not IDENTIFIER.fullmatch(control.description), (
            f"{make}: the control {name} is labelled {control.description!r}"
        )
    for control in panel.extra.values():  # every switch on, every dropdown at its last option
        if isinstance(control.value, bool):
            control.value = True
        elif getattr(control, "options", None):
            control.value = [o[1] if isinstance(o, tuple) else o for o in control.options][-1]
    assert "Refused" not in panel.message.value or make == "how_many_seeds_panel"  # first = second there
    assert not RAW_WORDS.search(panel.status.value), panel.status.value
    shown = html.unescape(re.sub("<[^>]+>", "\n", panel.table.value + panel.text.value))
    for pattern in (RAW_WORDS, TYPE_REPR, LONG_DECIMALS):
        assert not pattern.search(shown), [line for line in shown.splitlines() if pattern.search(line)][:3]
    for block in tables(shown):
        names = set(IDENTIFIER.findall(block[0])) - set(TOOL_NAMES)
        assert not names, f"{make}: a table column is headed {sorted(names)[0]!r}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_no_markdown_cell_opens_mid_sentence(notebook):
    """A markdown cell opens with a sentence of its own, not with the code span a sentence began in the
    cell before ("`selection(d)` as a line.")."""
    cells = nbformat.read(notebook, as_version=4).cells
    openings = [cell.source.lstrip()[:60] for cell in cells if cell.cell_type == "markdown"]
    assert [text for text in openings if text.startswith("`")] == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_an_untouched_exercise_says_not_answered_yet(notebook):
    """The record runs the exercises as a student finds them (placeholders untouched): every check then
    says "not answered yet", as in every lesson, never "wrong" or which way."""
    cells = nbformat.read(notebook, as_version=4).cells
    exercises = [
        cell for cell in cells if cell.cell_type == "code" and re.search(r"\bcheck_\w+\(MY_SEED", cell.source)
    ]
    assert exercises, f"{notebook.stem} has no exercise cell (a check_...(MY_SEED, ...) call)"
    said = [
        line
        for cell in exercises
        for line in printed(cell).splitlines()
        if line.startswith(("right", "wrong", "not right", "not answered yet"))
    ]  # a check's verdict
    assert said and all(line.startswith("not answered yet") for line in said), said


def test_the_screen_helpers_wrap_between_words_name_values_in_words_and_cut_wide_tables():
    import pandas as pd

    from sim.presentation.screen import fitted, readable, type_label, wrap

    sentence = "  " + " ".join(f"word{i}" for i in range(40))
    wrapped = wrap(sentence).splitlines()
    assert max(map(len, wrapped)) <= LINE_WIDTH and wrapped[1].startswith("      word")
    assert " ".join(wrapped).split() == sentence.split()  # every word kept, none cut
    frame = pd.DataFrame({"asked_for_record": [True, False], "depth": pd.array([1, None], dtype="Int64"),
                          "value": [None, "TR01"], "tokens": [1306, 90]})  # fmt: skip
    shown = readable(frame).to_string(index=False)
    assert "asked for record" in shown and "yes" in shown and "no" in shown and "—" in shown
    assert not RAW_WORDS.search(shown) and "1306" in shown
    wide = pd.DataFrame(
        {"unit": ["success", "tokens"], **{f"column {i:02d}": [i, 10 * i] for i in range(14)}}
    )
    blocks = fitted(wide, "unit").split("\n\n")
    assert len(blocks) >= 2 and all(block.lstrip().startswith("unit") for block in blocks)
    assert max(len(line) for block in blocks for line in block.splitlines()) <= LINE_WIDTH
    assert type_label(str) == "str" and type_label(Callable[[], float]) == "Callable[[], float]"


WRONG_ANSWERS = [  # (check, seed, two answers): at most one of the two is right at the seed
    (exercises_contract.check_exit_counts, 12345, ({"SUCCESS": 0}, {"SUCCESS": 1})),
    (exercises_how_many_seeds.check_power, 12345, (0.123456, 0.654321)),
    (exercises_step_budget.check_saved_by_stopping, 12345, (0, 1)),
    (exercises_your_agent.check_exercise_1, 12345, (0, 1)),
]


@pytest.mark.parametrize("check, seed, answers", WRONG_ANSWERS, ids=[c.__name__ for c, *_ in WRONG_ANSWERS])
def test_a_wrong_answers_verdict_fits_the_screen(check, seed, answers):
    [verdict] = [v for v in (check(seed, answer) for answer in answers) if not v.startswith("right")][:1]
    assert max(map(len, verdict.splitlines())) <= 100, verdict


def test_interval_text_prints_a_rounded_zero_without_its_sign_and_rejects_a_format_that_is_not_text():
    from sim.model.errors import InputTypeError
    from sim.presentation.tables_patterns import interval_text

    assert interval_text(-0.00001, -0.02, 0.012345, "+.4f") == "+0.0000 [-0.0200, +0.0123]"
    assert interval_text(1.234, 1.2, 1.3, ".2f") == "1.23 [1.20, 1.30]"
    with pytest.raises(InputTypeError, match="form"):
        interval_text(1, 0, 2, 4)


def test_lesson_8s_tables_carry_each_rows_interval_from_its_own_columns():
    import pandas as pd

    from sim.presentation.tables_patterns import compaction_frame, review_frame

    table = pd.DataFrame(
        {"keep_last": pd.array([None, 2], dtype="Int64"), "success": [0.9, 0.8], "tokens": [100.0, 90.0],
         "tokens per solved": [111.1, 112.5], "success lost": [0.0, 0.1], "success low": [0.0, 0.05],
         "success high": [0.0, 0.15], "tokens saved": [0.0, 10.0], "saved low": [0.0, 8.0], "saved high": [0.0, 12.0]}
    )  # fmt: skip
    short, full = compaction_frame(table), compaction_frame(table, full=True)
    assert short.to_dict("list") == {"k": ["2"], "success lost": ["+0.1000 [+0.0500, +0.1500]"],
                                     "tokens saved": ["+10.0 [+8.0, +12.0]"]}  # fmt: skip
    assert list(full["k"]) == ["whole", "2"] and full["success lost"].iloc[0] == ""
    differences = pd.DataFrame({"mean difference": [-2.5], "low": [-3.0], "high": [-2.0]}, index=["tokens"])
    assert review_frame({"on - off": differences}, {"tokens": 1}).to_dict("list") == {
        "unit": ["tokens"], "on - off": ["-2.5 [-3.0, -2.0]"]}  # fmt: skip


def test_a_difference_that_rounds_to_zero_still_shows_its_sign_and_first_digit():
    from sim.measurement.many_seeds import signed

    assert signed(-0.00002, "success") == "-0.00002" and signed(-0.0002, "success") == "-0.0002"
    assert signed(0.0, "success") == "+0.0000" and signed(-0.0, "success") == "+0.0000"
    assert signed(0.004, "tokens") == "+0.004" and signed(12.345, "tokens") == "+12.35"


def test_outcome_shares_sum_to_the_24_tasks_of_a_run():
    from sim.measurement.outcomes import OUTCOMES, outcome_shares

    shares = outcome_shares([20260218, 20260219], 8)
    assert list(shares.columns) == list(OUTCOMES) and list(shares.index) == ["single-loop", "plan-execute"]
    assert (shares.sum(axis=1) == 24).all()
