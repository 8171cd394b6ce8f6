"""The typed AST of a rule file: frozen pydantic models, each with its source span.

Stage: produced by `rulesdsl.grammar` (parse), read by `rulesdsl.check` (static checks)
and `rulesdsl.interpreter.compiler` (compile). The runtime never walks these models.
`to_json` exports a tree as plain data (`rulesdsl ast FILE`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Self, get_args

from pydantic import BaseModel, ConfigDict

from . import diagnostics
from .diagnostics import Span


class Node(BaseModel):
    """Base of every node: immutable, with the span it was parsed from."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    span: Span

    @classmethod
    def make(cls, **fields: Any) -> Self:
        """A node of fields whose types the caller guarantees (the parser's builder, the
        merging of variants), not validated: the same node as `cls(**fields)` gives, without
        the cost of building the classes' validators when a command starts (a tenth of a
        second) nor of validating each node. A field left out takes its
        default; an unknown or missing field is an error, as it would be when validated.
        Tests check the guarantee (`diagnostics.VALIDATE_MADE`)."""
        if diagnostics.VALIDATE_MADE:
            return cls(**fields)
        values: dict[str, Any] = {}
        for key, default in _defaults(cls).items():
            if key in fields:
                values[key] = fields[key]
            elif default is _REQUIRED:
                raise TypeError(f"{cls.__name__} needs its field {key!r}")
            else:  # a list or dict default is copied, as pydantic copies it
                values[key] = default if type(default) in _PLAIN else copy.deepcopy(default)
        if len(values) < len(fields):
            raise TypeError(f"{cls.__name__} has no field {(fields.keys() - values.keys())}")
        return diagnostics.unvalidated(cls, values, set(fields))


_REQUIRED = object()
_DEFAULTS: dict[type, dict[str, Any]] = {}


