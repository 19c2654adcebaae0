"""The claim rule (tests/claims.py): every sentence of a registered lesson that states a direction or a
universal is covered by an entry of tests/claims_registry.py whose evidence holds."""

import pytest
from claims import claim_problems, lessons_checked, normal
from claims_registry import REGISTRY

LESSONS = lessons_checked(REGISTRY)


@pytest.mark.parametrize("notebook", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_claim_is_registered_and_holds(notebook):
    problems = claim_problems(notebook, REGISTRY)
    assert problems == [], "\n".join(problems)


def test_the_lint_catches_an_unregistered_claim_and_a_failing_check(tmp_path):
    import nbformat
    from claims import Holds, Printed
    from course_checks import LESSONS as FOLDER

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("The split always wins. The loop never stops."),
        nbformat.v4.new_code_cell("print('loop stops')", outputs=[nbformat.v4.new_output("stream", text="loop stops\n")]),
    ]  # fmt: skip
    path = tmp_path / "09_x.ipynb"
    nbformat.write(notebook, path)
    registry = {"09": [("The loop never stops", Holds(lambda: False)), ("gone from the text", Printed("x"))]}
    problems = claim_problems(path, registry)
    assert any("a claim no entry covers: 'The split always wins.'" in p for p in problems), problems
    assert any("its check <lambda> no longer holds" in p for p in problems), problems
    assert any("'gone from the text' is no longer in the lesson" in p for p in problems), problems
    assert FOLDER.exists()


def test_a_link_reads_as_its_text_so_linking_a_term_leaves_its_sentence_registered():
    from claims import readable

    linked = "Every [step](../GLOSSARY.md#step) costs [tokens](../GLOSSARY.md#token)."
    assert normal(readable(linked)) == "Every step costs tokens."


def test_a_printed_phrase_is_found_whatever_the_padding_and_only_as_whole_tokens():
    from claims import printed_phrase

    table = "  unit   share\n success  0.624\n  tokens  -562.20 [-590.11, -534.29] resolved down\n"
    assert printed_phrase("success 0.624", table)
    assert printed_phrase("-562.20 [-590.11, -534.29] resolved down", table)
    assert not printed_phrase("success 0.62", table)  # a figure cut out of a longer one is not found
    assert not printed_phrase("uccess 0.624", table)
    assert not printed_phrase("success 0.625", table)
