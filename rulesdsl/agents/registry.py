"""Which agents there are, what parameters each takes, and how a command line names them.

Stage: run (the agents' side). An agent is named by a spec such as `mcts:sims=400,c=1.4`:
its name, then after a colon its parameters, `key=value` separated by commas; or by a
preset's name (`quick`, `good`, `strong`: `presets.py`), which stands for its spec. A list of
agents for the seats is the same, comma-separated: `mcts:sims=400,random` is MCTS with 400
simulations and a random agent (a part with `=` belongs to the agent before it).

The agents are the built-in ones and those other packages declare under the entry point
group `rulesdsl.agents` (see docs/agents.md): an entry point names a factory, called as
`factory(seed, **parameters)`. A factory may list its parameters in `PARAMETERS` (a
sequence of `Parameter`); the values are then checked and converted here, with messages
for people. A factory that lists none receives the values as written (whole numbers and
decimals converted), and must check them itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from .parameters import AgentError, Parameter
from .parameters import show as _show
from .presets import PRESETS

ENTRY_POINT_GROUP = "rulesdsl.agents"


@dataclass(frozen=True)
class AgentSpec:
    """An agent as a command line names it: its name and the parameters given."""

    name: str
    params: tuple[tuple[str, Any], ...] = field(default=())

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_show(v)}" for k, v in self.params)


Factory = Callable[..., Any]


def _builtin() -> dict[str, Factory]:
    # imported here: the search agents import the interpreter, the registry must not
    from .basic import FirstAgent, RandomAgent
    from .greedy import GreedyAgent
    from .ismcts import ISMCTSAgent
    from .roots import MCTSAgent

    return {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent,
            "mcts": MCTSAgent, "ismcts": ISMCTSAgent}


class Registry:
    """The built-in agents and those of installed packages (loaded when first named)."""

    def __init__(self) -> None:
        self._factories: dict[str, Factory] | None = None
        self._plugins: dict[str, metadata.EntryPoint] = {}
        self._makers: dict[str, Callable[[int], Any]] = {}  # by the spec's text

    def _load(self) -> dict[str, Factory]:
        if self._factories is None:
            self._factories = _builtin()
            for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
                # a built-in name is not taken over by a package
                if ep.name not in self._factories:
                    self._plugins.setdefault(ep.name, ep)
        return self._factories

    def names(self) -> list[str]:
        return sorted([*self._load(), *self._plugins])

    def refresh(self) -> None:
        """Look for installed agents again (after installing a package, in tests)."""
        self._factories = None
        self._plugins = {}
        self._makers = {}

    def factory(self, name: str) -> Factory:
        factories = self._load()
        if name in factories:
            return factories[name]
        ep = self._plugins.get(name)
        if ep is None:
            raise AgentError(f"unknown agent {name!r} (agents: {', '.join(self.names())})")
        try:
            made = ep.load()
        except Exception as exc:  # a broken package must not end in a traceback
            package = f" (from {ep.dist.name})" if ep.dist is not None else ""
            raise AgentError(f"the agent {name!r}{package} cannot be loaded: "
                             f"{type(exc).__name__}: {exc}") from None
        if not callable(made):
            raise AgentError(f"the agent {name!r} names {ep.value}, which cannot be called")
        factories[name] = made
        return made

    def parameters(self, name: str) -> Sequence[Parameter] | None:
        """The parameters an agent declares, or None when it declares none."""
        return getattr(self.factory(name), "PARAMETERS", None)

    def parse(self, text: str) -> list[AgentSpec]:
        """The agents named by a comma-separated list of specs."""
        specs: list[tuple[str, list[tuple[str, str]]]] = []
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            name, colon, first = part.partition(":")
            if "=" in name:  # key=value: a parameter of the agent before it
                if not specs:
                    raise AgentError(f"{part!r} comes before any agent: write it after the "
                                     "agent's name, as in mcts:sims=400")
                specs[-1][1].append(_pair(specs[-1][0], part))
                continue
            if name.strip() in PRESETS and name.strip() not in self._load():
                if colon:
                    raise AgentError(f"the preset {name.strip()!r} takes no parameters: "
                                     f"name its agent instead "
                                     f"({PRESETS[name.strip()].spec})")
                specs.extend(_preset(name.strip()))
                continue
            specs.append((name.strip(), []))
            if colon:
                for item in first.split(":"):
                    if item.strip():
                        specs[-1][1].append(_pair(name.strip(), item))
        if not specs:
            raise AgentError("no agent named")
        return [self.spec(name, dict(pairs)) for name, pairs in specs]

    def spec(self, name: str, given: dict[str, str]) -> AgentSpec:
        """Check an agent's name and parameters (values as written) and convert them."""
        declared = self.parameters(name)
        values: list[tuple[str, Any]] = []
        if declared is None:
            return AgentSpec(name, tuple((k, _number(v)) for k, v in given.items()))
        known = {p.name: p for p in declared}
        for key, text in given.items():
            if key not in known:
                listed = ", ".join(sorted(known)) or "none"
                raise AgentError(f"{name} has no parameter {key!r} (its parameters: {listed})")
            values.append((key, known[key].parse(name, text)))
        return AgentSpec(name, tuple(values))

    def make(self, spec: AgentSpec | str, seed: int) -> Any:
        """The agent a spec names, made with `seed`."""
        return self.maker(spec)(seed)

    def maker(self, spec: AgentSpec | str) -> Callable[[int], Any]:
        """What makes the agent a spec names from a seed: the spec read and its factory
        found once (`simulate` makes an agent for every seat of every game)."""
        if isinstance(spec, str):
            made = self._makers.get(spec)
            if made is None:
                (parsed,) = self.parse(spec)
                made = self._makers[spec] = self.maker(parsed)
            return made
        factory = self.factory(spec.name)
        params = dict(spec.params)

        def make(seed: int) -> Any:
            try:
                return factory(seed, **params)
            except AgentError:
                raise
            except (TypeError, ValueError) as exc:
                raise AgentError(f"{spec}: {exc}") from None

        return make


def _preset(name: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The agent a preset stands for, as the parser holds a part: its name and pairs."""
    agent, _, rest = PRESETS[name].spec.partition(":")
    return [(agent, [_pair(agent, item) for item in rest.split(",") if item])]


def _pair(agent: str, item: str) -> tuple[str, str]:
    key, eq, value = item.partition("=")
    if not eq or not key.strip() or not value.strip():
        raise AgentError(f"{agent}: expected key=value, not {item.strip()!r}")
    return key.strip(), value.strip()


def _number(text: str) -> Any:
    """A value for an agent that declares no parameters: a number if it reads as one."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


REGISTRY = Registry()


def preset_of(spec: str) -> str | None:
    """The preset a spec's text stands for (`mcts:sims=50,depth=10` -> `good`; defaults
    written out or left out alike), or None: a report names the bots by their preset
    where they have one."""
    def full(text: str) -> list[tuple[str, dict]] | None:
        try:
            parsed = REGISTRY.parse(text)
        except ValueError:
            return None
        out = []
        for agent in parsed:
            values = {p.name: p.default for p in REGISTRY.parameters(agent.name) or ()}
            values.update(agent.params)
            out.append((agent.name, values))
        return out

    wanted = full(spec)
    if wanted is None:
        return None
    for preset in PRESETS.values():
        if full(preset.spec) == wanted:
            return preset.name
    return None
