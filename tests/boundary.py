"""The information boundary as a check any rules can be put through.

A seat must be shown exactly the same things (its view, its options and prompt, the
lines of the log it was told) by two games that differ only in what that seat cannot
see: the real game and a game the sampler made up for the seat (hidden zones dealt anew,
other seats' secret choices drawn afresh, a fresh random generator), or two games in
which another seat made another secret choice. Both are then played on with the same
options and the same future rolls: as long as the seat's view stays the same (nothing
new has become visible to it), what it is told and offered must stay the same too. A
view, a label or a line of the log that shows a hidden thing breaks this, and `check`
reports the first such place as a `Leak`.
"""

from __future__ import annotations

import json
import random

from rulesdsl import Game, Observation, Rules

WALK = 6     # steps played on from each point of comparison


class Leak(AssertionError):
    """A seat was shown something that depends on what it cannot see."""


def shown(game: Game, seat: int) -> tuple[str, list[str]]:
    """What `seat` is shown, as canonical text (view, options, prompt), and its lines."""
    seen = Observation(game, seat)
    view = {k: v for k, v in seen.view.items() if k != "log"}
    text = json.dumps([view, [[o.id, o.label] for o in seen.options], seen.prompt],
                      sort_keys=True)
    return text, seen.log


def same_to(seat: int, a: Game, b: Game, rng: random.Random, where: str,
            now: bool = True) -> None:
    """`a` and `b` must show `seat` the same now (unless not `now`), and after each step
    they take together for as long as the seat's view stays the same."""
    for step in range(WALK + 1):
        (view_a, log_a), (view_b, log_b) = shown(a, seat), shown(b, seat)
        if view_a != view_b:
            if step == 0 and now:
                raise Leak(f"{where}: seat {seat + 1} sees a difference it should not:\n"
                           f"{_diff(view_a, view_b)}")
            return  # something became visible to the seat: the games may part
        if log_a != log_b:
            new = [line for line in log_a + log_b if (line in log_a) != (line in log_b)]
            raise Leak(f"{where}, {step} steps on: seat {seat + 1} is told different "
                       f"lines: {new[:4]}")
        if a.over or b.over:
            return
        if a.is_chance or b.is_chance:
            if not (a.is_chance and b.is_chance):
                return
            a.roll_chance()
            b.roll_chance()
            continue
        n = min(a.num_options(), b.num_options())
        i = rng.randrange(n)
        a.apply_index(i)
        b.apply_index(i)


def _diff(a: str, b: str) -> str:
    at = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"  ...{a[max(0, at - 60):at + 60]}...\n  ...{b[max(0, at - 60):at + 60]}..."


def check_point(game: Game, seat: int, rng: random.Random, where: str) -> None:
    """The real game against a game made up for `seat`, and against another secret choice
    of another seat when one is pending."""
    future = rng.getrandbits(64)
    real = game.copy(narrated=True)
    real.reseed(future)
    made_up = Observation(game, seat).sample_game(rng)
    made_up.reseed(future)
    same_to(seat, real, made_up, rng, f"{where}: the real game and one made up for it")
    decision = game.decision
    if decision is not None and decision.secret and decision.player != seat and \
            len(decision.options) > 1:
        i, j = rng.sample(range(len(decision.options)), 2)
        one, other = game.copy(narrated=True), game.copy(narrated=True)
        one.apply_index(i)
        other.apply_index(j)
        # what the choice changes may be revealed at once: the views may part there
        same_to(seat, one, other, rng, f"{where}: player {decision.player + 1} chooses in "
                f"secret option {i + 1} or {j + 1}", now=False)


POINTS = {0, 1, 2, 3} | {2 ** k for k in range(2, 13)}


def check(rules: Rules, players: int, seed: int, auto_chance: bool = True) -> int:
    """Play a random game, comparing at steps 0-3, 4, 8, 16, ..., at each secret decision
    and at the end, for every seat; raises `Leak` at the first leak. Returns how many
    comparisons were made."""
    game = rules.new_game(players=players, seed=seed, narrate=True, auto_chance=auto_chance)
    rng = random.Random(seed)
    step = compared = 0
    while True:
        decision = game.decision
        if step in POINTS or game.over or (decision is not None and decision.secret):
            for seat in range(players):
                check_point(game, seat, rng, f"{rules.path} ({players} players, seed {seed}, "
                            f"step {step})")
                compared += 1
        if game.over:
            return compared
        if game.is_chance:
            game.roll_chance()
        else:
            game.apply_index(rng.randrange(game.num_options()))
        step += 1
