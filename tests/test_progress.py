"""The progress bar of a long lesson cell (issue 31, item 5): seen while the cell runs, nothing of it
in the stored record."""

import nbclient
import nbformat
import pytest

from sim.model.errors import InputTypeError
from sim.presentation.notebook_save import RUN_FIRST, WIDGET_VIEW, plain_panel_outputs
from sim.presentation.progress import progress


def test_outside_a_kernel_the_items_come_through_unchanged():
    assert list(progress(iter([3, 1, 2]), "seeds")) == [3, 1, 2]
    assert list(progress([], "seeds")) == []


def test_a_label_that_is_not_a_string_is_refused():
    with pytest.raises(InputTypeError, match="label must be a string"):
        list(progress([1], 7))


def test_in_a_kernel_the_bar_is_a_widget_view_alone_and_the_saved_record_drops_it():
    """Run by a kernel (as Run All and the maintainer command run a lesson): the cell shows a widget view
    with no plain text (nbval compares nothing of it) and, saved, keeps only what it printed."""
    code = "from sim.presentation.progress import progress\nprint(sum(progress(range(4), 'seeds')))"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    outputs = notebook.cells[0].outputs
    assert [set(o.get("data", {})) for o in outputs if o.output_type == "display_data"] == [{WIDGET_VIEW}]
    plain_panel_outputs(notebook)
    assert [(o.output_type, o.get("text")) for o in notebook.cells[0].outputs] == [("stream", "6\n")]


def test_saving_keeps_a_panel_as_its_plain_line_and_drops_only_bare_widget_views():
    panel = {"output_type": "display_data", "data": {"text/plain": RUN_FIRST, WIDGET_VIEW: {"model_id": "a"}}}
    bar = {"output_type": "display_data", "data": {WIDGET_VIEW: {"model_id": "b"}}}
    notebook = {"cells": [{"cell_type": "code", "outputs": [bar, panel]}]}
    plain_panel_outputs(notebook)
    assert notebook["cells"][0]["outputs"] == [
        {"output_type": "display_data", "data": {"text/plain": RUN_FIRST}}
    ]
