"""The statements of a rule file's blocks: bindings, changes of the state, the flow of
play, decisions, and the lines of examples.

Stage: the vocabulary every stage shares. `Stmt` is the union of every statement class;
`Target`, `MenuOption` and `Answer` are parts of statements, not statements.
"""

from __future__ import annotations

from ..diagnostics import Span
from .base import Named, Node
from .expressions import Expr, StrLit


class Target(Node):
    """What `set`, `add` and `subtract` change: a counter, per-X counter, or a local."""

    name: str
    of: Expr | None = None


class Let(Named):
    """`let x = e`: bind a local name."""

    name: str
    value: Expr


class LetRoll(Named):
    """`let r = roll d6`: a chance step that rolls a die kind and binds the face."""

    name: str
    die: Expr


class Set(Node):
    """`set score of p = 0`."""

    target: Target
    value: Expr


class Add(Node):
    """`add e to t` (or `subtract e from t`, with `negate`)."""

    target: Target
    amount: Expr
    negate: bool = False


class Place(Node):
    """`place piece at cell`: put a piece (a player's mark, a value) on a board cell;
    `place tile at cell turned 90`: a tile on a territory, turned clockwise."""

    piece: Expr
    cell: Expr
    turn: Expr | None = None


class Clear(Node):
    """`clear cell`: take the piece off a cell."""

    cell: Expr


class Roll(Node):
    """`roll dice`: a chance step for each die in the list (or the one die)."""

    dice: Expr


class Reveal(Node):
    """`reveal dice`: dice of a set declared `owner` or `hidden` show their faces to
    everyone until they are rolled again."""

    dice: Expr


class Win(Node):
    """`win p`: the game ends; p ranks first, everyone else second. `as "words"`: why it
    ended, as a screen says it (the same for `draw` and `end game`)."""

    player: Expr
    reason: str | None = None


class Draw(Node):
    """`draw`: the game ends and every player shares first place."""

    reason: str | None = None


class EndGame(Node):
    """`end game`: the game ends; players are ranked by the `rank` declaration."""

    reason: str | None = None


class EndTurn(Node):
    """`end turn`: leave the body of the innermost `turns` loop; the next player goes."""


class NextTurn(Node):
    """`next turn to P`: the turn after this one is P's, and play goes on from P in the
    direction of the innermost `turns` (this turn is not ended)."""

    player: Expr


class Break(Node):
    """`break`: leave the innermost `repeat`, `while` or `for each`."""


class Say(Node):
    """`say "text {e}" [to P]`: a line in the game's narrated log, told to everyone or
    only to P (a player or a list of players)."""

    text: StrLit
    to: Expr | None = None


class Expect(Node):
    """`expect cond`: in an example, the stated result; elsewhere, a checked assertion."""

    cond: Expr


class Pass(Node):
    """`pass`: do nothing."""


class CallRule(Node):
    """`name(args)`: run a `rule`."""

    name: str
    args: list[Expr]


class Shuffle(Node):
    """`shuffle deck`: put a zone's items in a random order (from the game's seed)."""

    zone: Expr


class Move(Node):
    """`move x from a to b` (or `move x to b`): take a component out of a zone (or of
    wherever it is) and put it last in another."""

    item: Expr
    source: Expr | None
    dest: Expr


class Replay(Node):
    """`play "a1", "b2"` in an example: continue the game, choosing these option ids."""

    choices: list[str]
    choice_spans: list[Span] = []


class Step(Named):
    """`step name:` a named part of a block of rules. Its statements run in place, as if
    written without it (a name they bind stays bound after it): the name is for variants,
    which may replace the step (`change rule ...: step name: ...`)."""

    name: str
    body: list[Stmt]


class BaseCall(Node):
    """`base name(args)`: in a variant, run the version of rule `name` that the file it
    extends has, from the variant's replacement or change of that rule."""

    name: str
    args: list[Expr]


class If(Node):
    """`if c: ... elif c: ... else: ...`."""

    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None = None


class ForEach(Named):
    """`for each x in xs where c: ...`."""

    var: str
    domain: Expr
    where: Expr | None
    body: list[Stmt]


