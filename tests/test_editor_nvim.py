"""docs/editor.md's settings for Neovim, tried in the Neovim on this machine.

Each Lua block is read from the page itself, so the test tries what a reader copies; only
the command is made to run this checkout's server (`python -m rulesdsl.cli lsp`). Neovim
runs headless with a throw-away configuration, state and data folder, opens a rule file
with a mistake and then a second one, and writes what it got: the file type, the
diagnostics, and the server each buffer is attached to. A block is tried when the `nvim`
on the PATH is at least the version it is written for; skipped without `nvim` or pygls.
Debian 12 has Neovim 0.7.2 (the settings for 0.7 to 0.9); docs/editor.md says which
versions were tried and how.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parent.parent
NVIM = shutil.which("nvim")
pytestmark = [pytest.mark.skipif(NVIM is None, reason="Neovim is not installed"),
              pytest.mark.slow]   # a server started by an editor: seconds on a busy machine

PROBE = """
local function diagnostics()
  vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out, string.format("%d:%d %s", d.lnum + 1, d.col + 1,
                                     (d.message:gsub("\\n", " | "))))
  end
  return out
end
local function clients()
  local ids = {}
  if vim.lsp.get_clients then   -- 0.10 and later
    for _, c in ipairs(vim.lsp.get_clients({ bufnr = 0 })) do table.insert(ids, c.id) end
  else
    for id, _ in pairs(vim.lsp.buf_get_clients(0)) do table.insert(ids, id) end
  end
  return table.concat(ids, ",")
end
local out = diagnostics()
table.insert(out, "filetype " .. vim.bo.filetype)
table.insert(out, "clients " .. clients())
vim.cmd("edit other.rules")
for _, line in ipairs(diagnostics()) do table.insert(out, line) end
table.insert(out, "clients " .. clients())
vim.fn.writefile(out, "result.txt")
vim.cmd("qall!")
"""


# the blocks of docs/editor.md: the oldest Neovim each is for, and a call only it makes
BLOCKS = {"0.11": ((0, 11), "vim.lsp.config"), "0.10": ((0, 10), "vim.fs.root"),
          "0.7": ((0, 7), "start_client")}


def version() -> tuple[int, int]:
    out = subprocess.run([NVIM or "nvim", "--version"], capture_output=True, text=True,
                         timeout=30).stdout
    found = re.match(r"NVIM v(\d+)\.(\d+)", out)
    assert found, out
    return int(found[1]), int(found[2])


def settings(marker: str) -> str:
    """The Lua block of docs/editor.md that makes this call, calling this checkout's
    server."""
    doc = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```lua\n(.*?)```", doc, re.S) if marker in b]
    server = ", ".join(f'"{part}"' for part in (sys.executable, "-m", "rulesdsl.cli", "lsp"))
    assert 'cmd = { "rulesdsl", "lsp" }' in block
    return block.replace('cmd = { "rulesdsl", "lsp" }', f"cmd = {{ {server} }}")


@pytest.mark.parametrize("block", sorted(BLOCKS))
def test_the_settings_give_diagnostics_from_one_server(block: str, tmp_path: Path) -> None:
    oldest, marker = BLOCKS[block]
    if version() < oldest:
        pytest.skip(f"the settings for Neovim {block} need a newer nvim than this one")
    (tmp_path / "init.lua").write_text(settings(marker), encoding="utf-8")
    (tmp_path / "probe.lua").write_text(PROBE, encoding="utf-8")
    (tmp_path / "bad.rules").write_text('game "Bad"\nplayers 2\ncountr x = 0\n',
                                        encoding="utf-8")
    (tmp_path / "other.rules").write_text('game "Other"\nplayers 2\ncounter x = y\n',
                                          encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.update({f"XDG_{k}_HOME": str(tmp_path / k.lower())
                for k in ("CONFIG", "DATA", "STATE", "CACHE")})
    subprocess.run([NVIM or "nvim", "--headless", "-i", "NONE", "-u", "init.lua", "bad.rules",
                    "-c", "luafile probe.lua"], cwd=tmp_path, env=env, timeout=120,
                   check=True, capture_output=True)
    lines = (tmp_path / "result.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "3:1 'countr' is not a word of the language | hint: did you mean " \
        "'counter'?"
    assert "filetype rulesdsl" in lines
    first, second = [line for line in lines if line.startswith("clients ")]
    assert first == second and first != "clients "   # one server for both files
    assert "3:13 this must be a value known before the game starts | hint: use numbers, " \
        "text, lists and other constants" in lines   # the second file's own diagnostics
