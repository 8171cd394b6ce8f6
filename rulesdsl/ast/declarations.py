"""The declarations of a rule file (what its top-level lines declare), the edits of a
variant (`extends`, `replace`, `remove`, `change`), and the whole file.

Stage: the vocabulary every stage shares. `Decl` is the union of every declaration class.
"""

from __future__ import annotations

from ..diagnostics import Span
from .base import Named, Node
from .expressions import Expr, Name, StrLit
from .statements import Let, LetRoll, Step, Stmt


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
    """`dice hand: 5 d6`: a set of dice of one kind, each keeping the face it shows;
    `dice cup per player: 5 d6 owner` gives each player a set that only its player sees
    (`hidden`: nobody), until `reveal` shows it."""

    name: str
    count: int
    die: str
    per_player: bool = False
    visibility: str = "public"
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
      component at the value its counter (kept per component) holds;
    - `pass forced [in rule [name]]`: a decision with a single option (of that rule, or
      that choice of it) is taken without asking a person; bots and records still see it."""

    what: str             # hide, label, cells, group, glyph, owner, ring, feature, mark, ask,
    #                       tell, pass
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
