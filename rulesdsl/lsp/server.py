"""`rulesdsl lsp`: the language server, on pygls, over stdin and stdout.

Stage: editor support. This module only wires LSP requests to the parts that answer them:
workspace.py (documents, checks), publish.py (diagnostics), hover.py, completion.py,
signature.py, navigation.py, outline.py and semantic.py. Diagnostics are published after
every change (the incremental parser keeps that quick); the examples run when a document
is saved, in a worker thread, and their diagnostics join the others.
"""

from __future__ import annotations

import asyncio
import gc
import re
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification

from ..files.paths import Unreadable, read_text
from .completion import Context, complete
from .hover import component_roll_at, distribution, hover, roll_at
from .navigation import NAME, RenameError, definitions, references, rename
from .outline import folding, outline
from .positions import Places, path_of, uri_of
from .publish import to_lsp
from .semantic import LEGEND, tokens
from .signature import signature
from .symbols import Index, Occurrence
from .workspace import Checked, Workspace, norm

VERSION = "0.1.0"
QUIET = 5.0  # seconds without an edit before a full collection of reference cycles
FROZEN_SLACK = 200_000  # objects frozen beyond twice those after a collection: collect now
REQUEST_FAILED = -32803  # the LSP's error code for a request that could not be done
REFUSED = "$/rulesdsl/refused"  # what a request that was answered with an error becomes
DID_YOU_MEAN = re.compile(r"^hint: did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?$", re.MULTILINE)


class RulesProtocol(LanguageServerProtocol):
    """pygls's protocol, answering every request: one it cannot read (a position at line
    -1 or at character 2^31, outside the LSP's whole numbers) gets an error answer, where
    pygls logged it and answered nothing, and the editor waited for ever."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            ident = data.get("id")
            if "method" not in data or not isinstance(ident, (int, str)):
                raise  # a notification or an answer: nobody waits for a reply
            self._send_response(ident, error=types.ResponseError(
                code=err.code, message=f"{data['method']}: the request's parameters are "
                "not valid (a position's line and character are whole numbers from 0 to "
                "2^31 - 1)"))
            # read on as a notification nobody handles: pygls logs it and goes on
            return JsonRPCNotification(method=REFUSED, jsonrpc="2.0", params=None)


class RulesServer(LanguageServer):
    """The language server and its workspace."""

    def __init__(self) -> None:
        super().__init__("rulesdsl", VERSION, protocol_cls=RulesProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.files = Workspace()
        self.pending: set[str] = set()
        self.frozen = 0  # objects frozen after the last full collection
        self._idle: asyncio.TimerHandle | None = None

    def folders(self) -> tuple[str, ...]:
        """The editor's workspace folders, as paths."""
        try:
            ws = self.workspace
        except RuntimeError:  # not initialized yet
            return ()
        uris = [f.uri for f in ws.folders.values()]
        if ws.root_uri:
            uris.append(ws.root_uri)
        return tuple(dict.fromkeys(path_of(u) for u in uris if u.startswith("file:")))

    def places(self, checked: Checked) -> Places:
        """Places in a check's files, moved to the editor's text of the document now."""
        now = self.files.texts.get(norm(checked.path), checked.text)
        return Places({**checked.sources, checked.path: checked.text},
                      self.workspace.position_codec, (checked.path, now))

    def publish(self, path: str) -> None:
        """Check a document and every open variant of it; publish their diagnostics."""
        self.files.include = self.folders()
        for doc in dict.fromkeys([path, *self.files.dependents(path)]):
            if norm(doc) not in self.files.texts:
                continue
            checked = self.files.check(doc)
            diags = checked.diagnostics + self.files.example_diagnostics(checked)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri_of(doc), diagnostics=to_lsp(checked, diags, self.places(checked))))
        self.settle()

    def settle(self) -> None:
        """Keep the collector of reference cycles out of the next round trip. A large
        file is tens of thousands of AST nodes, kept from edit to edit: scanning them all
        took a tenth of a second, now and then, in the middle of a check. So what is alive
        after a check is frozen (left alone by the collector), and a full collection runs
        once the editor has been quiet for a while, or at once when what is frozen has
        grown to twice what was alive after the last one: edits that never pause would
        otherwise keep every cycle they left, frozen, for the whole session."""
        gc.freeze()
        if gc.get_freeze_count() > 2 * self.frozen + FROZEN_SLACK:
            self.collect()  # edits that never pause: the cycles left in what was frozen go
        if self._idle is not None:
            self._idle.cancel()
        try:
            self._idle = asyncio.get_running_loop().call_later(QUIET, self.collect)
        except RuntimeError:  # no event loop: nothing to schedule
            self._idle = None

    def collect(self) -> None:
        """A full collection of reference cycles, what is alive then frozen again."""
        _collect()
        self.frozen = gc.get_freeze_count()

    def schedule(self, path: str) -> None:
        """Publish soon: changes that arrive together are checked once."""
        if path in self.pending:
            return
        self.pending.add(path)

        def run() -> None:
            self.pending.discard(path)
            self.publish(path)

        asyncio.get_running_loop().call_soon(run)

    def at(self, uri: str, pos: types.Position) -> tuple[Places, Index, Occurrence] | None:
        """The name at a position, in the latest check of a document that has an index."""
        path = path_of(uri)
        checked = self.files.latest(path)
        if checked is None or checked.index is None:
            return None
        places = self.places(checked)
        occ = checked.index.at(path, *places.place(path, pos))
        return (places, checked.index, occ) if occ is not None else None


    def references_in_variants(self, uri: str, occ: Occurrence,
                               with_declaration: bool) -> list[types.Location]:
        """The uses of a name of a base file written in the open documents that extend it
        (each variant's index is merged with its bases: the name is looked up there by name
        and kind, and only the places in the variant's own text are taken)."""
        sym = occ.symbol
        if not sym.is_global:
            return []
        path = path_of(uri)
        out: list[types.Location] = []
        for other in self.files.dependents(path):
            checked = self.files.latest(other)
            if norm(other) == norm(path) or checked is None or checked.index is None:
                continue
            theirs = checked.index.symbols.get(sym.name)
            if theirs is None or theirs.kind != sym.kind:
                continue
            places = self.places(checked)
            out += [places.location(o.span) for o in checked.index.references(theirs)
                    if norm(o.span.file) == norm(other) and places.shown(o.span)
                    and (with_declaration or not o.declaration)]
        return out


