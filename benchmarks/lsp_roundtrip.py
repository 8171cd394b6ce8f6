"""Benchmark: the language server's diagnostic round trip on a large rule file.

Starts `rulesdsl lsp` as an editor would (a separate process on stdin and stdout), opens
the file, waits for its first diagnostics (the first parse), then times edits: from sending
`textDocument/didChange` (the whole text) to receiving `textDocument/publishDiagnostics`.
Three kinds of edit, taken in turn so each is timed after the others:

- type: a character changes inside a line, and the check reports an error, then not;
- syntax: a declaration is broken (a syntax error), then mended;
- enter: a line is added near the top, so every declaration below it moves down (one
  line more each time: the declarations are never found where they were before).

Usage, from the repository root:

    python -m benchmarks.lsp_roundtrip [--file FILE] [--edits N] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "games" / "cromlech" / "cromlech.rules"


CONST = "const ROLLS = 3"  # a line near the top of Cromlech


def edits(text: str) -> dict[str, list[tuple[str, bool]]]:
    """Each kind of edit of a text as the texts it sends, and whether each gives
    diagnostics. The last text of each is the text the next edit starts from."""
    assert CONST in text, f"the file has no line {CONST!r}"
    return {
        "type": [(text.replace(CONST, CONST + "x"), True), (text, False)],  # E020: 'x'
        "syntax": [(text.replace(CONST, "const ROLLS ="), True), (text, False)],
        "enter": [(text.replace(CONST, "\n" + CONST), False)],
    }


async def measure(path: Path, rounds: int) -> dict[str, list[float]]:
    client = LanguageClient("lsp-roundtrip", "1")
    arrived = asyncio.Event()
    counts: list[int] = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        counts.append(len(params.diagnostics))
        arrived.set()

    await client.start_io(sys.executable, "-m", "rulesdsl.cli", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    uri = uris.from_fs_path(str(path)) or str(path)
    text = path.read_text(encoding="utf-8")
    version = 1

    async def send(new: str) -> float:
        nonlocal version
        version += 1
        arrived.clear()
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)]))
        await asyncio.wait_for(arrived.wait(), 30)
        return time.perf_counter() - start

    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.
                                  TextDocumentItem(uri=uri, language_id="rules", version=1,
                                                   text=text)))
    await asyncio.wait_for(arrived.wait(), 60)
    times: dict[str, list[float]] = {"first parse": [time.perf_counter() - start]}
    for _ in range(rounds):
        for kind in ("type", "syntax", "enter"):
            for new, errors in edits(text)[kind]:
                times.setdefault(kind, []).append(await send(new))
                assert (counts[-1] > 0) == errors, f"{kind}: {counts[-1]} diagnostics"
                text = new
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--file", type=Path, default=FILE)
    p.add_argument("--edits", type=int, default=15, help="rounds of each kind of edit")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    times = asyncio.run(measure(args.file.resolve(), args.edits))
    summary = {}
    for kind, xs in times.items():
        ms = sorted(x * 1000 for x in xs)
        q = statistics.quantiles(ms, n=4) if len(ms) > 1 else [ms[0]] * 3
        summary[kind] = {"n": len(ms), "median_ms": round(statistics.median(ms), 1),
                         "q1_ms": round(q[0], 1), "q3_ms": round(q[2], 1),
                         "max_ms": round(ms[-1], 1)}
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    lines = sum(1 for _ in args.file.open(encoding="utf-8"))
    print(f"{args.file.name} ({lines} lines): diagnostic round trip, milliseconds")
    for kind, s in summary.items():
        print(f"  {kind:12} n={s['n']:3}  median {s['median_ms']:7.1f}  "
              f"quartiles {s['q1_ms']:.1f} to {s['q3_ms']:.1f}  max {s['max_ms']:.1f}")


if __name__ == "__main__":
    main()
