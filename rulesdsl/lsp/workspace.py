"""The language server's files: the open documents, and each one parsed, merged and checked.

Stage: editor support. A document is checked the way `rulesdsl check` checks a file (parse,
resolve variants, check), but from the editor's text: an open file is read from the
editor, any other (the base of a variant) from the disk, and every file is parsed by its
own `IncrementalParser`, so after an edit only the changed declarations are parsed again.
The examples run separately (on save), through `validate.checking.check_resolved`.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import ast as A
from ..check import analyze
from ..check.analysis import Analysis
from ..diagnostics import Diagnostic, RulesError
from ..grammar import read_rules
from ..grammar.incremental import IncrementalParser
from ..resolve.variants import Resolved, key_of, resolve
from ..validate.checking import check_resolved
from .symbols import Index


def norm(path: str | Path) -> str:
    """One spelling of a file's path, to compare the paths in spans and in URIs."""
    return os.path.normcase(os.path.normpath(os.path.abspath(str(path))))


@dataclass
class Checked:
    """One version of a document, checked: everything `rulesdsl check` reports for it
    without running the examples (in any file of its chain), and what was learnt."""

    path: str
    text: str
    own: A.RulesFile | None  # the document's own declarations (a variant's, unmerged)
    resolved: Resolved | None
    analysis: Analysis | None
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    originals: tuple = ()  # for a variant: the base's declarations it replaces or removes
    _index: Index | None = field(default=None, repr=False)

    @property
    def index(self) -> Index | None:
        """The names of the merged file, made when first asked for."""
        if self._index is None and self.resolved is not None:
            self._index = Index(self.resolved.file, self.analysis, self.own, self.originals)
        return self._index

    def reads(self, path: str) -> bool:
        """Whether checking this document read the file at `path` (it or a base)."""
        return norm(path) in {norm(p) for p in self.sources}


@dataclass
class Examples:
    """The diagnostics of a document's examples, and the text they were run on."""

    text: str
    diagnostics: list[Diagnostic]


class Workspace:
    """The open documents and the state kept between edits."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}  # open documents, by norm(path)
        self.paths: dict[str, str] = {}  # norm(path) -> the path as the editor named it
        self.checked: dict[str, Checked] = {}  # the latest check of each open document
        self.good: dict[str, Checked] = {}  # the latest check that parsed
        self.examples: dict[str, Examples] = {}
        self._parsers: dict[str, IncrementalParser] = {}
        # the editor's workspace folders: a variant there may extend a game anywhere in
        # them (on the command line, `--include DIR` says the same)
        self.include: tuple[str, ...] = ()

    # ---- documents -----------------------------------------------------------------

    def open(self, path: str, text: str) -> None:
        self.texts[norm(path)] = text
        self.paths[norm(path)] = path

    def close(self, path: str) -> None:
        tables: tuple[dict[str, Any], ...] = (self.texts, self.paths, self.checked, self.good,
                                              self.examples)
        for table in tables:
            table.pop(norm(path), None)
        # the parsers of the files no open document reads (it, its bases) go with it: a
        # session that opens document after document would keep every one's chunks
        read = {norm(p) for c in self.checked.values() for p in c.sources}
        self._parsers = {p: parser for p, parser in self._parsers.items()
                         if norm(p) in read or norm(p) in self.texts}

    def parsed(self) -> list[str]:
        """The files whose parser (and its chunks) is kept."""
        return list(self._parsers)

    def dependents(self, path: str) -> list[str]:
        """The open documents whose check read `path` (itself, and its variants)."""
        return [self.paths[k] for k, c in self.checked.items() if c.reads(path)]

    def read(self, path: str | Path) -> tuple[A.RulesFile, str]:
        """A file's AST and text: the editor's text of an open file, else the disk's."""
        key = norm(path)
        text = self.texts.get(key)
        if text is None:
            text = read_rules(path)  # as `rulesdsl check` reads it
        parser = self._parsers.get(str(path))
        if parser is None:
            parser = self._parsers[str(path)] = IncrementalParser(str(path))
        return parser.parse(text), text

    # ---- checking ------------------------------------------------------------------

    def check(self, path: str) -> Checked:
        """Parse, resolve and check an open document as it is now."""
        text = self.texts[norm(path)]
        own: A.RulesFile | None = None
        try:
            own, _ = self.read(path)
            resolved = resolve(path, read=self.read, include=self.include)
        except RulesError as err:
            result = Checked(path, text, own, None, None, err.diagnostics,
                             {path: text, **err.sources})
        else:
            analysis = analyze(resolved.file)
            result = Checked(path, text, own, resolved, analysis, analysis.diagnostics,
                             resolved.sources, self._originals(own, resolved))
            self.good[norm(path)] = result
        self.checked[norm(path)] = result
        return result

    def _originals(self, own: A.RulesFile, resolved: Resolved) -> tuple:
        """The declarations of a variant's base that the variant replaces, changes or
        removes."""
        changed = {key_of(i.decl) for i in own.items if isinstance(i, A.Replace)} | {
            (i.what, i.name or "") for i in own.items if isinstance(i, (A.Remove, A.Change))}
        if not changed - {None} or len(resolved.chain) < 2:
            return ()
        try:
            base = resolve(resolved.chain[1], read=self.read, include=self.include)
        except RulesError:
            return ()
        return tuple(d for d in base.file.items if key_of(d) in changed)

    def latest(self, path: str) -> Checked | None:
        """The latest check with an index: the current one, or (while the text does not
        parse) the last one that did."""
        current = self.checked.get(norm(path))
        if current is not None and current.resolved is not None:
            return current
        return self.good.get(norm(path))

    def run_examples(self, checked: Checked) -> list[Diagnostic]:
        """Run the examples of a checked document (slow: call it off the event loop) and
        keep their diagnostics with the text."""
        diags: list[Diagnostic] = []
        if checked.resolved is not None and not any(
                d.severity == "error" for d in checked.diagnostics):
            diags = check_resolved(checked.resolved)
        self.examples[norm(checked.path)] = Examples(checked.text, diags)
        return diags

    def example_diagnostics(self, checked: Checked) -> list[Diagnostic]:
        """The latest example diagnostics, moved to where their lines are now; those on
        lines edited since (in this document) are dropped until the next save."""
        found = self.examples.get(norm(checked.path))
        if found is None or any(d.severity == "error" for d in checked.diagnostics):
            return []
        if found.text == checked.text:
            return found.diagnostics
        moved = line_map(found.text, checked.text)
        out = []
        for d in found.diagnostics:
            if d.span is None or norm(d.span.file) != norm(checked.path):
                out.append(d)
            elif d.span.line in moved and d.span.end_line in moved:
                span = d.span.model_copy(update={"line": moved[d.span.line],
                                                 "end_line": moved[d.span.end_line]})
                out.append(Diagnostic(d.code, d.message, span, d.severity, d.hint, d.notes))
        return out


def line_map(old: str, new: str) -> dict[int, int]:
    """Where each unchanged line of `old` is in `new` (1-based line numbers)."""
    a, b = old.split("\n"), new.split("\n")
    out: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                out[i1 + k + 1] = j1 + k + 1
    return out
