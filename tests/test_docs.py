"""Every example in docs/language.md runs, and the reference covers the whole grammar.

docs/language.md shows the language in fenced blocks:

- a block marked ```rules is a complete rule file (`game`, `players`, `play:`) with at
  least one `example`; it must load without a diagnostic and its examples must hold;
- a block marked ```rules-error shows a mistake; a comment line `# error: E020` in it
  names the code of the diagnostic that loading it, or running its examples, must report.

Two more tests keep the reference complete: every statement and declaration of the
grammar (the rules of rules.lark ending in _stmt or _decl), and every built-in function
and name, appears in some ```rules block.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.check.analysis import LATTICE_DOCS
from rulesdsl.check.tiles import TILE_DOCS
from rulesdsl.check.types import BUILTIN_NAMES, BUILTINS
from rulesdsl.diagnostics import Diagnostic, RulesError
from rulesdsl.interpreter.examples import run_examples

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "rulesdsl" / "grammar" / "rules.lark"

FENCE = re.compile(r"^```(rules|rules-error)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
ERROR_LINE = re.compile(r"^[ \t]*#[ \t]*error:[ \t]*([A-Z][0-9]{3})\b", re.MULTILINE)
GAME_LINE = re.compile(r'^game "([^"]*)"', re.MULTILINE)


class Block:
    """One fenced block of the doc: its number (from 1, in doc order), kind and text."""

    def __init__(self, n: int, kind: str, text: str, line: int):
        self.n = n
        self.kind = kind
        self.text = text
        self.line = line

    @property
    def path(self) -> str:
        return f"docs/language.md#block{self.n}"

    @property
    def id(self) -> str:
        game = GAME_LINE.search(self.text)
        name = re.sub(r"\W+", "_", game.group(1)).strip("_").lower() if game else "untitled"
        return f"block{self.n}-{name}"


def doc_blocks() -> list[Block]:
    text = DOC.read_text(encoding="utf-8")
    out = []
    for n, m in enumerate(FENCE.finditer(text), start=1):
        line = text.count("\n", 0, m.start()) + 1
        out.append(Block(n, m.group(1), m.group(2), line))
    return out


BLOCKS = doc_blocks()
GOOD = [b for b in BLOCKS if b.kind == "rules"]
BAD = [b for b in BLOCKS if b.kind == "rules-error"]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    """The blocks name files relative to the repository (`extends "../games/..."`)."""
    monkeypatch.chdir(ROOT)


def load_and_run(block: Block) -> tuple[list[Diagnostic], dict[str, str]]:
    """Every diagnostic of the block: from loading it, or else from its examples."""
    try:
        # the variants in the doc extend the games under games/, beside docs/
        rules = rulesdsl.load_text(block.text, path=block.path, include=[ROOT / "games"])
    except RulesError as err:
        return err.diagnostics, err.sources
    return run_examples(rules), rules.sources


def test_the_doc_has_examples():
    assert len(GOOD) >= 30
    assert len(BAD) >= 5


@pytest.mark.parametrize("block", GOOD, ids=[b.id for b in GOOD])
def test_example_block_runs(block: Block):
    where = f"{block.path} (docs/language.md line {block.line})"
    needs = (r'^game "', r"^players \d", r"^play:", r"^example ", r"^\s+expect ")
    if re.search(r'^extends (game )?"', block.text, re.MULTILINE):
        needs = needs[3:]  # a variant takes the rest from the game it extends
    for needed in needs:
        assert re.search(needed, block.text, re.MULTILINE), f"{where} has no {needed!r} line"
    diags, sources = load_and_run(block)
    rendered = "\n".join(d.render(sources) for d in diags)
    assert not diags, f"{where}:\n{rendered}"


@pytest.mark.parametrize("block", BAD, ids=[b.id for b in BAD])
def test_error_block_reports_its_code(block: Block):
    where = f"{block.path} (docs/language.md line {block.line})"
    codes = ERROR_LINE.findall(block.text)
    assert len(codes) == 1, f"{where} needs exactly one '# error: CODE' line"
    diags, sources = load_and_run(block)
    rendered = "\n".join(d.render(sources) for d in diags) or "no diagnostic at all"
    assert codes[0] in [d.code for d in diags], f"{where} expects {codes[0]}, got:\n{rendered}"


# How each statement and declaration of the grammar shows in a rule file. A new _stmt or
# _decl rule in rules.lark fails test_grammar_is_covered until it is listed here and
# documented with an example.
FORMS: dict[str, str] = {
    "game_decl": r'^game "',
    "players_decl": r"^players \d+( to \d+)?$",
    "teams_decl": r"^teams of \d+$",
    "const_decl": r"^const \w+ = ",
    "setting_decl": r"^setting \w+ = .* between .* and ",
    "counter_decl": r"^counter \w+ ",
    "board_decl": r"^board \w+: square \d+ x \d+",
    "enum_decl": r"^enum \w+: ",
    "die_decl": r"^die \w+: faces ",
    "dice_decl": r"^dice \w+: \d+ \w+$",
    "define_decl": r"^define \w+",
    "rule_decl": r"^rule \w+",
    "setup_decl": r"^setup:$",
    "play_decl": r"^play:$",
    "rank_decl": r"^rank \w+ by ",
    "heuristic_decl": r"^heuristic \w+ by ",
    "payoff_decl": r"^payoff \w+ by .* zero sum$",
    "limit_decl": r"^limit (\d+|\w+) decisions?$",
    "stat_decl": r"^stat \w+",
    "example_decl": r'^example "',
    "extends_decl": r'^extends "',
    "extends_game_decl": r'^extends game "',
    "replace_decl": r"^replace \w+",
    "remove_decl": r"^remove \w+",
    "kind_decl": r"^kind \w+\(\w+(, \w+)*\):$",
    "zone_decl": r"^zone \w+( per player)?: \w+",
    "trigger_decl": r"^as soon as \w+ in .+ where .+:$",
    "let_stmt": r"^\s+let \w+ = (?!roll\b)",
    "let_roll_stmt": r"^\s+let \w+ = roll \w+",
    "set_stmt": r"^\s+set \w+",
    "add_stmt": r"^\s+add .+ to ",
    "subtract_stmt": r"^\s+subtract .+ from ",
    "place_stmt": r"^\s+place .+ at ",
    "clear_stmt": r"^\s+clear \w+",
    "roll_stmt": r"^\s+roll \w+",
    "reveal_stmt": r"^\s+reveal \w+",
    "win_stmt": r"^\s+win \w+",
    "draw_stmt": r"^\s+draw$",
    "end_game_stmt": r"^\s+end game$",
    "end_turn_stmt": r"^\s+end turn$",
    "next_turn_stmt": r"^\s+next turn to ",
    "break_stmt": r"^\s+break$",
    "say_stmt": r'^\s+say "',
    "expect_stmt": r"^\s+expect ",
    "pass_stmt": r"^\s+pass$",
    "call_stmt": r"^\s+\w+\(.*\)$",
    "replay_stmt": r'^\s+play "',
    "shuffle_stmt": r"^\s+shuffle \w+",
    "move_stmt": r"^\s+move .+ to ",
    "if_stmt": r"^\s+if .+:$",
    "for_stmt": r"^\s+for each \w+ in ",
    "repeat_stmt": r"^\s+repeat( .+ times)?:$",
    "while_stmt": r"^\s+while .+:$",
    "turns_stmt": r"^\s+turns\b.*:$",
    "choose_stmt": r"^\s+choose \w+ in ",
    "choose_any_stmt": r"^\s+choose any \w+ in ",
    "choose_menu_stmt": r"^\s+choose( by .+)?:$",
    "change_decl": r'^change (rule \w+|play|setup|example ".+"):$',
    "display_decl": r"^display:$",
    "step_stmt": r"^\s+step \w+:$",
    "base_call_stmt": r"^\s+base \w+\(.*\)$",
    "secret_stmt": r"^\s+each \w+ in .+ chooses in secret:$",
    "offer_stmt": r"^\s+offer .+ to .+:$",
    "point_stmt": r"^\s+point \w+$",
    "expect_options_stmt": r'^\s+expect options "',
}

# The optional parts and the expression forms, each in some example too.
PARTS: list[str] = [
    r"^players \d+ to \d+$",                     # a range of player counts
    r"^counter \w+ per player = ",               # per player
    r"^counter \w+ per player per \w+ = ",       # per two things
    r" between \S+ and \S+$",                    # bounds
    r" secret$",                                 # a secret counter
    r"^board .* diagonal$",                      # diagonal adjacency
    r"^board \w+: hexagon \d+ of triangles",     # a hexagon of triangles
    r"^board \w+: corners of \w+",               # its corners
    r"^board \w+: square [A-Za-z_]\w* x [A-Za-z_]\w*",  # a size from a constant or setting
    r"^board \w+: hexagon [A-Za-z_]\w* of triangles",
    r"^board .* holding player$",                # what a board holds
    r"^board .* holding [A-Z]\w*$",
    r"^counter \w+ per [A-Z]\w* = ",             # per enum value or component
    r"^\s+\d+ x .+,",                            # several alike components
    r"^zone \w+ per player: ",                   # a zone per player
    r"^zone .* hidden$", r"^zone .* owner$", r"^zone .* public$",
    r"^\s+move .+ from .+ to ",                  # move out of a given zone
    r"^\s+move (?!.* from ).+ to ",              # move from wherever it is
    r"^\s+place .+ at \[",                      # one piece on several cells
    r'^enum .*\w+ "[^"]+"',                      # an enum value with a label
    r"^define \w+\(.*\) = \($",                  # a definition over several lines
    r"^\s+turns from .+:$",
    r"^\s+turns .*for .+ rounds?:$",
    r"^\s+turns .* going \w+",                 # a direction of play
    r"^\s+turns .*all at once",                # a round played at once
    r"^\s+then reveal:$",                      # a secret step's reveal
    r"^\s+offer optional ",                    # an offer that may be declined
    r'^\s+accept "[^"]*":$', r"^\s+refuse:$",  # answers with and without a label
    r"^rank team \w+ by ",                      # ranking teams
    r"^example .* from \w+:$",                  # an example from a point of the flow
    r'^\s+expect options include "', r'^\s+expect options exclude "',
    r"^\s+repeat:$",
    r"^\s+repeat .+ times:$",
    r"^\s+elif .+:$",
    r"^\s+else:$",
    r"^\s+for each \w+ in .+ where .+:$",
    r"^\s+choose \w+ in .+ where ",
    r"^\s+choose \w+ in .+ by ",
    r'^\s+choose \w+ in .+ as "',
    r"^\s+choose \w+ in .+:$",                   # with a body
    r"^\s+choose \w+ in [^:]+$",                 # without a body
    r"^\s+choose by .+:$",
    r"^\s+choose optional \w+ in ",              # a choice that may be declined
    r'^\s+option \w+ "[^"]*"',                   # a menu option with a label
    r"^\s+option \w+ .*if .+:$",                 # a menu option with a condition
    r"^\s+option \w+:$",                         # a menu option without a label
    r"^example .* with \d+ players",
    r"^example .* seed \d+",
    r" of \(",                                   # two keys: used of (p, c)
    r"\bplayer \d\b",                            # player literals
    r"\bif .+ then .+ else ",
    r"\w\[\w+\]",                                # indexing
    r"\[.+ for \w+ in .+\]",                     # list comprehension
    r"\bcount\(\w+ in ", r"\bany\(\w+ in ", r"\ball\(\w+ in ", r"\bfirst\(\w+ in ",
    r"\bfilter\(\w+ in ",
    r"\bsum\(.+ for \w+ in ", r"\bmax\(.+ for \w+ in ", r"\bmin\(.+ for \w+ in ",
    r"\bmax\(\w+, ", r"\bmin\(\w+, ",
    r"\.\.", r" / ", r" % ", r"\bnot in\b", r"\bin\b", r"\bis empty\b", r"\bis not empty\b",
    r"\band\b", r"\bor\b", r"\bnot\b", r" != ", r" <= ", r" >= ",
    r'"[^"\n]*\{[^"\n]+\}[^"\n]*"',              # a string with a hole
    r'^\s+say ".*" to \w+$',                      # a line told to one player
    r'^\s+say ".*" to \[.+\]$',                   # to a list of players
    r"\bpiece of \w+", r"\bface of \w+",
    r"\b\w+ of \w+\[\d\]",                       # a field of a component
    r"\btrue\b", r"\bfalse\b", r"\bnone\b",
    # enums with fields, rows made from lists and data files, component dice, bags, sort
    r"^enum \w+\(\w+(, \w+)*\):$",
    r"^\s+\w+ \"[^\"]+\", .+$",                 # a row of an enum with a label
    r"^\s+\"[^\"]*\{\w+\}[^\"]*\", each ",      # a row's text naming its fields
    r"^\s+\w+ x each ",
    r'^kind \w+\(.*\): (\w+ x )?from "[^"]+\.yaml" \w+',
    r"^\s+let \w+ = roll d$",                     # a component die
    r"^zone .* bag$",
    r"^dice \w+ per player: \d+ \w+ owner$", r"^dice \w+: \d+ \w+ hidden$",
    r"\bsort\(\[", r"\bsort\(\w+ in .+ where .+ by ", r"\bsort\(\w+ in .+ by -",
    # a variant's edits
    r"^\s+at start:$", r"^\s+at end:$", r"^\s+instead of .+:$", r"^\s+instead of .+: .+$",
    r"^\s+before .+:$", r"^\s+after .+:$", r"^\s+step \w+:$", r"^\s+let \w+ = roll d4$",
    r"^\s+option \w+ if .+$", r'^\s+add option \w+ "', r"^\s+replace .+ with .+$",
    # the display
    r"^\s+hide \w+", r'^\s+label \w+ "', r'^\s+group "[^"]+": ', r"^\s+glyph \w+ by \w+: ",
    r"^\s+owner \w+ by \w+$", r"^\s+pass forced in \w+",
]


def good_text() -> str:
    return "\n".join(b.text for b in GOOD)


def grammar_rules() -> set[str]:
    text = GRAMMAR.read_text(encoding="utf-8")
    # `?simple_stmt` and the like only group alternatives: they are not constructs
    return set(re.findall(r"^(\w+_(?:stmt|decl))\s*:", text, re.MULTILINE))


def test_grammar_is_covered():
    names = grammar_rules()
    assert names, "no _stmt or _decl rules found in rules.lark"
    assert names - FORMS.keys() == set(), "statements missing from FORMS (and the doc?)"
    assert FORMS.keys() - names == set(), "FORMS lists rules the grammar no longer has"


@pytest.mark.parametrize("rule", sorted(FORMS))
def test_statement_has_an_example(rule: str):
    assert re.search(FORMS[rule], good_text(), re.MULTILINE), (
        f"no ```rules block in docs/language.md shows {rule} ({FORMS[rule]!r})")


@pytest.mark.parametrize("form", PARTS)
def test_form_has_an_example(form: str):
    assert re.search(form, good_text(), re.MULTILINE), (
        f"no ```rules block in docs/language.md shows {form!r}")


@pytest.mark.parametrize("keyword", [
    "turns", "choose any", "option", "roll", "define", "rank", "setting", "counter", "board",
    "enum", "die", "dice", "example", "expect", "say", "win", "draw", "end game", "end turn",
    "break", "place", "clear", "set", "add", "subtract", "let", "repeat", "while", "for each",
    "if", "elif", "else", "rule", "setup", "play", "const", "game", "players", "pass",
    "kind", "zone", "as soon as", "shuffle", "move", "holding", "hexagon", "corners of",
    "heuristic", "payoff", "zero sum",
    "change", "display", "step", "base", "each", "from", "bag", "sort",
    "chooses in secret", "then reveal", "offer", "accept", "refuse", "going", "all at once",
    "teams of", "rank team", "point", "expect options", "clockwise", "anticlockwise",
    "territory", "turned", "centre", "roads", "grouped",
])
def test_keyword_has_an_example(keyword: str):
    assert re.search(rf"\b{keyword}\b", good_text()), f"no ```rules block uses {keyword!r}"


@pytest.mark.parametrize("name", sorted(BUILTINS) + sorted(LATTICE_DOCS) + sorted(TILE_DOCS))
def test_builtin_function_has_an_example(name: str):
    assert re.search(rf"\b{name}\(", good_text()), f"no ```rules block calls {name}(...)"


@pytest.mark.parametrize("name", sorted(BUILTIN_NAMES))
def test_builtin_name_has_an_example(name: str):
    assert re.search(rf"\b{name}\b", good_text()), f"no ```rules block uses {name}"


# ---- links between the documents ----------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """The anchor a Markdown heading gets on a rendered page (as GitHub makes it)."""
    text = heading.strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings, outside fenced blocks."""
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#+ (.*)", line)):
            found.add(_slug(m.group(1)))
    return found


@pytest.mark.parametrize("doc", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_every_link_between_the_documents_leads_somewhere(doc):
    """A link to another file names a file that exists; a link to a heading (`#...`, in
    this file or another document) names a heading that is there."""
    path = ROOT / "docs" / doc
    broken = []
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for target in LINK.findall(line):
            if "://" in target or target.startswith("mailto:"):
                continue
            file, _, anchor = target.partition("#")
            where = (path.parent / file).resolve() if file else path
            if not where.exists():
                broken.append(target)
            elif anchor and where.suffix == ".md" and anchor not in _anchors(where):
                broken.append(target)
    assert not broken, f"{doc}: links that lead nowhere: {broken}"


def test_the_index_names_every_document():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    named = set(LINK.findall(index))
    missing = [p.name for p in sorted((ROOT / "docs").glob("*.md"))
               if p.name != "index.md" and p.name not in named]
    assert not missing, f"docs/index.md does not name {missing}"
