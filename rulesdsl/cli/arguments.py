"""The arguments of each command of the command line (rulesdsl/cli): what each one takes,
its type and its help, as `rulesdsl COMMAND --help` shows them. An argument of the wrong
type is a UsageError (exit 2) before any work starts.

Stage: the tools (the command line).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from ..diagnostics import UsageError

if TYPE_CHECKING:
    from ..agents import AgentSpec


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _at_least(least: int) -> Callable[[str], int]:
    """An argument type: a whole number of at least `least`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number, not {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(
                f"expected a number of at least {least}, not {value}")
        return value
    return parse


_positive = _at_least(1)
_natural = _at_least(0)


def agent_specs(text: str) -> list[AgentSpec]:
    from ..agents import AgentError, parse_agents

    try:
        return parse_agents(text)
    except AgentError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _setting(text: str) -> tuple[str, Any]:
    name, eq, raw = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    raw = raw.strip()
    value: Any
    if raw in ("true", "false"):
        value = raw == "true"
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return name.strip(), value


def simulate_options(s: argparse.ArgumentParser) -> None:
    s.add_argument("--games", type=_positive, default=100,
                   help="games per rule file (with --until-significant: at most)")
    s.add_argument("--workers", type=_positive, default=1)
    s.add_argument("--json", action="store_true")
    s.add_argument("--db", default="simulations.db", metavar="FILE",
                   help="the SQLite database every game is stored in; the same command "
                        "again resumes the run (default: simulations.db)")
    s.add_argument("--no-db", action="store_true", help="keep the games in memory only")
    s.add_argument("--rotate", action="store_true", help="play each seed once per rotation "
                   "of the agents over the seats (--games counts every rotation)")
    s.add_argument("--exact", action="store_true", help="exact (Clopper-Pearson) intervals "
                   "for rates instead of Wilson's")
    s.add_argument("--metric", help="what base and variants are tested on: first, seat:K, "
                   "position:K, draw, length, margin, stat:NAME[:K] (default: first, the "
                   "first player's win rate)")
    s.add_argument("--until-significant", action="store_true",
                   help="play in looks of 100 games until the sequential test (SPRT) "
                        "decides for every variant, or --games is reached")
    s.add_argument("--delta", type=_fraction, default=0.05, help="the smallest difference "
                   "of the metric worth finding (default 0.05)")
    s.add_argument("--alpha", type=_fraction, default=0.05, help="the rate of false alarms "
                   "of the sequential test (default 0.05)")
    s.add_argument("--beta", type=_fraction, default=0.10, help="the rate of missed "
                   "differences of --delta (default 0.10)")
    s.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local processes (default) or a Ray cluster")
    s.add_argument("--address", help="the Ray cluster's address (default: a local cluster "
                   "started for the run)")
    s.add_argument("--progress", choices=["auto", "on", "off"], default="auto",
                   help="a progress bar on stderr (auto: when it is a terminal)")
    s.add_argument("--stat", action="append", default=[], metavar="NAME=EXPR",
                   help="a statistic in the rules language, measured when each game ends "
                        "('NAME of p=EXPR' for one per player); checked against every file")
    s.add_argument("--calibrate", type=_natural, default=40, metavar="GAMES",
                   help="games measuring each bot against random bots before the study "
                        "(default 40; 0: none)")
    s.add_argument("--no-coverage", action="store_true",
                   help="do not count what fired in each game (faster; the report then "
                        "cannot say how play changed)")


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not 0 < value < 1e9 or value != value:
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {text}")
    return value


def _native_option(q: argparse.ArgumentParser) -> None:
    q.add_argument("--native", action="store_true",
                   help="run the rules compiled to C with Cython (pip install "
                        "'rulesdsl[native]' and a C compiler; built once, kept in the "
                        "cache); without them, a message and the plain path")


def check_arguments(c: Parser) -> None:
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.add_argument("--no-examples", action="store_true", help="do not run the examples")
    c.add_argument("--play", type=_natural, default=0, metavar="N",
                   help="also play N games of random bots for each number of players: a "
                        "rule that goes wrong in play is an error")
    records_option(c)


def validate_arguments(v: Parser) -> None:
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--games", type=_positive, default=4,
                   help="games per bot and number of players (default 4)")
    v.add_argument("--agents", type=agent_specs, default=["random", "greedy"],
                   help="the bots that play the games, each in every seat (default "
                        "random,greedy)")
    v.add_argument("--budget", type=_positive, default=20_000, metavar="DECISIONS",
                   help="decisions a game may take before it is reported as endless "
                        "(default 20000)")
    v.add_argument("--positions", type=_natural, default=20_000,
                   help="positions to explore per number of players to prove that every "
                        "game ends; 0 does not explore (default 20000)")
    v.add_argument("--seek", type=_natural, default=50_000, metavar="DECISIONS",
                   help="decisions of more games to play while a rule, branch, option or "
                        "end of the game has not run, or a seat has not ranked first "
                        "(default 50000)")
    v.add_argument("--players", type=_positive, help="only this number of players")
    v.add_argument("--seed", type=_natural, default=1, help="the first game's seed")
    v.add_argument("--chance", action="store_true",
                   help="show the exact odds of each roll and shuffle")
    settings_option(v)
    v.add_argument("--format", choices=["text", "json"], default="text")
    _native_option(v)
    records_option(v)


