"""The language server's memory over a session of edits that never pauses: a damaged
Cromlech sent again and again (tests/fuzzing.py's damage), each checked as an edit is, in
this process; the resident memory printed every 50 edits.

    python benchmarks/lsp_memory.py            # 300 edits, as the server is
    python benchmarks/lsp_memory.py --never    # the same, never collecting what is frozen
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lsprotocol import types as T  # noqa: E402
from pygls import uris  # noqa: E402

from rulesdsl.lsp import server as S  # noqa: E402
from tests import fuzzing  # noqa: E402


class Quiet(S.RulesServer):
    def text_document_publish_diagnostics(self, params: object) -> None:
        """No editor to send them to."""


def resident() -> int:
    """This process's resident memory, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    return 0


def session(edits: int) -> None:
    ls = Quiet()
    list(ls.protocol.lsp_initialize(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=uris.from_fs_path(str(ROOT)))))
    text = (ROOT / "games" / "cromlech" / "cromlech.rules").read_text(encoding="utf-8")
    rng = random.Random(1)
    uri = uris.from_fs_path(str(ROOT / "games" / "cromlech" / "edited.rules"))
    for n in range(edits):
        now = fuzzing.damage(rng, text)
        ls.workspace.put_text_document(T.TextDocumentItem(uri=uri, language_id="rules",
                                                          version=n + 1, text=now))
        ls.files.open(S.path_of(uri), now)
        ls.publish(S.path_of(uri))
        if n % 50 == 0 or n == edits - 1:
            print(f"edit {n + 1}: {resident()} MB", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--never", action="store_true",
                        help="never collect what is frozen (as the server was)")
    args = parser.parse_args()
    if args.never:
        S.FROZEN_SLACK = 10 ** 12
    session(args.edits)