class Repeat(Node):
    """`repeat n times: ...`, or `repeat: ...` until `break`."""

    count: Expr | None
    body: list[Stmt]


class While(Node):
    """`while c: ...`."""

    cond: Expr
    body: list[Stmt]


class Turns(Node):
    """`turns from p going d for n rounds: ...`: players take turns, `current` naming the
    player whose turn it is, for n rounds (each player once a round) or until the game
    ends. From p (player 1 by default), clockwise (seat order) or going d (a Direction,
    `clockwise` or `anticlockwise`, worked out once at the start). `all at once`: every
    seat plays each round at the same time (decisions say which seats have still to play
    the round)."""

    start: Expr | None
    rounds: Expr | None = None
    body: list[Stmt]
    direction: Expr | None = None
    at_once: bool = False


class Choose(Named):
    """`choose x in xs where c by p as "label": ...`: a decision with one option per value.
    Without a body, x stays bound for the rest of the enclosing block. `choose optional`
    adds the option `done`, which binds x to none; `or "label"` is how `done` is shown."""

    var: str
    optional: bool = False
    domain: Expr
    where: Expr | None
    by: Expr | None
    secret: bool = False  # `secretly`: the other players learn that p chose, not what
    label: StrLit | None
    done_label: StrLit | None = None
    body: list[Stmt] | None


class ChooseAny(Named):
    """`choose any x in xs: ...`: a decision whose options are the subsets of xs."""

    var: str
    domain: Expr
    by: Expr | None
    label: StrLit | None
    body: list[Stmt] | None


class MenuOption(Named):
    """One option of a `choose:` menu: `option hold "hold" if c: ...`."""

    id: str
    label: StrLit | None
    cond: Expr | None
    body: list[Stmt]


class ChooseMenu(Node):
    """`choose by p: option ... option ...`: a decision between named options."""

    by: Expr | None
    options: list[MenuOption]


class SecretStep(Named):
    """`each p in players chooses in secret: ... then reveal: ...`: a simultaneous secret
    step. Each seat of the list runs the first block in turn, p naming it; every decision in
    it is that seat's own and secret, and the block changes nothing another seat sees (local
    names, and p's own secret counters), so what a seat chooses is held until every seat has
    chosen. Then the `reveal` block runs for each seat in the same order, p naming it and
    the names the first block bound holding that seat's choices."""

    var: str
    seats: Expr
    body: list[Stmt]
    reveal: list[Stmt] | None = None


class Answer(Node):
    """`accept "label": ...` or `refuse "label": ...`: one answer to an offer, with its
    block."""

    accept: bool
    label: StrLit | None
    body: list[Stmt]


class Offer(Named):
    """`offer x in xs where c by p to q as "label": accept: ... refuse: ...`: a decision of
    two seats. p picks what to offer (one option per value, as `choose`; `offer optional`
    adds `done`, offering nothing), then q accepts or refuses it (options `accept` and
    `refuse`), and the block of that answer runs with x naming the offer."""

    var: str
    optional: bool = False
    domain: Expr
    where: Expr | None
    by: Expr | None
    to: Expr
    label: StrLit | None
    done_label: StrLit | None = None
    answers: list[Answer]


class Point(Named):
    """`point battle`: a named point of the flow, where an example may start the game
    (`example "..." from battle:`)."""

    name: str


class ExpectOptions(Node):
    """`expect options "a", "b"` in an example: the pending decision offers exactly these
    option ids (`include`: at least these; `exclude`: none of these)."""

    mode: str  # "exactly", "include" or "exclude"
    ids: list[str]
    id_spans: list[Span] = []


Stmt = (
    Let | LetRoll | Set | Add | Place | Clear | Roll | Reveal | Win | Draw | EndGame | EndTurn |
    NextTurn | Break |
    Say | Expect | Pass | CallRule | Replay | Shuffle | Move | If | ForEach | Repeat | While |
    Turns | Choose | ChooseAny | ChooseMenu | Step | BaseCall | SecretStep | Offer | Point |
    ExpectOptions
)
