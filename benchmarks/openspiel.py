"""rulesdsl's MCTS beside OpenSpiel's Python MCTS: simulations per second, and a match.

OpenSpiel (`pip install '.[strength]'`) has connect four and tic-tac-toe as C++ games and a
Python MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`, random rollouts, MCTS-Solver).
A move's id in our rule files is its column (connect four, "1" to "7") or its cell
(tic-tac-toe, "a1" to "c3"); the two games are played in step, and each move is checked
against both games' lists of legal moves and the two results against each other.

Settings that make the two searches the same: OpenSpiel's returns are -1 to 1 and ours 0
to 1, so its `uct_c` 2 is our `c` 1; both prove finished lines (solve); both take the most
visited move; one random rollout per simulation.

Usage, from the repository root:

    python -m benchmarks.openspiel speed [--game connect_four] [--sims 2000] [--repeat 5]
    python -m benchmarks.openspiel match [--game connect_four] [--games 200] [--sims 1000]
        [--workers 2] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import rulesdsl
from benchmarks.stats import mean_interval, percent
from rulesdsl.agents import MCTSAgent

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"connect_four": "games/connect_four/connect_four.rules",
         "tic_tac_toe": "games/tictactoe/tictactoe.rules"}


def _spiel() -> Any:
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts
    except ImportError:
        raise SystemExit("OpenSpiel is not installed: pip install '.[strength]'") from None
    return mcts


def action_of(game_name: str, option_id: str) -> int:
    """OpenSpiel's action for one of our option ids."""
    if game_name == "connect_four":
        return int(option_id) - 1
    column, row = "abc".index(option_id[0]), int(option_id[1]) - 1
    return (2 - row) * 3 + column   # OpenSpiel's cells go row by row from the top


def spiel_bot(mcts: Any, game: Any, sims: int, seed: int) -> Any:
    import numpy as np

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims, evaluator=evaluator,
                        solve=True, random_state=rng)


# ---- speed ---------------------------------------------------------------------------------

def speed(game_name: str, sims: int, repeat: int) -> dict[str, Any]:
    """Simulations per second of a whole search from the first position (a search proved
    early counts the simulations it ran), the two in turn `repeat` times (medians). The
    seconds are the process's CPU time: on a shared machine the wall clock counts the
    other programs' turns too, and both searches run on one thread."""
    mcts = _spiel()
    import pyspiel

    rules = rulesdsl.load(ROOT / GAMES[game_name])
    ours, theirs = [], []
    for k in range(repeat):
        game = rules.new_game(players=2, seed=k)
        agent = MCTSAgent(k, sims=sims)
        start = time.process_time()
        agent.choose(rulesdsl.Observation(game, 0))
        assert agent.last is not None  # a search stops early once the first move is proved
        ours.append(agent.last.simulations / (time.process_time() - start))
        sgame = pyspiel.load_game(game_name)
        bot = spiel_bot(mcts, sgame, sims, k)
        start = time.process_time()
        root = bot.mcts_search(sgame.new_initial_state())
        theirs.append(root.explore_count / (time.process_time() - start))
    return {"game": game_name, "sims": sims, "runs": repeat,
            "rulesdsl_sims_per_sec": round(statistics.median(ours)),
            "openspiel_sims_per_sec": round(statistics.median(theirs)),
            "ratio": round(statistics.median(o / t for o, t in zip(ours, theirs)), 2)}


# ---- the match -----------------------------------------------------------------------------

