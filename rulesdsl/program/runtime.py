"""What compiled rules call at run time: return codes, errors and small helpers.

Stage: run. The compiler (`compiler.py`) turns each rule block into Python functions,
"blocks", that take `(st, fr)` and return the number of the next block or one of the
codes below. The helpers here are the only names generated code may use besides its own
tables; they raise `RuleRuntimeError` with the span of the rule that went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from ..boards.territory import tile_helpers
from ..diagnostics import Diagnostic, Span
from ..limits import MAX_ITEMS, MAX_NUMBER, MAX_SAID, WORK_BUDGET


class Code(IntEnum):
    """What a block returns instead of the number of the next block."""

    SUSPEND = -1   # a decision or chance step is pending
    RET = -2       # the block list of a rule has ended: pop the frame
    CALL = -3      # a frame was pushed
    OVER = -4      # the game is over
    REPLAY = -5    # an example asks to continue the game with given choices
    OPTIONS = -6   # an example asks which options the game offers (`expect options`)


SUSPEND, RET, CALL, OVER, REPLAY, OPTIONS = (int(c) for c in Code)

BLOCK_WORK = 4            # the steps a jump from one block of rules to the next counts as
MAX_SUBSET_ITEMS = 12


class RuleRuntimeError(Exception):
    """A rule went wrong while the game ran; carries a diagnostic with the rule's span."""

    def __init__(self, code: str, message: str, span: Span | None, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(code, message, span, hint=hint)


@dataclass
class Env:
    """The spans table of a compiled program, so helpers can name the failing rule."""

    spans: list[Span]
    procs: list[str]


def make_helpers(env: Env) -> dict[str, Any]:
    """The helper functions generated code calls, bound to one program's span table."""
    spans = env.spans

    def _err(code: str, message: str, sid: int, hint: str | None = None) -> RuleRuntimeError:
        return RuleRuntimeError(code, message, spans[sid], hint)

    def _div(a: int, b: int, sid: int) -> int:
        if b == 0:
            raise _err("R003", "division by zero", sid)
        return a // b

    def _mod(a: int, b: int, sid: int) -> int:
        if b == 0:
            raise _err("R003", "remainder of a division by zero", sid)
        return a % b

    def _idx(xs: list, i: int, sid: int) -> Any:
        if not 1 <= i <= len(xs):
            raise _err("R003", f"item {i} of a list of {len(xs)} (lists count from 1)", sid)
        return xs[i - 1]

    def _pick(table: list, k: int, sid: int, what: str) -> Any:
        if not 1 <= k <= len(table):
            raise _err("R003", f"there is no {what} {k} (1 to {len(table)})", sid)
        return table[k - 1]

    def _cell(width: int, height: int, x: int, y: int, sid: int) -> int:
        if not (1 <= x <= width and 1 <= y <= height):
            raise _err("R003", f"cell ({x}, {y}) is off the {width} x {height} board", sid)
        return (y - 1) * width + (x - 1)

    def _occupied(sid: int) -> RuleRuntimeError:
        return _err("R004", "placing a piece on a cell that is not empty", sid,
                    hint="clear the cell first, or choose among empty cells")

    def _bounded(value: int, low: int, high: int, name: str, sid: int) -> int:
        if not low <= value <= high:
            raise _err("R005", f"{name} would become {value}, outside {low} to {high}", sid)
        return value

    def _none_left(sid: int) -> RuleRuntimeError:
        return _err("R002", "this choice has no legal option", sid,
                    hint="guard the choice with an 'if' when nothing may be possible")

    def _subsets(xs: list, sid: int) -> list[list]:
        if len(xs) > MAX_SUBSET_ITEMS:
            raise _err("R006", f"choosing any of {len(xs)} items gives {2 ** len(xs)} "
                       "options; split it into smaller choices", sid)
        return [[x for i, x in enumerate(xs) if mask >> i & 1] for mask in range(1 << len(xs))]

    def _uniq(xs: Any) -> list:
        try:
            return list(dict.fromkeys(xs))
        except TypeError:
            out: list = []
            for x in xs:
                if x not in out:
                    out.append(x)
            return out

    def _expect(ok: bool, sid: int, detail: str) -> None:
        if not ok:
            raise _err("E061", f"example expectation failed: {detail}", sid)

    def _need(value: Any, sid: int, what: str) -> Any:
        if value is None:
            raise _err("R003", f"{what} is none here", sid,
                       hint="'current' is only set inside 'turns'; 'winner' once a player "
                            "has won")
        return value

    def _extreme(values: list, sid: int, kind: str) -> Any:
        if not values:
            raise _err("R003", f"{kind} of nothing", sid)
        return max(values) if kind == "max" else min(values)

    def _reach(cells: list, links: list, start: int, n: int) -> list[int]:
        seen = {start}
        frontier = [start]
        found = []
        for _ in range(n):
            nxt = []
            for c in frontier:
                for d in links[c]:
                    if d not in seen and cells[d] is None:
                        seen.add(d)
                        nxt.append(d)
                        found.append(d)
            frontier = nxt
        return sorted(found)

    def _straight(cells: list, rays: list, start: int, n: int) -> list[int]:
        found = []
        for ray in rays[start]:
            for d in ray[:max(n, 0)]:
                if cells[d] is not None:
                    break
                found.append(d)
        return sorted(found)

    def _top(zone: list) -> Any:
        return zone[0] if zone else None

    def _sort(pairs: list[tuple[Any, Any]], sid: int) -> list:
        """The items of (key, item) pairs, by their keys (ties keep their order)."""
        try:
            pairs.sort(key=_first)
        except TypeError:
            raise _err("R003", "sorting by none, or by keys of different kinds", sid) from None
        return [item for _, item in pairs]

    def _bag(st: Any, n: int) -> None:
        """What went last into bag n goes to a random place in it."""
        zone = st.own_zone(n)
        if len(zone) > 1:
            zone.insert(st.rand(len(zone)), zone.pop())

    def _shuffle(st: Any, n: int) -> None:
        zone = st.own_zone(n)
        for i in range(len(zone) - 1, 0, -1):
            j = st.rand(i + 1)
            zone[i], zone[j] = zone[j], zone[i]

    def _move(st: Any, item: Any, source: int | None, dest: int, sid: int,
              among: tuple[int, ...] = ()) -> None:
        # the state knows which zone holds the item (State.at; `among`, the zones of its
        # kind, is where it may be); taking it out of that zone is a scan of the zone,
        # counted as work (a quarter of a step per component), so moving a huge kind is
        # R001, not minutes of scanning
        if item is None:
            raise _err("R007", "there is nothing to move (the zone is empty?)", sid)
        # (State.own_zone and own_index written out: a move is the commonest change)
        k = st.zk[dest]
        at = st.at[k]
        held = at[item]
        if source is not None and held != source:
            raise _err("R007", "moving a component out of a zone that does not hold it", sid)
        z = st.z
        if held >= 0:
            zone = z[held] if st.zown >> held & 1 else st.own_zone(held)
            st.steps += len(zone) >> 2
            if st.steps > WORK_BUDGET:
                raise _stuck(sid)
            zone.remove(item)
        if not st.aown >> k & 1:
            at = st.own_index(k)
        at[item] = dest
        (z[dest] if st.zown >> dest & 1 else st.own_zone(dest)).append(item)

    def _winners(st: Any) -> list[int]:
        return [p for p, r in enumerate(st.result) if r == 1] if st.result is not None else []

    def _winner(st: Any) -> Any:
        if st.result is None:
            return None
        firsts = [p for p, r in enumerate(st.result) if r == 1]
        return firsts[0] if len(firsts) == 1 else None

    def _win(st: Any, p: int, team: int = 0) -> list[int]:
        if team:  # teams of this size: p's team wins
            return [1 if q in _teams(st, team)[p % (st.np // team)] else 2
                    for q in range(st.np)]
        return [1 if q == p else 2 for q in range(st.np)]

    def _teams(st: Any, size: int) -> list[list[int]]:
        """The seats of each team, teammates spread evenly round the table."""
        count = st.np // size
        return [[p for p in st.pl if p % count == t] for t in range(count)]

    def _team(st: Any, p: int, size: int) -> list[int]:
        return _teams(st, size)[p % (st.np // size)]

    def _stuck(sid: int) -> RuleRuntimeError:
        return _err("R001", f"the rules ran {WORK_BUDGET:,} steps without a decision: "
                    f"an endless loop in '{env.procs[sid]}'?", sid,
                    hint="a loop, a range or a definition that never ends (or is huge)")

    def _say(st: Any, to: Any, text: str, sid: int) -> None:
        """A line said, counted against what a narrated game may say (R010 past it: a loop
        of `say` would fill the memory with its log)."""
        said = st.said + len(text)
        if said > MAX_SAID:
            raise _err("R010", f"the rules said more than {MAX_SAID:,} characters "
                       "in one game", sid, hint="a `say` inside a loop that runs for long?")
        st.said = said
        st.log.append((to, text))

    def _w(st: Any, items: Any, weight: int, sid: int) -> Any:
        st.steps += len(items) * weight
        if st.steps > WORK_BUDGET:
            raise _stuck(sid)
        return items

    def _n(value: Any, sid: int) -> Any:
        if value is not None and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise _too_big(value, sid)
        return value

    def _range(low: int, high: int, sid: int) -> list[int]:
        if high - low >= MAX_ITEMS:
            raise _err("R008", f"the list {low}..{high} would hold {high - low + 1:,} items "
                       f"(at most {MAX_ITEMS:,})", sid)
        return list(range(low, high + 1))

    def _number_key(key: int, low: int, size: int, counter: str, sid: int) -> int:
        if not low <= key < low + size:
            raise _err("R003", f"{counter} is kept per number from {low} to "
                       f"{low + size - 1}, and {key} is not one of them", sid)
        return key - low

    def _concat(xs: list, ys: list, sid: int) -> list:
        if len(xs) + len(ys) > MAX_ITEMS:
            raise _err("R008", f"joining lists of {len(xs):,} and {len(ys):,} items: a list "
                       f"holds at most {MAX_ITEMS:,}", sid)
        return [*xs, *ys]

    def _flatten(lists: Any, sid: int) -> list:
        out: list = []
        for xs in lists:
            out.extend(xs)
            if len(out) > MAX_ITEMS:
                raise _err("R008", f"the lists joined would hold more than {MAX_ITEMS:,} "
                           "items", sid)
        return out

    def _too_big(value: int, sid: int) -> RuleRuntimeError:
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return _err("R008", f"a number of about {digits} digits: numbers stay between "
                    "-10^18 and 10^18", sid)

    helpers = {name: fn for name, fn in locals().items() if name.startswith("_")
               and callable(fn) and name != "_err"}
    return {**helpers, **tile_helpers(_err)}   # territories: rulesdsl/boards/territory.py


def _first(pair: tuple[Any, Any]) -> Any:
    return pair[0]


HELPER_NAMES = frozenset(make_helpers(Env([], [])))
