"""Kinds read from YAML data files: the rows, the enum values their texts name, the paths a
rule file may read, and an error with its place for every file that does not fit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.interpreter.examples import run_examples
from rulesdsl.resolve import data, placed

from .conftest import ROOT

GAME = """game "Cards"
players 2

enum Suit: Hearts, Spades
{kind}

play:
    end game

example "the rows":
    expect {expect}
"""


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def game(folder: Path, kind: str, name: str = "cards.rules", expect: str = "true") -> Path:
    return write(folder, name, GAME.format(kind=kind, expect=expect))


def diagnostics(path: Path) -> list:
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(path)
    return err.value.diagnostics


def test_rows_from_a_file_are_the_rows_written_in_the_rule_file(tmp_path):
    write(tmp_path, "cards.yaml", """cards:
  - {name: Ace, value: 11, suit: hearts, wild: false, note: for people}
  - name: King
    value: 10
    suit: SPADES
    wild: true
""")
    rows = ('[name of c for c in Card] == ["Ace", "Ace", "King", "King"] and '
            '[value of c for c in Card] == [11, 11, 10, 10] and '
            '[suit of c for c in Card] == [Hearts, Hearts, Spades, Spades] and '
            '[wild of c for c in Card] == [false, false, true, true]')
    read = rulesdsl.load(game(tmp_path, 'kind Card(name, value, suit, wild): 2 x from '
                                        '"cards.yaml" cards', expect=rows))
    written = rulesdsl.load(game(tmp_path, """kind Card(name, value, suit, wild):
    2 x "Ace", 11, Hearts, false
    2 x "King", 10, Spades, true""", "written.rules", expect=rows))
    assert run_examples(read) == run_examples(written) == []
    assert read.components("Card") == written.components("Card") == [
        "ace-1", "ace-2", "king-1", "king-2"]
    # the data is part of the rules: its text names the rules a game was played with
    assert any(p.endswith("cards.yaml") for p in read.sources)


def test_a_nested_key_lists_and_text_that_names_no_enum(tmp_path):
    write(tmp_path, "sets/dice.yaml", """box:
  dice:
    - {colour: Red, faces: [1, 2, 3]}
    - {colour: Blue, faces: [4, 5]}
""")
    rules = rulesdsl.load(game(tmp_path, 'kind D(colour, faces): from "sets/dice.yaml" '
                                         'box.dice', expect='[colour of d for d in D] == '
                                         '["Red", "Blue"] and "{colour of D[1]}!" == "Red!"'))
    assert run_examples(rules) == []  # no enum has Red: text


def test_cromlech_reads_its_dice_and_druids_from_components_yaml():
    path = ROOT / "games" / "cromlech" / "cromlech.rules"
    text = path.read_text()
    rules = rulesdsl.load_text(text + """
example "the data of components.yaml":
    expect length(Die) == 16 and length(Druid) == 16
    expect faces of Die[1] == [Rune, RendAttack, Rend, Build, Defend, Heal]
    expect element of Die[5] == Air
    expect faces of Die[5] == [Rune, BuildHeal, Build, Heal, Defend, Rend]
    expect [name of d for d in Druid where faction of d == Solid] == [
        "Brannoc", "Ceridwen", "Gwyndaf", "Morwen"]
    expect left of Druid[1] == Fire and major of Druid[16] == Water
