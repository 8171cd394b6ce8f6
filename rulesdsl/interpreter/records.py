"""Game records: the rules, the players, the seed and the steps of one game, as a file.

Stage: run. A record is what `rulesdsl run`, `simulate`, `check --play` and `validate`
write when a game goes wrong, and what `rulesdsl replay RECORD` plays again, step by step,
to show the same game and the same error. It is read like a saved game: its shape against
the schema (schema.py), then its contents against the rules (the digest, the number of
players, each step an option of the game at that point).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from ..diagnostics import Diagnostic, RulesError
from ..files.paths import Unreadable, locate, read_text
from ..limits import MAX_RECORD_BYTES
from .game import Game, Rules
from .schema import MadeUp, Record, problem


def bad(message: str) -> RulesError:
    """A record that cannot be read or does not fit the rules (G004)."""
    return RulesError([Diagnostic("G004", message)])


def make_record(rules: Rules, path: str, players: int, seed: int, steps: list[int],
                agents: list[str] | None = None, number: int | None = None,
                error: Diagnostic | None = None,
                chance: Literal["seeded", "chosen"] = "seeded",
                made_up: dict[str, Any] | None = None) -> Record:
    """The record of a game of these rules played from the start: `steps` is its history
    (the decisions, and with `chance` "chosen" the chance outcomes too); `made_up`, when
    the error happened in a game a bot made up after the last step (`RulesError.made_up`)."""
    return Record(format="rulesdsl-record/1", file=str(path), game=rules.name, rules=rules.digest,
                  settings=dict(rules.settings), players=players, seed=seed, chance=chance,
                  steps=list(steps), agents=list(agents or []), game_number=number,
                  error=error.to_json() if error is not None else None,
                  made_up=MadeUp.model_validate(made_up) if made_up is not None else None)


def record_name(record: Record) -> str:
    """A file name that says which game it records: `pig-2p-seed7.record.json`."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(record.file).stem) or "game"
    how = "-chosen" if record.chance == "chosen" else ""
    return f"{stem}-{record.players}p-seed{record.seed}{how}.record.json"


def write_record(record: Record, directory: str | Path) -> Path | str:
    """Write a record into a directory; returns its path, or why it could not be written
    (a record is a help in a report of an error, never a reason for another)."""
    target = Path(directory) / record_name(record)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        return f"the record could not be written to {target}: {err.strerror or err}"
    return target


def rule_file(record: Record, where: str | Path, include: Iterable[str | Path] = ()
              ) -> Path:
    """The rule file a record (read from `where`) names, found as `extends` finds a base
    (paths.locate): relative to the record's folder, a `.rules` file in that folder or below
    it or in a folder the user included (`include`); else the file of that name beside the record (a
    record moved with its rule file). A record is untrusted: it must not make the tool read
    the host's other files. V007 or E000 (without the file's text) otherwise."""
    first: RulesError | None = None
    for name in dict.fromkeys((record.file, Path(record.file).name)):
        try:
            found = locate(str(where), name, (".rules",), None, what="rule", by="a record",
                           extra=include)
        except RulesError as err:
            first = first or err
            continue
        if found.exists():  # read as every rule file is: a regular file under the cap
            return found
    hint = f"name the rule file: rulesdsl replay {where} --rules FILE"
    if first is not None:
        d = first.diagnostics[0]
        raise RulesError([Diagnostic(d.code, d.message, hint=hint + ", or let its folder "
                                     "be read with --include DIR")])
    raise RulesError([Diagnostic("E000", f"no such rule file: {record.file} (the record "
                                 f"names it; looked in the record's folder)", hint=hint)])


def replay_note(written: Path | str, record: Record, include: Iterable[str | Path] = ()
                ) -> str:
    """The command that replays a record just written (or why it was not written): with
    `--rules` when the record's own folder does not hold its rule file."""
    if not isinstance(written, Path):
        return written
    command = f"replay it with: rulesdsl replay {written}"
    try:
        rule_file(record, written, include)
    except RulesError:
        return f"{command} --rules {record.file}"
    return command


def read_record(path: str | Path) -> Record:
    """A record file, checked against the schema; RulesError (G004) when it is not one."""
    try:
        data = json.loads(read_text(path, MAX_RECORD_BYTES))  # a regular file under the cap
    except FileNotFoundError:
        raise bad(f"no such record: {path}") from None
    except Unreadable as err:
        raise bad(f"cannot read the record {path}: {err.reason}") from None
    except ValueError as err:
        raise bad(f"cannot read the record {path}: {err}") from None
    except RecursionError:
        raise bad(f"cannot read the record {path}: its lists are nested too deep") from None
    return parse_record(data, str(path))


def parse_record(data: Any, where: str = "the record") -> Record:
    try:
        return Record.model_validate(data)
    except ValidationError as err:
        raise bad(f"{where} is not a game record: {problem(err)}") from None


def check_rules(record: Record, rules: Rules) -> int:
    """The record was made with these rules (G003 if not), for a number of players they
    allow (C002 if not); returns the number of players."""
    if record.rules != rules.digest:
        raise RulesError([Diagnostic("G003", f"this record was made with other rules "
                                     f"(digest {record.rules}, these rules are "
                                     f"{rules.digest}): the rule file has changed since")])
    return rules.check_players(record.players)


def start(record: Record, rules: Rules, narrate: bool = False) -> Game:
    """The game a record starts: these rules (the record's digest), its players and seed.
    Chance steps pause when the record chose their outcomes."""
    check_rules(record, rules)
    return rules.new_game(players=record.players, seed=record.seed,
                          narrate=narrate, auto_chance=record.chance == "seeded")


def step(game: Game, record: Record, n: int) -> None:
    """Take step n of the record (from 0); a step that is not an option of the game at
    that point means the record does not fit these rules (G004). A rule that goes wrong
    raises its own diagnostic, as it did when the game was recorded."""
    i = record.steps[n]
    if game.over or i >= game.num_options():
        what = "the game is over" if game.over else f"it has {game.num_options()} options"
        raise bad(f"step {n + 1} of the record is option {i}, but {what}: the record "
                   "does not fit these rules")
    game.apply_index(i)


def play_made_up(game: Game, made_up: MadeUp) -> Game:
    """Make again the game a bot made up where a record ends (the same seat and sample
    seed) and take the steps the bot took in it: the last raises the error it met."""
    from .sampling import sample_game

    if made_up.seat >= game.players:
        raise bad(f"the record's made-up game is for seat {made_up.seat + 1}, but the game "
                  f"has {game.players} players")
    world = sample_game(game, made_up.seat, random.Random(made_up.seed), made_up.seed)
    world.auto_chance = made_up.auto_chance
    for n, i in enumerate(made_up.steps):
        if world.over or i >= world.num_options():
            raise bad(f"step {n + 1} of the record's made-up game is option {i}, but the "
                      "game made up does not have it: the record does not fit these rules")
        world.apply_index(i)
    return world


def replay(record: Record, rules: Rules) -> Game:
    """Play a record's steps from the start; the game as it is after the last step."""
    game = start(record, rules)
    for n in range(len(record.steps)):
        step(game, record, n)
    return game
