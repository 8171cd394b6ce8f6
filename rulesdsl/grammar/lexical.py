"""The words and tokens of the language, read from the lark grammar, for editors.

Stage: parse (a helper beside it). The keywords, the phrases that start a declaration or a
statement, and a tokenizer that never fails (for highlighting text that may not parse) all
come from `rules.lark`, so a keyword added to the grammar reaches the language server's
completion and highlighting, and the TextMate grammar, without being listed again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .parser import rules_parser

# words of the grammar that are values or operators rather than keywords
CONSTANTS = ("true", "false", "none")
OPERATOR_WORDS = ("and", "or", "not", "in", "is", "empty", "of")
_WORDS = re.compile(r"^[a-z]+( [a-z]+)*$")
_ALTERNATIVES = re.compile(r"^\(\?:([a-z|]+)\)$|^\(([a-z|]+)\)\\b$")


@dataclass(frozen=True)
class Lexeme:
    """A token for highlighting: its kind (keyword, constant, operator, name, number,
    string, comment, punctuation) and its place on one line (1-based column)."""

    kind: str
    line: int
    column: int
    length: int
    text: str


@lru_cache(maxsize=1)
def terminal_words() -> dict[str, tuple[str, ...]]:
    """The words each keyword terminal of the grammar matches: {"IF": ("if",), ...}."""
    out: dict[str, tuple[str, ...]] = {}
    for term in rules_parser().terminals:
        value = term.pattern.value
        if term.pattern.type == "str" and _WORDS.match(value):
            out[term.name] = (value,)
        elif term.pattern.type == "re" and (m := _ALTERNATIVES.match(value)):
            out[term.name] = tuple((m.group(1) or m.group(2)).split("|"))
    return out


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every word the grammar spells out ('per player' gives 'per' and 'player')."""
    return frozenset(w for words in terminal_words().values() for phrase in words
                     for w in phrase.split())


@lru_cache(maxsize=1)
def builtin_words() -> frozenset[str]:
    """The words of the quantifiers and aggregates: count(...), sum(...)."""
    return frozenset(terminal_words().get("QUANT", ()) + terminal_words().get("AGG", ()))


@lru_cache(maxsize=1)
def leading_phrases() -> dict[str, tuple[str, ...]]:
    """The keyword phrases that start each kind of line: "declaration" (top level: `game`,
    `as soon as`, `replace`...) and "statement" (in a block: `let`, `end turn`,
    `choose any`, `option`, `accept`, `elif`...)."""
    words = terminal_words()
    found: dict[str, set[str]] = {"declaration": set(), "statement": set()}
    for rule in rules_parser().rules:
        origin = rule.origin.name
        if origin.endswith("_decl"):
            where = "declaration"
        elif origin.endswith(("_stmt", "_clause")) or origin in ("option", "answer"):
            where = "statement"
        else:
            continue
        phrase: list[str] = []
        for sym in rule.expansion:
            if sym.name not in words or len(words[sym.name]) != 1:
                break
            phrase.append(words[sym.name][0])
        if phrase:
            found[where].add(" ".join(phrase))
    return {k: tuple(sorted(v)) for k, v in found.items()}


_TOKEN = re.compile(r"""
    (?P<comment>\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"?)
  | (?P<number>[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<operator>==|!=|<=|>=|\.\.|[-+*/%<>=])
  | (?P<punctuation>[()\[\],:])
  | (?P<space>\s+|.)
""", re.VERBOSE)


def lexemes(text: str) -> list[Lexeme]:
    """The tokens of a text, line by line; text the grammar does not know is skipped, so
    this works on a file with errors. Words of the grammar are keywords, constants or
    operators: which of them are names at a given place only the parser knows."""
    out: list[Lexeme] = []
    kws = keywords()
    for n, line in enumerate(text.split("\n"), start=1):
        for m in _TOKEN.finditer(line):
            kind = m.lastgroup
            if kind == "space" or kind is None:
                continue
            word = m.group()
            if kind == "name":
                if word in CONSTANTS:
                    kind = "constant"
                elif word in OPERATOR_WORDS:
                    kind = "operator"
                elif word in kws:
                    kind = "keyword"
            out.append(Lexeme(kind, n, m.start() + 1, len(word), word))
    return out
