"""What a rule file declares, as the Python API shows it: the shapes of its counters, dice,
zones and boards, its kinds, enums, settings, constants, statistics and examples.

Stage: run. `Rules` takes these methods from `Shapes`: tools (the terminal, the browser
table, the adapters, the bots) read a rule file through them, as plain values (public.py)
made from the record of its declarations (`Program.declared`), not the checker's analysis.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..boards.territory import TerritoryBoard, TurnBoard
from ..program.declared import Declared
from ..program.program import Program, teams_of
from .drawing import tile_looks
from .public import BoardShape, CounterShape, DiceShape, ZoneShape
from .views import screen, shown
from .words import Words


class Shapes:
    """The declarations of a rule file (mixed into `Rules`)."""

    program: Program
    declared: Declared

    @property
    def name(self) -> str:
        return self.declared.game_name

    @property
    def player_range(self) -> tuple[int, int]:
        return self.declared.min_players, self.declared.max_players

    @cached_property
    def counters(self) -> dict[str, CounterShape]:
        """Each counter by name: its keys, whether it is secret, its first value (shown as
        views show values)."""
        disp = self.program.display
        return {name: CounterShape(tuple("player" if d[0] == "player" else d[1]
                                         for d in info.dims), info.secret,
                                   shown(disp, info.init, info.type), info.type,
                                   _holds(info.type))
                for name, info in self.declared.counters.items()}

    @cached_property
    def dice(self) -> dict[str, DiceShape]:
        """Each set of dice by name: its die, how many, the die's faces (as shown)."""
        out = {}
        for name, d in self.declared.dice.items():
            die = self.declared.dies[d.die]
            out[name] = DiceShape(d.die, d.count, tuple(
                shown(self.program.display, f, die.face_type) for f in die.faces))
        return out

    @cached_property
    def dies(self) -> dict[str, int]:
        """Each die by name (`die d6: 1..6`), with its number of faces."""
        return {name: len(die.faces) for name, die in self.declared.dies.items()}

    @property
    def kinds(self) -> list[str]:
        """The kinds of components, in declaration order."""
        return list(self.declared.kinds)

    def enum(self, name: str) -> list[str]:
        """The values of an enum, in declaration order (as views show them)."""
        if name not in self.declared.enums:
            raise KeyError(f"{self.name} has no enum named {name!r}")
        return list(self.program.display.enums[name][0])

    @property
    def setting_names(self) -> list[str]:
        """The rule file's settings (`setting NAME = ...`), in declaration order."""
        return list(self.declared.settings)

    @property
    def tree(self) -> Any:
        """The syntax tree the rules were compiled from, variants applied (rulesdsl.ast
        `RulesFile`): for tools that read what a rule file says, not a game."""
        return self.declared.tree

    @cached_property
    def has_scores(self) -> bool:
        """Whether a finished game's result has scores: a `score` counter per player, or a
        `rank` line whose first key is a number."""
        score = self.declared.counters.get("score")
        return (score is not None and [d[0] for d in score.dims] == ["player"]) or \
            self.program.score is not None

    @cached_property
    def zones(self) -> dict[str, ZoneShape]:
        return {name: ZoneShape(z.kind, z.per_player, z.visibility)
                for name, z in self.declared.zones.items()}

    @cached_property
    def boards(self) -> dict[str, BoardShape]:
        out = {}
        for name, board in self.declared.boards.items():
            if isinstance(board, TurnBoard):
                continue  # part of its territory: the view shows each tile's turn
            holds = self.declared.holding.get(name)
            out[name] = BoardShape(board, holds if holds is None or isinstance(holds, str)
                                   else holds[1])
        return out

    @cached_property
    def words(self) -> Words:
        """What a screen says of this game's decisions, components and log (words.py)."""
        return Words(self.declared, self.program.display, self.program.sites)

    @cached_property
    def display(self) -> dict[str, Any]:
        """How a screen shows this game (its `display:` blocks), as plain data: see
        `views.screen`. The terminal and the browser page draw a seat's view with it."""
        return screen(self.declared, self.program.display)

    def teams(self, players: int) -> list[list[int]] | None:
        """The seats of each team in a game of that many players (`teams of N`), or None
        when the players play each for themselves."""
        size = self.declared.team_size
        return teams_of(players, size) if size else None

    def components(self, kind: str) -> list[str]:
        """The ids of the components of a kind, in their order (a component's number is
        its place in this list)."""
        if kind not in self.program.display.components:
            raise KeyError(f"{self.name} has no kind of component named {kind!r}")
        return list(self.program.display.components[kind][0])

    def labels(self, kind: str) -> list[str]:
        """The labels of the components of a kind, in the order of `components(kind)`: what
        views call them ("Fire Trilithon", "prize 3")."""
        if kind not in self.program.display.components:
            raise KeyError(f"{self.name} has no kind of component named {kind!r}")
        return list(self.program.display.components[kind][1])

    def tiles(self, board: str) -> dict[str, tuple[list[str], str, list[int]]]:
        """How the tiles of a territory look, by id: their edges' terrains (north, east,
        south, west, as printed), their centre's ("" without one) and the sides where a
        road ends (0 north to 3 west)."""
        shape = self.declared.boards.get(board)
        if not isinstance(shape, TerritoryBoard):
            raise KeyError(f"{self.name} has no territory named {board!r}")
        disp = self.program.display
        return tile_looks(shape, self.declared.kinds[shape.kind],
                          disp.components[shape.kind][0], disp.show)

    def fields(self, kind: str) -> dict[str, list[Any]]:
        """What a kind of component's data says (its printed faces): each field with its
        value for each component, in the order of `components(kind)`, as views show
        values (numbers, yes/no and none as they are, the rest by name: "Water",
        "[Gold]")."""
        info = self.declared.kinds.get(kind)
        if info is None:
            raise KeyError(f"{self.name} has no kind of component named {kind!r}")
        disp = self.program.display
        return {f: [shown(disp, v, info.types[f]) for v in info.columns[f]]
                for f in info.fields}

    def value(self, name: str) -> Any:
        """The value of a constant or setting."""
        if name not in self.declared.values:
            raise KeyError(f"{self.name} has no constant or setting named {name!r}")
        return self.declared.values[name]

    @property
    def stats(self) -> dict[str, bool]:
        """The statistics the rule file declares (`stat ...`), each with whether it is
        kept per player."""
        return dict(self.declared.stats)

    @property
    def payoff(self) -> tuple[int | None, int | None, bool] | None:
        """The rule file's `payoff` line: its bounds (None when it gives none) and whether
        it is zero sum; None when the rule file has none."""
        decl = self.declared.payoff
        return (decl.low, decl.high, decl.zero_sum) if decl is not None else None

    @property
    def examples(self) -> list[str]:
        return [p.name for p in self.declared.procs if p.kind == "example"]



def _holds(t: Any) -> str | None:
    """What a counter of type `t` holds, as `CounterShape.holds` says it."""
    if t == "player":
        return "player"
    if isinstance(t, tuple) and t[0] in ("enum", "comp"):
        return t[1]
    return None
