"""Adapters: any rule file as an OpenSpiel game and as a PettingZoo environment.

Stage: tools over the Python API. `openspiel.py` registers a rule file as a pyspiel game;
`pettingzoo.py` makes an AEC environment of one. Both share the numbering of options as
actions (`actions.py`), the tensor made from a seat's view (`tensor.py`) and what the rule
file declares about chance, hidden information and rewards (`traits.py`).

Everything either adapter shows a seat comes from that seat's view (`Game.view`), its
options and its log: the same boundary `rulesdsl.Observation` keeps for bots. The
libraries are optional extras: `pip install 'rulesdsl[openspiel]'`,
`pip install 'rulesdsl[pettingzoo]'`. docs/interop.md shows both.
"""
