"""What commands keep between runs in the user's cache. `rulesdsl check` remembers a file
that passed (rulesdsl/validate/checkcache.py): the second check of an unchanged file is answered
from the cache, and any change to what the check read (the file, a file it extends, a data
file, the engine) is checked afresh. A rule file's syntax tree is kept too
(rulesdsl/grammar/treecache.py): an unchanged file is not parsed again."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from rulesdsl import ast as A
from rulesdsl import grammar
from rulesdsl.cli import main
from rulesdsl.diagnostics import Diagnostic, RulesError, Span
from rulesdsl.files import cachedir
from rulesdsl.grammar import parse_file, parser, treecache
from rulesdsl.validate import checkcache, checking

ROOT = Path(__file__).resolve().parents[1]
GOOD = 'game "Count"\nplayers 2\ncounter n = 0\n\nplay:\n    set n = n + 1\n    end game\n'
BAD = GOOD.replace("n + 1", "m + 1")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The caches on, in a folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    monkeypatch.setattr(checkcache, "ENABLED", True)
    monkeypatch.setattr(treecache, "ENABLED", True)
    return tmp_path / "cache" / "rulesdsl"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache on, in a folder of the test's own; counts the real checks made."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    monkeypatch.setattr(checkcache, "ENABLED", True)
    made: list[str] = []
    real = checking.check

    def counted(path, *args, **kwargs):
        made.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(checking, "check", counted)
    return made


def kept_in(entry: Path) -> bytes | None:
    """What a cache file keeps, as the folder's key vouches for it."""
    folder = cachedir.open_private()
    assert folder is not None
    with folder:
        return folder.read(entry.name)


def keep_in(entry: Path, data: bytes) -> None:
    """Write a cache file as the cache does, signed: what a command of this engine
    could have written."""
    folder = cachedir.open_private()
    assert folder is not None
    with folder:
        folder.write(entry.name, data)


