"""The declared shapes of a saved game and of a game record, as pydantic models.

Stage: run. A saved game (`Game.to_json`, `save FILE` at the terminal) and a record
(`rulesdsl replay RECORD`) come from files a person may have edited or damaged, so they are
read in two steps: first against these models (every field present, of its kind, nothing
nested deeper than a game ever nests), then against the rules (saves.py, records.py). A
failure of the first step becomes one readable sentence naming the field (`problem`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from ..limits import MAX_PLAYERS
from .state import MASK

SAVE_FORMAT = "rulesdsl-game/1"
MAX_NESTING = 16  # lists in a state nest a few levels deep (a list of lines of cells)


def _plain(value: Any) -> Any:
    """Plain data: none, true/false, whole numbers, text, and lists of them (walked
    without recursion, so a hostile nesting cannot exhaust the stack)."""
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, list):
            if depth >= MAX_NESTING:
                raise ValueError(f"lists are nested more than {MAX_NESTING} deep")
            todo.extend((x, depth + 1) for x in item)
        elif not (item is None or isinstance(item, (bool, int, str))):
            raise ValueError(f"{type(item).__name__} is not plain data (none, true/false, "
                             "whole numbers, text and lists of them)")
    return value


Plain = Annotated[Any, AfterValidator(_plain)]
Count = Annotated[StrictInt, Field(ge=0)]


class _Model(BaseModel):
    # unknown fields are ignored: a newer writer may add some; what is read is checked
    # validators are built when a save or a record is first read, not at import: most
    # commands read neither
    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)


class SavedState(_Model):
    """`State.to_json`: the position of a game."""

    players: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)]
    counters: list[Plain]
    boards: list[list[Plain]]
    zones: list[list[Count]] = []
    stack: list[tuple[StrictInt, list[Plain]]]
    pending: tuple[StrictInt, StrictInt, list[Plain]] | None = None
    rng: Annotated[StrictInt, Field(gt=0, le=MASK)]
    result: list[StrictInt] | None = None


class SavedGame(_Model):
    """`Game.to_json`: the rules' digest, the seed, the choices so far and the state."""

    format: Literal["rulesdsl-game/1"]
    game: StrictStr = ""
    rules: StrictStr
    seed: StrictInt
    history: list[Count]
    decisions: Count | None = None  # saves written before it was kept: len(history)
    ended_by: Literal["rules", "limit"] = "rules"
    state: SavedState
    # a narrated game's log: [to, text] per line, `to` null (everyone) or a list of seats
    log: list[tuple[list[Count] | None, StrictStr]] | None = None
    # the screen's words for the log's decisions, by line (words.py); the placer of each
    # piece of a board the display gives to its placer, [board, cell, seat] (placing.py)
    told: list[tuple[Count, StrictStr]] = []
    placed: list[tuple[StrictStr, Count, Count]] = []


Setting = StrictBool | StrictInt | StrictStr


class MadeUp(_Model):
    """Where a game a bot made up stopped: the seat it was made up for, the sample seed,
    the steps the bot took in it (the last one failed), and whether it rolled chance at
    once."""

    seat: Annotated[StrictInt, Field(ge=0, lt=MAX_PLAYERS)]
    seed: StrictInt
    steps: list[Count]
    auto_chance: StrictBool = True


class Record(_Model):
    """A game record: the rules (file, digest, settings), players and seed, and the steps
    taken. With `chance` "seeded", the steps are the decisions and the seed gives every
    chance outcome (as in `rulesdsl run` and `simulate`); with "chosen", chance outcomes
    are steps too (a game explored by `rulesdsl validate`)."""

    format: Literal["rulesdsl-record/1"]
    file: StrictStr
    game: StrictStr = ""
    rules: StrictStr
    settings: dict[str, Setting] = {}
    players: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)]
    seed: StrictInt
    chance: Literal["seeded", "chosen"] = "seeded"
    steps: list[Count]
    agents: list[StrictStr] = []
    game_number: Count | None = None  # which game of a simulation or validation
    error: dict[str, Any] | None = None  # the diagnostic that stopped the game, as JSON
    # the error happened in a game a bot made up at the end of the steps: how to make it
    made_up: MadeUp | None = None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


def problem(err: ValidationError) -> str:
    """The first thing wrong, as `field: what is wrong with it`."""
    first = err.errors(include_url=False)[0]
    where = ""
    for part in first["loc"]:
        if isinstance(part, int):
            where += f"[{part}]"
        elif not where:
            where = str(part)
        else:
            where += f".{part}"
    kind = first["type"]
    if kind == "missing":
        message = "is missing"
    elif kind == "literal_error":
        message = f"must be {first['ctx']['expected']}"
    elif kind == "value_error":
        message = str(first["ctx"]["error"])
    else:
        message = first["msg"][0].lower() + first["msg"][1:]
    return f"{where}: {message}" if where else message
