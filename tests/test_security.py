"""A rule file cannot reach the host.

Every attempt below is either refused with a diagnostic that names its place, or runs and
does exactly what the rules say; none may create the sentinel file its payload aims at.
The generated module's shape depends on the rules' structure only: any text in a string
and any name in a name's place give the same module once its text constants are blanked.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.agents.play import play_game
from rulesdsl.compile.sandbox import SAFE_BUILTINS, UnsafeCode, run_module
from rulesdsl.validate.checking import check_file

# ---- the attempts ------------------------------------------------------------------------

INJECT = """\
game "Inject"
players 2

define f(p, q) = p

play:
    let s = f("a_q", "@ESCAPE@")
    say "{s}"
    end game

example "runs":
    play
""".replace("@ESCAPE@", "' + ('' if _div.__globals__['__builtins__']['__import__']('os')"
            ".system('touch @SENTINEL@') else '') + '")

QUOTES = ["'", '"', '"' * 3, "'" * 3]

# a payload in each quoting style Python knows, for the places a string may stand
PAYLOADS = [
    "' + __import__('os').system('touch @SENTINEL@') + '",
    "\\\" + __import__('os').system('touch @SENTINEL@') + \\\"",
    "\\\"\\\"\\\" + open('@SENTINEL@', 'w').write('x') + \\\"\\\"\\\"",
    "\\\\\\\" + str(open('@SENTINEL@', 'w')) #",
    "\\n__import__('os').system('touch @SENTINEL@')\\n",
    "\\\"); open('@SENTINEL@', 'w'); (\\\"",
    "%s%(x)s\\{0.__class__\\}\\{0!r:>\\{1\\}\\}",
]

STRING_PLACES = """\
game "@P@"
players 2

enum Mood: Calm "@P@", Wild
kind Card(name, text):
    "@P@", "@P@"
    "Plain", "@P@"
zone hand per player: Card owner
counter said = 0

define echo(x, q) = x

setup:
    for each c in Card:
        move c to hand of player 1

play:
    let s = echo("@P@", "@P@")
    say "@P@ {s}"
    say "@P@" to player 1
    choose m in Mood by player 1 as "@P@ {m}"
    choose by player 2:
        option keep "@P@":
            add 1 to said
        option drop "@P@":
            pass
    end game

example "@P@":
    expect echo("@P@", 1) == "@P@"
    expect "{Calm}" == "@P@"
    expect text of Card[1] == "@P@"
    play "Calm", "keep"
    expect said == 1
"""

# names the generated code, the sandbox or Python use; each must be just a name here
SHADOWS = [
    "st", "fr", "V", "L", "Z", "B", "B0", "W", "c3", "t4", "a0", "o5", "K2", "Q5", "D1",
    "S7", "LABEL2", "RANK", "SCORE", "BLOCKS", "TRIGGERS", "HITS", "_div", "_need", "_show",
    "_say", "len", "sum", "list", "range", "open", "exec", "eval", "compile", "print",
    "globals", "getattr", "type", "object", "self", "None", "True", "False", "__import__",
    "__builtins__", "__globals__", "__class__", "__dict__", "_", "__",
]

SHADOW = """\
game "Shadow"
players 2

counter @N@ per player = 0
define twice(@N@) = @N@ + @N@
define total(@N@) = sum(@N@ for @N@ in 1..@N@)

play:
    let @N@ = twice(3)
    add @N@ + total(3) to @N@ of player 1
    end game

example "a name is only a name":
    play
    expect @N@ of player 1 == 12
    expect twice(5) == 10 and total(4) == 10
"""

SHADOW_DEFINE = """\
game "Shadow"
players 2

const @N@ = 7
define @N@2(@N@) = @N@ * 2

play:
    end game

example "a constant and a definition":
    expect @N@ == 7 and @N@2(@N@) == 14