""", str(path))
    assert run_examples(rules) == []
    assert "druids:" in rules.sources[str(ROOT / "games" / "cromlech" / "components.yaml")]
    assert '"Brannoc", Solid' not in text  # the data is written once, in the YAML file


def test_a_variant_elsewhere_reads_the_bases_data_beside_the_base(tmp_path):
    write(tmp_path, "base/cards.yaml", "cards:\n  - {name: Ace}\n")
    game(tmp_path / "base", 'kind Card(name): from "cards.yaml" cards')
    variant = write(tmp_path, "house/v.rules", 'extends "../base/cards.rules"\n'
                    'replace game "Cards: house"\n')
    rules = rulesdsl.load(variant, include=[tmp_path / "base"])
    assert rules.components("Card") == ["ace"]


def test_ambiguous_enum_texts_and_texts_of_two_types(tmp_path):
    write(tmp_path, "cards.yaml", "cards:\n  - {suit: hearts}\n  - {suit: 3}\n")
    diags = diagnostics(game(tmp_path, 'kind Card(suit): from "cards.yaml" cards'))
    assert [d.code for d in diags] == ["E030"]
    assert diags[0].span.file.endswith("cards.yaml") and diags[0].span.line == 3


@pytest.mark.parametrize("name, text, code, words", [
    ("../cards.yaml", None, "V007", "outside the folder"),
    ("/etc/hosts.yaml", None, "V007", "outside the folder"),
    ("cards.txt", "cards: []\n", "V007", "not a .yaml or .yml file"),
    ("nothere.yaml", None, "E007", "does not exist"),
    ("x" * 300 + ".yaml", None, "E007", "cannot read the data file"),
    ("a\x00b.yaml", None, "E007", "cannot read the data file a\\x00b.yaml"),
    ("latin.yaml", "cards:\n  - {name: caf\xe9}\n".encode("latin-1"), "E007", "not UTF-8"),
    ("bad.yaml", "cards:\n  - {name: Ace\n  - {name: King}\n", "E008", "not valid YAML"),
    ("twice.yaml", "cards: []\ncards: []\n", "E008", "not valid YAML"),
    ("nokey.yaml", "decks: []\n", "E009", "has no key 'cards'"),
    ("empty.yaml", "cards: []\n", "E009", "not a list of rows"),
    ("scalar.yaml", "cards:\n  - Ace\n", "E009", "not a mapping"),
    ("nofield.yaml", "cards:\n  - {title: Ace}\n", "E009", "has no 'name'"),
    ("fraction.yaml", "cards:\n  - {name: 1.5}\n", "E009", "not a fraction"),
    ("mapping.yaml", "cards:\n  - {name: {a: 1}}\n", "E009", "not a mapping"),
    ("huge.yaml", "cards:\n  - {name: [1, -1234567890123456789]}\n", "E005",
     "a number of 19 digits"),
    ("tagged.yaml", "cards:\n  - {name: !!python/object:os.system x}\n", "E009",
     "YAML type"),
])
def test_a_data_file_that_does_not_fit(tmp_path, name, text, code, words):
    if text is not None:
        write(tmp_path, name, text)
    diags = diagnostics(game(tmp_path, f'kind Card(name): from "{name}" cards'))
    assert [d.code for d in diags] == [code], diags
    assert words in diags[0].message


def test_a_yaml_error_has_its_line_and_column_and_quotes_nothing(tmp_path):
    write(tmp_path, "bad.yaml", "cards:\n  - {name: Ace\n  - {name: King}\n")
    path = game(tmp_path, 'kind Card(name): from "bad.yaml" cards')
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(path)
    d = err.value.diagnostics[0]
    assert (d.span.line, d.span.column) == (3, 5) and d.span.file.endswith("bad.yaml")
    assert "name: King" not in err.value.render()  # the line of a broken file is not shown


def test_a_link_out_of_the_folder_is_refused_without_quoting_its_target(tmp_path):
    secret = write(tmp_path, "outside/secret.yaml", "cards:\n  - {name: the secret}\n")
    (tmp_path / "game").mkdir()
    os.symlink(secret, tmp_path / "game" / "cards.yaml")
    path = game(tmp_path / "game", 'kind Card(name): from "cards.yaml" cards')
    with pytest.raises(rulesdsl.RulesError) as err:
        rulesdsl.load(path)
    assert [d.code for d in err.value.diagnostics] == ["V007"]
    assert "secret" not in err.value.render()


def test_a_data_file_in_an_included_folder(tmp_path):
    """Data beside the rule file's folder is read when that folder is included, as a base
    of `extends` is."""
    write(tmp_path, "shared/cards.yaml", "cards:\n  - {name: Ace}\n")
    path = game(tmp_path / "game", 'kind Card(name): from "../shared/cards.yaml" cards')
    assert [d.code for d in diagnostics(path)] == ["V007"]
    rules = rulesdsl.load(path, include=[tmp_path / "shared"])
    assert rules.components("Card") == ["ace"]


def test_a_large_file_and_a_file_of_aliases_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(data, "MAX_BYTES", 64)
    write(tmp_path, "big.yaml", "cards:\n" + "  - {name: Ace}\n" * 10)
    assert "larger than" in diagnostics(game(tmp_path, 'kind Card(name): from "big.yaml" '
                                                       'cards'))[0].message
    monkeypatch.setattr(data, "MAX_BYTES", 1 << 20)
    monkeypatch.setattr(data, "MAX_VALUES", 1000)
    laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, 6):
        laughs.append(f"{'abcdef'[n]}: &{'abcdef'[n]} [" + ", ".join(
            [f"*{'abcdef'[n - 1]}"] * 10) + "]")
    laughs.append("cards:\n  - {name: *f}")
    write(tmp_path, "laughs.yaml", "\n".join(laughs) + "\n")
    diags = diagnostics(game(tmp_path, 'kind Card(name): from "laughs.yaml" cards'))
    assert [d.code for d in diags] == ["E009"] and "more than 1,000" in diags[0].message


def test_rows_from_two_files_in_order_and_errors_in_the_second_file_point_there(tmp_path):
    write(tmp_path, "base.yaml", "cards:\n  - {name: Ace, suit: hearts}\n")
    write(tmp_path, "more/extra.yaml", "extra:\n  - {name: Joker, suit: spades, wild: true}\n")
    rules = rulesdsl.load(game(
        tmp_path, 'kind Card(name, suit, wild = false): from "base.yaml" cards and '
                  '"more/extra.yaml" extra',
        expect='[name of c for c in Card] == ["Ace", "Joker"] and suit of Card[2] == Spades '
               'and wild of Card[2] and not wild of Card[1]'))
    assert run_examples(rules) == []
    write(tmp_path, "bad.yaml", "extra:\n  - {suit: spades}\n")
    diags = diagnostics(game(tmp_path, 'kind Card(name, suit): from "base.yaml" cards and '
                                       '"bad.yaml" extra', name="bad.rules"))
    assert [d.code for d in diags] == ["E009"] and "has no 'name'" in diags[0].message
    assert diags[0].span.file.endswith("bad.yaml") and diags[0].span.line == 2
    diags = diagnostics(game(tmp_path, 'kind Card(name): from "base.yaml" cards and '
                                       '"../outside.yaml" extra', name="out.rules"))
    assert [d.code for d in diags] == ["V007"]


def test_texts_that_name_values_of_two_enums_are_reported_with_every_file_read(tmp_path):
    write(tmp_path, "a.yaml", "cards:\n  - {colour: red}\n")
    write(tmp_path, "b.yaml", "more:\n  - {colour: RED}\n")
    path = write(tmp_path, "two.rules", GAME.replace("enum Suit: Hearts, Spades", (
        "enum Suit: Hearts, Spades\nenum Dye: Red, Blue\nenum Flag: Red, White")).format(
        kind='kind Card(colour): from "a.yaml" cards and "b.yaml" more', expect="true"))
    diags = diagnostics(path)
    assert [d.code for d in diags] == ["E009"]
    assert "a.yaml and " in diags[0].message and "b.yaml name values of several enums: Dye, " \
        "Flag" in diags[0].message
    assert diags[0].span.file.endswith("a.yaml")


def test_the_reader_makes_values_from_nodes_with_their_places():
    """placed.read: the standard scalar types made by the reader's safe constructor, a
    merge's keys with the places they are written at (this mapping's own keys win), an
    alias made once, other tags left unconstructed, a key written twice refused at its
    place; with ruamel.yaml's C parser."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    assert YAML(typ="safe").Parser.__name__ == "CParser"  # ruamel.yaml.clib, a dependency
    value = placed.read("base: &b {x: 1, y: two}\n"
                        "row: {<<: *b, y: 3, z: [yes, true, 1.5, !!str 5, 0x1F]}\n"
                        "same: *b\n"
                        "odd: !python/object:os.system x\n")
    row = value["row"]
    assert dict(row) == {"x": 1, "y": 3, "z": ["yes", True, 1.5, "5", 31]}  # YAML 1.2
    assert row.places["x"] == (0, 13, 1) and row.places["y"] == (1, 17, 1)
    assert row.at == (1, 5) and row["z"].places[4] == (1, 49, 2)
    assert value["same"] is value["base"]
    assert value["odd"] == placed.Other("!python/object:os.system", "x")
    with pytest.raises(MarkedYAMLError) as err:
        placed.read("cards: []\ndecks: []\ncards: [1]\n")
    assert err.value.problem_mark.line == 2 and "duplicate key 'cards'" in err.value.problem
    assert list(row) == ["y", "z", "x"]  # the mapping's own keys, then the merged ones
    # a key and a number written alike are two keys; a merged key is not written twice
    assert dict(placed.read("{1: a, '1': b, <<: {1: c, 2: d}}")) == {1: "a", "1": "b", 2: "d"}
    with pytest.raises(MarkedYAMLError, match="a merge"):
        placed.read("row: {<<: [1, 2]}\n")