def _collect() -> None:
    gc.unfreeze()
    gc.collect()
    gc.freeze()


server = RulesServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    ls.files.open(path, params.text_document.text)
    ls.publish(path)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    path = path_of(params.text_document.uri)
    ls.files.open(path, doc.source)
    ls.schedule(path)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    ls.files.close(path)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=params.text_document.uri, diagnostics=[]))
    for other in ls.files.dependents(path):
        ls.publish(other)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
async def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
    """Run the examples of the saved document (and of its open variants)."""
    path = path_of(params.text_document.uri)
    for doc in dict.fromkeys([path, *ls.files.dependents(path)]):
        checked = ls.files.checked.get(norm(doc)) or ls.files.check(doc)
        await asyncio.get_running_loop().run_in_executor(None, ls.files.run_examples, checked)
        ls.publish(doc)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def on_hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
    path = path_of(params.text_document.uri)
    checked = ls.files.latest(path)
    if checked is None or checked.index is None:
        return None
    places = ls.places(checked)
    line, column = places.place(path, params.position)
    word = ls.workspace.get_text_document(params.text_document.uri).word_at_position(
        params.position)
    if word == "roll" and checked.analysis is not None:
        found = roll_at(checked.index, path, line, column)
        if found is not None:
            die, count = found
            what = f"{count} dice of {die}" if count > 1 else f"a {die}"
            text = f"roll {what}\n\n" + distribution(checked.analysis, die, count)
            return types.Hover(contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown, value=text))
        shown = component_roll_at(checked.index, path, line, column)
        if shown is not None:
            return types.Hover(contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown, value=shown))
    occ = checked.index.at(path, line, column)
    if occ is None:
        return None
    text = hover(checked.index, checked.sources, occ)
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                       range=places.range(occ.span))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: RulesServer, params: types.DefinitionParams) -> list[types.Location]:
    found = ls.at(params.text_document.uri, params.position)
    if found is None:
        return []
    places, index, occ = found
    return [places.location(s) for s in definitions(index, occ) if places.shown(s)]


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: RulesServer, params: types.ReferenceParams) -> list[types.Location]:
    found = ls.at(params.text_document.uri, params.position)
    if found is None:
        return []
    places, index, occ = found
    with_declaration = params.context.include_declaration
    out = [places.location(o.span) for o in references(index, occ, with_declaration)
           if places.shown(o.span)]
    return out + ls.references_in_variants(params.text_document.uri, occ, with_declaration)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
