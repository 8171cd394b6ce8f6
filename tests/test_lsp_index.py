"""The language server's index of names: scopes as the checker has them, declarations and
uses with their exact places, and the rules of rename. In process, without a server."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.check import analyze
from rulesdsl.grammar import parse
from rulesdsl.lsp.navigation import RenameError, references, rename
from rulesdsl.lsp.symbols import Index, Occurrence

SOURCE = """\
game "Scopes"
players 2

enum Colour: Red, Blue
counter score per player = 0
board grid: square 3 x 3

define double(n) = n * 2

rule bonus(p):
    let score = 5
    add score to score of p
    for each c in grid where c is empty:
        pass
    choose c in grid where c is empty by p
    place p at c
    expect count(c in grid where c is empty) >= 0

play:
    turns:
        bonus(current)
        choose by current:
            option red "red":
                pass
            option stop:
                end game

example "picking":
    play "red", "Red"
    expect score of player 1 == double(5)
"""


@pytest.fixture(scope="module")
def index() -> Index:
    file = parse(SOURCE, "scopes.rules")
    return Index(file, analyze(file))


def at(index: Index, needle: str, nth: int = 0, offset: int = 0) -> Occurrence:
    pos = -1
    for _ in range(nth + 1):
        pos = SOURCE.index(needle, pos + 1)
    pos += offset
    line = SOURCE.count("\n", 0, pos) + 1
    column = pos - (SOURCE.rfind("\n", 0, pos) + 1) + 1
    occ = index.at("scopes.rules", line, column)
    assert occ is not None, f"no name at {needle!r}"
    return occ


def places(occs: list[Occurrence]) -> list[tuple[int, int]]:
    return [(o.span.line, o.span.column) for o in occs]


def test_a_local_hides_a_counter_of_the_same_name(index: Index):
    local = at(index, "add score", 0, 4)
    assert local.symbol.kind == "local" and local.symbol.how == "let"
    counter = at(index, "score of p")
    assert counter.symbol.kind == "counter"
    assert places(references(index, local)) == [(11, 9), (12, 9)]
    assert (12, 18) in places(references(index, counter))


def test_each_binding_has_its_own_scope(index: Index):
    loop = at(index, "for each c", 0, 9)
    choice = at(index, "choose c", 0, 7)
    counted = at(index, "count(c", 0, 6)
    assert len({id(loop.symbol), id(choice.symbol), id(counted.symbol)}) == 3
    assert at(index, "place p at c", 0, 11).symbol is choice.symbol  # bound to the block's end
    assert at(index, "where c is empty", 2, 6).symbol is counted.symbol
    assert at(index, "bonus(p)", 0, 6).symbol.kind == "parameter"
    assert at(index, "n * 2").symbol.owner == "double"


def test_play_strings_name_options_and_enum_values(index: Index):
    option = at(index, '"red"', 1, 1)  # in the example
    assert option.symbol.kind == "option" and option.symbol.span is not None
    assert option.symbol.span.line == 23
    assert at(index, '"Red"', 0, 1).symbol.kind == "enum value"


def test_locals_in_scope_for_completion(index: Index):
    names = {s.name for s in index.locals_at("scopes.rules", 16, 5)}
    assert names == {"p", "score", "c"}
    assert {s.name for s in index.locals_at("scopes.rules", 19, 5)} == set()


def test_rename_changes_every_place_in_the_file(index: Index):
    edits = rename(index, at(index, "Red,"), "Crimson", "scopes.rules", {})
    spans = sorted((e.span.line, e.span.column, e.span.end_column) for e in edits)
    assert spans == [(4, 14, 17), (29, 18, 21)]  # the declaration; the id, inside its quotes
    with pytest.raises(RenameError, match="already declared"):
        rename(index, at(index, "Red,"), "Blue", "scopes.rules", {})
    with pytest.raises(RenameError, match="not a name"):
        rename(index, at(index, "Red,"), "while", "scopes.rules", {})
    with pytest.raises(RenameError, match="built in"):
        rename(index, at(index, "current)"), "who", "scopes.rules", {})
    with pytest.raises(RenameError, match="extends this file"):
        rename(index, at(index, "Red,"), "Crimson", "scopes.rules",
               {"house.rules": 'extends "scopes.rules"\nconst FAVOURITE = Red\n'})


@pytest.mark.slow  # every name of every shipped game: seconds
def test_every_name_of_every_game_has_a_hover(load_rules):
    from rulesdsl.lsp.hover import hover

    from .conftest import GAME_FILES

    for path in GAME_FILES:
        rules = load_rules(path)  # shared with the other tests of the session
        index = Index(rules.analysis.file, rules.analysis)
        shown: set[int] = set()
        for occ in index.occurrences:
            if id(occ.symbol) not in shown:
                shown.add(id(occ.symbol))
                assert hover(index, rules.sources, occ).strip(), (path, occ.symbol.name)
        assert all(o.span.end_column > o.span.column for o in index.occurrences)


def test_the_index_knows_the_names_of_the_new_statements():
    import rulesdsl

    from .test_flow import BIDS

    rules = rulesdsl.load_text(BIDS, "bids.rules")
    index = Index(rules.analysis.file, rules.analysis)
    used = {(o.span.line, o.symbol.name, o.symbol.how) for o in index.occurrences
            if o.symbol.kind == "local"}
    line = BIDS.splitlines().index("    then reveal:") + 1
    assert (line + 1, "n", "choose") in used and (line + 2, "c", "choose") in used
    assert (line + 3, "p", "each ... chooses in secret") in used


def test_the_outline_names_every_kind_of_declaration():
    """Each declaration a rule file may hold has its line in the outline (teams, a limit
    and a statistic among them: the outline of a file with one failed)."""
    from typing import get_args

    from lsprotocol.types import PositionEncodingKind
    from pygls.workspace import PositionCodec

    from rulesdsl import ast as A
    from rulesdsl.grammar import parse
    from rulesdsl.lsp.outline import KINDS, outline
    from rulesdsl.lsp.positions import Places

    assert set(get_args(A.Decl)) <= set(KINDS)
    text = ('game "Teams"\nplayers 4\nteams of 2\nlimit 300 decisions\nstat battles\n'
            'play:\n    end game\n')
    places = Places({"t.rules": text}, PositionCodec(PositionEncodingKind.Utf16))
    names = [s.name for s in outline(parse(text, "t.rules"), places)]
    assert names == ['game "Teams"', "players 4", "teams of 2", "limit 300 decisions",
                     "stat battles", "play"]
    variant = 'extends game "pig"\n\nremove setting GOAL\n'
    places = Places({"v.rules": variant}, PositionCodec(PositionEncodingKind.Utf16))
    names = [s.name for s in outline(parse(variant, "v.rules"), places)]
    assert names == ['extends game "pig"', "remove setting GOAL"]


# ---- what the server keeps: answers to bad requests, memory per document ----------------

def test_a_request_the_server_cannot_read_is_answered_with_an_error(monkeypatch):
    from pygls.exceptions import JsonRpcInvalidParams

    from rulesdsl.lsp.server import REFUSED, RulesServer

    server = RulesServer()
    sent: list = []
    monkeypatch.setattr(server.protocol, "_send_data", sent.append)
    request = {"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover",
               "params": {"textDocument": {"uri": "file:///x.rules"},
                          "position": {"line": -1, "character": 2 ** 31}}}
    message = server.protocol.structure_message(request)
    assert message.method == REFUSED   # read on as a notification nobody handles
    (answer,) = sent
    assert answer.id == 7 and answer.error.code == -32602
    notification = {k: v for k, v in request.items() if k != "id"}
    with pytest.raises(JsonRpcInvalidParams):   # nobody waits for an answer to it
        server.protocol.structure_message(notification)
    assert len(sent) == 1


def test_closing_documents_lets_their_parsers_go(tmp_path):
    """A session that opens and closes document after document keeps no parser of a file
    that no open document reads."""
    from rulesdsl.lsp.workspace import Workspace

    files = Workspace()
    base = tmp_path / "base.rules"
    base.write_text('game "B"\nplayers 2\nplay:\n    end game\n', encoding="utf-8")
    variant = tmp_path / "v.rules"
    files.open(str(variant), 'extends "base.rules"\n')
    files.check(str(variant))
    for n in range(50):
        other = str(tmp_path / f"d{n}.rules")
        files.open(other, f'game "D{n}"\nplayers 2\nplay:\n    end game\n')
        files.check(other)
        files.close(other)
    assert sorted(Path(p).name for p in files.parsed()) == ["base.rules", "v.rules"]
    files.close(str(variant))
    assert files.parsed() == []


def test_edits_without_a_pause_do_not_keep_every_frozen_cycle(monkeypatch):
    """What is alive after each check is frozen, and collected when the editor is quiet;
    a session that never pauses collects once the frozen objects have doubled."""
    import gc

    from rulesdsl.lsp import server as S

    class Quiet(S.RulesServer):
        def text_document_publish_diagnostics(self, params) -> None:
            """No editor to send them to."""

    monkeypatch.setattr(S, "FROZEN_SLACK", 1000)
    server = Quiet()
    collected: list[int] = []
    monkeypatch.setattr(S, "_collect", lambda: collected.append(gc.get_freeze_count()))
    try:
        for _ in range(5):
            cycles = [[] for _ in range(1000)]
            for c in cycles:
                c.append(c)  # garbage a collection would free, frozen if none runs
            del cycles
            server.settle()
    finally:
        gc.unfreeze()
    assert collected


def test_an_editor_text_past_the_size_of_a_rule_file_is_not_parsed(tmp_path):
    from rulesdsl.lsp.workspace import Workspace

    files = Workspace()
    path = str(tmp_path / "big.rules")
    files.open(path, 'game "Big"\nplayers 2\n' + "# " + "x" * (300 << 10) + "\n")
    assert [d.code for d in files.check(path).diagnostics] == ["E006"]