def play_one(args: tuple[str, int, int, int]) -> tuple[float, list[int], list[float]]:
    """One game; our MCTS is seat `ours` (0 or 1). What it scored (1, 1/2, 0), and the
    moves each side made and the seconds it thought (ours first)."""
    game_name, sims, seed, ours = args
    mcts = _spiel()
    import pyspiel

    rules = rulesdsl.load(ROOT / GAMES[game_name])
    game = rules.new_game(players=2, seed=seed)
    sgame = pyspiel.load_game(game_name)
    state = sgame.new_initial_state()
    agent = MCTSAgent(seed, sims=sims)
    bot = spiel_bot(mcts, sgame, sims, seed)
    moves = [0, 0]
    thought = [0.0, 0.0]
    while not game.over:
        seat = game.decider
        assert seat is not None and seat == state.current_player()
        legal = sorted(action_of(game_name, o.id) for o in game.options())
        assert legal == sorted(state.legal_actions()), "the two games disagree"
        start = time.perf_counter()
        if seat == ours:
            i = agent.choose(rulesdsl.Observation(game, seat))
            action = action_of(game_name, game.options()[i].id)
        else:
            action = bot.step(state)
            i = [action_of(game_name, o.id) for o in game.options()].index(action)
        thought[seat != ours] += time.perf_counter() - start
        moves[seat != ours] += 1
        game.apply_index(i)
        state.apply_action(action)
    assert state.is_terminal()
    result = game.result
    assert result is not None
    returns = state.returns()
    score = {1: 1.0, 2: 0.0}[result.ranking[ours]] if result.ranking.count(1) == 1 else 0.5
    assert score == (returns[ours] + 1) / 2, "the two games end differently"
    return score, moves, thought


def match(game_name: str, games: int, sims: int, seed: int, workers: int) -> dict[str, Any]:
    """`games` games, our MCTS first in the even ones and second in the odd ones."""
    jobs = [(game_name, sims, seed + k, k % 2) for k in range(games)]
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(play_one, jobs):
            results.append(result)
            if len(results) % 10 == 0:  # progress, for long runs
                so_far = mean_interval([r[0] for r in results])[0]
                print(f"{len(results)} games: score {percent(so_far)}", file=sys.stderr,
                      flush=True)
    scores = [r[0] for r in results]
    mean, low, high = mean_interval(scores)
    moves = [sum(r[1][k] for r in results) for k in (0, 1)]
    thought = [sum(r[2][k] for r in results) for k in (0, 1)]
    return {"game": game_name, "games": games, "sims": sims, "seed": seed,
            "wins": scores.count(1.0), "draws": scores.count(0.5), "losses": scores.count(0.0),
            "score": round(mean, 4), "interval": [round(low, 4), round(high, 4)],
            "score_first": round(mean_interval(scores[0::2])[0], 4),
            "score_second": round(mean_interval(scores[1::2])[0], 4),
            "rulesdsl_seconds_per_move": round(thought[0] / max(moves[0], 1), 4),
            "openspiel_seconds_per_move": round(thought[1] / max(moves[1], 1), 4)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--game", choices=sorted(GAMES), default="connect_four")
    s.add_argument("--sims", type=int, default=2000)
    s.add_argument("--repeat", type=int, default=5)
    m = sub.add_parser("match")
    m.add_argument("--game", choices=sorted(GAMES), default="connect_four")
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--sims", type=int, default=1000)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--workers", type=int, default=1)
    for q in (s, m):
        q.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.what == "speed":
        out = speed(args.game, args.sims, args.repeat)
        text = (f"{out['game']}, a search of {out['sims']} simulations from the first "
                f"position, median of {out['runs']}, CPU time: rulesdsl "
                f"{out['rulesdsl_sims_per_sec']:,} sims/s, OpenSpiel Python MCTS "
                f"{out['openspiel_sims_per_sec']:,} sims/s "
                f"(ratio {out['ratio']})")
    else:
        out = match(args.game, args.games, args.sims, args.seed, args.workers)
        text = (f"{out['game']}: rulesdsl MCTS against OpenSpiel MCTSBot, {out['sims']} "
                f"simulations each, {out['games']} games, seats swapped: {out['wins']} wins, "
                f"{out['draws']} draws, {out['losses']} losses; score {percent(out['score'])} "
                f"(95% interval {percent(out['interval'][0])} to "
                f"{percent(out['interval'][1])}); thinking per move: rulesdsl "
                f"{out['rulesdsl_seconds_per_move']:.3f} s, OpenSpiel "
                f"{out['openspiel_seconds_per_move']:.3f} s")
    print(json.dumps(out, indent=1) if args.json else text)


if __name__ == "__main__":
    main()