def _defaults(cls: type[Node]) -> dict[str, Any]:
    """Each field of a node class, in order, with its default (_REQUIRED for none)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = {}
        for key, f in cls.model_fields.items():
            if f.default_factory is not None:  # none has one: `make` would not call it
                raise TypeError(f"{cls.__name__}.{key} has a default factory")
            found[key] = _REQUIRED if f.is_required() else f.default
    return found


class Named(Node):
    """A node that declares or binds a name (a declaration, `let`, a loop or choice
    variable): `name_span` is where the name itself is written, for editors (None when
    the node was not parsed from text)."""

    name_span: Span | None = None


# ---- expressions ---------------------------------------------------------------------


class IntLit(Node):
    """An integer literal: `3`."""

    value: int


class StrLit(Node):
    """A string, possibly with `{expr}` holes: `"mark {c}"`. Parts alternate text and
    expressions in order."""

    parts: list[str | Expr]


class BoolLit(Node):
    """`true` or `false`."""

    value: bool


class NoneLit(Node):
    """`none`: no value (an empty cell holds none)."""


class PlayerLit(Node):
    """`player 2`: a seat, numbered from 1."""

    number: int


class Name(Node):
    """A name: a local, a constant, a setting, a counter, a board, a cell, an enum value
    or a built-in such as `current` and `players`."""

    name: str


class Call(Node):
    """A call of a built-in function or a `define`: `lines(grid, 3)`."""

    func: str
    args: list[Expr]


class ListLit(Node):
    """A list: `[1, 2, 3]`."""

    items: list[Expr]


class Of(Node):
    """`score of p`: a per-player counter of a player, a die's `face`, a cell's `piece`."""

    attr: str
    obj: Expr


class Index(Node):
    """`xs[i]`: the i-th item of a list, counted from 1."""

    obj: Expr
    index: Expr


class Unary(Node):
    """`-x` or `not x`."""

    op: str
    operand: Expr


class Binary(Node):
    """Arithmetic (`+ - * / %`), comparison, `and`, `or`, `in`, `not in`, range `a..b`."""

    op: str
    left: Expr
    right: Expr


class IsEmpty(Node):
    """`c is empty` / `c is not empty`: a cell without a piece, or a list without items."""

    operand: Expr
    negated: bool


class Cond(Node):
    """`if test then a else b`."""

    test: Expr
    then: Expr
    otherwise: Expr


class TupleLit(Node):
    """`(p, c)`: the key of a counter kept per two things: `used of (current, c)`."""

    items: list[Expr]


class ListComp(Named):
    """`[e for x in xs where c]`: a new list."""

    expr: Expr
    var: str
    domain: Expr
    where: Expr | None


class Quantifier(Named):
    """`count(x in xs where c)`, also `any`, `all`, `first`, `filter`."""

    kind: str
    var: str
    domain: Expr
    where: Expr | None


class Aggregate(Named):
    """`sum(e for x in xs where c)`, also `max`, `min`."""

    kind: str
    expr: Expr
    var: str
    domain: Expr
    where: Expr | None


class Sort(Named):
    """`sort(x in xs where c by key)`: the items of xs (those meeting c), ordered by the key
    (smallest first; ties keep their order). `sort(xs)` without a key is a call of the
    built-in function."""

    var: str
    domain: Expr
    where: Expr | None
    key: Expr


Expr = (
    IntLit | StrLit | BoolLit | NoneLit | PlayerLit | Name | Call | ListLit | Of | Index |
    Unary | Binary | IsEmpty | Cond | Quantifier | Aggregate | TupleLit | ListComp | Sort
)


# ---- statements ----------------------------------------------------------------------


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


class Win(Node):
    """`win p`: the game ends; p ranks first, everyone else second."""

    player: Expr


class Draw(Node):
    """`draw`: the game ends and every player shares first place."""


class EndGame(Node):
    """`end game`: the game ends; players are ranked by the `rank` declaration."""


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
    Let | LetRoll | Set | Add | Place | Clear | Roll | Win | Draw | EndGame | EndTurn | NextTurn |
    Break |
    Say | Expect | Pass | CallRule | Replay | Shuffle | Move | If | ForEach | Repeat | While |
    Turns | Choose | ChooseAny | ChooseMenu | Step | BaseCall | SecretStep | Offer | Point |
    ExpectOptions
)


# ---- declarations --------------------------------------------------------------------


class GameDecl(Node):
    """`game "Name"`."""

    name: str


class PlayersDecl(Node):
    """`players 2` or `players 1 to 4`."""

    low: int
    high: int


class LimitDecl(Node):
    """`limit 500 decisions`: a game that has not ended by itself after this many
    decisions ends there, as a draw that says so (`Result.ended_by == "limit"`)."""

    decisions: int | str  # a number, or the name of a constant or setting


class ConstDecl(Named):
    """`const GOAL = 100`."""

    name: str
    value: Expr


class SettingDecl(Named):
    """`setting GOAL = 100 between 10 and 1000`: a constant a player may change."""

    name: str
    value: Expr
    low: Expr | None = None
    high: Expr | None = None


class CounterDecl(Named):
    """`counter score per player = 0`: a number (or flag) in the game state. Each `per`
    is `player`, an enum, a dice set or a kind, or a range of numbers written as it is in
    the file, `LOW..HIGH` (each a number or a constant: `per 2..12`, `per 1..COLUMNS`)."""

    name: str
    per: list[str]
    init: Expr
    low: Expr | None = None
    high: Expr | None = None
    secret: bool = False
    holding: str | None = None  # `= none holding player`: what it holds once set
    refs: list[Name] = []  # the other declarations it names, where they are written


class StatDecl(Named):
    """A statistic for `rulesdsl simulate` and `report`, never part of the game. `stat
    battles` (or `stat kills per player`) is a tally that starts at 0 and that the rules
    change with `add`, `subtract` and `set`, but never read (examples may); `stat left =
    count(...)` is measured when the game ends, and `stat held of p = ...` too, for each
    player p."""

    name: str
    per: str | None = None    # `per player`: a tally for each player
    var: str | None = None    # `of p`: measured for each player, p naming the player
    value: Expr | None = None


class BoardDecl(Named):
    """A board. `board grid: square 3 x 3`: a grid of cells named a1, b1, ... (column
    letter, row). `board city: hexagon 3 of triangles`: a hexagon of triangles, 3 along each
    edge, named A1, A2, ... by rows from the top. `board crossings: corners of city`: the
    corners of those triangles as a board of their own, named a1, a2, ...
    `board outer: ring 36`: positions round a circle, outer1 to outer36 (shape "ring"); with
    `open` after the size, along an arc whose ends are not neighbours (shape "arc")."""

    name: str
    shape: str = "square"
    width: int | str = 0   # a number, or the name of a constant or setting
    height: int | str = 0
    adjacency: str = "orthogonal"
    of: str | None = None
    holding: str | None = None  # what its cells hold: player, a kind or an enum
    refs: list[Name] = []  # the other declarations it names, where they are written
    # a territory of tiles (`shape` "territory", `of` the kind of its tiles): one per
    # player or shared, the kind's fields for its four edges (north, east, south, west),
    # its centre, its roads and its road groups
    per_player: bool = False
    edges: list[str] = []
    centre: str | None = None
    roads: str | None = None
    groups: str | None = None


class Each(Node):
    """`each xs` in a row of a kind: the row stands for one component per item of xs (with
    several `each`, one per combination, the first varying slowest: a deck as rank x suit)."""

    items: Expr


class KindRow(Node):
    """One row of a kind's table: its values, and how many such components there are. A
    value may be `each LIST` (a product of rows) and a text may name the row's other fields
    in braces: `"{rank} of {suit}"`."""

    count: int | str  # a number, or the name of a constant or setting
    values: list[Expr | Each]
    refs: list[Name] = []  # the other declarations it names, where they are written


class DataSource(Node):
    """`from "file.yaml" key.path`: a kind's rows read from a YAML data file beside the rule
    file (a list of mappings, one per component, its keys the kind's fields); `N x` before
    it makes N components of each row; `and "other.yaml" key` reads further files."""

    path: str
    key: list[str] = []
    more: list[list[str]] = []  # `from "tiles.yaml" castles, tiles`: further lists of rows
    count: int | str = 1
    refs: list[Name] = []  # the other declarations it names, where they are written
    # `from "tiles.yaml" tiles and "druids.yaml" druids`: the rows of further files, after
    # these (each named relative to the same rule file, with its own span)
    also: list[DataSource] = []


class KindDecl(Named):
    """`kind Rhomb(name, point, side):` and a table of rows: the components of the game.
    With `source`, the rows come from a data file (the resolve stage reads it into `rows`).
    A kind with a field `faces` (a list per row) is a kind of die: `let r = roll d`."""

    name: str
    fields: list[str]
    rows: list[KindRow]
    field_spans: list[Span] = []
    source: DataSource | None = None
    defaults: dict[str, Expr] = {}  # with `source`: the value of a field a row leaves out


class ZoneDecl(Named):
    """`zone deck: Rhomb hidden`: an ordered collection of components (a deck, a hand, a
    pile); `per player` gives each player one; hidden (nobody sees the items), owner (its
    player sees them), public."""

    name: str
    per_player: bool
    kind: str
    visibility: str = "public"
    refs: list[Name] = []  # the other declarations it names, where they are written


class TriggerDecl(Named):
    """`as soon as x in xs where cond: ...`: after every change of the game, for each x
    that meets cond, the block runs (until no x meets it)."""

    var: str
    domain: Expr
    where: Expr
    body: list[Stmt]


class EnumValue(Named):
    """One value of an enum, with an optional readable label, and its fields' values when
    the enum is a table (`Scion, 4, 2`)."""

    name: str
    label: str | None = None
    fields: list[Expr] = []


class EnumDecl(Named):
    """`enum Category: Ones, Twos, FullHouse "Full House"`; or a table whose rows are the
    values, each with its fields: `enum Unit(hit_points, cost):` then `Scion, 4, 2` per
    line (read with `hit_points of u`)."""

    name: str
    values: list[EnumValue]
    fields: list[str] = []
    field_spans: list[Span] = []


class DieDecl(Named):
    """`die d6: faces 1..6`: a kind of die; each face equally likely."""

    name: str
    faces: Expr


class DiceDecl(Named):
    """`dice hand: 5 d6`: a set of dice of one kind, each keeping the face it shows."""

    name: str
    count: int
    die: str
    refs: list[Name] = []  # the other declarations it names, where they are written


class DefineDecl(Named):
    """`define points(c) = ...`: a named, pure expression."""

    name: str
    params: list[str]
    body: Expr
    param_spans: list[Span] = []


class RuleDecl(Named):
    """`rule name(params): ...`: a named block of statements."""

    name: str
    params: list[str]
    body: list[Stmt]
    param_spans: list[Span] = []


class SetupDecl(Node):
    """`setup: ...`: runs once before play."""

    body: list[Stmt]


class PlayDecl(Node):
    """`play: ...`: the flow of the game."""

    body: list[Stmt]


class RankDecl(Named):
    """`rank p by score of p, ...`: how `end game` orders players (higher is better); in a
    game of teams, `rank team t by ...` orders the teams, t naming the list of a team's
    players."""

    var: str
    keys: list[Expr]
    team: bool = False


class TeamsDecl(Node):
    """`teams of 2`: the seats play in teams of that size, teammates spread evenly round
    the table (with 4 players: seats 1 and 3 against seats 2 and 4); they share their
    team's rank."""

    size: int


class HeuristicDecl(Named):
    """`heuristic p by EXPR`: how well each player stands, for bots that cut their
    look-ahead short (higher is better); it changes nothing in the game."""

    var: str
    value: Expr


class PayoffDecl(Named):
    """`payoff p by EXPR between LOW and HIGH zero sum`: what each player p is paid when
    the game ends (its chips, its score, its team's total), for tools that want payoffs
    rather than a ranking (the OpenSpiel and PettingZoo adapters). The bounds, when
    given, are what any payoff lies within; `zero sum` says the payoffs always add up to
    0. Both are checked at the end of every game; the payoff changes nothing in it."""

    var: str
    value: Expr
    low: Expr | None = None
    high: Expr | None = None
    zero_sum: bool = False


class ExampleDecl(Named):
    """`example "name" with 2 players, seed 3 from battle: ...`: an executable worked
    example; with `from`, its game starts at that point of the flow."""

    name: str
    players: int | None = None
    seed: int | None = None
    body: list[Stmt]
    start: str | None = None  # `from battle`: the point of the flow the game starts at
    start_span: Span | None = None


class DisplayItem(Node):
    """One line of a `display:` block:
    - `hide a, b`: counters or zones the screen does not draw (the rules' bookkeeping);
    - `label a "text"`: what the screen calls a counter or zone; `label Kind by field`:
      each component of a kind called by the value of one of its fields; `label board
      cells "noun"`: the cells of a board called "noun 1", "noun 2", ...;
    - `feature Kind field "g" "word"`: a component whose field holds a number above 0 is
      drawn with the glyph g (once per unit) and described by the word;
    - `mark name "g" "word"`: the cells a constant or a definition without parameters
      lists (parks, guards) marked g on their board, "word" in its legend;
    - `seat marks "X", "O"`, `seat colours "blue", "red"`: each seat's mark on a board
      that holds players, and its colour (text: marks or colours; glyphs: one per seat);
    - `ask rule [name] "text"`: the question a decision of a rule asks (the choice naming
      `name`, or every decision of the rule);
    - `tell rule [name] "text"`: how a screen tells everyone of a decision, after the
      chooser's name (`{choice}`: what was chosen; `or "text"`: when it is `done`);
    - `group "title": a, b`: things drawn together under a title, in this order;
    - `glyph Kind by field: Value "g", ...`: the mark of a piece on a board, by the value of
      one of its fields (or `glyph Enum: Value "g"` for boards holding an enum's values);
    - `owner Kind by counter`: the counter (kept per component) that holds its owner;
    - `ring zone by counter`: the zone drawn as a ring of the values of an enum, each
      component at the value its counter (kept per component) holds."""

    what: str             # hide, label, cells, group, glyph, owner, ring, feature, mark, ask,
    #                       tell
    names: list[Name]     # what it is about: counters, zones, a kind, an enum, a rule
    text: str | None = None    # the label, the group's title, the question or told line
    by: Name | None = None     # glyph, label: the field; owner, ring: the counter
    glyphs: list[tuple[Name, str]] = []
    done: str | None = None    # tell: the line for `done`; feature, mark: the glyph


class DisplayDecl(Node):
    """`display:` how a screen shows the game (the terminal, later a browser page): never
    what the rules do, nor what a seat may see. Several blocks add up (a variant adds its
    own lines; a later label or glyph wins)."""

    items: list[DisplayItem]


Decl = (
    GameDecl | PlayersDecl | ConstDecl | SettingDecl | CounterDecl | BoardDecl | EnumDecl |
    DieDecl | DiceDecl | DefineDecl | RuleDecl | SetupDecl | PlayDecl | RankDecl |
    HeuristicDecl | ExampleDecl | KindDecl | ZoneDecl | TriggerDecl | DisplayDecl | TeamsDecl |
    LimitDecl | StatDecl | PayoffDecl
)


class Extends(Node):
    """`extends "pig.rules"`: this file is a variant of another (a path relative to it);
    `extends game "cromlech/hardcore"`: of a shipped game, named as the catalogue names it
    (catalogue.py), which `path` then holds."""

    path: str
    game: bool = False


class Replace(Node):
    """`replace <declaration>`: in a variant, the base's declaration of that name, changed."""

    decl: Decl


class Remove(Node):
    """`remove rule bonus`, `remove example "..."`: in a variant, a declaration taken out."""

    what: str
    name: str | None
    refs: list[Name] = []  # the other declarations it names, where they are written


class Hook(Node):
    """In `change`: statements added `at start` or `at end` of the declaration's body, or
    `before`, `after` or `instead of` the one statement of it that reads like `anchor`."""

    place: str  # start, end, before, after, instead
    anchor: Stmt | None = None
    body: list[Stmt]


class OptionEdit(Named):
    """In `change`: `option id ["label"] [if cond] [: body]` gives a menu option of the base
    a new label, condition or body (what is not given stays); `add option ...:` adds one to
    the menu; `remove option id` takes it out."""

    id: str
    label: StrLit | None = None
    cond: Expr | None = None
    body: list[Stmt] | None = None
    action: str = "edit"  # edit, add, remove


class ValueEdit(Node):
    """In `change`: `replace OLD with NEW`, the one expression of the declaration that reads
    like OLD (a condition, a number, a text) becomes NEW."""

    old: Expr
    new: Expr


Edit = Hook | Step | Let | LetRoll | OptionEdit | ValueEdit


class Change(Node):
    """`change rule name:` (or `play`, `setup`, `example "name"`): in a variant, edits of the
    base's declaration, without copying the rest: statements at its start or end, before,
    after or instead of one of its statements, a named `step` replaced, the value of a `let`,
    a menu option, one expression replaced by another."""

    what: str
    name: str | None
    edits: list[Edit]
    refs: list[Name] = []  # the other declarations it names, where they are written


class RulesFile(Node):
    """A whole rule file."""

    path: str
    items: list[Decl | Extends | Replace | Remove | Change]


# the nodes' schemas are built when a node is first made (defer_build), not at import:
# commands that never parse a rule file (--help, replay of a record) start faster


def copy_tree(node: Any) -> Any:
    """A copy of a tree made of new nodes (its spans, being immutable, are shared): what a
    deep copy gives the checker, which types each copy of a definition on its own, at a
    fraction of the cost."""
    return map_spans(node, lambda span: span)


_set = object.__setattr__


def updated(model: Any, updates: dict[str, Any]) -> Any:
    """A copy of a frozen model with some fields replaced, as `model_copy(update=...)`
    makes it (no validation) at less than half the cost: it runs for every node and span
    of a declaration that moved (the language server moves thousands after an edit)."""
    new = model.__class__.__new__(model.__class__)
    _set(new, "__dict__", {**model.__dict__, **updates})
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__ | updates.keys())
    _set(new, "__pydantic_extra__", model.__pydantic_extra__)
    _set(new, "__pydantic_private__", model.__pydantic_private__)
    return new


