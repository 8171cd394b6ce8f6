"""Walking a syntax tree: the one definition of a node's children, the statement lists
inside a statement, and the tools that copy, move or export a tree.

Stage: the vocabulary every stage shares. Every pass that walks the tree goes through
`child_nodes` (every node directly inside one, as Jinja's `iter_child_nodes`) and `bodies`
(the blocks of statements directly inside a statement or declaration), and dispatches on a
node's class through `handlers`, so that a new construct is an error naming the pass that
does not take it rather than a node skipped in silence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, get_args

from ..diagnostics import Span
from . import declarations as D
from . import expressions as X
from . import statements as S
from .base import _PLAIN, Node

EXPRESSIONS: tuple[type[Node], ...] = get_args(X.Expr)
STATEMENTS: tuple[type[Node], ...] = get_args(S.Stmt)
DECLARATIONS: tuple[type[Node], ...] = get_args(D.Decl)


def child_nodes(node: Node) -> Iterator[Node]:
    """Every node directly inside `node` (through lists, tuples and mappings), in the order
    of its fields: the sub-expressions of an expression, the expressions and statements of
    a statement, the parts of a declaration."""
    fields = node.__dict__
    for key in _placed_fields(type(node)):
        yield from _nodes_in(fields[key])


def _nodes_in(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _nodes_in(v)


def _body(node: Any) -> list[list]:
    return [node.body]


def _body_if_any(node: Any) -> list[list]:
    return [] if node.body is None else [node.body]


def _if(node: S.If) -> list[list]:
    out = [body for _, body in node.branches]
    return out + ([node.otherwise] if node.otherwise is not None else [])


def _secret(node: S.SecretStep) -> list[list]:
    return [node.body] + ([node.reveal] if node.reveal is not None else [])


def _options(node: S.ChooseMenu) -> list[list]:
    return [option.body for option in node.options]


def _answers(node: S.Offer) -> list[list]:
    return [answer.body for answer in node.answers]


_BODIES: dict[type, Callable[[Any], list[list]]] = {
    S.If: _if, S.ForEach: _body, S.Repeat: _body, S.While: _body, S.Turns: _body,
    S.Step: _body, S.Choose: _body_if_any, S.ChooseAny: _body_if_any, S.ChooseMenu: _options,
    S.MenuOption: _body, S.SecretStep: _secret, S.Offer: _answers, S.Answer: _body,
    D.RuleDecl: _body, D.SetupDecl: _body, D.PlayDecl: _body, D.ExampleDecl: _body,
    D.TriggerDecl: _body, D.Hook: _body, D.OptionEdit: _body_if_any,
}


# the classes that hold blocks of statements (as parts, for MenuOption and Answer)
HOLDING_BLOCKS: frozenset[type] = frozenset(_BODIES)


def bodies(node: Node) -> list[list]:
    """The blocks of statements directly inside a statement (or a declaration, or a part
    of either), in the order of its fields: every branch of an `if` and its `else`, a
    loop's body, a choice's body, each option of a menu, a secret step and its reveal, each
    answer of an offer, a step, the body of a rule or an example. None for the others."""
    found = _BODIES.get(type(node))
    return found(node) if found is not None else []


def statements_in(block: list) -> list:
    """Every statement of a block, nested ones too, each before those inside it."""
    out = []
    for s in block:
        out.append(s)
        for body in bodies(s):
            out += statements_in(body)
    return out


class NoHandler(TypeError):
    """A pass met a node it has no handler for (a construct added to the language and
    forgotten there)."""


def handlers(owner: type, prefix: str) -> dict[type, Callable[..., Any]]:
    """The handlers of a pass, by node class: the function of `owner` named `prefix` and
    the class's name (`stmt_If`, as Jinja's `visit_If`), for every statement, expression
    and declaration class and the parts of them. Built once per pass, when its class is."""
    found: dict[type, Callable[..., Any]] = {}
    for module in (X, S, D):
        for name, cls in vars(module).items():
            if isinstance(cls, type) and issubclass(cls, Node) and hasattr(owner, prefix + name):
                found[cls] = getattr(owner, prefix + name)
    return found


def handler(table: dict[type, Callable[..., Any]], node: Node, what: str) -> Callable[..., Any]:
    """The handler of `node` in a pass's table; NoHandler naming the pass (`what`) and the
    class when there is none."""
    found = table.get(type(node))
    if found is None:
        raise NoHandler(f"{what} has no handler for {type(node).__name__}")
    return found

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
