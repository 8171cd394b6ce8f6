"""`pip install rulesdsl`, then play: the wheel built from this checkout holds every file of
games/, and installed in a fresh virtual environment outside the repository, its command
finds the games by name and a house rule there extends one.

Offline: the wheel is built with the running interpreter's setuptools (no build
isolation, so nothing is downloaded), from a copy of the sources (a build writes into the
folder it builds), and installed without its dependencies: the new environment reads
them from the running interpreter's site-packages, after its own.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

# what a build reads: the package, the games it ships, and the files naming them
SOURCES = ("pyproject.toml", "setup.py", "README.md", "rulesdsl", "games")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "*.so")


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _build(where: Path) -> Path:
    """The wheel, built from a copy of the checkout."""
    source = where / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=SKIPPED)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "-q", "-w", str(where / "dist"), str(source)], where, _clean_env())
    wheels = list((where / "dist").glob("rulesdsl-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _clean_env() -> dict[str, str]:
    """The environment without what would make a command read this checkout's package."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.mark.slow
def test_the_wheel_installed_outside_the_repository(tmp_path):
    """One test, so that the wheel is built once whichever process runs it."""
    built = _build(tmp_path)
    shipped = {n.removeprefix("rulesdsl/games/")
               for n in zipfile.ZipFile(built).namelist() if n.startswith("rulesdsl/games/")}
    games = {str(p.relative_to(ROOT / "games")) for p in (ROOT / "games").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert games and shipped == games

    home = tmp_path / "house"  # the user's folder: no rulesdsl, no games in it
    home.mkdir()
    env_dir = tmp_path / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], tmp_path, _clean_env())
    python = env_dir / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "-q", str(built)], tmp_path, _clean_env())
    own = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                     "'purelib'))"], home, _clean_env()).strip())
    # the dependencies (lark, pydantic, rich...), from the running interpreter, after the
    # environment's own site-packages (where rulesdsl is)
    theirs = {sysconfig.get_path("purelib"), *site.getsitepackages()}
    (own / "dependencies.pth").write_text("\n".join(sorted(theirs)) + "\n")
    env = {**_clean_env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}  # a new user's
    rulesdsl = str(env_dir / "bin" / "rulesdsl")

    where = _run([str(python), "-c", "import rulesdsl.resolve.catalogue as c; print(c.folder())"],
                 home, env).strip()
    assert Path(where) == own / "rulesdsl" / "games"

    listed = _run([rulesdsl, "games"], home, env)
    assert "cromlech" in listed and "isle-of-skye" in listed and "druids" in listed
    assert _run([rulesdsl, "check", "cromlech"], home, env).startswith("cromlech: ok (")

    # a house rule of a variant with a data file of its own (druids.yaml, in the package)
    (home / "house.rules").write_text('extends game "isle-of-skye/druids"\n\n'
                                      'replace game "Isle of Skye, as we play it"\n')
    assert _run([rulesdsl, "check", "house.rules"], home, env).startswith("house.rules: ok (")
    told = _run([rulesdsl, "run", "house.rules", "--players", "2"], home, env)
    assert told.startswith("Isle of Skye, as we play it: 2 players") and "Result:" in told

    import rulesdsl as here
    assert _run([rulesdsl, "--version"], home, env) == f"rulesdsl {here.__version__}\n"
    assert sorted(p.name for p in home.iterdir()) == ["house.rules"]
