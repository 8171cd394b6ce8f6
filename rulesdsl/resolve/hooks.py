"""A variant's edits of the base's declarations: `change rule NAME:` and `base NAME(...)`.

Stage: resolve (part of merging a variant into its base, see variants.py). A `change`
declaration names a rule, a definition, `play`, `setup` or an example of the base and
lists edits (a definition, one expression, takes only `replace OLD with NEW`); each
edit finds its place in the declaration's body, and the result is the base's declaration
with that body: every statement keeps the span of the file it was written in, so an error
points into the base or into the variant. The edits, in the order written:
- `at start:` / `at end:` add statements at the start or the end of the body;
- `before S:` / `after S:` / `instead of S:` add or substitute statements around the one
  statement of the body (at any depth) that reads like S (its places aside);
- `step NAME:` replaces the body of the base's `step NAME:`;
- `let NAME = ...` (or `let NAME = roll ...`) replaces the base's `let` of that name;
- `option ID ...` gives a menu option a new label, condition or body; `add option` adds
  one to the declaration's menu; `remove option ID` takes one out;
- `replace OLD with NEW` puts the expression NEW in place of the one expression that reads
  like OLD (a condition, a number, a text).
An edit that finds no place, or several, is an error (V008) that says what is there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from .. import ast as A
from ..diagnostics import Diagnostic

EXPRS = get_args(A.Expr)
STMTS = get_args(A.Stmt)
BODIED = (A.RuleDecl, A.SetupDecl, A.PlayDecl, A.ExampleDecl)

Rewrite = Callable[[Any], "list | None"]


class EditError(Exception):
    def __init__(self, message: str, span: Any, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic("V008", message, span, hint=hint)


def describe_change(c: A.Change) -> str:
    if c.what == "example":
        return f'example "{c.name}"'
    return f"{c.what} {c.name}" if c.name else f"'{c.what}'"


def key_of_change(c: A.Change) -> tuple[str, str]:
    return (c.what, c.name or "")


# ---- going through the statements of a body -------------------------------------------------

def map_stmts(stmts: list, fn: Rewrite) -> list:
    """The statements with `fn` applied at every depth: where `fn` gives a list, it takes
    the statement's place; where it gives None, the statement stays (with its insides gone
    through)."""
    out: list = []
    for s in stmts:
        new = fn(s)
        if new is not None:
            out.extend(new)
        else:
            out.append(_inside(s, fn))
    return out


def _inside(node: Any, fn: Rewrite) -> Any:
    updates = {}
    for key in type(node).model_fields:
        value = getattr(node, key)
        new = _field(value, fn)
        if new is not value:
            updates[key] = new
    return A.updated(node, updates) if updates else node


def _field(value: Any, fn: Rewrite) -> Any:
    if isinstance(value, list):
        if value and all(isinstance(x, STMTS) for x in value):
            return map_stmts(value, fn)
        new = [_field(x, fn) for x in value]
        return new if any(a is not b for a, b in zip(new, value)) else value
    if isinstance(value, tuple):
        new_t = tuple(_field(x, fn) for x in value)
        return new_t if any(a is not b for a, b in zip(new_t, value)) else value
    if isinstance(value, A.Node) and not isinstance(value, EXPRS):
        return _inside(value, fn)
    return value


def find(stmts: list, test: Callable[[Any], bool]) -> list:
    """Every statement or menu option, at any depth, that passes `test`."""
    found: list = []

    def look(s: Any) -> None:
        if test(s):
            found.append(s)
        return None

    def visit(value: Any) -> None:
        if isinstance(value, (list, tuple)):
            for x in value:
                visit(x)
        elif isinstance(value, A.Node) and not isinstance(value, EXPRS):
            look(value)
            for key in type(value).model_fields:
                visit(getattr(value, key))

    visit(stmts)
    return found


def find_exprs(stmts: list, test: Callable[[Any], bool]) -> list:
    """Every expression, at any depth (inside statements and other expressions), that
    passes `test`; an expression that passes is not looked into."""
    found: list = []

    def visit(value: Any) -> None:
        if isinstance(value, (list, tuple)):
            for x in value:
                visit(x)
        elif isinstance(value, A.Node):
            if isinstance(value, EXPRS) and test(value):
                found.append(value)
                return
            for key in type(value).model_fields:
                visit(getattr(value, key))

    visit(stmts)
    return found


def nodes(tree: Any, kind: type) -> list:
    """Every node of a kind in a tree (statements, declarations, edits)."""
    out: list = []

    def visit(value: Any) -> None:
        if isinstance(value, (list, tuple)):
            for x in value:
                visit(x)
        elif isinstance(value, A.Node):
            if isinstance(value, kind):
                out.append(value)
            for key in type(value).model_fields:
                visit(getattr(value, key))

    visit(tree)
    return out


def rewrite(tree: Any, change: Callable[[Any], Any]) -> Any:
    """A copy of a tree in which each node for which `change(node)` gives something other
    than None is replaced by it (and not looked into); parts that nothing changed in are
    the original objects."""
    replaced = change(tree)
    if replaced is not None:
        return replaced
    if isinstance(tree, (list, tuple)):
        items = [rewrite(x, change) for x in tree]
        if all(a is b for a, b in zip(items, tree)):
            return tree
        return items if isinstance(tree, list) else tuple(items)
    if isinstance(tree, A.Node):
        updates = {}
        for key in type(tree).model_fields:
            value = getattr(tree, key)
            new_v = rewrite(value, change)
            if new_v is not value:
                updates[key] = new_v
        return A.updated(tree, updates) if updates else tree
    return tree


def replace_nodes(tree: Any, kind: type, make: Callable[[Any], Any]) -> Any:
    """A copy of a tree with every node of a kind replaced by `make(node)`."""
    return rewrite(tree, lambda node: make(node) if isinstance(node, kind) else None)


def swap_node(tree: Any, target: Any, new: Any) -> Any:
    """A copy of a tree with the node `target` (that very node) replaced by `new`."""
    return rewrite(tree, lambda node: new if node is target else None)


# ---- the edits ---------------------------------------------------------------------------

def apply_change(decl: Any, change: A.Change, same: Callable[[Any, Any], bool],
                 text: Callable[[Any], str]) -> tuple[Any, list[Diagnostic]]:
    """The declaration with the change's edits made, and the edits that found no place.
    `same` tells two statements that read alike; `text` gives a node's source text."""
    one = isinstance(decl, A.DefineDecl)   # a definition's body is one expression
    body = [decl.body] if one else list(decl.body)
    diags: list[Diagnostic] = []
    what = describe_change(change)
    for edit in change.edits:
        try:
            if one and not isinstance(edit, A.ValueEdit):
                raise EditError(f"{what} is one expression: change a part of it with "
                                "`replace OLD with NEW`", edit.span)
            body = _edit(body, edit, what, same, text)
        except EditError as err:
            diags.append(err.diagnostic)
    return A.updated(decl, {"body": body[0] if one else body}), diags


