"""The Ray backend on a real local cluster (started once for the module): the same
database as the local run for the same seed."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.balance.running import Backend
from rulesdsl.balance.store import Store
from rulesdsl.balance.study import Options, run_study

from .conftest import ROOT

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.slow  # a cluster started: a minute and more on a busy machine

PIG = str(ROOT / "games/pig/pig.rules")
PIG50 = str(ROOT / "games/pig/pig-to-50.rules")


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    yield
    ray.shutdown()


def dump(db: str) -> list[tuple]:
    with Store(db, create=False) as store:
        return store.dump()


def run(db: str, backend: Backend) -> None:
    paths = [PIG, PIG50]
    run_study(paths, [rulesdsl.load(p) for p in paths],
              Options(players=2, games=30, seed=9, agents=("random",), rotate=True, db=db,
                      backend=backend))


def test_ray_gives_the_local_database(tmp_path):
    local, on_ray = str(tmp_path / "local.db"), str(tmp_path / "ray.db")
    run(local, Backend("local", 1))
    run(on_ray, Backend("ray", 2))
    assert dump(on_ray) == dump(local)
    assert ray.is_initialized()  # the module's cluster is left running


def test_ray_from_the_command_line(capsys):
    from rulesdsl.cli import main

    assert main(["simulate", PIG, "--games", "8", "--backend", "ray", "--workers", "2",
                 "--json"]) == 0
    assert '"games": 8' in capsys.readouterr().out