"""


def _sentinel_text(text: str, sentinel: Path) -> str:
    return text.replace("@SENTINEL@", sentinel.as_posix())


def _attempt(tmp_path: Path, text: str, name: str = "attempt.rules") -> list:
    """Check the file (its examples run), then play it with random bots: the diagnostics,
    if it was refused; the sentinel must not exist either way."""
    sentinel = tmp_path / "PWNED"
    path = tmp_path / name
    path.write_text(_sentinel_text(text, sentinel), encoding="utf-8")
    diags, _ = check_file(path, run_examples=True, records=None)
    if not any(d.severity == "error" for d in diags):
        rules = rulesdsl.load(path)
        for seed in (1, 2):
            play_game(rules, 2, seed, ["random", "random"])
    assert not sentinel.exists(), "a rule file reached the host"
    for d in diags:
        assert d.code and d.span is not None and d.span.line >= 1, d
    # W001: these files' made-up names reach a screen unlabelled, as they are meant to
    return [d for d in diags if d.code != "W001"]


def test_the_reported_injection_runs_as_text(tmp_path):
    diags = _attempt(tmp_path, INJECT)
    assert diags == [] or all(d.severity != "error" for d in diags)
    rules = rulesdsl.load_text(_sentinel_text(INJECT, tmp_path / "PWNED"), "inject.rules")
    game = rules.new_game(players=2, seed=1, narrate=True)
    assert game.over
    assert game.log == ["a_q"]


def test_definitions_substitute_values_not_text():
    rules = rulesdsl.load_text(
        'game "D"\nplayers 2\n'
        "define f(p, q) = p - q\ndefine g(q) = f(q, 1)\ndefine h(p, q) = p\n"
        'play:\n    end game\n\nexample "values":\n'
        '    expect g(5) == 4\n    expect h("a_q", 7) == "a_q"\n'
        '    expect f(g(2), h(3, "q")) == -2\n', "d.rules")
    from rulesdsl.interpreter.examples import run_examples

    assert run_examples(rules) == []


@pytest.mark.parametrize("payload", PAYLOADS)
def test_strings_stay_strings(tmp_path, payload):
    text = STRING_PLACES.replace("@P@", payload)
    diags = _attempt(tmp_path, text)
    assert diags == [], [d.message for d in diags]
    # the text reaches the players as written, with the rule file's own escapes decoded
    decoded = _decoded(payload)
    rules = rulesdsl.load_text(_sentinel_text(text, tmp_path / "PWNED"), "s.rules")
    game = rules.new_game(players=2, seed=1, narrate=True)
    sentinel = (tmp_path / "PWNED").as_posix()
    expected = decoded.replace("@SENTINEL@", sentinel)
    assert rules.name == expected
    labels = [o.label for o in game.decision.options]
    assert labels == [f"{expected} {expected}", f"{expected} Wild"]
    assert game.log[0] == f"{expected} {expected}"


def _decoded(payload: str) -> str:
    """The text a string literal of the rule language holds."""
    return payload.replace("\\\\", "\x00").replace('\\"', '"').replace("\\n", "\n") \
        .replace("\\{", "{").replace("\\}", "}").replace("\x00", "\\")


@pytest.mark.parametrize("payload", [p for p in PAYLOADS if "SENTINEL" in p])
def test_the_payloads_are_live(tmp_path, payload):
    """Each payload does reach the host when a code generator pastes text into Python
    source, as the one this project replaced did: the tests above would catch a return."""
    sentinel = tmp_path / "PWNED"
    text = _decoded(payload).replace("@SENTINEL@", sentinel.as_posix())
    for quote in QUOTES:
        for escaped in (text, text.replace(quote, "\\" + quote)):
            for source in (f"s = {quote}{escaped}{quote}", f"f({quote}{escaped}{quote})",
                           f"# {escaped}\n"):
                try:
                    exec(compile(source, "<naive>", "exec"), {"f": len})  # noqa: S102
                except (SyntaxError, TypeError, NameError):
                    pass
                if sentinel.exists():
                    return
    pytest.fail("the payload is harmless even when pasted into source")


def test_a_newline_cannot_end_a_string(tmp_path):
    text = ('game "N"\nplayers 2\nplay:\n'
            '    say "a\n__import__(\'os\').system(\'touch @SENTINEL@\')"\n')
    diags = _attempt(tmp_path, text)
    assert diags[0].code == "E001" and diags[0].span.line == 4


# words the language itself reads in an expression (`sum(x for x in xs)`)
LANGUAGE_WORDS = {"sum", "count", "any", "all", "first", "filter", "max", "min"}


@pytest.mark.parametrize("name", SHADOWS)
def test_names_are_only_names(tmp_path, name):
    """A dangerous name is an ordinary name: the examples (which check the values) pass.
    Mangling is what protects the host, not a list of forbidden names."""
    for template in (SHADOW, SHADOW_DEFINE):
        diags = _attempt(tmp_path, template.replace("@N@", name))
        if name in LANGUAGE_WORDS:
            assert diags and diags[0].code == "E001", diags
        else:
            assert diags == [], [d.message for d in diags]


@pytest.mark.parametrize("ident", ["é", "ｅｘｅｃ", "ｏｐｅｎ", "x\u200b", "ℌ", "ǅ"])
def test_unicode_identifiers_are_refused_with_their_place(tmp_path, ident):
    text = f'game "U"\nplayers 2\nplay:\n    let {ident} = 1\n    end game\n'
    diags = _attempt(tmp_path, text)
    assert len(diags) == 1 and diags[0].severity == "error"
    assert diags[0].span.line == 4


@pytest.mark.parametrize("hole", [
    "__import__('os').system('touch @SENTINEL@')",
    "0.__class__",
    "open('@SENTINEL@')",
    "s.__class__.__mro__",
    "(lambda: 1)()",
    "x if x else y",
])
def test_holes_in_text_are_expressions_of_the_language(tmp_path, hole):
    text = 'game "F"\nplayers 2\nplay:\n    let s = 1\n    say "{' + hole + '}"\n    end game\n'
    diags = _attempt(tmp_path, text)
    assert diags and all(d.severity == "error" for d in diags)
    assert diags[0].span.line == 5


def test_say_is_not_a_format_string(tmp_path):
    text = ('game "F"\nplayers 2\ncounter n = 3\nplay:\n'
            '    say "%s %(n)s \\{0.__class__\\} \\{n\\} {n}"\n    end game\n')
    assert _attempt(tmp_path, text) == []
    game = rulesdsl.load_text(text, "f.rules").new_game(players=2, seed=1, narrate=True)
    assert game.log[0] == "%s %(n)s {0.__class__} {n} 3"


# ---- extends and data files stay in the rule file's folder ------------------------------

def test_extends_outside_the_folder_is_refused_without_quoting(tmp_path):
    secret = tmp_path / "secret.rules"
    secret.write_text("SECRET-LINE-1\nSECRET-LINE-2\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("SECRET-LINE-3\n", encoding="utf-8")
    inner = tmp_path / "games"
    inner.mkdir()
    (inner / "data.rules").write_text("SECRET-LINE-4 not a rule file\n", encoding="utf-8")
    for target, code in [("/etc/passwd", "V007"), ("../secret.rules", "V007"),
                         (secret.as_posix(), "V007"), ("../notes.txt", "V007"),
                         ("data.rules", "E001")]:
        diags = _attempt(inner, f'extends "{target}"\n', "variant.rules")
        assert diags and diags[0].severity == "error", target
        assert diags[0].code == code, (target, diags[0])
        for d in diags:
            assert "SECRET-LINE" not in d.message and "root:" not in d.message, d.message
            # refused where the variant names it; a rule file of the folder is read as one
            assert d.span.file.endswith("variant.rules" if code == "V007" else "data.rules")


def test_include_reaches_a_folder_the_user_names(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.rules").write_text('game "Base"\nplayers 2\nplay:\n    end game\n',
                                       encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    variant = home / "v.rules"
    variant.write_text('extends "../shared/base.rules"\nconst EXTRA = 1\n', encoding="utf-8")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(variant)
    refused = err.value.diagnostics[0]
    assert refused.code == "V007"
    # the hint names the folder a relative path reaches, and nothing the host holds
    assert refused.hint is not None and refused.hint.endswith(f"--include {shared}")
    assert rulesdsl.load(variant, include=[shared]).name == "Base"
    variant.write_text('extends "/etc/passwd.rules"\n', encoding="utf-8")
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(variant)
    assert err.value.diagnostics[0].hint.endswith("--include DIR")


# ---- the sandbox: the second wall ----------------------------------------------------

@pytest.mark.parametrize("source, why", [
    ("import os", "Import"),
    ("def S1(st, fr):\n    return _div.__globals__", "attribute"),
    ("def S1(st, fr):\n    return st.__class__", "attribute"),
    ("def S1(st, fr):\n    return open('x')", "name"),
    ("def S1(st, fr):\n    return __import__('os')", "name"),
    ("def S1(st, fr):\n    return (lambda: 1)()", "Lambda"),
    ("def S1(st, fr):\n    return f'{st}'", "JoinedStr"),
    ("def S1(st, fr):\n    return len(*fr)", "starred"),
    ("def S1(st, fr):\n    return b'x'", "constant"),
    ("def S1(st, fr):\n    return Q9", "not defined"),
    ("def S1(st, fr):\n    try:\n        pass\n    except Exception:\n        pass", "Try"),
    ("@_div\ndef S1(st, fr):\n    pass", "decorators"),
    ("class K:\n    pass", "ClassDef"),
    ("def S1(st, fr):\n    global V\n    V = 1", "Global"),
])
def test_the_sandbox_refuses_what_the_compiler_never_emits(source, why):
    with pytest.raises(UnsafeCode, match=why):
        run_module(ast.parse(source), "<test>", {"_div": lambda a, b: a // b})


@pytest.mark.parametrize("field", ["op", "ctx", "ops"])
def test_a_node_where_an_operator_or_context_belongs_never_runs(field):
    """The sandbox does not walk into the fields of operators and contexts (`Add`, `Load`:
    emit.child_fields); anything else put there is refused by Python's compiler before a
    line runs."""
    tree = ast.parse("def S1(st, fr):\n    return 1 + 2\n")
    hidden = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[ast.Constant("x")],
                      keywords=[])
    if field == "ops":
        tree.body[0].body[0].value = ast.Compare(left=ast.Constant(1), ops=[hidden],
                                                  comparators=[ast.Constant(2)])
    elif field == "op":
        tree.body[0].body[0].value.op = hidden
    else:
        tree.body[0].body[0].value.left = ast.Name(id="fr", ctx=hidden)
    ast.fix_missing_locations(tree)
    with pytest.raises(TypeError, match="expected some sort of"):
        run_module(tree, "<test>", {})


def test_the_sandbox_offers_no_dangerous_builtins():
    for name in ("open", "eval", "exec", "compile", "__import__", "getattr", "globals",
                 "vars", "type", "object", "input", "breakpoint", "setattr", "print"):
        assert name not in SAFE_BUILTINS
    env = run_module(ast.parse("def S1(st, fr):\n    return len(fr)"), "<t>", {})
    assert set(env["__builtins__"]) == set(SAFE_BUILTINS)


def test_tables_handed_to_generated_code_hold_plain_data():
    with pytest.raises(UnsafeCode, match="table"):
        run_module(ast.parse("X = 1"), "<t>", {"T1": [1, object()]})
    # a territory's geometry is a record of plain data, held to it field by field
    from rulesdsl.boards.territory import Geometry
    run_module(ast.parse("X = 1"), "<t>", {"K0": Geometry(1, 1, 1, [[None] * 4], [], [], [])})
    with pytest.raises(UnsafeCode, match="table"):
        run_module(ast.parse("X = 1"), "<t>",
                   {"K0": Geometry(1, 1, 1, [[None] * 4], [[object()]], [], [])})


@pytest.mark.slow
def test_every_shipped_game_compiles_to_generated_names_only():
    names = re.compile(r"^(?:[A-Z]+[0-9]*|[a-z][0-9]*|st|fr|_[a-z][a-z_]*)$")
    root = Path(__file__).resolve().parents[1] / "games"
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        path = folder / f"{folder.name}.rules"
        tree = ast.parse(rulesdsl.load(path).program.code)
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert all(names.match(n) or n in SAFE_BUILTINS for n in used), path


# ---- resource limits: the files of the report, each a diagnostic at its rule ------------

def _hostile(decl: str = "", play: str = "    end game", example: str = "    pass") -> str:
    return f'game "Hostile"\nplayers 2\n{decl}\nplay:\n{play}\nexample "e":\n{example}\n'


_DEFS = "define f0(x) = x + 1\n" + "".join(
    f"define f{i}(x) = f{i - 1}(x) + f{i - 1}(x)\n" for i in range(1, 41))
_CONSTS = "const C0 = 2\n" + "".join(f"const C{i} = C{i - 1} * C{i - 1}\n" for i in range(1, 41))
_IFS = "".join("    " * (i + 1) + "if true:\n" for i in range(99)) + "    " * 100 + "end game"

# name: (file, the code, the line it is at)
REPORTED = {
    "a sum over 10^12 numbers": (_hostile("", "    let s = sum(x for x in 1..1000000000000)\n"
                                          "    end game", "    play"), "R001", 5),
    "squaring 40 times": (_hostile("counter x = 2", "    repeat 40 times:\n"
                                   "        set x = x * x\n    end game", "    play"), "R008", 6),
    "40 definitions calling the previous twice": (
        _hostile(_DEFS, "    let y = f40(1)\n    end game", "    play"), "R001", 46),
    "40 chained constant squarings": (_hostile(_CONSTS), "E034", 9),
    "faces 1..10^9": (_hostile("die d: faces 1..1000000000"), "E034", 3),
    "a kind of 10^9 components": (_hostile("kind K(v):\n    1000000000 x 1"), "E034", 4),
    # putting them in is quick (the state knows where each is); taking each out of the
    # huge zone is a scan of it, counted as work
    "moving 100,000 components one by one": (
        _hostile("kind K(v):\n    100000 x 1\nzone z: K public\nzone y: K public",
                 "    for each k in K:\n        move k to z\n    for each k in K:\n"
                 "        move k to y\n    end game", "    play"),
        "R001", 11),
    "249 chained + in a constant": (_hostile("const X = " + " + ".join(["1"] * 250)), "E004", 3),
    "246 nested [": (_hostile("const X = " + "[" * 246 + "]" * 246), "E004", 3),
    "201 + in a set": (_hostile("counter n = 0", "    set n = " + " + ".join(["1"] * 202)
                                + "\n    end game", "    play"), "E004", 5),
    "99 nested if blocks": (_hostile("", _IFS), "E004", 53),
    "two lists of 60,000 joined": (_hostile("", "    let s = (1..60000) + (1..60000)\n"
                                            "    end game", "    play"), "R008", 5),
    "a comprehension over two lists of 1,000": (
        _hostile("", "    let s = [a for a in 1..1000 for b in 1..1000]\n    end game",
                 "    play"), "R008", 5),
    "a number of 4,301 digits": (_hostile("const X = " + "9" * 4301), "E005", 3),
}


@pytest.mark.parametrize("name", REPORTED)
def test_reported_resource_attacks_end_with_their_diagnostic(tmp_path, name):
    """Each stops with its diagnostic at the rule, with memory capped and a guard against a
    hang (how fast, well under a second each, is measured by benchmarks/fuzz.py)."""
    from . import fuzzing

    text, code, line = REPORTED[name]
    path = tmp_path / "hostile.rules"
    path.write_text(text, encoding="utf-8")
    found: list = []
    rulesdsl.grammar.parse('game "Warm"\n')  # the parser is built once per process
    outcome = fuzzing.guarded("hostile", lambda: found.extend(
        check_file(path, records=None)[0]))
    assert outcome.traceback is None and not outcome.hang, outcome
    assert found and (found[0].code, found[0].span.line) == (code, line), found


def test_a_large_kind_within_the_limits_still_plays():
    kind = "kind K(v):\n    3000 x 1\nzone z: K public\nzone y: K public"
    play = "    for each k in K:\n        move k to z\n    for each k in K:\n" \
           "        move k from z to y\n    end game"
    rules = rulesdsl.load_text(_hostile(kind, play, "    play\n    expect length(y) == 3000"),
                               "big.rules")
    from rulesdsl.interpreter.examples import run_examples

    assert run_examples(rules) == []


# ---- the module's shape does not depend on the rule file's text -------------------------

TEMPLATE = """\
game "@S0@"
players 2

