"""The language server, driven by pytest-lsp against the real `rulesdsl lsp` process.

One server serves the whole module. Documents are opened with their text from games/
(or with an edited copy of it, never written to the disk), the way an editor sends them.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls import uris
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from rulesdsl.lsp.semantic import TOKEN_TYPES
from rulesdsl.validate.checking import check_file

from .conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="module")

PIG = ROOT / "games" / "pig" / "pig.rules"
PIG_50 = ROOT / "games" / "pig" / "pig-to-50.rules"
CROMLECH = ROOT / "games" / "cromlech" / "cromlech.rules"
SEVERAL = ROOT / "tests" / "programs" / "several_type_errors.rules"
WAIT = 20  # seconds: only a broken server takes this long


PUBLISHED: Counter[str] = Counter()  # how many times each document's diagnostics came


def count_publications(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    PUBLISHED[params.uri] += 1


def make_client() -> LanguageClient:
    """pytest-lsp's client, counting the publications of diagnostics."""
    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES,
                                   types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: count_publications})
    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "rulesdsl.cli", "lsp"], client_factory=make_client))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        root_uri=uri(ROOT)))
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return uris.from_fs_path(str(path)) or str(path)


async def published(client: LanguageClient, path: Path, act: Callable[[], None],
                    ) -> list[types.Diagnostic]:
    """The diagnostics published for a document after doing something."""
    before = PUBLISHED[uri(path)]
    act()
    waited = 0.0
    while PUBLISHED[uri(path)] == before:
        assert waited < WAIT, f"no diagnostics for {path.name} in {WAIT} s"
        await asyncio.sleep(0.01)
        waited += 0.01
    return list(client.diagnostics[uri(path)])


async def open_doc(client: LanguageClient, path: Path,
                   text: str | None = None) -> list[types.Diagnostic]:
    return await published(client, path, lambda: client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri(path), language_id="rules", version=1,
            text=path.read_text() if text is None else text))))


def changing(client: LanguageClient, path: Path, text: str, version: int) -> Callable[[], None]:
    return lambda: client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def change(client: LanguageClient, path: Path, text: str,
                 version: int) -> list[types.Diagnostic]:
    return await published(client, path, changing(client, path, text, version))


async def close(client: LanguageClient, path: Path) -> None:
    cleared = await published(client, path, lambda: client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(
            uri=uri(path)))))
    assert cleared == []


