"""The TextMate grammar of rule files (`rules.tmLanguage.json`), made from the lark grammar.

Stage: a tool for editors, beside the language server. Editors without the language
server's highlighting (and GitHub-like viewers) colour `.rules` files with a TextMate
grammar. Its keywords come from `rules.lark` (through `lexical`), its built-ins from the
checker's table, so a test can check that the file beside the lark grammar is the one this
module makes:

    python -m rulesdsl.lsp.textmate > rulesdsl/grammar/rules.tmLanguage.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..check.analysis import LATTICE_DOCS
from ..check.types import BUILTIN_NAMES, BUILTINS
from ..grammar.lexical import CONSTANTS, OPERATOR_WORDS, builtin_words, keywords, leading_phrases

PATH = Path(__file__).parents[1] / "grammar" / "rules.tmLanguage.json"
SCOPE = "source.rulesdsl"


def _words(words: set[str] | frozenset[str]) -> str:
    # longest first, so that 'setting' is not read as 'set' followed by 'ting'
    return r"\b(?:" + "|".join(sorted(words, key=lambda w: (-len(w), w))) + r")\b"


def grammar() -> dict[str, Any]:
    """The TextMate grammar as plain data."""
    functions = set(BUILTINS) | set(LATTICE_DOCS) | set(builtin_words())
    plain = set(keywords()) - set(CONSTANTS) - set(OPERATOR_WORDS) - functions - {"x"}
    starts = [p.replace(" ", r"\s+") for p in leading_phrases()["declaration"]]
    declares = r"^(?:(replace)\s+)?(" + "|".join(sorted(starts, key=lambda w: (-len(w), w)))
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "rulesdsl",
        "scopeName": SCOPE,
        "fileTypes": ["rules"],
        "patterns": [
            {"include": "#comment"},
            {"include": "#declaration"},
            {"include": "#string"},
            {"include": "#number"},
            {"include": "#size"},
            {"include": "#constant"},
            {"include": "#operator-word"},
            {"include": "#function"},
            {"include": "#builtin-name"},
            {"include": "#keyword"},
            {"include": "#operator"},
        ],
        "repository": {
            "comment": {"name": "comment.line.number-sign.rulesdsl", "match": r"#.*$"},
            "declaration": {
                "match": declares + r")\b(?:\s+([A-Za-z_][A-Za-z0-9_]*))?",
                "captures": {"1": {"name": "keyword.other.declaration.rulesdsl"},
                             "2": {"name": "keyword.other.declaration.rulesdsl"},
                             "3": {"name": "entity.name.rulesdsl"}},
            },
            "string": {
                "name": "string.quoted.double.rulesdsl",
                "begin": '"', "end": '"|$',
                "patterns": [
                    {"name": "constant.character.escape.rulesdsl", "match": r'\\[nt"\\{}]'},
                    {"name": "meta.interpolation.rulesdsl", "begin": r"\{", "end": r"\}",
                     "beginCaptures": {"0": {"name": "punctuation.section.interpolation"}},
                     "endCaptures": {"0": {"name": "punctuation.section.interpolation"}},
                     "patterns": [{"include": "$self"}]},
                ],
            },
            "number": {"name": "constant.numeric.rulesdsl", "match": r"\b[0-9]+\b"},
            "size": {  # the 'x' of `square 3 x 3` and `8 x "Fire"`: elsewhere x is a name
                "match": r"(?<=[0-9A-Za-z_])\s+(x)\s+(?=[0-9A-Za-z_\"])",
                "captures": {"1": {"name": "keyword.operator.rulesdsl"}},
            },
            "constant": {"name": "constant.language.rulesdsl", "match": _words(set(CONSTANTS))},
            "operator-word": {"name": "keyword.operator.word.rulesdsl",
                              "match": _words(set(OPERATOR_WORDS))},
            "function": {"name": "support.function.builtin.rulesdsl",
                         "match": _words(functions) + r"(?=\s*\()"},
            "builtin-name": {"name": "variable.language.rulesdsl",
                             "match": _words(set(BUILTIN_NAMES))},
            "keyword": {"name": "keyword.control.rulesdsl", "match": _words(plain)},
            "operator": {"name": "keyword.operator.rulesdsl",
                         "match": r"==|!=|<=|>=|\.\.|[-+*/%<>=]"},
        },
    }


def render() -> str:
    return json.dumps(grammar(), indent=2) + "\n"


if __name__ == "__main__":
    print(render(), end="")