const @N0@ = 3
setting @N1@ = 10 between 1 and 100
enum @N2@: @N3@ "@S1@", @N4@
kind @N5@(name, @N6@):
    "@S2@", 1
    2 x "@S3@", @N0@
zone @N7@ per player: @N5@ owner
counter @N8@ per player = 0
counter @N9@ per @N2@ = 0
define @N10@(@N11@, @N12@) = @N11@ - @N12@

setup:
    for each @N13@ in @N5@:
        move @N13@ to @N7@ of player 1

play:
    turns:
        let @N14@ = @N10@(@N0@, 1) + sum(@N6@ of @N13@ for @N13@ in @N7@ of current)
        say "@S4@ {@N14@} @S5@"
        choose @N15@ in @N2@ by current as "@S6@ {@N15@}"
        add 1 to @N9@ of @N15@
        choose by current:
            option @N16@ "@S7@":
                add @N14@ to @N8@ of current
            option @N17@ "@S8@":
                say "@S9@" to current
        if @N8@ of current >= @N1@:
            win current

example "@S10@":
    expect @N10@(5, 1) == 4
    expect "@S11@" == "@S11@"
"""

N_NAMES, N_STRINGS = 18, 12
PLAIN_NAMES = [f"name{i}" for i in range(N_NAMES)]
PLAIN_STRINGS = [f"text {i}" for i in range(N_STRINGS)]


def _escape(text: str) -> str:
    """A string literal of the rule language holding `text`."""
    out = []
    for ch in text:
        out.append({"\\": "\\\\", '"': '\\"', "{": "\\{", "}": "\\}", "\n": "\\n",
                    "\t": "\\t"}.get(ch, ch))
    return "".join(out)


def _fill(names: list[str], strings: list[str]) -> str:
    text = TEMPLATE
    for i, s in enumerate(strings):
        text = text.replace(f"@S{i}@", _escape(s))
    for i, n in reversed(list(enumerate(names))):
        text = text.replace(f"@N{i}@", n)
    return text


def _shape(rules: rulesdsl.Rules) -> str:
    """The generated module with every text constant blanked."""
    tree = ast.parse(rules.program.code)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


BASELINE = _shape(rulesdsl.load_text(_fill(PLAIN_NAMES, PLAIN_STRINGS), "t.rules"))

# any text but empty (an empty part of a text is left out of the module); line breaks and
# tabs are written as escapes, every other character as itself
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)
NAME = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True),
    st.sampled_from(SHADOWS),
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(names=st.lists(NAME, min_size=N_NAMES, max_size=N_NAMES, unique_by=str.lower),
       strings=st.lists(TEXT, min_size=N_STRINGS, max_size=N_STRINGS))
def test_text_and_names_never_change_the_generated_module(names, strings):
    text = _fill(names, strings)
    try:
        rules = rulesdsl.load_text(text, "t.rules")
    except rulesdsl.RulesError as err:
        # a name the language keeps for itself is refused, with its place; nothing else is
        for d in err.diagnostics:
            assert d.span is not None and d.span.line >= 1
        assume(False)
    assert _shape(rules) == BASELINE


@settings(max_examples=40, deadline=None)
@given(strings=st.lists(TEXT, min_size=N_STRINGS, max_size=N_STRINGS))
def test_any_text_is_accepted_in_a_string(strings):
    """Text is never refused or reinterpreted: the module is the same and the examples pass."""
    rules = rulesdsl.load_text(_fill(PLAIN_NAMES, strings), "t.rules")
    assert _shape(rules) == BASELINE
    assert rules.name == strings[0]


# ---- the parser cache: a pickle, so only in a folder of the user's own -------------------

def test_the_parser_cache_lives_in_a_private_folder(tmp_path, monkeypatch):
    from rulesdsl.files import cachedir
    from rulesdsl.grammar import GRAMMAR, cache_name

    grammar = GRAMMAR.read_text(encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    folder = cachedir.open_private()
    assert folder is not None and folder.path == tmp_path / "rulesdsl"
    folder.close()
    assert (folder.path.stat().st_mode & 0o077) == 0
    assert (folder.path / cachedir.KEY).stat().st_mode & 0o777 == 0o600
    assert cache_name(grammar + "# changed\n") != cache_name(grammar)  # a new grammar
    folder.path.chmod(0o777)  # a folder others may write to: a planted pickle would run
    assert cachedir.open_private() is None
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
    folder.path.chmod(0o700)
    assert cachedir.open_private() is None


@pytest.mark.slow
def test_a_command_parses_from_the_cache_it_wrote(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("RULESDSL_NO_CACHE", None)
    pig = Path(__file__).resolve().parents[1] / "games" / "pig" / "pig.rules"
    kept = []
    for _ in range(2):  # the first run writes the cache, the second reads it
        done = subprocess.run([sys.executable, "-m", "rulesdsl.cli", "ast", str(pig)],
                              capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        (parser,) = (tmp_path / "rulesdsl").glob("parser-*.lark")
        kept.append((parser.stat().st_mtime_ns, parser.read_bytes()))
    assert kept[0] == kept[1]  # read back as it was written, not built and written again
    # beside it, in the same private folder: the file's syntax tree (grammar/treecache.py)
    kept = sorted(f.suffix for f in (tmp_path / "rulesdsl").iterdir())
    assert kept == ["", ".lark", ".pickle"]   # with the folder's key
    # and what `check` found (checkcache.py)
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli", "check", str(pig)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    kept = sorted(f.suffix for f in (tmp_path / "rulesdsl").iterdir())
    assert kept == ["", ".json", ".lark", ".pickle"]


# ---- the cache: a folder swapped for a link, a foreign or tampered file ------------------
# Where the cache folder lies under a folder another local user can write, that user can
# swap it (or a parent) for a link at any moment, and plant pickles that run code when
# loaded. The folder is opened once without following links and read through its handle,
# a file is read only if it is the user's own, and unpickled only if the folder's key signed
# it (rulesdsl/files/cachedir.py).

COUNT = 'game "Count"\nplayers 2\ncounter n = 0\n\nplay:\n    set n = n + 1\n    end game\n'
NOBODY = 65534


class _Planted:
    """A pickle that makes a folder (the sentinel) when it is loaded: what an attacker
    would plant, with a command of their choosing instead."""

    def __init__(self, sentinel: str) -> None:
        self.sentinel = sentinel

    def __reduce__(self):
        import os

        return (os.mkdir, (self.sentinel,))


@pytest.fixture
def kept_trees(tmp_path, monkeypatch):
    """The syntax trees kept, in a cache folder of the test's own; the rule files parsed
    whole are counted (a file with nothing usable kept is parsed whole)."""
    from rulesdsl import grammar
    from rulesdsl.grammar import treecache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home" / "cache"))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    monkeypatch.setattr(treecache, "ENABLED", True)
    made: list[str] = []
    real = grammar.parse
    monkeypatch.setattr(grammar, "parse", lambda text, path: made.append(text) or
                        real(text, path))
    Path("count.rules").write_text(COUNT)
    return made


def _planted(folder: Path, names: list[str], sentinel: Path, signed_with: bytes | None) -> None:
    """An attacker's cache folder: a pickle that makes `sentinel` under each name, signed
    with the attacker's own key if one is given (kept there as the folder's key), else
    plain (as the cache kept its files before they were signed)."""
    import hashlib
    import hmac
    import pickle

    from rulesdsl.files import cachedir

    folder.mkdir(parents=True, exist_ok=True)
    evil = pickle.dumps(_Planted(str(sentinel)))
    if signed_with is not None:
        (folder / cachedir.KEY).write_bytes(signed_with)
        (folder / cachedir.KEY).chmod(0o600)
    for name in names:
        if signed_with is None:
            (folder / name).write_bytes(evil)
            continue
        digest = hmac.new(signed_with, name.encode() + b"\0" + evil, hashlib.sha256).digest()
        (folder / name).write_bytes(cachedir.MAGIC + digest + evil)


# exchanges each pair of names given, again and again, until it is killed (renameat2 with
# RENAME_EXCHANGE, Linux): in a process of its own, so that it runs while the test reads
SWAPPER = """
import ctypes, sys
call = ctypes.CDLL(None, use_errno=True).renameat2
pairs = [(sys.argv[i].encode(), sys.argv[i + 1].encode()) for i in range(1, len(sys.argv), 2)]
print(all(call(-100, a, -100, b, 2) == 0 and call(-100, a, -100, b, 2) == 0
          for a, b in pairs), flush=True)