def where(text: str, needle: str, nth: int = 0, offset: int = 0) -> types.Position:
    """The position of the nth occurrence of a piece of text (plus an offset)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return position(text, at + offset)


def position(text: str, at: int) -> types.Position:
    line = text.count("\n", 0, at)
    return types.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


def doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


# ---- diagnostics ---------------------------------------------------------------------

async def test_a_file_with_several_errors_shows_what_check_shows(client: LanguageClient):
    shown = await open_doc(client, SEVERAL)
    expected, _ = check_file(SEVERAL, run_examples=False)
    assert len(expected) >= 3
    assert [(d.code, d.message.split("\n")[0]) for d in shown] == \
        [(d.code, d.message) for d in expected]
    for d, e in zip(shown, expected):
        assert e.span is not None
        assert (d.range.start.line + 1, d.range.start.character + 1) == (e.span.line,
                                                                          e.span.column)
        assert (d.range.end.line + 1, d.range.end.character + 1) == (e.span.end_line,
                                                                      e.span.end_column)
        assert d.severity == types.DiagnosticSeverity.Error and d.source == "rulesdsl"
    await close(client, SEVERAL)


async def test_diagnostics_follow_the_edits(client: LanguageClient):
    text = PIG.read_text()
    assert await open_doc(client, PIG) == []
    shown = await change(client, PIG, text.replace("add r to turn_total", "add r to turn_totl"), 2)
    assert [d.code for d in shown] == ["E020"]
    assert "did you mean 'turn_total'?" in shown[0].message
    assert shown[0].range.start == where(text, "add r to turn_total", 0, len("add r to "))
    fixes = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(PIG), range=shown[0].range,
        context=types.CodeActionContext(diagnostics=shown)))
    assert fixes is not None and isinstance(fixes[0], types.CodeAction)
    assert fixes[0].title == "Change to 'turn_total'"
    assert fixes[0].edit is not None and fixes[0].edit.changes is not None
    assert [e.new_text for e in fixes[0].edit.changes[uri(PIG)]] == ["turn_total"]
    shown = await change(client, PIG, text.replace("players 2", "players 2 to"), 3)
    assert [d.code for d in shown] == ["E001"]
    assert await change(client, PIG, text, 4) == []
    await close(client, PIG)


async def test_examples_run_on_save(client: LanguageClient):
    text = PIG.read_text().replace("of player 1 == 9", "of player 1 == 10")
    assert await open_doc(client, PIG, text) == []  # examples do not run as you type
    shown = await published(client, PIG, lambda: client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=doc(PIG))))
    assert [d.code for d in shown] == ["E061"]
    assert shown[0].range.start.line == text[:text.index("expect score of player 1 == 10")] \
        .count("\n")
    # an edit elsewhere keeps the failure where it now is
    moved = "# a comment\n" + text
    shown = await change(client, PIG, moved, 2)
    assert [d.code for d in shown] == ["E061"]
    assert shown[0].range.start.line == moved[:moved.index("== 10")].count("\n")
    await close(client, PIG)


async def test_an_error_in_the_base_shows_where_the_variant_causes_it(client: LanguageClient):
    variant = PIG.with_name("no-goal.rules")  # never written: the editor's text only
    text = 'extends "pig.rules"\n\nremove setting GOAL\n'
    shown = await open_doc(client, variant, text)
    assert [d.code for d in shown] == ["E020"]
    assert shown[0].range.start == where(text, "GOAL")
    assert shown[0].message.startswith("pig.rules:")
    assert shown[0].related_information is not None
    related = shown[0].related_information[0].location
    assert related.uri == uri(PIG)
    assert related.range.start == where(PIG.read_text(), "GOAL", 1)
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(variant), position=where(text, "GOAL")))
    assert isinstance(found, list) and [(f.uri, f.range.start) for f in found] == [
        (uri(PIG), where(PIG.read_text(), "GOAL"))]  # what it removes
    await close(client, variant)


async def test_a_broken_base_shows_on_the_extends_line(client: LanguageClient):
    variant = PIG.with_name("broken-base.rules")
    assert await open_doc(client, PIG) == []
    assert await open_doc(client, variant, 'extends "pig.rules"\n') == []
    broken = PIG.read_text().replace("counter turn_total = 0", "counter turn_total =")
    # the variant is checked again with its base
    shown = await published(client, variant, changing(client, PIG, broken, 2))
    assert [d.code for d in shown] == ["E001"]
    assert shown[0].range.start.line == 0
    await close(client, variant)
    await close(client, PIG)


# ---- hover -----------------------------------------------------------------------------

async def hover(client: LanguageClient, path: Path, pos: types.Position) -> str:
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=doc(path), position=pos))
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def test_hover_shows_declarations_types_and_distributions(client: LanguageClient):
    text = PIG.read_text()
    await open_doc(client, PIG)
    goal = await hover(client, PIG, where(text, "GOAL", 1))
    assert "setting GOAL = 100 between 10 and 1000" in goal and "number" in goal
    die = await hover(client, PIG, where(text, "roll d6", 0, 5))
    assert "| 3 | 1/6 (16.67%) |" in die and "mean 7/2" in die
    roll = await hover(client, PIG, where(text, "roll d6", 0, 1))
    assert roll.startswith("roll a d6") and "1/6" in roll
    local = await hover(client, PIG, where(text, "if r == 1", 0, 3))
    assert "local name, bound by `let ... = roll`: number" in local
    score = await hover(client, PIG, where(text, "score of current", 0))
    assert "counter score per player" in score and "one per player" in score
    await close(client, PIG)


async def test_hover_on_a_territory_function(client: LanguageClient):
    skye = ROOT / "games" / "isle_of_skye" / "isle_of_skye.rules"
    text = skye.read_text()
    await open_doc(client, skye)
    shown = await hover(client, skye, where(text, "spots(mine(p), t)", 0, 1))
    assert "spots(cells, tile): the empty cells of a territory" in shown
    await close(client, skye)


async def test_hover_and_completion_on_rolling_a_die_that_is_a_component(
        client: LanguageClient):
    text = CROMLECH.read_text()
    await open_doc(client, CROMLECH)
    at = where(text, "roll d\n", 0, 1)  # on 'roll' of `let r = roll d`
    shown = await hover(client, CROMLECH, at)
    assert "each rolls its own faces" in shown and "| Build | 1/6" in shown
    after = types.Position(line=at.line, character=at.character + len("roll "))
    found = await labels(client, CROMLECH, after)
    assert found.get("d") == "parameter (rule)"
    await close(client, CROMLECH)


async def test_hover_on_a_rule_shows_its_parameters_and_comment(client: LanguageClient):
    text = CROMLECH.read_text()
    await open_doc(client, CROMLECH)
    shown = await hover(client, CROMLECH, where(text, "use_stone(", 1))  # a call
    assert "rule use_stone(s):" in shown
    assert "- `s`: Stone" in shown  # the type it is called with
    assert "a stone of the circle gives its die and activates the lintel over it" in shown
    await close(client, CROMLECH)


# ---- definitions, references, rename -------------------------------------------------------

async def test_definition_and_references_across_a_variant(client: LanguageClient):
    text = PIG_50.read_text()
    await open_doc(client, PIG_50)
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(PIG_50), position=where(text, "score of player 1")))
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == uri(PIG)
    assert found[0].range.start == where(PIG.read_text(), "score per player")
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(PIG_50), position=where(text, "score of player 1"),
        context=types.ReferenceContext(include_declaration=True)))
    assert refs is not None
    assert {r.uri for r in refs} == {uri(PIG), uri(PIG_50)}
    written = re.compile(r"\bscore (?:of|per)\b")  # not the word in comments and texts
    assert len(refs) == len(written.findall(PIG.read_text())) + len(written.findall(text))
    # the variant's GOAL replaces the base's: both declarations, and the base's use
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(PIG_50), position=where(text, "GOAL"),
        context=types.ReferenceContext(include_declaration=True)))
    assert refs is not None
    assert sorted((r.uri == uri(PIG), r.range.start.line) for r in refs) == sorted(
        [(False, where(text, "GOAL").line), (True, where(PIG.read_text(), "GOAL").line),
         (True, where(PIG.read_text(), "GOAL", 1).line)])
    await close(client, PIG_50)


async def test_definition_of_a_replaced_declaration_is_the_base_s(client: LanguageClient):
    """Asked on `replace setting GOAL` in the variant, go to definition leads to the base's
    declaration of GOAL; asked on a use, it offers the base's declaration too."""
    text = PIG_50.read_text()
    base = PIG.read_text()
    await open_doc(client, PIG_50)
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(PIG_50), position=where(text, "GOAL")))
    assert isinstance(found, list) and [(f.uri, f.range.start) for f in found] == [
        (uri(PIG), where(base, "GOAL"))]
    await close(client, PIG_50)


