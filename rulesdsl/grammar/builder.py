"""Parse tree -> AST: a lark Transformer that builds the typed nodes of `rulesdsl.ast`.

Stage: parse. lark's trees and tokens never leave `rulesdsl.grammar`. Nodes are made with
`Node.make`, without pydantic's validation: the builder gives every field its type (text as
`str`, never a lark token), and tests/test_start.py compares each game's tree with the one
validation makes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Transformer, v_args

from .. import ast as A
from ..diagnostics import Span
from ..limits import MAX_DIGITS
from .display import DisplayBuilder, StringError

ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "{": "{", "}": "}"}


class AstBuilder(DisplayBuilder, Transformer):
    """Builds AST nodes bottom-up, a method per rule of the grammar: here the rules that
    do more than hand their children to a node (strings decoded, names and their places
    kept, optional parts defaulted); the others are made from the tables NODES and
    PASSED below. `parse_expr` parses the `{...}` holes of strings."""

    def __init__(self, path: str, parse_expr: Callable[[str, int, int], Any],
                 at: tuple[int, int] | None = None):
        super().__init__()
        self.path = path
        self.parse_expr = parse_expr
        # for the expression of a string's `{...}`, parsed on its own: the line of the
        # string and the column its text starts at, where each place is moved to
        self.at = at

    # ---- helpers -------------------------------------------------------------------

    def span(self, meta: Any) -> Span:
        if self.at is not None:
            if getattr(meta, "empty", True):
                return self.moved(1, 1)
            return self.moved(meta.column, meta.end_column)
        if getattr(meta, "empty", True):
            return Span.make(file=self.path)
        return Span.make(file=self.path, line=meta.line, column=meta.column,
                         end_line=meta.end_line, end_column=meta.end_column)

    def tok_span(self, tok: Token) -> Span:
        if self.at is not None:
            return self.moved(tok.column or 1, tok.end_column or tok.column or 1)
        return Span.make(file=self.path, line=tok.line or 1, column=tok.column or 1,
                         end_line=tok.end_line or tok.line or 1,
                         end_column=tok.end_column or tok.column or 1)

    def moved(self, column: int, end_column: int) -> Span:
        """The place in the file of columns of a `{...}` expression parsed on its own."""
        assert self.at is not None
        line, col = self.at
        return Span.make(file=self.path, line=line, column=column + col - 1, end_line=line,
                         end_column=end_column + col - 1)

    def refs(self, *toks: Any) -> list[A.Name]:
        """The names of other declarations among a declaration's tokens, with their places."""
        return [A.Name.make(span=self.tok_span(t), name=str(t)) for t in toks
                if isinstance(t, Token) and t.type == "NAME"]

    def string(self, tok: Token) -> A.StrLit:
        """A string literal, its escapes decoded and its `{expr}` holes parsed."""
        raw = str(tok)[1:-1]
        base = self.tok_span(tok)
        if "\\" not in raw and "{" not in raw and "}" not in raw:  # most strings: plain text
            return A.StrLit.make(span=base, parts=[raw])
        parts: list[str | A.Expr] = []
        text: list[str] = []
        i = 0

        def here(width: int = 1) -> Span:  # the place of the character at i
            col = base.column + 1 + i
            return Span.make(file=self.path, line=base.line, column=col,
                             end_line=base.line, end_column=col + width)

        while i < len(raw):
            ch = raw[i]
            col = base.column + 1 + i
            if ch == "\\":
                nxt = raw[i + 1] if i + 1 < len(raw) else ""
                if nxt not in ESCAPES:
                    raise StringError(f"unknown escape '\\{nxt}' in a string", here(2))
                text.append(ESCAPES[nxt])
                i += 2
            elif ch == "{":
                close = raw.find("}", i)
                if close < 0:
                    raise StringError("'{' in a string is not closed by '}'", here())
                if text:
                    parts.append("".join(text))
                    text = []
                inner = raw[i + 1:close]
                parts.append(self.parse_expr(inner, base.line, col + 1))
                i = close + 1
            elif ch == "}":
                raise StringError("'}' in a string without '{' (write '\\}')", here())
            else:
                text.append(ch)
                i += 1
        if text or not parts:
            parts.append("".join(text))
        return A.StrLit.make(span=base, parts=parts)

    def plain(self, tok: Token) -> str:
        """A string literal used as plain text (labels, option ids): no holes allowed."""
        lit = self.string(tok)
        if any(not isinstance(p, str) for p in lit.parts):
            raise StringError("this string cannot contain {...}", lit.span)
        return "".join(p for p in lit.parts if isinstance(p, str))

    # ---- the statements that end the game, with the words of why ------------------------

    @v_args(meta=True)
    def win_stmt(self, meta: Any, c: list) -> A.Win:
        return A.Win.make(span=self.span(meta), player=c[0], reason=self.reason(c[1]))

    @v_args(meta=True)
    def draw_stmt(self, meta: Any, c: list) -> A.Draw:
        return A.Draw.make(span=self.span(meta), reason=self.reason(c[0]))

    @v_args(meta=True)
    def end_game_stmt(self, meta: Any, c: list) -> A.EndGame:
        return A.EndGame.make(span=self.span(meta), reason=self.reason(c[0]))

    def reason(self, tok: Token | None) -> str | None:
        return self.plain(tok) if tok is not None else None

    # ---- file and declarations -------------------------------------------------------

    @v_args(meta=True)
    def start(self, meta: Any, items: list) -> A.RulesFile:
        return A.RulesFile.make(span=self.span(meta), path=self.path, items=items)

    @v_args(meta=True)
    def extends_decl(self, meta: Any, c: list) -> A.Extends:
        return A.Extends.make(span=self.span(meta), path=self.plain(c[0]))

    @v_args(meta=True)
    def extends_game_decl(self, meta: Any, c: list) -> A.Extends:
        return A.Extends.make(span=self.span(meta), path=self.plain(c[0]), game=True)

    @v_args(meta=True)
    def remove_decl(self, meta: Any, c: list) -> A.Remove:
        name = c[1]
        if isinstance(name, Token) and name.type == "STRING":
            name = self.plain(name)
        return A.Remove.make(span=self.span(meta), what=str(c[0]),
                             name=str(name) if name is not None else None, refs=self.refs(c[1]))

    @v_args(meta=True)
    def game_decl(self, meta: Any, c: list) -> A.GameDecl:
        return A.GameDecl.make(span=self.span(meta), name=self.plain(c[0]))

    @v_args(meta=True)
    def players_decl(self, meta: Any, c: list) -> A.PlayersDecl:
        low = _int(c[0])
        high = _int(c[1]) if c[1] is not None else low
        return A.PlayersDecl.make(span=self.span(meta), low=low, high=high)

    @v_args(meta=True)
    def teams_decl(self, meta: Any, c: list) -> A.TeamsDecl:
        return A.TeamsDecl.make(span=self.span(meta), size=_int(c[0]))

    @v_args(meta=True)
    def limit_decl(self, meta: Any, c: list) -> A.LimitDecl:
        return A.LimitDecl.make(span=self.span(meta), decisions=_size(c[0]))

    @v_args(meta=True)
    def const_decl(self, meta: Any, c: list) -> A.ConstDecl:
        return A.ConstDecl.make(span=self.span(meta), name=str(c[0]), value=c[1],
                                name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def setting_decl(self, meta: Any, c: list) -> A.SettingDecl:
        low, high = c[2] if c[2] is not None else (None, None)
        return A.SettingDecl.make(span=self.span(meta), name=str(c[0]), value=c[1],
                                  low=low, high=high, name_span=self.tok_span(c[0]))

    def per(self, c: list) -> Token | list[Token]:
        """What a counter is kept per: a word, or the two bounds of a range of numbers."""
        return c[0] if len(c) == 1 else list(c)

    @v_args(meta=True)
    def counter_decl(self, meta: Any, c: list) -> A.CounterDecl:
        name, *rest = c
        holding = rest[-1]
        secret = rest[-2] is not None
        bounds = rest[-3]
        init = rest[-4]
        per = rest[:-4]
        low, high = bounds if bounds is not None else (None, None)
        words = [f"{p[0]}..{p[1]}" if isinstance(p, list) else str(p) for p in per]
        toks = [t for p in per for t in (p if isinstance(p, list) else [p])]
        return A.CounterDecl.make(span=self.span(meta), name=str(name), per=words,
                                  init=init, low=low, high=high, secret=secret,
                                  holding=_text(holding), name_span=self.tok_span(name),
                                  refs=self.refs(*toks, holding))

    @v_args(meta=True)
    def stat_decl(self, meta: Any, c: list) -> A.StatDecl:
        name, per, value = c
        return A.StatDecl.make(span=self.span(meta), name=str(name), per=_text(per), value=value,
                               name_span=self.tok_span(name))

    @v_args(meta=True)
    def stat_of_decl(self, meta: Any, c: list) -> A.StatDecl:
        name, var, value = c
        return A.StatDecl.make(span=self.span(meta), name=str(name), var=str(var), value=value,
                               name_span=self.tok_span(name))

    @v_args(meta=True)
    def square_board(self, meta: Any, c: list) -> A.BoardDecl:
        adjacency = str(c[3]) if c[3] is not None else "orthogonal"
        return A.BoardDecl.make(span=self.span(meta), name=str(c[0]), width=_size(c[1]),
                                height=_size(c[2]), adjacency=adjacency, holding=_text(c[4]),
                                name_span=self.tok_span(c[0]), refs=self.refs(c[1], c[2], c[4]))

    @v_args(meta=True)
    def hexagon_board(self, meta: Any, c: list) -> A.BoardDecl:
        return A.BoardDecl.make(span=self.span(meta), name=str(c[0]), shape="hexagon",
                                width=_size(c[1]), height=_size(c[1]), holding=_text(c[2]),
                                name_span=self.tok_span(c[0]), refs=self.refs(c[1], c[2]))

    @v_args(meta=True)
    def corners_board(self, meta: Any, c: list) -> A.BoardDecl:
        return A.BoardDecl.make(span=self.span(meta), name=str(c[0]), shape="corners", of=str(c[1]),
                                holding=_text(c[2]), name_span=self.tok_span(c[0]),
                                refs=self.refs(c[1], c[2]))

    @v_args(meta=True)
    def territory_board(self, meta: Any, c: list) -> A.BoardDecl:
        adjacency = str(c[4]) if c[4] is not None else "orthogonal"
        kind, edges = c[5], c[6:10]
        return A.BoardDecl.make(span=self.span(meta), name=str(c[0]), shape="territory",
                                width=_size(c[2]), height=_size(c[3]), adjacency=adjacency,
                                of=str(kind), holding=str(kind), per_player=c[1] is not None,
                                edges=[str(t) for t in edges], centre=_text(c[10]),
                                roads=_text(c[11]), groups=_text(c[12]),
                                name_span=self.tok_span(c[0]), refs=self.refs(c[2], c[3], kind))

    @v_args(meta=True)
    def ring_board(self, meta: Any, c: list) -> A.BoardDecl:
        return A.BoardDecl.make(span=self.span(meta), name=str(c[0]),
                                shape="arc" if c[2] is not None else "ring", width=_size(c[1]),
                                height=1, holding=_text(c[3]), name_span=self.tok_span(c[0]),
                                refs=self.refs(c[1], c[3]))

    @v_args(meta=True)
    def kind_row(self, meta: Any, c: list) -> A.KindRow:
        count = _size(c[0]) if c[0] is not None else 1
        return A.KindRow.make(span=self.span(meta), count=count, values=c[1:], refs=self.refs(c[0]))

    @v_args(meta=True)
    def kind_decl(self, meta: Any, c: list) -> A.KindDecl:
        fields = [f for f, _ in (x for x in c[1:] if isinstance(x, tuple))]
        defaults = {str(f): v for f, v in (x for x in c[1:] if isinstance(x, tuple))
                    if v is not None}
        rows = [r for r in c[1:] if isinstance(r, A.KindRow)]
        return A.KindDecl.make(span=self.span(meta), name=str(c[0]),
                               fields=[str(f) for f in fields],
                               rows=rows, name_span=self.tok_span(c[0]),
                               field_spans=[self.tok_span(f) for f in fields], defaults=defaults)

    @v_args(meta=True)
    def data_source(self, meta: Any, c: list) -> A.DataSource:
        count = _size(c[0]) if c[0] is not None else 1
        first, *also = c[1:]
        return A.updated(first, {"span": self.span(meta), "count": count,
                                 "refs": self.refs(c[0]), "also": also})

    @v_args(meta=True)
    def data_file(self, meta: Any, c: list) -> A.DataSource:
        keys = [k for k in c[1:] if k is not None]
        return A.DataSource.make(span=self.span(meta), path=self.plain(c[0]),
                                 key=keys[0] if keys else [], more=keys[1:])

    def data_key(self, c: list) -> list[str]:
        return [str(t) for t in c]

    @v_args(meta=True)
    def kind_from(self, meta: Any, c: list) -> A.KindDecl:
        fields = [f for f, _ in c[1:-1]]
        defaults = {str(f): value for f, value in c[1:-1] if value is not None}
        return A.KindDecl.make(span=self.span(meta), name=str(c[0]),
                               fields=[str(f) for f in fields],
                               rows=[], name_span=self.tok_span(c[0]),
                               field_spans=[self.tok_span(f) for f in fields], source=c[-1],
                               defaults=defaults)

    @v_args(meta=True)
    def zone_decl(self, meta: Any, c: list) -> A.ZoneDecl:
        return A.ZoneDecl.make(span=self.span(meta), name=str(c[0]), per_player=c[1] is not None,
                               kind=str(c[2]),
                               visibility=str(c[3]) if c[3] is not None else "public",
                               name_span=self.tok_span(c[0]), refs=self.refs(c[2]))

    @v_args(meta=True)
    def trigger_decl(self, meta: Any, c: list) -> A.TriggerDecl:
        return A.TriggerDecl.make(span=self.span(meta), var=str(c[0]), domain=c[1], where=c[2],
                                  body=c[3], name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def enum_value(self, meta: Any, c: list) -> A.EnumValue:
        label = self.plain(c[1]) if c[1] is not None else None
        return A.EnumValue.make(span=self.span(meta), name=str(c[0]), label=label,
                                name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def enum_decl(self, meta: Any, c: list) -> A.EnumDecl:
        return A.EnumDecl.make(span=self.span(meta), name=str(c[0]), values=c[1:],
                               name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def enum_row(self, meta: Any, c: list) -> A.EnumValue:
        label = self.plain(c[1]) if c[1] is not None else None
        return A.EnumValue.make(span=self.span(meta), name=str(c[0]), label=label, fields=c[2:],
                                name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def enum_table(self, meta: Any, c: list) -> A.EnumDecl:
        fields = [t for t in c[1:] if isinstance(t, Token)]
        values = [v for v in c[1:] if isinstance(v, A.EnumValue)]
        return A.EnumDecl.make(span=self.span(meta), name=str(c[0]), values=values,
                               fields=[str(f) for f in fields], name_span=self.tok_span(c[0]),
                               field_spans=[self.tok_span(f) for f in fields])

    # ---- a variant's changes, the display --------------------------------------------

    @v_args(meta=True)
    def change_decl(self, meta: Any, c: list) -> A.Change:
        what, name = str(c[0]), c[1]
        if isinstance(name, Token) and name.type == "STRING":
            name = self.plain(name)
        return A.Change.make(span=self.span(meta), what=what,
                             name=str(name) if name is not None else None, edits=c[2:],
                             refs=self.refs(c[1]))

    @v_args(meta=True)
    def option_edit(self, meta: Any, c: list) -> A.OptionEdit:
        label = self.string(c[1]) if c[1] is not None else None
        return A.OptionEdit.make(span=self.span(meta), id=str(c[0]), label=label, cond=c[2],
                                 body=c[3] if len(c) > 3 else None, name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def add_option(self, meta: Any, c: list) -> A.OptionEdit:
        o: A.MenuOption = c[0]  # placed at the option itself (the menu will hold it)
        return A.OptionEdit.make(span=o.span, id=o.id, label=o.label, cond=o.cond,
                                 body=o.body, action="add", name_span=o.name_span)

    @v_args(meta=True)
    def remove_option(self, meta: Any, c: list) -> A.OptionEdit:
        return A.OptionEdit.make(span=self.span(meta), id=str(c[0]), action="remove",
                                 name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def die_decl(self, meta: Any, c: list) -> A.DieDecl:
        return A.DieDecl.make(span=self.span(meta), name=str(c[0]), faces=c[1],
                              name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def dice_decl(self, meta: Any, c: list) -> A.DiceDecl:
        return A.DiceDecl.make(span=self.span(meta), name=str(c[0]), per_player=c[1] is not None,
                               count=_int(c[2]), die=str(c[3]),
                               visibility=str(c[4]) if c[4] is not None else "public",
                               name_span=self.tok_span(c[0]), refs=self.refs(c[3]))

    def params(self, c: list) -> list[Token]:
        return [t for t in c if t is not None]

    @v_args(meta=True)
    def define_decl(self, meta: Any, c: list) -> A.DefineDecl:
        params = c[1] or []
        return A.DefineDecl.make(span=self.span(meta), name=str(c[0]),
                                 params=[str(p) for p in params],
                                 body=c[2], name_span=self.tok_span(c[0]),
                                 param_spans=[self.tok_span(p) for p in params])

    @v_args(meta=True)
    def rule_decl(self, meta: Any, c: list) -> A.RuleDecl:
        params = c[1] or []
        return A.RuleDecl.make(span=self.span(meta), name=str(c[0]),
                               params=[str(p) for p in params],
                               body=c[2], name_span=self.tok_span(c[0]),
                               param_spans=[self.tok_span(p) for p in params])

    @v_args(meta=True)
    def rank_decl(self, meta: Any, c: list) -> A.RankDecl:
        return A.RankDecl.make(span=self.span(meta), var=str(c[1]), keys=c[2:],
                               team=c[0] is not None,
                               name_span=self.tok_span(c[1]))

    @v_args(meta=True)
    def heuristic_decl(self, meta: Any, c: list) -> A.HeuristicDecl:
        return A.HeuristicDecl.make(span=self.span(meta), var=str(c[0]), value=c[1],
                                    name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def payoff_decl(self, meta: Any, c: list) -> A.PayoffDecl:
        low, high = c[2] if c[2] is not None else (None, None)
        return A.PayoffDecl.make(span=self.span(meta), var=str(c[0]), value=c[1], low=low,
                                 high=high, zero_sum=c[3] is not None,
                                 name_span=self.tok_span(c[0]))

    def ex_players(self, c: list) -> tuple:
        return ("players", _int(c[0]))

    def ex_seed(self, c: list) -> tuple:
        return ("seed", _int(c[0]))

    def example_opts(self, c: list) -> dict:
        return dict(c)

    @v_args(meta=True)
    def example_decl(self, meta: Any, c: list) -> A.ExampleDecl:
        opts = c[1] or {}
        start = c[2]
        return A.ExampleDecl.make(span=self.span(meta), name=self.plain(c[0]),
                                  players=opts.get("players"), seed=opts.get("seed"), body=c[3],
                                  name_span=self.tok_span(c[0]),
                                  start=str(start) if start is not None else None,
                                  start_span=self.tok_span(start) if start is not None else None)

    # ---- statements ----------------------------------------------------------------

    @v_args(meta=True)
    def let_stmt(self, meta: Any, c: list) -> A.Let:
        return A.Let.make(span=self.span(meta), name=str(c[0]), value=c[1],
                          name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def let_roll_stmt(self, meta: Any, c: list) -> A.LetRoll:
        return A.LetRoll.make(span=self.span(meta), name=str(c[0]), die=c[1],
                              name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def target_name(self, meta: Any, c: list) -> A.Target:
        return A.Target.make(span=self.span(meta), name=str(c[0]))

    @v_args(meta=True)
    def target_of(self, meta: Any, c: list) -> A.Target:
        return A.Target.make(span=self.span(meta), name=str(c[0]), of=c[1])

    @v_args(meta=True)
    def say_stmt(self, meta: Any, c: list) -> A.Say:
        return A.Say.make(span=self.span(meta), text=self.string(c[0]), to=c[1])

    @v_args(meta=True)
    def call_stmt(self, meta: Any, c: list) -> A.CallRule:
        return A.CallRule.make(span=self.span(meta), name=str(c[0]), args=c[1] or [])

    @v_args(meta=True)
    def step_call(self, meta: Any, c: list) -> A.CallRule:
        return A.CallRule.make(span=self.span(meta), name="step", args=c[0] or [])

    @v_args(meta=True)
    def base_named_call(self, meta: Any, c: list) -> A.CallRule:
        return A.CallRule.make(span=self.span(meta), name="base", args=c[0] or [])

    @v_args(meta=True)
    def base_call_stmt(self, meta: Any, c: list) -> A.BaseCall:
        return A.BaseCall.make(span=self.span(meta), name=str(c[0]), args=c[1] or [])

    @v_args(meta=True)
    def step_stmt(self, meta: Any, c: list) -> A.Step:
        return A.Step.make(span=self.span(meta), name=str(c[0]), body=c[1],
                           name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def replay_stmt(self, meta: Any, c: list) -> A.Replay:
        toks = [t for t in c if t is not None]
        return A.Replay.make(span=self.span(meta), choices=[self.plain(t) for t in toks],
                             choice_spans=[self.tok_span(t) for t in toks])

    @v_args(meta=True)
    def if_stmt(self, meta: Any, c: list) -> A.If:
        branches = [(c[0], c[1])]
        otherwise = None
        for extra in c[2:]:
            if isinstance(extra, tuple):
                branches.append(extra)
            elif extra is not None:
                otherwise = extra
        return A.If.make(span=self.span(meta), branches=branches, otherwise=otherwise)

    @v_args(meta=True)
    def for_stmt(self, meta: Any, c: list) -> A.ForEach:
        return A.ForEach.make(span=self.span(meta), var=str(c[0]), domain=c[1], where=c[2],
                              body=c[3],
                              name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def turns_stmt(self, meta: Any, c: list) -> A.Turns:
        return A.Turns.make(span=self.span(meta), start=c[0], direction=c[1],
                            at_once=c[2] is not None,
                            rounds=c[3], body=c[-1])

    @v_args(meta=True)
    def secret_stmt(self, meta: Any, c: list) -> A.SecretStep:
        name, seats, body, reveal = [x for x in c if not _secret_word(x)]
        return A.SecretStep.make(span=self.span(meta), var=str(name), seats=seats, body=body,
                                 reveal=reveal, name_span=self.tok_span(name))

    @v_args(meta=True)
    def accept_answer(self, meta: Any, c: list) -> A.Answer:
        return A.Answer.make(span=self.span(meta), accept=True,
                             label=self.string(c[0]) if c[0] is not None else None, body=c[1])

    @v_args(meta=True)
    def refuse_answer(self, meta: Any, c: list) -> A.Answer:
        return A.Answer.make(span=self.span(meta), accept=False,
                             label=self.string(c[0]) if c[0] is not None else None, body=c[1])

    @v_args(meta=True)
    def offer_stmt(self, meta: Any, c: list) -> A.Offer:
        return A.Offer.make(span=self.span(meta), optional=c[0] is not None, var=str(c[1]),
                            domain=c[2], where=c[3], by=c[4], to=c[5], label=c[6], done_label=c[7],
                            answers=c[8:], name_span=self.tok_span(c[1]))

    @v_args(meta=True)
    def point_stmt(self, meta: Any, c: list) -> A.Point:
        return A.Point.make(span=self.span(meta), name=str(c[0]), name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def expect_options_stmt(self, meta: Any, c: list) -> A.ExpectOptions:
        toks = [t for t in c[1:] if t is not None]
        return A.ExpectOptions.make(span=self.span(meta), mode=str(c[0]) if c[0] else "exactly",
                                    ids=[self.plain(t) for t in toks],
                                    id_spans=[self.tok_span(t) for t in toks])

    def label(self, c: list) -> A.StrLit:
        return self.string(c[0])

    @v_args(meta=True)
    def choose_stmt(self, meta: Any, c: list) -> A.Choose:
        return A.Choose.make(span=self.span(meta), optional=c[0] is not None, var=str(c[1]),
                             domain=c[2], where=c[3], by=c[4], secret=c[5] is not None,
                             label=c[6], done_label=c[7], body=c[8] if len(c) > 8 else None,
                             name_span=self.tok_span(c[1]))

    def done_label(self, c: list) -> A.StrLit:
        return self.string(c[0])

    @v_args(meta=True)
    def choose_any_stmt(self, meta: Any, c: list) -> A.ChooseAny:
        return A.ChooseAny.make(span=self.span(meta), var=str(c[0]), domain=c[1], by=c[2],
                                label=c[3], body=c[4] if len(c) > 4 else None,
                                name_span=self.tok_span(c[0]))

    @v_args(meta=True)
    def option(self, meta: Any, c: list) -> A.MenuOption:
        label = self.string(c[1]) if c[1] is not None else None
        return A.MenuOption.make(span=self.span(meta), id=str(c[0]), label=label, cond=c[2],
                                 body=c[3], name_span=self.tok_span(c[0]))

    # ---- expressions ---------------------------------------------------------------

    @v_args(meta=True)
    def compare(self, meta: Any, c: list) -> A.Binary:
        return A.Binary.make(span=self.span(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def binop(self, meta: Any, c: list) -> A.Binary:
        return A.Binary.make(span=self.span(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def of_expr(self, meta: Any, c: list) -> A.Of:
        return A.Of.make(span=self.span(meta), attr=str(c[0]), obj=c[1])

    def int_lit(self, c: list) -> A.IntLit:
        return A.IntLit.make(span=self.tok_span(c[0]), value=_int(c[0]))

    def str_lit(self, c: list) -> A.StrLit:
        return self.string(c[0])

    @v_args(meta=True)
    def player_lit(self, meta: Any, c: list) -> A.PlayerLit:
        return A.PlayerLit.make(span=self.span(meta), number=_int(c[0]))

    def name(self, c: list) -> A.Name:
        return A.Name.make(span=self.tok_span(c[0]), name=str(c[0]))

    @v_args(meta=True)
    def call(self, meta: Any, c: list) -> A.Call:
        return A.Call.make(span=self.span(meta), func=str(c[0]), args=c[1] or [])

    @v_args(meta=True)
    def list_lit(self, meta: Any, c: list) -> A.ListLit:
        return A.ListLit.make(span=self.span(meta), items=c[0] or [])

    @v_args(meta=True)
    def agg_call(self, meta: Any, c: list) -> A.Call:
        return A.Call.make(span=self.span(meta), func=str(c[0]), args=c[1])

    @v_args(meta=True)
    def tuple_lit(self, meta: Any, c: list) -> A.TupleLit:
        return A.TupleLit.make(span=self.span(meta), items=[c[0], *c[1]])

    @v_args(meta=True)
    def list_comp(self, meta: Any, c: list) -> A.Expr:
        """`[e for x in xs where c]`; with several `for`, the lists of the inner ones
        joined: `[e for a in A for b in B]` is `flatten([[e for b in B] for a in A])`."""
        span = self.span(meta)
        clauses = c[1:]
        var, domain, where = clauses[-1]
        made: A.Expr = A.ListComp.make(span=span, expr=c[0], var=str(var), domain=domain,
                                       where=where, name_span=self.tok_span(var))
        for var, domain, where in reversed(clauses[:-1]):
            made = A.Call.make(span=span, func="flatten", args=[A.ListComp.make(
                span=span, expr=made, var=str(var), domain=domain, where=where,
                name_span=self.tok_span(var))])
        return made

    @v_args(meta=True)
    def sort(self, meta: Any, c: list) -> A.Expr:
        _, items, where, key = c
        if where is None and key is None:
            return A.Call.make(span=self.span(meta), func="sort", args=[items])
        if not (isinstance(items, A.Binary) and items.op == "in"
                and isinstance(items.left, A.Name)):
            raise StringError("write sort(x in LIST by KEY): a name, 'in' and the list",
                              items.span, "E001")
        if key is None:
            raise StringError("'sort(x in LIST where ...)' needs 'by' and the key to sort by",
                              self.span(meta), "E001")
        return A.Sort.make(span=self.span(meta), var=items.left.name, domain=items.right,
                           where=where, key=key, name_span=items.left.span)

    @v_args(meta=True)
    def quantifier(self, meta: Any, c: list) -> A.Quantifier:
        return A.Quantifier.make(span=self.span(meta), kind=str(c[0]), var=str(c[1]), domain=c[2],
                                 where=c[3], name_span=self.tok_span(c[1]))

    @v_args(meta=True)
    def aggregate(self, meta: Any, c: list) -> A.Aggregate:
        return A.Aggregate.make(span=self.span(meta), kind=str(c[0]), expr=c[1], var=str(c[2]),
                                domain=c[3], where=c[4], name_span=self.tok_span(c[2]))


# ---- the rules that only hand their children to a node ---------------------------------

# rule -> (the node it makes, the field each child fills in turn, a last "*field" taking
# every child left, and the fields of a constant value): each makes a method of AstBuilder
# (`_node_method`), as lark's `ast_utils.create_transformer` makes one per AST class.
NODES: dict[str, tuple[type[A.Node], tuple[str, ...], dict[str, Any]]] = {
    "replace_decl": (A.Replace, ("decl",), {}),
    "each_value": (A.Each, ("items",), {}),
    "replace_value": (A.ValueEdit, ("old", "new"), {}),
    "display_decl": (A.DisplayDecl, ("*items",), {}),
    "setup_decl": (A.SetupDecl, ("body",), {}),
    "play_decl": (A.PlayDecl, ("body",), {}),
    # statements
    "shuffle_stmt": (A.Shuffle, ("zone",), {}),
    "move_stmt": (A.Move, ("item", "source", "dest"), {}),
    "set_stmt": (A.Set, ("target", "value"), {}),
    "add_stmt": (A.Add, ("amount", "target"), {}),
    "subtract_stmt": (A.Add, ("amount", "target"), {"negate": True}),
    "place_stmt": (A.Place, ("piece", "cell", "turn"), {}),
    "clear_stmt": (A.Clear, ("cell",), {}),
    "roll_stmt": (A.Roll, ("dice",), {}),
    "reveal_stmt": (A.Reveal, ("dice",), {}),
    "end_turn_stmt": (A.EndTurn, (), {}),
    "next_turn_stmt": (A.NextTurn, ("player",), {}),
    "break_stmt": (A.Break, (), {}),
    "expect_stmt": (A.Expect, ("cond",), {}),
    "pass_stmt": (A.Pass, (), {}),
    "repeat_stmt": (A.Repeat, ("count", "body"), {}),
    "while_stmt": (A.While, ("cond", "body"), {}),
    "choose_menu_stmt": (A.ChooseMenu, ("by", "*options"), {}),
    # expressions
    "cond_expr": (A.Cond, ("test", "then", "otherwise"), {}),
    "or_op": (A.Binary, ("left", "right"), {"op": "or"}),
    "and_op": (A.Binary, ("left", "right"), {"op": "and"}),
    "member": (A.Binary, ("left", "right"), {"op": "in"}),
    "not_member": (A.Binary, ("left", "right"), {"op": "not in"}),
    "range_expr": (A.Binary, ("left", "right"), {"op": ".."}),
    "not_op": (A.Unary, ("operand",), {"op": "not"}),
    "neg": (A.Unary, ("operand",), {"op": "-"}),
    "is_empty": (A.IsEmpty, ("operand",), {"negated": False}),
    "is_not_empty": (A.IsEmpty, ("operand",), {"negated": True}),
    "index": (A.Index, ("obj", "index"), {}),
    "true_lit": (A.BoolLit, (), {"value": True}),
    "false_lit": (A.BoolLit, (), {"value": False}),
    "none_lit": (A.NoneLit, (), {}),
}


# rules that make no node: they hand what they hold to the rule above them (the first
# child, the first two, all of them)
PASSED: dict[str, Callable[[AstBuilder, list], Any]] = {
    **dict.fromkeys(("holding", "size", "going", "by", "reveal_clause", "else_clause"),
                    lambda self, c: c[0]),
    **dict.fromkeys(("bounds", "kind_field", "elif_clause"), lambda self, c: (c[0], c[1])),
    **dict.fromkeys(("block", "args"), lambda self, c: list(c)),
    "one_line": lambda self, c: [c[0]],
    "comp_for": lambda self, c: tuple(c),
}

# the hooks of a variant: rule -> where the hook's body goes
HOOKS = {"at_start": "start", "at_end": "end", "instead_of": "instead",
         "before_stmt": "before", "after_stmt": "after"}


def _node_method(cls: type[A.Node], fields: tuple[str, ...], constant: dict[str, Any]) -> Any:
    """The method of a rule of NODES: its node, placed where the rule's text is."""
    rest = fields[-1][1:] if fields and fields[-1].startswith("*") else None
    named = fields[:-1] if rest else fields

    def build(self: AstBuilder, meta: Any, c: list) -> A.Node:
        values = dict(zip(named, c))
        if rest:
            values[rest] = c[len(named):]
        return cls.make(span=self.span(meta), **values, **constant)

    return v_args(meta=True)(build)


def _hook_method(place: str) -> Any:
    """The method of a rule of HOOKS: at the start or end of the game, or before, after or
    instead of a statement (the anchor, the first child)."""

    def build(self: AstBuilder, meta: Any, c: list) -> A.Hook:
        anchor, body = (c[0] if len(c) > 1 else None), c[-1]
        return A.Hook.make(span=self.span(meta), place=place, anchor=anchor,
                           body=body if isinstance(body, list) else [body])

    return v_args(meta=True)(build)


for _rule, (_cls, _fields, _constant) in NODES.items():
    setattr(AstBuilder, _rule, _node_method(_cls, _fields, _constant))
for _rule, _method in PASSED.items():
    setattr(AstBuilder, _rule, _method)
for _rule, _place in HOOKS.items():
    setattr(AstBuilder, _rule, _hook_method(_place))


def _secret_word(x: Any) -> bool:
    """The word 'secret' of `chooses in secret`, which the grammar shares with `secret`
    counters (a token of its own there)."""
    return isinstance(x, Token) and x.type == "SECRET"


def _text(tok: Token | None) -> str | None:
    return str(tok) if tok is not None else None


def _size(tok: Token) -> int | str:
    """A size or count: a number, or the name of a constant or setting."""
    return _int(tok) if tok.type == "INT" else str(tok)


def _int(tok: Token) -> int:
    """A whole number as written: at most MAX_DIGITS digits (rules never need more, and a
    number of thousands of digits is only a way to make the engine slow)."""
    if len(str(tok)) > MAX_DIGITS:
        span = Span(file="", line=tok.line or 1, column=tok.column or 1,
                    end_line=tok.line or 1, end_column=(tok.column or 1) + min(len(tok), 40))
        raise StringError(f"a number of {len(str(tok)):,} digits: numbers in rules have at "
                          f"most {MAX_DIGITS} digits (they stay between -10^18 and 10^18)",
                          span, "E005")
    return int(tok)
