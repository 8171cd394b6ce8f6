"""The games/ folder, kept at the repository's root for the docs and the tests, goes into
the wheel as the package `rulesdsl.games` (rulesdsl/resolve/catalogue.py reads it there): every
rule file, notes file and data file of every game (the files are named in pyproject.toml's
package-data). The rest is in pyproject.toml."""

from setuptools import find_namespace_packages, find_packages, setup

GAMES = ["rulesdsl.games"] + [f"rulesdsl.games.{p}" for p in find_namespace_packages("games")]

setup(
    packages=find_packages(include=["rulesdsl*"]) + GAMES,
    package_dir={"rulesdsl.games": "games"},
)
