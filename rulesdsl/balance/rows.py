"""The rows a batch of games is stored as, and the forms a worker sends a batch back in.

Stage: analysis. The database keeps each game as one row of JSON texts (agents, ranking,
scores, statistics, decisions) and, when the run counts its coverage points, one row of
what fired (store.py). `game_rows` makes them with json's C encoder built once, each
batch's agents encoded once: about 1.5 microseconds a tic-tac-toe game, where five
`json.dumps` took 10 (a game takes about 30). Where several workers play, each makes the
rows of its batch (`play_for_store`) and hands back the rows alone (text and numbers:
quicker to send than the records); the command's process writes them and reads the
games it keeps in memory from them (`read_rows`), as reading them back from the database
would. Where one plays, it sends the records as their fields (`play_to_send`, the least
work for the games' process) and the command's process, on a core of its own, makes the
rows (`received`, then `Store.add`). The rows are the same texts whichever process makes
them.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Sequence
from typing import Any

from .games import Batch, BatchResult, GameRecord, play_batch


def _encoder(sort_keys: bool) -> Callable[[Any], str]:
    """`json.dumps` with its defaults (and `sort_keys` as asked): the same text, by the
    same C encoder, made once instead of at each call (half the cost of a short list).
    Without circular check: the values are the engine's numbers, lists and mappings (a
    value holding itself would fail on the recursion limit instead)."""
    base = json.JSONEncoder(sort_keys=sort_keys)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without json's C accelerator
        return base.encode
    encode = make(None, base.default, json.encoder.encode_basestring_ascii, None,
                  base.key_separator, base.item_separator, sort_keys, False, True)
    return lambda value: "".join(encode(value, 0))


_dumps = _encoder(False)
_sorted_dumps = _encoder(True)
_EMPTY = "{}"
_NO_STATS: dict[str, Any] = {}

STATS = 11   # the statistics' column in a row of the games table

# the games table's rows, and the fired table's
Rows = tuple[list[tuple], list[tuple]]


def game_rows(run: int, records: Sequence[GameRecord]) -> Rows:
    """The rows of a run's games: the games table's, and the fired table's (for the games
    whose coverage points were counted). The agents of a batch's games are a few tuples of
    names: each is encoded once; an empty mapping of statistics is "{}"."""
    agents: dict[tuple[str, ...], str] = {}
    games = []
    for g in records:
        key = tuple(g.agents)
        names = agents.get(key)
        if names is None:
            names = agents[key] = _dumps(g.agents)
        games.append((run, g.number, g.seed, g.rotation, names, g.first, _dumps(g.ranking),
                      _dumps(g.scores) if g.scores is not None else None, g.decisions,
                      g.ended_by, g.ending,
                      _EMPTY if g.stats == _NO_STATS else _sorted_dumps(g.stats),
                      _dumps(g.steps)))
    fired = [(run, g.number, _sorted_dumps(g.fired), g.turns or 0)
             for g in records if g.fired is not None]
    return games, fired


def loads_stats(text: str) -> dict[str, Any]:
    return {} if text == _EMPTY else json.loads(text)


def kept_records(records: Sequence[GameRecord], rows: list[tuple],
                 teams: list[list[int]] | None = None) -> list[GameRecord]:
    """The games as the store keeps them, as reading its rows back gives them (without
    their decisions): new lists of text and numbers, the statistics decoded, the turns
    taken where the run counted them (stored with what fired)."""
    return [GameRecord(g.number, g.seed, g.rotation, list(g.agents), g.first, list(g.ranking),
                       list(g.scores) if g.scores is not None else None, g.decisions,
                       g.ended_by, g.ending, loads_stats(r[STATS]), [], teams,
                       turns=(g.turns or 0) if g.fired is not None else None)
            for g, r in zip(records, rows)]


def read_rows(rows: Rows, teams: list[list[int]] | None = None) -> list[GameRecord]:
    """The games of rows, as `Store.iter_games` reads them back (without their decisions;
    the turns where the run counted them, from the fired table's rows). A text that
    comes again in the batch (the agents, a ranking, scores) is decoded once, and each
    game gets lists of its own."""
    turns = {f[1]: f[3] for f in rows[1]}
    read: dict[str, Any] = {}

    def lists(text: str) -> list[Any]:
        value = read.get(text)
        if value is None:
            value = read[text] = json.loads(text)
        return list(value)

    return [GameRecord(r[1], r[2], r[3], lists(r[4]), r[5], lists(r[6]),
                       lists(r[7]) if r[7] is not None else None, r[8], r[9], r[10],
                       loads_stats(r[STATS]), [], teams, turns=turns.get(r[1]))
            for r in rows[0]]


def play_for_store(batch: Batch) -> BatchResult:
    """Play a batch (`play_batch`) and make its rows: the result hands back the rows alone
    (text and numbers, quick to send from a worker), its records left empty."""
    result = play_batch(batch)
    result.rows = game_rows(batch.run, result.records)
    result.records = []
    return result


def play_to_send(batch: Batch) -> BatchResult:
    """Play a batch (`play_batch`): the result hands back the records as their fields
    (`GameRecord.fields`, the quickest to send), for the command's process to make the rows
    of (`received`)."""
    result = play_batch(batch)
    result.fields = [g.fields() for g in result.records]
    result.records = []
    return result


def received(result: BatchResult) -> BatchResult:
    """A result as a worker sent it, its records made again from their fields."""
    if result.fields is not None:
        result.records = [GameRecord(*f) for f in result.fields]
        result.fields = None
    return result
