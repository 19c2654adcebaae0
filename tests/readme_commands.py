"""The README's start command, read from the README, for the tests that run or check it (the browser
test starts JupyterLab with it, so the two cannot part; issue 26)."""

import re
import shlex
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
ROOT_REFUSAL = "Running as root is not recommended"


def _first_command_and_note(readme: Path) -> tuple[str, str]:
    text = readme.read_text(encoding="utf-8")
    match = re.search(r"```bash\n(.*?)\n```\n\n(.*?)\n\n", text, re.S)
    assert match, f"{readme.name} has no ```bash block followed by a paragraph"
    return match.group(1), " ".join(match.group(2).split())


def readme_start(readme: Path = README) -> list[str]:
    """The JupyterLab part of the README's first command (after its last "&&"), split as the shell
    splits it: [".venv/bin/jupyter", "lab", ...]. AssertionError when it is not that."""
    command = shlex.split(_first_command_and_note(readme)[0].split("&&")[-1])
    assert command[:2] == [".venv/bin/jupyter", "lab"], f"the README's first command ends with {command}"
    return command


def readme_as_root(readme: Path = README) -> list[str]:
    """The options the paragraph right after the README's first command says to add as root.
    AssertionError when that paragraph is not the root case."""
    note = _first_command_and_note(readme)[1]
    assert ROOT_REFUSAL in note, (
        f"the paragraph after the README's first command is not the root case: {note!r}"
    )
    return re.findall(r"`(--[\w.=-]+)`", note)