async def test_references_asked_in_a_base_include_its_open_variants(client: LanguageClient):
    base, variant = PIG.read_text(), PIG_50.read_text()
    await open_doc(client, PIG)
    await open_doc(client, PIG_50)
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(PIG), position=where(base, "score per player"),
        context=types.ReferenceContext(include_declaration=True)))
    assert refs is not None
    written = re.compile(r"\bscore (?:of|per)\b")
    assert sum(r.uri == uri(PIG_50) for r in refs) == len(written.findall(variant)) > 0
    assert sum(r.uri == uri(PIG) for r in refs) == len(written.findall(base))
    await close(client, PIG_50)
    await close(client, PIG)


async def test_rename_in_one_file(client: LanguageClient):
    text = PIG.read_text()
    await open_doc(client, PIG)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(PIG), position=where(text, "turn_total", 2), new_name="pot"))
    assert edit is not None and edit.changes is not None
    edits = edit.changes[uri(PIG)]
    assert len(edits) == text.count("turn_total")
    assert {e.new_text for e in edits} == {"pot"}
    with pytest.raises(Exception, match="pig-to-50.rules"):  # the variant uses GOAL
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(PIG), position=where(text, "GOAL"), new_name="TARGET"))
    with pytest.raises(Exception, match="already declared"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(PIG), position=where(text, "turn_total"), new_name="score"))
    await close(client, PIG)


async def test_while_the_text_does_not_parse_the_last_check_that_did_answers(
        client: LanguageClient):
    text = PIG.read_text()
    await open_doc(client, PIG)
    broken = "const BROKEN =\n\n" + text  # a syntax error, and every line two lower
    assert [d.code for d in await change(client, PIG, broken, 2)] == ["E001"]
    use = where(broken, "GOAL", 1)
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=doc(PIG), position=use))
    assert result is not None and result.range is not None and result.range.start == use
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(PIG), position=use))
    assert isinstance(found, list) and found[0].range.start == where(broken, "GOAL")
    with pytest.raises(Exception, match="does not parse"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(PIG), position=use, new_name="TARGET"))
    await close(client, PIG)


# ---- completion ----------------------------------------------------------------------------

async def labels(client: LanguageClient, path: Path, pos: types.Position) -> dict[str, str]:
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc(path), position=pos))
    items = result.items if isinstance(result, types.CompletionList) else result or []
    return {i.label: i.detail or "" for i in items}