def _one(found: list, edit: Any, none: str, several: str, hint: str | None = None) -> Any:
    if not found:
        raise EditError(none, edit.span, hint)
    if len(found) > 1:
        lines = ", ".join(str(x.span.line) for x in found)
        raise EditError(f"{several} (lines {lines})", edit.span,
                        "name the part to change with a `step` in the base, or change the "
                        "statement around it")
    return found[0]


def _swap(body: list, target: Any, new: list) -> list:
    return map_stmts(body, lambda s: new if s is target else None)


def _edit(body: list, edit: Any, what: str, same: Callable[[Any, Any], bool],
          text: Callable[[Any], str]) -> list:
    if isinstance(edit, A.Hook):
        if edit.place == "start":
            return edit.body + body
        if edit.place == "end":
            return body + edit.body
        anchor = edit.anchor
        target = _one(find(body, lambda s: isinstance(s, STMTS) and same(s, anchor)), edit,
                      f"{what} has no statement that reads `{text(anchor)}`",
                      f"{what} has several statements that read `{text(anchor)}`",
                      "the statement is compared as written, names and values included")
        new = {"before": [*edit.body, target], "after": [target, *edit.body],
               "instead": edit.body}[edit.place]
        return _swap(body, target, new)
    if isinstance(edit, A.Step):
        steps = find(body, lambda s: isinstance(s, A.Step) and s.name == edit.name)
        named = sorted({s.name for s in find(body, lambda s: isinstance(s, A.Step))})
        target = _one(steps, edit, f"{what} has no step {edit.name}",
                      f"{what} has several steps named {edit.name}",
                      f"its steps: {', '.join(named)}" if named else
                      "the base names a part of a rule with `step NAME:`")
        return _swap(body, target, [A.updated(target, {"body": edit.body})])
    if isinstance(edit, A.ValueEdit):
        old = edit.old
        found = find_exprs(body, lambda e: same(e, old))
        target = _one(found, edit, f"{what} has no expression that reads `{text(old)}`",
                      f"{what} has several expressions that read `{text(old)}`",
                      "the expression is compared as written, names and values included")
        return swap_node(body, target, edit.new)
    if isinstance(edit, (A.Let, A.LetRoll)):
        lets = find(body, lambda s: isinstance(s, (A.Let, A.LetRoll)) and s.name == edit.name)
        target = _one(lets, edit, f"{what} has no 'let {edit.name} = ...'",
                      f"{what} sets {edit.name} with 'let' in several places")
        return _swap(body, target, [edit])
    assert isinstance(edit, A.OptionEdit)
    return _option(body, edit, what)


def _option(body: list, edit: A.OptionEdit, what: str) -> list:
    menus = find(body, lambda s: isinstance(s, A.ChooseMenu))
    holding = [m for m in menus if any(o.id == edit.id for o in m.options)]
    if edit.action == "add":
        if holding:
            raise EditError(f"{what} already has an option {edit.id}", edit.span,
                            f"to change it, write: option {edit.id} ...")
        menu = _one(menus, edit, f"{what} has no menu (choose: option ...) to add to",
                    f"{what} has several menus")
        option = A.MenuOption.make(span=edit.span, id=edit.id, label=edit.label, cond=edit.cond,
                              body=edit.body or [], name_span=edit.name_span)
        return _swap(body, menu, [A.updated(menu, {"options": [*menu.options, option]})])
    ids = sorted({o.id for m in menus for o in m.options})
    menu = _one(holding, edit, f"{what} has no option {edit.id}",
                f"{what} has several menus with an option {edit.id}",
                f"its options: {', '.join(ids)}" if ids else None)
    if edit.action == "remove":
        left = [o for o in menu.options if o.id != edit.id]
        if not left:
            raise EditError(f"removing option {edit.id} leaves its menu empty", edit.span)
        return _swap(body, menu, [A.updated(menu, {"options": left})])
    options = []
    for o in menu.options:
        if o.id == edit.id:
            updates: dict[str, Any] = {}
            if edit.label is not None:
                updates["label"] = edit.label
            if edit.cond is not None:
                updates["cond"] = edit.cond
            if edit.body is not None:
                updates["body"] = edit.body
            o = A.updated(o, updates)
        options.append(o)
    return _swap(body, menu, [A.updated(menu, {"options": options})])
