"""Named presets for studies: `--agents quick|good|strong`.

Stage: run (the agents' side). A preset is a name for an agent and its parameters, chosen
by measuring (docs/agents.md, "Presets", gives each one's cost per game in every seed
game and its strength against the one below it, in the seed games where it was
measured). Where an agent list is read (`--agents` of run, play, simulate, validate and
strength), a preset's name stands for its agent: the
registry replaces it by the spec it names, so records and reports show the agent that
really played. A preset takes no parameters: to change one, name the agent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """A preset: its name, the agent spec it stands for, and a line on what it is for."""

    name: str
    spec: str
    use: str


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("quick", "greedy",
           "one decision ahead (its turn played on) by the heuristic or the scores, on four "
           "made-up games: milliseconds a move, for a first look at a variant"),
    Preset("good", "mcts:sims=50,depth=10",
           "MCTS on a made-up game, 50 simulations, rollouts cut after 10 decisions and "
           "judged by the heuristic: the default for balance studies"),
    Preset("strong", "mcts:sims=200,depth=10",
           "MCTS on a made-up game, 200 simulations, rollouts cut after 10 decisions: for "
           "a last check of a few hundred games"),
)}


def preset_table() -> list[dict[str, str]]:
    """Every preset as plain data (name, spec, use), in order from the quickest."""
    return [{"name": p.name, "spec": p.spec, "use": p.use} for p in PRESETS.values()]