def test_a_chain_of_merges_is_read_once_each():
    """Each mapping of a chain, every one merging the one before twice, is made once and
    its keys copied: read in a moment, where merging by copying each merged mapping's
    entries again would double the work at each of the 40 links (2^40 entries)."""
    lines = ["m0: &m0 {a: 1, b: 2}"] + [f"m{k}: &m{k} {{<<: [*m{k - 1}, *m{k - 1}], "
                                         f"k{k}: {k}}}" for k in range(1, 40)]
    value = placed.read("\n".join(lines) + "\n")
    assert len(value["m39"]) == 41 and value["m39"]["a"] == 1 and value["m39"]["k1"] == 1


# ---- data files kept between runs (rulesdsl/resolve/placed.py) -----------------------------------

@pytest.fixture
def kept(tmp_path, monkeypatch):
    """Data files kept in a cache folder of the test's own; the folder of entries."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    monkeypatch.setattr(placed, "ENABLED", True)
    monkeypatch.setattr(data, "_parsed", {})   # nothing remembered inside the process
    return tmp_path / "cache" / "rulesdsl"


def fresh_process(monkeypatch) -> list[str]:
    """As a new command: the process's own memory of data files emptied. Returns the list
    of texts the YAML reader is asked to read from now on."""
    monkeypatch.setattr(data, "_parsed", {})
    asked: list[str] = []
    real = data._yaml

    def counted(text, *args):
        asked.append(text)
        return real(text, *args)

    monkeypatch.setattr(data, "_yaml", counted)
    return asked


def resolved_text(path: Path, **kwargs) -> str:
    """Everything a rule file resolves to, places and all, as text."""
    from rulesdsl.resolve.variants import resolve

    return repr(resolve(path, **kwargs).file)


def test_a_data_file_read_before_is_not_read_by_the_yaml_reader_again(kept, monkeypatch):
    """Cromlech's components: the rows, and the place in the YAML file of every value, the
    same from the kept entry as from the YAML reader, and the same as with nothing kept."""
    path = ROOT / "games" / "cromlech" / "cromlech.rules"
    monkeypatch.setattr(placed, "ENABLED", False)
    unkept = resolved_text(path)
    monkeypatch.setattr(placed, "ENABLED", True)
    asked = fresh_process(monkeypatch)
    first = resolved_text(path)
    assert len(asked) == 1 and len(list(kept.glob("data-*"))) == 1
    asked = fresh_process(monkeypatch)
    assert resolved_text(path) == first == unkept and asked == []


def test_a_changed_data_file_is_read_afresh(kept, tmp_path, monkeypatch):
    yaml = write(tmp_path, "cards.yaml", "cards:\n  - {name: Ace}\n")
    path = game(tmp_path, 'kind Card(name): from "cards.yaml" cards')
    assert rulesdsl.load(path).components("Card") == ["ace"]
    yaml.write_text("cards:\n  - {name: King}\n  - {name: Queen}\n")
    asked = fresh_process(monkeypatch)
    assert rulesdsl.load(path).components("Card") == ["king", "queen"] and len(asked) == 1
    asked = fresh_process(monkeypatch)
    assert rulesdsl.load(path).components("Card") == ["king", "queen"] and asked == []


@pytest.mark.parametrize("entry", [
    b"", b"not json", b"[]", b'["x", 1]', b"[1, 2, 3]",
    b'["HEAD", {"m": 5, "at": null}]', b'["HEAD", {"m": [[1, 2]], "at": null}]',
    b'["HEAD", {"m": [[{"m": [], "at": null}, 1, null]], "at": null}]',
    b'["HEAD", {"l": [[1, [1, "2", 3]]], "at": null}]', b'["HEAD", {"o": [1, 2]}]',
    b'["HEAD", {"q": 1}]', b'["HEAD", [1]]', b'["HEAD", {"l": [], "at": [1, 2, 3]}]',
    b'["HEAD", ' + b"[" * 100_000 + b"]" * 100_000 + b"]",
])
def test_a_damaged_entry_is_read_afresh(kept, tmp_path, monkeypatch, entry):
    """Whatever an entry holds, a value of the wrong form, half an entry, nesting deeper
    than the reader can follow (each signed with the folder's key, as this engine would
    write it: an entry it did not sign is not even read): the YAML file is read again and
    the entry written anew."""
    from rulesdsl.files import cachedir

    write(tmp_path, "cards.yaml", "cards:\n  - {name: Ace}\n")
    path = game(tmp_path, 'kind Card(name): from "cards.yaml" cards')
    rulesdsl.load(path)
    (written,) = kept.glob("data-*")
    with cachedir.open_private() as folder:
        head = json.loads(folder.read(written.name) or b"")[0]
        folder.write(written.name, entry.replace(b"HEAD", head.encode()))
    asked = fresh_process(monkeypatch)
    assert rulesdsl.load(path).components("Card") == ["ace"] and len(asked) == 1
    asked = fresh_process(monkeypatch)
    assert rulesdsl.load(path).components("Card") == ["ace"] and asked == []


@pytest.mark.parametrize("text", [
    "cards:\n  - {name: 1.5}\n",
    "cards:\n  - {name: {a: 1}}\n",
    "cards:\n  - {name: [1, -1234567890123456789]}\n",
    "cards:\n  - {name: 2020-01-01}\n",
    "cards:\n  - {name: !!set {a, b}}\n",
    "cards:\n  - ? [a, b]\n    : 1\n",
    "cards:\n  - Ace\n",
    "decks: []\n",
    "base: &b {name: 0x1F, wild: yes}\nother: {name: x}\ncards:\n  - <<: *b\n    x: 1\n"
    "  - {name: 'quoted', wild: !!bool true}\n  - name: >-\n      folded\n      text\n",
])
def test_the_same_rows_and_errors_from_a_kept_entry(kept, tmp_path, monkeypatch, text):
    """Every value and place the checks read from a data file is the same whether the
    YAML reader read it just now or the entry kept from an earlier run holds it."""
    write(tmp_path, "cards.yaml", text)
    path = game(tmp_path, 'kind Card(name, wild = false): from "cards.yaml" cards')

    def outcome() -> str:
        try:
            return resolved_text(path)
        except rulesdsl.RulesError as err:
            return repr(err.diagnostics)

    monkeypatch.setattr(placed, "ENABLED", False)
    unkept = outcome()
    monkeypatch.setattr(placed, "ENABLED", True)
    asked = fresh_process(monkeypatch)
    assert outcome() == unkept and len(asked) == 1
    asked = fresh_process(monkeypatch)
    assert outcome() == unkept and asked == []


def test_a_file_of_many_values_through_aliases_is_not_kept(kept, tmp_path, monkeypatch):
    """Aliases repeat what they name: written out, the entry would be far larger than the
    file. Past MAX_KEPT values it is not written, and the file is read each time."""
    monkeypatch.setattr(placed, "MAX_KEPT", 1000)
    laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]",
              "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
              "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
              "cards:\n  - {name: Ace, more: *c}"]
    write(tmp_path, "laughs.yaml", "\n".join(laughs) + "\n")
    path = game(tmp_path, 'kind Card(name): from "laughs.yaml" cards')
    assert rulesdsl.load(path).components("Card") == ["ace"]
    asked = fresh_process(monkeypatch)
    assert rulesdsl.load(path).components("Card") == ["ace"] and len(asked) == 1
    assert not list(kept.glob("data-*"))
    monkeypatch.setattr(placed, "MAX_KEPT", 10_000)
    fresh_process(monkeypatch)
    rulesdsl.load(path)
    assert len(list(kept.glob("data-*"))) == 1