def one_file(q: Parser) -> None:
    q.add_argument("file", metavar="FILE")


def game_options(q: Parser, agents_default: str = "random", several: bool = False) -> None:
    if several:
        q.add_argument("files", nargs="+", metavar="FILE",
                       help="one rule file, or several to compare side by side")
    else:
        one_file(q)
    q.add_argument("--players", type=_positive, help="number of players")
    q.add_argument("--seed", type=_natural, default=1, help="random seed (default 1)")
    # a text default: argparse reads it with `type` when the option is not given
    q.add_argument("--agents", type=agent_specs, default=agents_default,
                   help="comma-separated agents for the seats, cycled, each with its "
                        "parameters after a colon: mcts:sims=400,random ('rulesdsl "
                        "agents' lists them)")
    settings_option(q)
    _native_option(q)
    records_option(q)


def settings_option(q: Parser) -> None:
    q.add_argument("--set", type=_setting, action="append", default=[], dest="settings",
                   metavar="NAME=VALUE", help="change a setting of the rules")


def records_option(q: Parser) -> None:
    q.add_argument("--records", default=".", metavar="DIR",
                   help="where to write the record of a game a rule stops with an error "
                        "(default: the current directory)")


def run_arguments(r: Parser) -> None:
    game_options(r)
    r.add_argument("--json", action="store_true", help="print the game record as JSON")
    told = r.add_mutually_exclusive_group()
    told.add_argument("--seat", type=_positive, help="narrate what this seat is told "
                      "(default: what everyone is told)")
    told.add_argument("--all", action="store_true", help="narrate every line, each private "
                      "one marked with who was told it")


def replay_arguments(rp: Parser) -> None:
    rp.add_argument("record", metavar="RECORD")
    rp.add_argument("--rules", metavar="FILE", help="the rule file (default: the one the "
                    "record names)")


def play_arguments(pl: Parser) -> None:
    game_options(pl)
    pl.add_argument("--seats", default="1", help="the seats you play, e.g. 1 or 1,3")
    pl.add_argument("--load", metavar="SAVE", help="resume a game saved with 'save'")
    pl.add_argument("--ids", action="store_true",
                    help="show each option's id in brackets (the ids an example's "
                         "'play' and 'expect options' take)")
    pl.add_argument("--forced", choices=["pass", "rules", "ask"], default="pass",
                    help="a decision of yours with one option: taken for you and said "
                         "(pass, the default), only where the rule file says 'pass forced' "
                         "(rules), or asked (ask)")
    pl.add_argument("--ask-forced", action="store_true", help="ask even when a decision has "
                    "one option: --forced ask")


def simulate_arguments(s: Parser) -> None:
    game_options(s, several=True)
    simulate_options(s)


def report_arguments(rep: Parser) -> None:
    rep.add_argument("db", metavar="DB")
    rep.add_argument("--out", metavar="DIR", help="where to write the page and its PNGs "
                     "(default: DB's name with -report)")
    rep.add_argument("--exact", action="store_true", help="exact (Clopper-Pearson) "
                     "intervals for rates instead of Wilson's")


def export_arguments(ex: Parser) -> None:
    ex.add_argument("db", metavar="DB")
    ex.add_argument("out", metavar="OUT", help="a .csv or .parquet file")
    ex.add_argument("--run", type=_positive, help="only this run (default: every run)")


def diff_arguments(d: Parser) -> None:
    d.add_argument("a", metavar="A")
    d.add_argument("b", metavar="B")


def perft_arguments(f: Parser) -> None:
    one_file(f)
    f.add_argument("--depth", type=_natural, required=True)
    f.add_argument("--players", type=_positive)
    f.add_argument("--seed", type=_natural, default=1)
    _native_option(f)


def serve_arguments(sv: Parser) -> None:
    sv.add_argument("files", nargs="+", metavar="FILE", help="the rule files tables may be "
                    "made for (variants too)")
    settings_option(sv)
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default "
                    "127.0.0.1: this machine only)")
    sv.add_argument("--port", type=_at_least(0), default=8000, help="default 8000")
    sv.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="a host name people reach the server by (its name on the network, "
                    "or a proxy's public name); the loopback names and --host are known")
    sv.add_argument("--proxy", metavar="ADDRESSES", help="behind a reverse proxy: trust the "
                    "X-Forwarded-For and X-Forwarded-Proto headers from these addresses "
                    "(the proxy's, comma-separated); without it they are ignored")
    sv.add_argument("--seats", metavar="KINDS", help="start a table for the first file: "
                    "'person' or a bot's name per seat, e.g. person,greedy")
    sv.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                    help="pause before each bot's move, so people can follow (default 0.6)")


def strength_arguments(st: Parser) -> None:
    one_file(st)
    st.add_argument("--agents", default=None, metavar="AGENTS",
                    help="the agents of the round robin, comma-separated, presets too "
                         "(default random,greedy,mcts:sims=30,mcts:sims=100)")
    st.add_argument("--games", type=_positive, default=100, help="games per pairing "
                    "(default 100)")
    st.add_argument("--players", type=_positive, help="number of players")
    st.add_argument("--seed", type=_natural, default=1, help="the first game's seed")
    st.add_argument("--workers", type=_positive, default=1)
    settings_option(st)
    _native_option(st)
    st.add_argument("--json", action="store_true")


def no_arguments(q: Parser) -> None:
    """A command that takes none (but --include, which every command takes)."""