async def test_completion_of_keywords_names_builtins_and_option_ids(client: LanguageClient):
    text = PIG.read_text()
    await open_doc(client, PIG)
    top = await labels(client, PIG, where(text, "players 2"))
    assert {"game", "counter", "as soon as", "rule", "example"} <= set(top)
    inside = await labels(client, PIG, where(text, "add r to turn_total", 0, 4))
    assert {"turn_total", "score", "GOAL", "r", "current", "not"} <= set(inside)
    assert inside["r"] == "local (let ... = roll)"
    assert inside["neighbours"].startswith("neighbours(c)")
    statement = await labels(client, PIG, where(text, "        set turn_total", 0, 8))
    assert {"let", "choose", "end turn", "for each"} <= set(statement)
    ids = await labels(client, PIG, where(text, 'play "4", "roll"', 0, 11))
    assert {"roll", "hold", "done", "1", "6", "p1", "p2"} <= set(ids)
    await close(client, PIG)


async def test_signature_help_while_typing_arguments(client: LanguageClient):
    text = CROMLECH.read_text()
    at = text.index("use_stone(s)", text.index("use_stone(s)") + 1)  # a call of the rule
    await open_doc(client, CROMLECH)
    for version, (typed, label, active) in enumerate([
            ("use_stone(", "use_stone(s)", 0),  # the line does not parse yet
            ("lines(field, 3, ", "lines(board, n)", 1)], start=2):
        typing = text[:at] + typed + text[at + len("use_stone(s)"):]
        await change(client, CROMLECH, typing, version)
        help = await client.text_document_signature_help_async(types.SignatureHelpParams(
            text_document=doc(CROMLECH), position=position(typing, at + len(typed))))
        assert help is not None and help.signatures[0].label == label
        assert help.active_parameter == active
    await close(client, CROMLECH)


# ---- outline and highlighting ------------------------------------------------------------

async def test_outline_lists_rules_constants_zones_and_examples(client: LanguageClient):
    text = CROMLECH.read_text()
    await open_doc(client, CROMLECH)
    result = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc(CROMLECH)))
    assert result is not None
    names = [s.name for s in result if isinstance(s, types.DocumentSymbol)]
    assert "const WOUNDS_TO_KILL" in names
    assert any(n.startswith("wound(") for n in names)
    assert any(n.startswith("zone ") for n in names)
    assert sum(n.startswith("example ") for n in names) == text.count('\nexample "')
    enum = next(s for s in result if isinstance(s, types.DocumentSymbol)
                and s.name == "enum Element")
    assert [c.name for c in enum.children or []] == ["Fire", "Air", "Earth", "Water"]
    await close(client, CROMLECH)


@pytest.mark.slow
async def test_semantic_tokens_colour_names_by_meaning(client: LanguageClient):
    text = PIG.read_text()
    await open_doc(client, PIG)
    result = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        text_document=doc(PIG)))
    assert result is not None
    legend = TOKEN_TYPES  # the server's legend, sent when the session starts
    found = {}
    line = col = 0
    data = result.data
    lines = text.split("\n")
    for i in range(0, len(data), 5):
        dl, dc, length, kind, mods = data[i:i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        found[(lines[line][col:col + length], line)] = (legend[kind], mods)
    goal_line = where(text, "setting GOAL").line
    assert found[("setting", goal_line)] == ("keyword", 0)
    assert found[("GOAL", goal_line)] == ("variable", 0b011)  # declaration, readonly
    assert found[("d6", where(text, "roll d6").line)] == ("type", 0)
    assert found[("current", where(text, "win current").line)] == ("variable", 0b100)
    assert found[("# Pig: a dice game for two. On your turn you roll a die as often as you "
                  "like, adding", 0)][0] == "comment"
    await close(client, PIG)


# ---- hostile requests: every one answered, memory bounded --------------------------------

@pytest.mark.parametrize("line, character", [(-1, 0), (0, -5), (0, 2 ** 31), (2 ** 31, 0)])
async def test_a_request_at_an_impossible_position_is_answered_with_an_error(
        client: LanguageClient, line: int, character: int):
    """pygls could not read such a request, and answered nothing: the editor waited."""
    from concurrent.futures import Future

    from pygls.exceptions import JsonRpcException
    from pygls.protocol.json_rpc import JsonRPCRequestMessage

    await open_doc(client, PIG)
    # sent as the JSON an editor would send: the client's own types refuse such a position
    ident = f"impossible-{line}-{character}"
    answer: Future = Future()
    client.protocol._request_futures[ident] = answer
    client.protocol._send_data(JsonRPCRequestMessage(
        id=ident, method="textDocument/hover", jsonrpc="2.0",
        params={"textDocument": {"uri": uri(PIG)},
                "position": {"line": line, "character": character}}))
    with pytest.raises(JsonRpcException) as err:
        await asyncio.wait_for(asyncio.wrap_future(answer), WAIT)
    assert "not valid" in str(err.value)
    # and the server goes on answering
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=doc(PIG), position=where(PIG.read_text(), "GOAL")))
    assert result is not None
    await close(client, PIG)
