"""Hand-written reference implementations used by the benchmark runner.

Each module plays one full game with uniformly random legal choices via
``play_random(rng) -> list[int]`` (rank per seat, 1 = best, ties share a
rank) and exposes ``PLAYERS``, the player count the runner uses.  They are
plain, reasonably fast Python -- the baseline the rulesdsl engine is
compared against in ``benchmarks/run.py``.
"""