while True:
    for a, b in pairs:
        call(-100, a, -100, b, 2)
"""


def test_a_cache_folder_swapped_for_a_link_runs_no_planted_pickle(kept_trees, tmp_path):
    """A thread exchanges the cache folder, and its parent, with links to an attacker's
    folder holding a pickle under the name of every kept file, while commands read the
    cache: the sentinel the pickle would make never appears, and every parse is right.
    Run as root, the attacker's files belong to another user (nobody), as they would; run
    as a user, the test cannot make files of another owner, and the attacker's folder is
    the user's own but holds no file the user's key signed (the attacker cannot read the
    key)."""
    import os
    import subprocess
    import sys

    from rulesdsl.grammar import parse_file

    home = tmp_path / "home"
    first, _ = parse_file("count.rules")
    parse_file("count.rules")   # the trees kept
    real = home / "cache" / "rulesdsl"
    names = sorted(f.name for f in real.iterdir() if f.name.startswith("tree-"))
    assert names
    sentinel = tmp_path / "sentinel"
    attacker = tmp_path / "attacker"
    as_root = os.getuid() == 0
    _planted(attacker / "rulesdsl", names, sentinel, None)
    if as_root:
        for path in [attacker, *attacker.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
    (home / "decoy").symlink_to(attacker)               # for the parent, `cache`
    (home / "cache" / "decoy").symlink_to(attacker / "rulesdsl")   # for the folder itself
    swapper = subprocess.Popen(
        [sys.executable, "-c", SWAPPER, home / "cache" / "decoy", home / "cache" / "rulesdsl",
         home / "decoy", home / "cache"], stdout=subprocess.PIPE, text=True)
    try:
        assert swapper.stdout is not None
        if swapper.stdout.readline().strip() != "True":
            pytest.skip("this system cannot exchange two names (renameat2)")
        for _ in range(300):
            assert parse_file("count.rules")[0] == first
            assert not sentinel.exists()
    finally:
        swapper.kill()
        swapper.wait()
    assert not sentinel.exists()


def test_a_tampered_or_planted_cache_file_is_worked_out_again(kept_trees, tmp_path):
    """A kept tree changed by one byte, or replaced by a planted pickle (unsigned, or
    signed with another key), is not loaded: the file is parsed again as one met for the
    first time (noted, then kept), and read from the cache after that."""
    import os
    import pickle

    from rulesdsl.grammar import parse_file

    first, _ = parse_file("count.rules")
    parse_file("count.rules")
    parse_file("count.rules")
    assert len(kept_trees) == 2   # noted, kept, then read back: the cache works
    (entry,) = (tmp_path / "home" / "cache" / "rulesdsl").glob("tree-*")
    sentinel = tmp_path / "sentinel"
    good = entry.read_bytes()
    tampered = good[:-1] + bytes([good[-1] ^ 1])
    planted = pickle.dumps(_Planted(str(sentinel)))
    other = tmp_path / "other"
    _planted(other, [entry.name], sentinel, os.urandom(32))
    for bad in (tampered, planted, (other / entry.name).read_bytes()):
        entry.write_bytes(bad)
        before = len(kept_trees)
        assert parse_file("count.rules")[0] == first
        assert len(kept_trees) == before + 1 and not sentinel.exists()
        assert entry.read_bytes() != bad
        assert parse_file("count.rules")[0] == first   # kept anew
        assert parse_file("count.rules")[0] == first   # read from the cache
        assert len(kept_trees) == before + 2


@pytest.mark.skipif(not hasattr(__import__("os"), "getuid") or __import__("os").getuid() != 0,
                    reason="only root can make a file of another owner")
def test_a_cache_file_of_another_owner_is_not_read(kept_trees, tmp_path):
    """A file in the user's folder that belongs to someone else is not read, even with
    the right signature; nor is a folder of someone else's."""
    import os

    from rulesdsl.files import cachedir
    from rulesdsl.grammar import parse_file

    parse_file("count.rules")
    parse_file("count.rules")
    folder = tmp_path / "home" / "cache" / "rulesdsl"
    (entry,) = folder.glob("tree-*")
    os.chown(entry, NOBODY, NOBODY)
    before = len(kept_trees)
    parse_file("count.rules")
    assert len(kept_trees) == before + 1 and entry.stat().st_uid == 0   # kept anew
    os.chown(folder, NOBODY, NOBODY)
    assert cachedir.open_private() is None


