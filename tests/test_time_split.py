"""benchmarks/time_split.py: each sample of a game goes to the part of the engine its
innermost frame is in, on either path; the loading and the driver's clock do not count."""

from __future__ import annotations

from benchmarks.time_split import split

SUFFIX = ".cpython-311-x86_64-linux-gnu.so"
MAPS = f"""\
7f0000000000-7f0000001000 r-xp 00000000 08:01 1 /tmp/rulesdsl-native-x/rules_ab12{SUFFIX}
7f0000002000-7f0000003000 r-xp 00000000 08:01 2 /tmp/rulesdsl-native-y/boards{SUFFIX}
"""
PLAY = "<module> (benchmarks/time_split.py:1);play (benchmarks/native.py:64)"
RAW = f"""\
{PLAY};Game.apply_index (rulesdsl/interpreter/game.py:504);0x7f0000000010 (?) 40
{PLAY};Game.apply_index (rulesdsl/interpreter/game.py:504);D8 (cleromancy.rules>:117) 20
{PLAY};Game.apply_index (rulesdsl/interpreter/game.py:504);0x7f0000002010 (?) 10
{PLAY};_reach (rulesdsl/program/helpers/boards.py:20) 10
{PLAY};Game.apply_index (rulesdsl/interpreter/game.py:504) 10
{PLAY};Generator.rand (rulesdsl/interpreter/state.py:57) 5
{PLAY};clock_gettime (libc.so.6);0x7f00000ffbe1 ([vdso]) 25
{PLAY};0x7f0000009999 (libc.so.6) 5
<module> (benchmarks/time_split.py:1);load (rulesdsl/loader.py:77) 500
"""


def test_each_sample_goes_to_its_part(tmp_path):
    (tmp_path / "raw").write_text(RAW)
    (tmp_path / "maps").write_text(MAPS)
    assert split(str(tmp_path / "raw"), str(tmp_path / "maps")) == {
        "generated": 60.0, "helpers": 20.0, "engine": 10.0, "generator": 5.0, "other": 5.0,
        "clock, left out": 20.0}
