"""The TextMate grammar beside the lark grammar is the one made from it, and knows every
keyword; the tokenizer for highlighting reads the grammar's words."""

from __future__ import annotations

import json
import re

from rulesdsl.grammar.lexical import keywords, leading_phrases, lexemes
from rulesdsl.lsp import textmate


def test_the_textmate_grammar_is_made_from_the_lark_grammar():
    assert textmate.PATH.read_text(encoding="utf-8") == textmate.render(), (
        "run: python -m rulesdsl.lsp.textmate > rulesdsl/grammar/rules.tmLanguage.json")


def test_every_keyword_is_highlighted():
    repo = json.loads(textmate.PATH.read_text(encoding="utf-8"))["repository"]
    patterns = [re.compile(p["match"]) for p in repo.values() if "match" in p]
    missing = [w for w in sorted(keywords())
               if not any(p.search(f"{w} (") or p.search(f"3 {w} 3") for p in patterns)]
    assert missing == []


def test_a_new_keyword_reaches_completion_and_highlighting():
    assert {"game", "rule", "as soon as", "replace", "extends"} <= set(
        leading_phrases()["declaration"])
    assert {"let", "end turn", "choose any", "option", "elif"} <= set(
        leading_phrases()["statement"])
    assert {"secretly", "holding", "hexagon", "corners", "times"} <= keywords()


def test_lexemes_of_a_broken_line():
    found = [(x.kind, x.text) for x in lexemes('rule f(a):\n    let x = "hi {a}" $ 3 # end\n')]
    assert found == [
        ("keyword", "rule"), ("name", "f"), ("punctuation", "("), ("name", "a"),
        ("punctuation", ")"), ("punctuation", ":"), ("keyword", "let"), ("keyword", "x"),
        ("operator", "="), ("string", '"hi {a}"'), ("number", "3"), ("comment", "# end"),
    ]