def test_the_cache_key_is_private_and_one(tmp_path, monkeypatch):
    """The folder's key is made once, readable by the user only; a key others could read
    is replaced (what it signed is then worked out again); another command finds the same
    key."""
    from rulesdsl.files import cachedir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    with cachedir.open_private() as folder:
        folder.write("check-x.json", b"{}")
    key = tmp_path / "rulesdsl" / cachedir.KEY
    made = key.read_bytes()
    assert len(made) == cachedir.KEY_BYTES and key.stat().st_mode & 0o777 == 0o600
    with cachedir.open_private() as folder:
        assert folder.read("check-x.json") == b"{}" and key.read_bytes() == made
        assert folder.read("check-y.json") is None
    key.chmod(0o644)
    with cachedir.open_private() as folder:
        assert folder.read("check-x.json") is None
    assert key.read_bytes() != made and key.stat().st_mode & 0o777 == 0o600


def test_a_planted_parser_is_not_loaded(tmp_path, monkeypatch):
    """lark's parser is a pickle too: one planted under its name is not loaded, the parser
    is built and kept anew, and the next command reads it back without building it."""
    import os

    from rulesdsl.grammar import parser as grammar

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    text = grammar.GRAMMAR.read_text(encoding="utf-8")
    name = grammar.cache_name(text)
    sentinel = tmp_path / "sentinel"
    _planted(tmp_path / "cache" / "rulesdsl", [name], sentinel, None)
    built: list[int] = []
    real = grammar._lark

    def counted(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(grammar, "_lark", counted)
    parser = grammar._kept_lark(text)
    assert not sentinel.exists() and built == [1]
    assert parser.parse("1 + 2", start="expr") is not None
    again = grammar._kept_lark(text)
    assert built == [1] and isinstance(again, grammar.PlacingLark)
    assert not os.path.exists(sentinel)


# ---- files named by records and saves: read only where `extends` may reach --------------

HOST_FILES = ["/etc/passwd", "/proc/self/environ", "/dev/zero", "/dev/urandom"]
MARK = "rulesdsl-secret-7f3a"   # in the environment and in the files a record must not show


def _record(tmp_path: Path, file: str) -> Path:
    path = tmp_path / "hostile.record.json"
    path.write_text(json.dumps({"format": "rulesdsl-record/1", "file": file, "rules": "x",
                                "players": 2, "seed": 1, "steps": []}), encoding="utf-8")
    return path


def _command(args: list[str], seconds: float = 10.0) -> tuple[str, object]:
    """A command run in this process, guarded against a hang, a traceback and more than
    256 MB: what it printed (both streams), and the outcome."""
    from rulesdsl.cli import main

    from . import fuzzing

    printed = io.StringIO()

    def case() -> None:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            main(args)

    rulesdsl.grammar.parse('game "Warm"\n')  # the parser is built once per process
    outcome = fuzzing.guarded("command", case, seconds=seconds, memory=256 << 20)
    return printed.getvalue(), outcome


def _host_text(name: str) -> list[str]:
    """Words of a host file that must not be printed (its first line's first field)."""
    if name == "/etc/passwd":
        return [Path(name).read_text().split(":", 1)[0] + ":"]
    if name == "/proc/self/environ":
        return [MARK]
    return []


@pytest.mark.parametrize("name", HOST_FILES)
def test_a_record_naming_a_host_file_prints_nothing_of_it(tmp_path, monkeypatch, capsys,
                                                          name):
    """The audit's records: /etc/passwd was quoted inside an E001, /proc/self/environ showed
    the environment, /dev/zero and /dev/urandom ran to a MemoryError after 18 to 32 s."""
    monkeypatch.setenv("RULESDSL_TEST_SECRET", MARK)
    printed, outcome = _command(["replay", str(_record(tmp_path, name))])
    assert outcome.traceback is None and not outcome.hang, outcome
    assert "error[V007]" in printed and "outside the folder of hostile.record.json" in printed
    for word in _host_text(name):
        assert word not in printed
    capsys.readouterr()


def _links(tmp_path: Path) -> None:
    """Files beside a record that a record must not make the tool read or quote."""
    (tmp_path / "passwd.rules").symlink_to("/etc/passwd")
    (tmp_path / "zero.rules").symlink_to("/dev/zero")
    (tmp_path / "notes.rules").write_text(f"password: {MARK}\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.rules")
    (tmp_path / "huge.rules").write_text("# " + "x" * (300 << 10) + "\n", encoding="utf-8")
    (tmp_path / "inner").mkdir()
    (tmp_path / "outside.rules").write_text(f"{MARK}\n", encoding="utf-8")


@pytest.mark.parametrize("name, code", [
    ("passwd.rules", "V007"),       # a link that leads out of the folder
    ("zero.rules", "V007"),         # a link to a device
    ("notes.rules", "E001"),        # a file beside it that is not rules: not quoted
    ("pipe.rules", "E000"),         # a pipe: opening it would wait for a writer
    ("huge.rules", "E000"),         # past the size of a rule file
    ("../outside.rules", "V007"),   # up out of the record's folder
])
def test_a_record_reads_only_rule_files_in_its_folder(tmp_path, capsys, name, code):
    _links(tmp_path)
    folder = tmp_path / "inner" if name.startswith("..") else tmp_path
    printed, outcome = _command(["replay", str(_record(folder, name))])
    assert outcome.traceback is None and not outcome.hang, outcome
    assert f"error[{code}]" in printed, printed
    assert MARK not in printed and "root:" not in printed
    capsys.readouterr()


def test_a_record_with_its_rule_file_replays_and_names_it_rules_to_read_elsewhere(
        tmp_path, capsys):
    """The record of a game beside its rule file replays; elsewhere, the user names the
    file (--rules) or its folder (--include), and the note written with a record says so."""
    from rulesdsl.interpreter.records import make_record, replay_note

    pig = Path(__file__).resolve().parents[1] / "games" / "pig" / "pig.rules"
    (tmp_path / "pig.rules").write_text(pig.read_text(encoding="utf-8"), encoding="utf-8")
    rules = rulesdsl.load(tmp_path / "pig.rules")
    record = make_record(rules, "pig.rules", 2, 3, [0, 0])
    path = tmp_path / "pig.record.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    printed, outcome = _command(["replay", str(path)])
    assert outcome.traceback is None and "the record ends here, after 2 steps" in printed
    away = tmp_path / "records" / "pig.record.json"  # written where the rules are not
    away.parent.mkdir()
    away.write_text(json.dumps(record.to_json()), encoding="utf-8")
    assert replay_note(away, record) == f"replay it with: rulesdsl replay {away} " \
                                        "--rules pig.rules"
    assert replay_note(path, record) == f"replay it with: rulesdsl replay {path}"
    printed, outcome = _command(["replay", str(away), "--include", str(tmp_path)])
    assert "error[E000]: no such rule file: pig.rules" in printed  # relative to the record
    printed, outcome = _command(["replay", str(away), "--rules", str(tmp_path / "pig.rules")])
    assert outcome.traceback is None and "the record ends here, after 2 steps" in printed
    capsys.readouterr()


@pytest.mark.parametrize("args", [
    ["check", "/dev/zero"], ["check", "{fifo}"], ["replay", "/dev/zero"],
    ["play", "{pig}", "--load", "/dev/zero"], ["play", "{pig}", "--load", "{fifo}"],
])
def test_a_device_or_a_pipe_named_on_the_command_line_is_not_read(tmp_path, capsys, args):
    """A rule file, a record or a save is read only if it is a regular file (under its
    size cap): /dev/zero has no end, and a pipe waits for a writer."""
    os.mkfifo(tmp_path / "fifo")
    pig = Path(__file__).resolve().parents[1] / "games" / "pig" / "pig.rules"
    printed, outcome = _command([a.format(fifo=tmp_path / "fifo", pig=pig) for a in args])
    assert outcome.traceback is None and not outcome.hang, outcome
    assert "not a regular file" in printed, printed
    capsys.readouterr()


def test_a_served_table_record_names_its_rule_file_by_name_only():
    """A finished table's record goes to a browser: it names the served file as the
    lobby does, without the host's folders (and replays beside the rule file)."""
    from rulesdsl.serve.table import Table

    pig = Path(__file__).resolve().parents[1] / "games" / "pig" / "pig.rules"
    table = Table(rulesdsl.load(pig), str(pig), ["random", "random"], seed=1)
    while not table.over:
        table.bot_move()
    assert table.record()["file"] == "pig.rules"