def check(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_unchanged_file_is_answered_from_the_cache(cache, capsys):
    Path("count.rules").write_text(GOOD)
    first = check(capsys, "count.rules")
    second = check(capsys, "count.rules")
    assert first == second == (0, "count.rules: ok (no rules, no examples, 2 players)\n", "")
    assert cache == ["count.rules"]   # checked once
    check(capsys, "--no-examples", "count.rules")   # other options: checked again
    assert len(cache) == 2


def test_a_changed_file_is_checked_again(cache, capsys):
    path = Path("count.rules")
    path.write_text(GOOD)
    check(capsys, "count.rules")
    path.write_text(BAD)
    code, out, err = check(capsys, "count.rules")
    assert code == 1 and "error[" in err and out == ""
    code, _, _ = check(capsys, "count.rules")   # errors are never remembered
    assert code == 1 and len(cache) == 3


def test_a_changed_base_or_data_file_is_checked_again(cache, capsys, tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "cards.yaml").write_text("cards:\n  - {name: a, value: 1}\n  - {name: b, value: 2}\n")
    (folder / "base.rules").write_text(
        'game "Cards"\nplayers 2\nkind Card(name, value): from "cards.yaml" cards\n'
        'counter n = 0\n\nplay:\n    set n = sum(value of c for c in Card)\n    end game\n')
    (folder / "variant.rules").write_text('extends "base.rules"\n')
    variant = str(folder / "variant.rules")
    assert check(capsys, variant)[0] == 0
    assert check(capsys, variant)[0] == 0 and len(cache) == 1
    (folder / "cards.yaml").write_text("cards:\n  - {name: a, value: 1}\n  - {name: b}\n")
    code, _, err = check(capsys, variant)
    assert code == 1 and "cards.yaml" in err and len(cache) == 2
    (folder / "cards.yaml").write_text("cards:\n  - {name: a, value: 1}\n")
    assert check(capsys, variant)[0] == 0 and len(cache) == 3
    (folder / "base.rules").write_text((folder / "base.rules").read_text() + "# more\n")
    assert check(capsys, variant)[0] == 0 and len(cache) == 4


def test_another_engine_checks_again(cache, capsys, monkeypatch):
    Path("count.rules").write_text(GOOD)
    check(capsys, "count.rules")
    monkeypatch.setattr(cachedir, "engine_digest", lambda: "another version")
    check(capsys, "count.rules")
    assert len(cache) == 2


def test_a_malformed_or_foreign_cache_is_ignored(cache, capsys, tmp_path):
    Path("count.rules").write_text(GOOD)
    check(capsys, "count.rules")
    (entry,) = (tmp_path / "cache" / "rulesdsl").glob("check-*.json")
    for junk in ("{", "[]", json.dumps({"format": 1, "files": [["x"]]})):
        keep_in(entry, junk.encode())
        assert check(capsys, "count.rules") == \
            (0, "count.rules: ok (no rules, no examples, 2 players)\n", "")
    (tmp_path / "cache" / "rulesdsl").chmod(0o777)   # others could plant an answer
    check(capsys, "count.rules")
    check(capsys, "count.rules")
    assert len(cache) == 1 + 3 + 2   # each junk entry, and both runs with an open folder


def test_the_json_format_is_the_same_from_the_cache(cache, capsys):
    pig = str(ROOT / "games" / "pig" / "pig.rules")
    first = check(capsys, "--format", "json", pig)
    assert check(capsys, "--format", "json", pig) == first and len(cache) == 1
    assert json.loads(first[1]) == {"diagnostics": [], "ok": True}


def test_a_diagnostic_comes_back_as_it_was_kept():
    kept = Diagnostic("E061", "a message", Span(file="a.rules", line=3, column=2, end_line=3,
                                                end_column=9),
                      severity="warning", hint="a hint", notes=["one", "two"])
    assert checkcache._diagnostic(json.loads(json.dumps(kept.to_json()))) == kept
    assert checkcache._diagnostic(Diagnostic("W1", "no place").to_json()) == \
        Diagnostic("W1", "no place")


# ---- syntax trees ------------------------------------------------------------------------

@pytest.fixture
def parsed(folder, monkeypatch):
    """The texts lark really parsed as rule files, whole or one declaration at a time
    (the others came from the cache)."""
    made: list[str] = []
    lark = parser.rules_parser()
    real = lark.parse

    def counted(text, start=None, **kwargs):
        if start == "start":
            made.append(text)
        return real(text, start=start, **kwargs)

    monkeypatch.setattr(lark, "parse", counted)
    return made


def test_an_unchanged_file_is_not_parsed_again(parsed, folder):
    path = Path("count.rules")
    path.write_text(GOOD)
    first, _ = parse_file(path)    # its text noted
    second, _ = parse_file(path)   # the same text again: its tree kept
    third, text = parse_file(path)
    assert first == second == third and text == GOOD
    assert parsed == [GOOD] * 2
    assert [f.name[:5] for f in folder.glob("tree-*")] == ["tree-"]
    path.write_text(GOOD.replace("n + 1", "n + 2"))   # an edit: that declaration parsed
    changed, _ = parse_file(path)
    assert changed != first and parsed[2:] == ["play:\n    set n = n + 2\n    end game\n"]
    assert A.to_json(changed) == A.to_json(grammar.parse(path.read_text(), "count.rules"))
    parsed.pop()   # the whole parse just above
    parse_file(str(path.resolve()))   # another name: the tree's places carry it
    assert len(parsed) == 4


def test_a_file_with_errors_is_parsed_each_time(parsed):
    """As `parse` parses it, each time (it parses again after blanking what is broken)."""
    bad = GOOD.replace("end game", "end game game")
    with pytest.raises(RulesError):
        grammar.parse(bad, "bad.rules")
    once = len(parsed)
    Path("bad.rules").write_text(bad)
    for _ in range(3):
        with pytest.raises(RulesError):
            parse_file("bad.rules")
    assert len(parsed) == 4 * once


def test_a_tree_of_another_engine_or_a_broken_one_is_parsed_again(parsed, folder, monkeypatch):
    Path("count.rules").write_text(GOOD)
    first, _ = parse_file("count.rules")
    parse_file("count.rules")
    (entry,) = folder.glob("tree-*")
    engine, kept = pickle.loads(kept_in(entry) or b"")
    chunk = next(iter(kept))
    for junk in (b"", b"not a pickle", pickle.dumps([1, 2]), pickle.dumps((engine, [1])),
                 pickle.dumps((engine, {chunk: 5})), pickle.dumps((engine, {chunk: (0, 1)})),
                 pickle.dumps((engine, {1: (0, None)}))):
        keep_in(entry, junk)
        assert parse_file("count.rules")[0] == first
    assert len(parsed) == 2 + 7
    # a declaration whose kept tree is broken is parsed again, the others are not
    parse_file("count.rules")
    engine, kept = pickle.loads(kept_in(entry) or b"")
    assert all(blob is not None for _, blob in kept.values())
    for junk in (b"not a pickle", pickle.dumps(["not a declaration"]), pickle.dumps(7)):
        keep_in(entry, pickle.dumps((engine, {**kept, chunk: (kept[chunk][0], junk)})))
        before = len(parsed)
        assert parse_file("count.rules")[0] == first and len(parsed) == before + 1
    monkeypatch.setattr(cachedir, "engine_digest", lambda: "another version")
    before = len(parsed)
    parse_file("count.rules")
    assert len(parsed) == before + 1


@pytest.mark.parametrize("game", [pytest.param("cromlech", marks=pytest.mark.slow), "pig"])
def test_after_an_edit_only_the_declarations_that_changed_are_parsed(parsed, game):
    """Cromlech's and Pig's rules read three times, then edited: a declaration changed in
    place, lines added at the top (every declaration moves down), a declaration added,
    then removed: each time only the chunks whose text changed are parsed, and the tree
    is the one the whole text gives."""
    source = ROOT / "games" / game / f"{game}.rules"
    path = Path(f"{game}.rules")
    text = source.read_text()
    path.write_text(text)
    for _ in range(3):
        parse_file(path)
    assert len(parsed) == 2
    # one edit after another, and the chunks each leaves to parse: the one changed, the
    # first (the comments at the top are part of it), the one added, none
    in_place = text.replace("\nexample ", "\nexample  ", 1)
    above = "# a comment\n\n" + in_place
    top = above.index("\nexample ") + 1
    added = above[:top] + "const ADDED = 1\n\n" + above[top:]
    edits = [(in_place, 1), (above, 1), (added, 1), (above, 0)]
    for edited, chunks in edits:
        path.write_text(edited)
        before = len(parsed)
        tree, _ = parse_file(path)
        assert A.to_json(tree) == A.to_json(grammar.parse(edited, str(path)))
        made = parsed[before:-1]   # besides the whole parse just above
        assert len(made) == chunks and all(len(t) < len(edited) / 3 for t in made)


def test_the_folder_keeps_what_was_used_last_within_its_bounds(folder, monkeypatch, capsys):
    """Past its bounds the cache folder drops what was used least recently; an entry read
    again counts as used, and a crashed writer's half-written file goes after an hour."""
    Path("count.rules").write_text(GOOD)
    assert check(capsys, "count.rules")[0] == 0   # remembered: the folder is made
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(6):
        old = folder / f"check-old{n}.json"
        old.write_bytes(b"x" * 100)
        cachedir.os.utime(old, (1000 + n, 1000 + n))
    part = folder / "check-old.json.123.part"
    part.write_bytes(b"x")
    cachedir.os.utime(part, (1000, 1000))
    fresh = folder / "check-fresh.json.456.part"   # being written now
    fresh.write_bytes(b"x")
    (entry,) = [f for f in folder.glob("check-*.json") if "old" not in f.name]
    cachedir.os.utime(entry, (500, 500))           # the oldest of all ...
    assert check(capsys, "count.rules")[0] == 0    # ... but read again: used now
    kept = len([f for f in folder.iterdir() if not f.name.endswith(".part")
                and f.name != cachedir.KEY])
    opened = cachedir.open_private()
    assert opened is not None
    with opened:
        removed = opened.prune(max_files=kept - 2)
        names = {f.name for f in folder.iterdir()}
        assert removed == 3                            # two of the oldest and the stale part
        assert entry.name in names and fresh.name in names and part.name not in names
        assert "check-old0.json" not in names and "check-old1.json" not in names
        assert "check-old2.json" in names
        # only the fresh part and the folder's key stay
        assert opened.prune(max_bytes=0) == len(names) - 2
    assert sorted(f.name for f in folder.iterdir()) == sorted([fresh.name, cachedir.KEY])


def test_writing_an_entry_prunes_the_folder_once_a_process(folder, monkeypatch):
    folder.mkdir(parents=True)
    monkeypatch.setattr(cachedir, "_pruned", False)
    monkeypatch.setattr(cachedir, "MAX_FILES", 3)
    for n in range(5):
        (folder / f"tree-{n}.pickle").write_bytes(b"x")
        cachedir.os.utime(folder / f"tree-{n}.pickle", (1000 + n, 1000 + n))
    keep_in(folder / "tree-new.pickle", b"y")
    assert sorted(f.name for f in folder.iterdir()) == [
        cachedir.KEY, "tree-3.pickle", "tree-4.pickle", "tree-new.pickle"]
    (folder / "tree-5.pickle").write_bytes(b"x")
    keep_in(folder / "tree-newer.pickle", b"y")   # pruned once already
    assert len(list(folder.iterdir())) == 6


def test_checks_while_editing_report_each_version_at_its_lines(folder, capsys, monkeypatch):
    """Every cache on (checks, trees declaration by declaration, data files' values), a
    rule file with a data file edited as a user would, checking after each change: an
    error made, lines added above it, the error mended, the data file changed; each
    check says what a check with nothing kept says, at the same lines."""
    from rulesdsl.resolve import placed

    monkeypatch.setattr(placed, "ENABLED", True)
    Path("cards.yaml").write_text("cards:\n  - {name: Ace}\n  - {name: King}\n")
    good = ('game "Cards"\nplayers 2\nkind Card(name): from "cards.yaml" cards\n'
            'counter n = 0\n\nplay:\n    set n = n + 1\n    end game\n\n'
            'example "two cards":\n    expect count(c in Card) == 2\n')
    versions = [good, good, good, good.replace("n + 1", "m + 1"),
                "# a note\n# and another\n" + good.replace("n + 1", "m + 1"),
                "# a note\n# and another\n" + good, "# a note\n" + good]
    path = Path("cards.rules")
    for n, text in enumerate([*versions, None]):
        if text is None:  # the data file changed: the example now fails
            Path("cards.yaml").write_text("cards:\n  - {name: Ace}\n")
        else:
            path.write_text(text)
        kept = check(capsys, "cards.rules")
        monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
        assert kept == check(capsys, "cards.rules"), n
        monkeypatch.delenv("RULESDSL_NO_CACHE")
        assert kept[0] == (1 if text is None or "m + 1" in text else 0), (n, kept)
    # (lark's parser is kept where the process first built it: not always here)
    assert {"check", "data-", "tree-"} <= {f.name[:5] for f in folder.iterdir()}
