"""Playing at the terminal: a person picks numbered options for their seats, bots take
the others. Boards are drawn as grids; the player sees only their own view.

Commands at the prompt: a number or an option id; `save FILE` writes the game so that
`rulesdsl play --load FILE` resumes it; `quit` leaves.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from .check.types import Type
from .diagnostics import RulesError
from .interpreter.boards import LETTERS, SquareBoard
from .interpreter.game import Game, Rules
from .interpreter.views import HIDDEN
from .runner import describe_result


def draw_boards(game: Game, player: int) -> list[str]:
    """Square boards as grids; other boards row by row, naming what stands on each cell."""
    a = game.rules.analysis
    disp = game.program.display
    lines = []
    for name, board in a.boards.items():
        cells = game.st.b[a.board_index[name]]
        holds = a.holding.get(name, "any")

        def mark(piece: object, holds: Type = holds) -> str:
            if piece is None:
                return "."
            if holds in ("player", "any") and isinstance(piece, int) \
                    and not isinstance(piece, bool):
                return str(piece + 1)
            return disp.show(piece, holds)

        lines.append(f"{name}:")
        if isinstance(board, SquareBoard):
            for y in reversed(range(board.height)):
                row = [mark(cells[board.index(x, y)])[:2] for x in range(board.width)]
                lines.append(f"{y + 1:>3} " + " ".join(f"{c:>1}" for c in row))
            lines.append("    " + " ".join(LETTERS[:board.width]))
            if isinstance(holds, tuple) and holds[0] == "comp":
                lines += _pieces(game, board, cells, holds[1])
            continue
        rows: dict[str, list[str]] = {}
        for c, cell in enumerate(board.names):
            rows.setdefault(cell[0], []).append(
                f"{cell}={mark(cells[c])}" if cells[c] is not None else f"{cell} .")
        for row in rows.values():
            lines.append("    " + "  ".join(row))
    return lines


def _pieces(game: Game, board: object, cells: list, kind: str) -> list[str]:
    """Each component on a board, with the counters kept per component of its kind
    (a unit's owner and hit points, say)."""
    names = getattr(board, "names", [])
    return [f"    {names[c]}: {_component(game, kind, piece, changed_only=False)}"
            for c, piece in enumerate(cells) if piece is not None]


def _component(game: Game, kind: str, c: int, changed_only: bool) -> str:
    """A component's label and, in brackets, the counters kept per component of its kind
    (not the secret ones; with `changed_only`, those that have left their first value)."""
    st, disp = game.st, game.program.display
    facts = ", ".join(
        f"{info.name} {disp.show(st.v[info.base + c], info.type)}"
        for info in game.rules.analysis.counters.values()
        if [d[0] for d in info.dims] == ["kind"] and info.dims[0][1] == kind
        and not info.secret and not (changed_only and st.v[info.base + c] == info.init))
    label = disp.show(c, ("comp", kind))
    return f"{label} ({facts})" if facts else label


def show_state(game: Game, player: int) -> list[str]:
    view = game.view(player)
    lines = draw_boards(game, player)
    counters = game.rules.analysis.counters
    disp = game.program.display

    def show(value: object, t: Type) -> str:
        return str(value) if value == HIDDEN else disp.show(value, t)

    for name, value in view["counters"].items():
        info = counters[name]
        if any(d[0] == "kind" for d in info.dims):
            continue  # shown with each component, on its board or in its zone
        if isinstance(value, list):
            rows = [", ".join(show(x, info.type) for x in v) if isinstance(v, list)
                    else show(v, info.type) for v in value]
            text = "; ".join(rows) if info.dims[0][0] != "player" else "; ".join(
                f"player {p + 1}: {row}" for p, row in enumerate(rows))
        else:
            text = show(value, info.type)
        lines.append(f"{name}: {text}")
    for name, faces in view["dice"].items():
        lines.append(f"{name}: {' '.join(str(f) for f in faces)}")
    lines += _zones(game, player)
    return lines


def _zones(game: Game, player: int) -> list[str]:
    """Each zone that holds something, as the player sees it: its components, each with the
    counters kept per component that have left their first value; a hidden zone by its
    size."""
    st = game.st
    lines = []
    for name, zone in game.rules.analysis.zones.items():
        for owner in (range(st.np) if zone.per_player else [None]):
            items = st.z[zone.base + (owner or 0)]
            if not items:
                continue  # an empty zone says nothing
            title = name if owner is None else f"{name} of player {owner + 1}"
            seen = zone.visibility == "public" or (
                zone.visibility == "owner" and owner == player)
            if not seen:
                lines.append(f"{title}: {len(items)} hidden")
                continue
            shown = (_component(game, zone.kind, c, changed_only=True) for c in items)
            lines.append(f"{title}: {', '.join(shown)}")
    return lines


def read_save(rules: Rules, path: str) -> Game:
    """A game saved at the prompt with `save FILE`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError([_diag(f"no such saved game: {path}")]) from None
    except (OSError, ValueError) as err:
        raise RulesError([_diag(f"cannot read the saved game {path}: {err}")]) from None
    except RecursionError:
        raise RulesError([_diag(f"cannot read the saved game {path}: its lists are nested "
                                "too deep")]) from None
    return rules.load_game(data)


def play_at_terminal(game: Game, agents: list, seats: set[int],
                     stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play `game` to its end: the person answers for `seats`, `agents` for the others."""
    # looked up at call time, not import time, so a replaced sys.stdin/sys.stdout is used
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    rules = game.rules

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    game.st.auto = False
    if game.st.log is None:
        game.st.log = []
    said = len(game.log)
    say(f"{rules.name}: you play seat{'s' if len(seats) > 1 else ''} "
        + ", ".join(str(s + 1) for s in sorted(seats)))
    while not game.over:
        for text in game.log[said:]:
            say(f"  {text}")
        said = len(game.log)
        if game.is_chance:
            chance = game.chance
            assert chance is not None
            i = game.st.rand(len(chance.outcomes))
            say(f"  chance: {chance.outcomes[i][0].label}")
            game.roll_chance(i)
            continue
        decision = game.decision
        assert decision is not None
        who = decision.player
        if who not in seats:
            i = agents[who].choose(game)
            site = game.program.sites[game.st.pending[0]]  # type: ignore[index]
            told = "chooses in secret" if site.secret else decision.options[i].label
            say(f"  player {who + 1} ({agents[who].name}): {told}")
            game.apply_index(i)
            continue
        say()
        for line in show_state(game, who):
            say(line)
        say(f"player {who + 1}, your choice:")
        for n, opt in enumerate(decision.options, start=1):
            say(f"  {n:>3}. {opt.label}   [{opt.id}]")
        while True:
            stdout.write("> ")
            stdout.flush()
            answer = stdin.readline()
            if not answer:
                say("\nend of input: the game is left unfinished")
                return 1
            answer = answer.strip()
            if answer == "quit":
                say("game left unfinished")
                return 0
            if answer.startswith("save "):
                target = answer[5:].strip()
                try:
                    Path(target).write_text(json.dumps(game.to_json()), encoding="utf-8")
                    say(f"saved to {target}; resume with: rulesdsl play "
                        f"{rules.path} --load {target}")
                except OSError as err:
                    say(f"cannot save to {target}: {err}")
                continue
            ids = [o.id for o in decision.options]
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                chosen = int(answer) - 1
            elif answer in ids:
                chosen = ids.index(answer)
            else:
                chosen = -1
            if chosen >= 0:
                say(f"  player {who + 1} (you): {decision.options[chosen].label}")
                game.apply_index(chosen)
                break
            say(f"  type a number from 1 to {len(decision.options)}, an option id, "
                "'save FILE' or 'quit'")
    for text in game.log[said:]:
        say(f"  {text}")
    for line in describe_result(game):
        say(line)
    return 0


def _diag(message: str):  # type: ignore[no-untyped-def]
    from .diagnostics import Diagnostic

    return Diagnostic("G001", message)