_PLAIN = (str, int, bool, type(None))
_PLACED: dict[type, tuple[str, ...]] = {}


def _placed_fields(cls: type[Node]) -> tuple[str, ...]:
    """The fields of a node class that may hold spans or nodes (not only text and numbers)."""
    found = _PLACED.get(cls)
    if found is None:
        def plain(t: Any) -> bool:
            args = get_args(t)
            return all(plain(a) for a in args) if args else t in _PLAIN

        found = _PLACED[cls] = tuple(k for k, f in cls.model_fields.items()
                                     if not plain(f.annotation))
    return found


def to_json(node: Any) -> Any:
    """Plain-data form of a tree: each node a dict with its class under "node"."""
    if isinstance(node, Node):
        out: dict[str, Any] = {"node": type(node).__name__}
        for key in type(node).model_fields:
            out[key] = to_json(getattr(node, key))
        return out
    if isinstance(node, Span):
        return [node.line, node.column, node.end_line, node.end_column]
    if isinstance(node, (list, tuple)):
        return [to_json(v) for v in node]
    if isinstance(node, dict):   # a kind's values for left-out fields
        return {k: to_json(v) for k, v in node.items()}
    return node


def map_spans(node: Any, move: Callable[[Span], Span]) -> Any:
    """A copy of a tree (a node, or lists and tuples of them) with every span, name span
    and parameter span passed through `move`: for expressions parsed from inside a string,
    and declarations parsed on their own and moved to their line in the file."""
    if isinstance(node, Span):
        return move(node)
    if isinstance(node, Node):
        fields = node.__dict__
        return updated(node, {key: map_spans(fields[key], move)
                              for key in _placed_fields(type(node))
                              if fields[key] is not None})
    if isinstance(node, list):
        return [map_spans(v, move) for v in node]
    if isinstance(node, tuple):
        return tuple(map_spans(v, move) for v in node)
    if isinstance(node, dict):
        return {k: map_spans(v, move) for k, v in node.items()}
    return node