def on_highlight(ls: RulesServer,
                 params: types.DocumentHighlightParams) -> list[types.DocumentHighlight]:
    found = ls.at(params.text_document.uri, params.position)
    if found is None:
        return []
    places, index, occ = found
    here = norm(path_of(params.text_document.uri))
    return [types.DocumentHighlight(
        range=places.range(o.span),
        kind=types.DocumentHighlightKind.Write if o.declaration else
        types.DocumentHighlightKind.Read)
        for o in references(index, occ) if norm(o.span.file) == here and places.shown(o.span)]


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def on_prepare_rename(ls: RulesServer,
                      params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder:
    found = ls.at(params.text_document.uri, params.position)
    if found is None:
        raise JsonRpcException("no name here to rename", code=REQUEST_FAILED)
    places, index, occ = found
    path = path_of(params.text_document.uri)
    if places.forward is not None:
        raise JsonRpcException("the file does not parse now: rename needs a file that does",
                               code=REQUEST_FAILED)
    _renamed(ls, index, occ, "renamed_" + occ.symbol.name, path)
    return types.PrepareRenamePlaceholder(range=places.range(occ.span),
                                          placeholder=occ.symbol.name)


@server.feature(types.TEXT_DOCUMENT_RENAME)
def on_rename(ls: RulesServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    found = ls.at(params.text_document.uri, params.position)
    if found is None:
        return None
    places, index, occ = found
    path = path_of(params.text_document.uri)
    if places.forward is not None:
        raise JsonRpcException("the file does not parse now: rename needs a file that does",
                               code=REQUEST_FAILED)
    edits = _renamed(ls, index, occ, params.new_name, path)
    return types.WorkspaceEdit(changes={params.text_document.uri: [
        types.TextEdit(range=places.range(e.span), new_text=e.text) for e in edits]})


def _renamed(ls: RulesServer, index: Index, occ: Occurrence, new: str, path: str) -> list:
    try:
        return rename(index, occ, new, path, _variants_of(ls, path))
    except RenameError as err:
        raise JsonRpcException(str(err), code=REQUEST_FAILED) from None


def _variants_of(ls: RulesServer, path: str) -> dict[str, str]:
    """The texts of the files that extend this one: open documents, and the rule files
    beside it that name it in their `extends` line."""
    out = {p: ls.files.texts[norm(p)] for p in ls.files.dependents(path) if norm(p) != norm(path)}
    name = Path(path).name
    extends = re.compile(rf'^extends\s+"(?:\./)?{re.escape(name)}"', re.MULTILINE)
    for sibling in Path(path).parent.glob("*.rules"):
        if norm(sibling) != norm(path) and str(sibling) not in out:
            try:
                text = read_text(sibling)  # a regular file under the cap
            except (FileNotFoundError, Unreadable):
                continue
            if extends.search(text):
                out[str(sibling)] = text
    return out


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=['"', " "]))
def on_completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
    path = path_of(params.text_document.uri)
    doc = ls.workspace.get_text_document(params.text_document.uri)
    checked = ls.files.latest(path)
    index = checked.index if checked is not None else None
    lines = doc.lines
    text = lines[params.position.line] if params.position.line < len(lines) else ""
    line, column = Places({path: doc.source}, ls.workspace.position_codec).place(
        path, params.position)
    if checked is not None:
        line = ls.places(checked).then(line)  # where the locals in scope are known
    ctx = Context(path, line, column, text.rstrip("\r\n")[:column - 1])
    return types.CompletionList(is_incomplete=False, items=complete(index, ctx))


@server.feature(types.TEXT_DOCUMENT_SIGNATURE_HELP, types.SignatureHelpOptions(
    trigger_characters=["(", ","]))
def on_signature(ls: RulesServer, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
    path = path_of(params.text_document.uri)
    doc = ls.workspace.get_text_document(params.text_document.uri)
    checked = ls.files.latest(path)
    line = doc.lines[params.position.line] if params.position.line < len(doc.lines) else ""
    _, column = Places({path: doc.source}, ls.workspace.position_codec).place(
        path, params.position)
    return signature(checked.index if checked else None, line[:column - 1])


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix]))
def on_code_action(ls: RulesServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """A quick fix for each diagnostic whose hint names the name meant: 'did you mean'."""
    doc = ls.workspace.get_text_document(params.text_document.uri)
    out = []
    for d in params.context.diagnostics:
        meant = DID_YOU_MEAN.search(d.message)
        if d.source != "rulesdsl" or meant is None or d.range.start.line != d.range.end.line:
            continue
        line = doc.lines[d.range.start.line] if d.range.start.line < len(doc.lines) else ""
        if not NAME.fullmatch(line[d.range.start.character:d.range.end.character]):
            continue  # the place is more than the misspelt name: no safe edit
        out.append(types.CodeAction(
            title=f"Change to '{meant.group(1)}'", kind=types.CodeActionKind.QuickFix,
            diagnostics=[d], is_preferred=True, edit=types.WorkspaceEdit(changes={
                params.text_document.uri: [types.TextEdit(range=d.range,
                                                          new_text=meant.group(1))]})))
    return out


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_outline(ls: RulesServer,
               params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    path = path_of(params.text_document.uri)
    checked = ls.files.latest(path)
    if checked is None or checked.own is None:
        return []
    return outline(checked.own, ls.places(checked))


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def on_folding(ls: RulesServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    path = path_of(params.text_document.uri)
    checked = ls.files.latest(path)
    if checked is None or checked.own is None:
        return []
    return folding(checked.own, ls.places(checked))


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
def on_tokens(ls: RulesServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
    path = path_of(params.text_document.uri)
    text = ls.workspace.get_text_document(params.text_document.uri).source
    checked = ls.files.latest(path)
    occs: list[Occurrence] = []
    if checked is not None and checked.index is not None:
        here, places = norm(path), ls.places(checked)
        for o in checked.index.occurrences:
            span = places.now(o.span) if norm(o.span.file) == here else None
            if span is not None:  # in this document, on a line not edited since the check
                occs.append(Occurrence(span, o.symbol, o.declaration, o.node))
    return types.SemanticTokens(data=tokens(text, occs, ls.workspace.position_codec))


def start() -> int:
    """Serve on stdin and stdout until the editor says exit."""
    server.start_io()
    return 0
