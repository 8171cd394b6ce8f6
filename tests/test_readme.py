"""The README opens with the two set-up commands, and CI runs exactly the second."""

from __future__ import annotations

import re

from .conftest import ROOT


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_opens_with_two_commands():
    text = (ROOT / "README.md").read_text()
    first, second = readme_commands()
    assert text.index(first) < text.index(second) < text.index("## ")
    assert "rulesdsl play" in first and "pytest" in second


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci/run").read_text().splitlines()
    assert readme_commands()[1] in ci


def test_the_readme_rule_file_runs():
    import rulesdsl
    from rulesdsl.interpreter.examples import run_examples

    text = (ROOT / "README.md").read_text()
    block = re.findall(r"```rules\n(.+?)\n```", text, re.DOTALL)[0]
    assert run_examples(rulesdsl.load_text(block + "\n", "README.md")) == []
