"""What OpenSpiel's solvers find through the adapter: the figures of docs/interop.md.

    python -m benchmarks.solve              # Kuhn poker and tic-tac-toe
    python -m benchmarks.solve --leduc      # and Leduc poker's information states (slow)

Kuhn poker (tests/games/kuhn_poker.rules, chips as payoffs): CFR+ (OpenSpiel's Python
`cfr.CFRPlusSolver`) for 50 and 300 iterations, its NashConv through the adapter, player
1's value (the game's is -1/18), the NashConv of the same policy read in OpenSpiel's own
`kuhn_poker`, and each seat's information states beside native's. Tic-tac-toe: the
positions `get_all_states` finds with `str(state)` as the key (native: 5,478) and
`max_game_length()`. Each figure with the seconds it took (under whatever load the
machine has: say it when quoting).
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, get_all_states

from rulesdsl.adapters import openspiel
from tests.interop import KUHN, LEDUC, ROOT, on_native_kuhn


def kuhn() -> None:
    game = openspiel.load_game(KUHN)
    native = pyspiel.load_game("kuhn_poker")
    for iterations in (50, 300):
        start = time.perf_counter()
        solver = cfr.CFRPlusSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        took = time.perf_counter() - start
        value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
        mapped = on_native_kuhn(game, policy, native)
        print(f"kuhn CFR+ {iterations}: NashConv {exploitability.nash_conv(game, policy):.4f}"
              f", player 1's value {value:.4f} (game's {-1 / 18:.4f}), on native kuhn_poker "
              f"NashConv {exploitability.nash_conv(native, mapped):.4f} ({took:.1f} s)")
    counts(game, native, "kuhn")


def counts(game: pyspiel.Game, native: pyspiel.Game, name: str) -> None:
    start = time.perf_counter()
    found = [get_all_states.get_all_states(g, include_terminals=False) for g in (game, native)]
    for seat in (0, 1):
        ours, theirs = ({s.information_state_string(seat) for s in states.values()
                         if s.current_player() == seat} for states in found)
        print(f"{name} information states of seat {seat + 1}: {len(ours)} (native "
              f"{len(theirs)}); positions {len(found[0])} (native {len(found[1])})")
    print(f"  ({time.perf_counter() - start:.1f} s)")


def tictactoe() -> None:
    game = openspiel.load_game(ROOT / "games/tictactoe/tictactoe.rules")
    start = time.perf_counter()
    length = game.max_game_length()
    took = time.perf_counter() - start
    start = time.perf_counter()
    found = get_all_states.get_all_states(game, include_terminals=True,
                                          include_chance_states=False, to_string=str)
    print(f"tic-tac-toe: max_game_length {length} ({took:.1f} s); positions by str(state) "
          f"{len(found)} (native 5478) ({time.perf_counter() - start:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leduc", action="store_true", help="count Leduc's too (slow)")
    args = parser.parse_args()
    kuhn()
    tictactoe()
    if args.leduc:
        counts(openspiel.load_game(LEDUC), pyspiel.load_game("leduc_poker"), "leduc")


if __name__ == "__main__":
    main()
