"""Properties checked with hypothesis: any sequence of choices keeps a game consistent;
damaged rule files give diagnostics, never a crash; compiled quantifiers mean what the
language says; the random generator is uniform in range and reproducible."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.interpreter.examples import run_examples
from rulesdsl.interpreter.state import State, seed_to_rng

from .conftest import GAME_FILES, ROOT

BASES = [p for p in GAME_FILES if not re.search(r'^extends "', p.read_text(), re.MULTILINE)]
GAMES = {p.stem: rulesdsl.load(p) for p in BASES}
SOURCES = {p.stem: p.read_text() for p in BASES}


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32),
       choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_any_choices_keep_the_game_consistent(game, seed, choices):
    rules = GAMES[game]
    players = rules.player_range[1]
    g = rules.new_game(players=players, seed=seed)
    for c in choices:
        if g.over:
            break
        g.apply_index(c % g.num_options())
    copy = g.copy()
    loaded = rules.load_game(json.loads(json.dumps(g.to_json())))
    assert copy.state_key() == g.state_key() == loaded.state_key()
    replay = rules.new_game(players=players, seed=seed)
    for i in g.history:
        replay.apply_index(i)
    assert replay.state_key() == g.state_key()


def _damage(text: str, data) -> str:
    kind = data.draw(st.sampled_from(["delete", "insert", "swap", "duplicate", "cut"]))
    if not text:
        return text
    i = data.draw(st.integers(0, len(text) - 1))
    if kind == "delete":
        j = data.draw(st.integers(i, min(len(text), i + 12)))
        return text[:i] + text[j:]
    if kind == "insert":
        piece = data.draw(st.sampled_from(list(":()[]{}\"\\,.=<>+-*/%# \t\n") +
                                          ["if ", "choose ", "x", "1", "  ", "player ",
                                           "end", "..", "of "]))
        return text[:i] + piece + text[i:]
    lines = text.split("\n")
    a = data.draw(st.integers(0, len(lines) - 1))
    b = data.draw(st.integers(0, len(lines) - 1))
    if kind == "swap":
        lines[a], lines[b] = lines[b], lines[a]
    elif kind == "duplicate":
        lines.insert(b, lines[a])
    else:
        del lines[a]
    return "\n".join(lines)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(SOURCES)), data=st.data())
def test_damaged_rule_files_give_diagnostics(game, data):
    text = SOURCES[game]
    for _ in range(data.draw(st.integers(1, 3))):
        text = _damage(text, data)
    try:
        rules = rulesdsl.load_text(text, path=f"{game}.rules")
    except rulesdsl.RulesError as err:
        assert err.diagnostics
        for d in err.diagnostics:
            assert d.code[0] in "ECRGV" and d.message
            d.render(err.sources)
        return
    for d in run_examples(rules):
        assert d.code and d.message


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=200))
def test_arbitrary_text_gives_diagnostics(text):
    try:
        rulesdsl.load_text(text, path="fuzz.rules")
    except rulesdsl.RulesError as err:
        assert err.diagnostics


QUANTIFIED = """game "q"
players 1
const XSS = {xss}
play:
    end game
example "nested quantifiers":
    let outer_any = 0
    let outer_all = 0
    if any(xs in XSS where all(x in xs where x > {t})):
        set outer_any = 1
    if all(xs in XSS where any(x in xs where x > {t})):
        set outer_all = 1
    let both_any = 0
    let both_all = 0
    if any(xs in XSS where any(x in xs where x > {t})):
        set both_any = 1
    if all(xs in XSS where all(x in xs where x > {t})):
        set both_all = 1
    expect outer_any == {any_all}
    expect outer_all == {all_any}
    expect both_any == {any_any}
    expect both_all == {all_all}
    expect count(xs in XSS where any(x in xs where x > {t})) == {count}
    expect sum(length(xs) for xs in XSS) == {total}
"""


@settings(max_examples=40, deadline=None)
@given(xss=st.lists(st.lists(st.integers(0, 9), max_size=4), max_size=4),
       t=st.integers(-1, 9))
def test_quantifiers_mean_what_they_say(xss, t):
    text = QUANTIFIED.format(
        xss=json.dumps(xss), t=t,
        any_all=int(any(all(x > t for x in xs) for xs in xss)),
        all_any=int(all(any(x > t for x in xs) for xs in xss)),
        any_any=int(any(any(x > t for x in xs) for xs in xss)),
        all_all=int(all(all(x > t for x in xs) for xs in xss)),
        count=sum(1 for xs in xss if any(x > t for x in xs)),
        total=sum(len(xs) for xs in xss))
    rules = rulesdsl.load_text(text, path="quantifiers.rules")
    assert run_examples(rules) == []


@given(seed=st.integers(-2**70, 2**70), n=st.integers(1, 10**9))
def test_random_numbers_in_range_and_reproducible(seed, n):
    a = State(1, [], [], [], seed_to_rng(seed))
    b = State(1, [], [], [], seed_to_rng(seed))
    xs = [a.rand(n) for _ in range(20)]
    assert xs == [b.rand(n) for _ in range(20)]
    assert all(0 <= x < n for x in xs)


def test_dice_are_fair_enough():
    """Chi-square over 60,000 d6 rolls from the state's generator."""
    s = State(1, [], [], [], seed_to_rng(12345))
    counts = [0] * 6
    for _ in range(60_000):
        counts[s.rand(6)] += 1
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 20.5  # p < 0.001 for 5 degrees of freedom


@pytest.mark.slow
def test_parse_is_deterministic_and_exports_json():
    for path in GAME_FILES:
        a = rulesdsl.ast.to_json(rulesdsl.grammar.parse(path.read_text(), str(path)))
        b = rulesdsl.ast.to_json(rulesdsl.grammar.parse(path.read_text(), str(path)))
        assert a == b
        assert json.loads(json.dumps(a)) == a
    assert ROOT.exists()
