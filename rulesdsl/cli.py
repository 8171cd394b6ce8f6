"""The `rulesdsl` command line: check, validate, ast, run, replay, play, simulate, report,
export, diff, perft, agents, strength, games, serve, lsp.

Wherever a command takes a rule file, it takes the name of a shipped game too
(`rulesdsl play cromlech`, catalogue.py); a path that exists wins over a name.

Every bad input (a rule file, a saved game, an argument) ends with a message for people
and a non-zero exit, never a Python traceback: exit 1 for errors in the rules or the game,
exit 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

# The cycle collector waits while these are imported (pydantic's modules, and all they
# make lives as long as the process: see `main`); then what is there is frozen (the
# collector's permanent generation), so that the collector, on again, does not look
# through all of it at once when it next runs.
_collecting = gc.isenabled()
gc.disable()
from . import __version__  # noqa: E402
from .diagnostics import RulesError, UsageError  # noqa: E402
from .paths import include  # noqa: E402

if _collecting:
    gc.freeze()
    gc.enable()

if TYPE_CHECKING:
    from .agents import AgentSpec
    from .interpreter.backends import Backend
    from .interpreter.game import Game, Rules
    from .runner import Script

# The parser, the compiler and the agents are imported by the commands that use them, not
# here: `rulesdsl --help` and a mistyped argument answer without loading them.


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


def _agents(text: str) -> list[AgentSpec]:
    from .agents import AgentError, parse_agents

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


def build_parser() -> Parser:
    p = Parser(prog="rulesdsl", description="Tabletop game rules as text: check them, run "
               "them, play them, measure them.")
    p.add_argument("--version", action="version", version=f"rulesdsl {__version__}")
    p.add_argument("--include", action="append", default=[], metavar="DIR",
                   help="a folder rule files may read from besides their own (for "
                        "'extends' and data files); may be given several times")
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")

    c = sub.add_parser("check", help="check rule files and run their examples")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.add_argument("--no-examples", action="store_true", help="do not run the examples")
    c.add_argument("--play", type=_natural, default=0, metavar="N",
                   help="also play N games of random bots for each number of players: a "
                        "rule that goes wrong in play is an error")

    v = sub.add_parser("validate", help="play and explore the games of rule files: does "
                       "every game end, does every rule run, can every seat win")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--games", type=_positive, default=4,
                   help="games per bot and number of players (default 4)")
    v.add_argument("--agents", type=_agents, default=["random", "greedy"],
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
    v.add_argument("--set", type=_setting, action="append", default=[], dest="settings",
                   metavar="NAME=VALUE", help="change a setting of the rules")
    v.add_argument("--format", choices=["text", "json"], default="text")
    _native_option(v)

    a = sub.add_parser("ast", help="print the syntax tree of a rule file as JSON")
    a.add_argument("file", metavar="FILE")

    def game_options(q: Parser, agents_default: str = "random", several: bool = False) -> None:
        if several:
            q.add_argument("files", nargs="+", metavar="FILE",
                           help="one rule file, or several to compare side by side")
        else:
            q.add_argument("file", metavar="FILE")
        q.add_argument("--players", type=_positive, help="number of players")
        q.add_argument("--seed", type=_natural, default=1, help="random seed (default 1)")
        # a text default: argparse reads it with `type` when the option is not given
        q.add_argument("--agents", type=_agents, default=agents_default,
                       help="comma-separated agents for the seats, cycled, each with its "
                            "parameters after a colon: mcts:sims=400,random ('rulesdsl "
                            "agents' lists them)")
        q.add_argument("--set", type=_setting, action="append", default=[], dest="settings",
                       metavar="NAME=VALUE", help="change a setting of the rules")
        _native_option(q)
        records_option(q)

    def records_option(q: Parser) -> None:
        q.add_argument("--records", default=".", metavar="DIR",
                       help="where to write the record of a game a rule stops with an error "
                            "(default: the current directory)")

    r = sub.add_parser("run", help="play one game with bots and narrate it")
    game_options(r)
    r.add_argument("--json", action="store_true", help="print the game record as JSON")
    told = r.add_mutually_exclusive_group()
    told.add_argument("--seat", type=_positive, help="narrate what this seat is told "
                      "(default: what everyone is told)")
    told.add_argument("--all", action="store_true", help="narrate every line, each private "
                      "one marked with who was told it")

    rp = sub.add_parser("replay", help="play a game record again, narrated (a record of a "
                        "game that went wrong shows the same error)")
    rp.add_argument("record", metavar="RECORD")
    rp.add_argument("--rules", metavar="FILE", help="the rule file (default: the one the "
                    "record names)")

    pl = sub.add_parser("play", help="play at the terminal; bots take the other seats")
    game_options(pl)
    pl.add_argument("--seats", default="1", help="the seats you play, e.g. 1 or 1,3")
    pl.add_argument("--load", metavar="SAVE", help="resume a game saved with 'save'")
    pl.add_argument("--ids", action="store_true",
                    help="show each option's id in brackets (the ids an example's "
                         "'play' and 'expect options' take)")
    pl.add_argument("--ask-forced", action="store_true", help="ask even when a decision has "
                    "one option (by default it is taken for you, and said)")

    s = sub.add_parser("simulate", help="play many games with bots and summarise them, "
                       "with 95%% intervals; several files: base and variants on the same seeds")
    game_options(s, several=True)
    simulate_options(s)

    rep = sub.add_parser("report", help="plots and an HTML page of a database of simulations")
    rep.add_argument("db", metavar="DB")
    rep.add_argument("--out", metavar="DIR", help="where to write the page and its PNGs "
                     "(default: DB's name with -report)")
    rep.add_argument("--exact", action="store_true", help="exact (Clopper-Pearson) "
                     "intervals for rates instead of Wilson's")

    ex = sub.add_parser("export", help="the games of a database of simulations as CSV or "
                        "Parquet")
    ex.add_argument("db", metavar="DB")
    ex.add_argument("out", metavar="OUT", help="a .csv or .parquet file")
    ex.add_argument("--run", type=_positive, help="only this run (default: every run)")

    d = sub.add_parser("diff", help="what rule file B changes, adds and removes from A")
    d.add_argument("a", metavar="A")
    d.add_argument("b", metavar="B")

    records_option(v)
    records_option(c)

    f = sub.add_parser("perft", help="count the step sequences of exactly D steps")
    f.add_argument("file", metavar="FILE")
    f.add_argument("--depth", type=_natural, required=True)
    f.add_argument("--players", type=_positive)
    f.add_argument("--seed", type=_natural, default=1)

    sv = sub.add_parser("serve", help="serve tables to play in a web browser, people and "
                        "bots (needs pip install 'rulesdsl[serve]')")
    sv.add_argument("files", nargs="+", metavar="FILE", help="the rule files tables may be "
                    "made for (variants too)")
    sv.add_argument("--set", type=_setting, action="append", default=[], dest="settings",
                    metavar="NAME=VALUE", help="change a setting of the rules")
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
    sub.add_parser("agents", help="list the agents and their parameters")
    sub.add_parser("games", help="list the shipped games and their variants, by the names "
                   "every command takes in place of a rule file")

    st = sub.add_parser("strength", help="a round robin among agents on a rule file: each "
                        "one's share of first places, with 95%% intervals, and its thinking "
                        "time")
    st.add_argument("file", metavar="FILE")
    st.add_argument("--agents", default=None, metavar="AGENTS",
                    help="the agents of the round robin, comma-separated, presets too "
                         "(default random,greedy,mcts:sims=30,mcts:sims=100)")
    st.add_argument("--games", type=_positive, default=100, help="games per pairing "
                    "(default 100)")
    st.add_argument("--players", type=_positive, help="number of players")
    st.add_argument("--seed", type=_natural, default=1, help="the first game's seed")
    st.add_argument("--workers", type=_positive, default=1)
    st.add_argument("--set", type=_setting, action="append", default=[], dest="settings",
                    metavar="NAME=VALUE", help="change a setting of the rules")
    st.add_argument("--json", action="store_true")

    sub.add_parser("lsp", help="start the language server on stdin and stdout (for editors)")
    for command in sub.choices.values():  # --include after the command works too
        command.add_argument("--include", action="append", default=argparse.SUPPRESS,
                             metavar="DIR", help="a folder rule files may read from besides "
                             "their own; may be given several times")
    return p


def print_diagnostics(err: RulesError) -> None:
    print(err.render(), file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    from . import checkcache

    failed = False
    out: list[dict] = []
    # a file checked before and unchanged since is answered from the cache (checkcache.py);
    # `--play` writes records of failed games, so it is always played
    options = {"examples": not args.no_examples,
               "include": [str(Path(f).resolve()) for f in getattr(args, "include", [])]}
    built = False
    for path in args.files:
        found = checkcache.recall(path, options) if not args.play else None
        if found is not None:
            diags, sources = found
        else:
            from .loader import check_file

            if built and not gc.isenabled():  # the last file's trees and code (see PAUSED)
                gc.collect()
            diags, sources = check_file(path, run_examples=not args.no_examples,
                                        play=args.play, records=args.records)
            built = True
            if not args.play:
                checkcache.remember(path, options, diags, sources)
        errors = [d for d in diags if d.severity == "error"]
        failed = failed or bool(errors)
        if args.format == "json":
            out.extend(d.to_json() for d in diags)
            continue
        for d in diags:
            print(d.render(sources), file=sys.stderr)
        if not errors:
            print(f"{getattr(args, 'names', {}).get(path, path)}: ok")
    if args.format == "json":
        print(json.dumps({"diagnostics": out, "ok": not failed}, indent=2))
    else:
        n = sum(1 for _ in args.files)
        if failed:
            print(f"{'some' if n > 1 else 'the'} rule file{'s' if n > 1 else ''} "
                  "had errors", file=sys.stderr)
    return 1 if failed else 0


def cmd_validate(args: argparse.Namespace) -> int:
    from .validate import Options, validate_file

    options = Options(games=args.games, agents=tuple(map(str, args.agents)), budget=args.budget,
                      positions=args.positions, seek=args.seek,
                      seed=args.seed, players=args.players, chance=args.chance,
                      records=args.records, settings=dict(args.settings) or None,
                      native=args.native)
    reports = []
    for path in args.files:
        report = validate_file(path, options)
        reports.append(report)
        if args.format == "text":
            if report.diagnostics:
                print(report.findings(), file=sys.stderr, flush=True)
            print(report.summary(), flush=True)
    if args.format == "json":
        print(json.dumps({"files": [r.to_json() for r in reports]}, indent=1))
    return 1 if any(r.errors for r in reports) else 0


def cmd_ast(args: argparse.Namespace) -> int:
    from . import ast as A
    from .grammar import parse_file

    tree, _ = parse_file(args.file)
    print(json.dumps(A.to_json(tree), indent=1))
    return 0


def _load(args: argparse.Namespace) -> Rules:
    from .loader import load

    with lasting():
        return load(args.file, dict(args.settings) or None, backend=_backend(args))


def _backend(args: argparse.Namespace) -> Backend:
    """The plain path, or with --native the compiled one (interpreter/native.py)."""
    from .interpreter.backends import PLAIN
    from .loader import native_backend

    return native_backend() if getattr(args, "native", False) else PLAIN


_own_process = False  # the command line runs as its own process (`command`), not in another


@contextmanager
def lasting() -> Iterator[None]:
    """Rules loaded for the rest of the process: the collector waits while they load (as
    loader.py makes it wait), and, in the command's own process, is then on again with
    what is there frozen, so that it never looks through them: on again after a plain
    pause, it would at once, and again at each of its older generations' turns (about 40
    collections and 0.04 to 0.09 s of CPU as `perft` of Cromlech starts). Called in-process
    (`main`, as tests do), nothing is frozen: what the caller holds is none of this
    command's business."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            if _own_process:
                gc.freeze()
            gc.enable()


def cmd_run(args: argparse.Namespace) -> int:
    """One game, narrated as it is played: each line is printed when it is said, so a
    game that stops on an error keeps what was said before."""
    from .runner import RecordEnded, agents_for, describe_result, play_out, seat_name

    loaded: Rules | None = getattr(args, "loaded", None)  # a replay's, loaded already
    rules = loaded if loaded is not None else _load(args)
    players = rules.check_players(args.players)
    if args.seat is not None and args.seat > players:
        raise UsageError(f"--seat: there is no seat {args.seat} in a game of {players}")
    seat = args.seat - 1 if args.seat is not None else None
    script: Script | None = getattr(args, "script", None)  # the steps of a replayed record
    try:
        game = rules.new_game(players=players, seed=args.seed, narrate=True, auto_chance=False)
    except RulesError as err:
        raise _stopped(err, rules, args, players, []) from None
    agents = [script] * players if script else agents_for(args.agents, players, args.seed)
    said = 0

    def say(text: str) -> None:
        if not args.json:
            print(text, flush=True)

    from .terminal import TerritoryWatch

    watch = TerritoryWatch(rules, seat)

    def flush(g: Game = game) -> None:
        nonlocal said
        new = g.lines(said)
        said += len(new)
        # a territory its owner has finished building: drawn after the step's first line
        # (the choice that placed the last tile), before what the rules went on to say
        drawn = watch.lines(g) if not args.json else []
        for k, line in enumerate(new):
            if args.all:
                say(f"  {line.text}" if line.to is None else
                    f"  [to {', '.join(seat_name(p) for p in line.to) or 'nobody'}] "
                    f"{line.text}")
            elif line.told(seat):
                say(f"  {line.text}")
            if k == 0:
                for text in drawn:
                    say(text)
        if not new:
            for text in drawn:
                say(text)

    say(f"{rules.name}: {players} player{'s' if players > 1 else ''}, seed {args.seed}, "
        f"agents {', '.join(a.name for a in agents)}"
        + (f"; what {seat_name(seat)} is told" if seat is not None else ""))
    try:
        flush()
        play_out(game, agents, flush, script.roll() if script else None)
    except RecordEnded:
        flush()
        if script is not None and script.record.made_up is not None:
            _replay_made_up(game, script.record.made_up, say)
        say(f"the record ends here, after {len(game.history)} steps; the game goes on")
        return 0
    except RulesError as err:
        flush()  # the narration up to the error, then the error
        raise _stopped(err, rules, args, players, game.history) from None
    flush()
    if args.json:
        print(json.dumps(game.to_json(), indent=1))
        return 0
    from .terminal import territories

    for line in territories(game.view(seat), rules):  # what tile-laying built
        say(line)
    for line in describe_result(game):
        say(line)
    return 0


def _replay_made_up(game: Game, made_up: Any, say: Callable[[str], None]) -> None:
    """The end of a record whose error happened in a game a bot made up: that game made
    again, and its steps taken to the error (raised as R012, as it was reported)."""
    from .interpreter.observation import in_made_up_game
    from .interpreter.records import play_made_up

    say(f"player {made_up.seat + 1}'s bot makes up a game (sample seed {made_up.seed}) and "
        f"takes {len(made_up.steps)} steps in it")
    try:
        play_made_up(game, made_up)
    except RulesError as err:
        if err.made_up is None or not err.diagnostics[0].code.startswith("R"):
            raise
        raise in_made_up_game(err, err.made_up) from None
    say("the made-up game plays on without an error: the sampler has changed since")


def _stopped(err: RulesError, rules: Rules, args: argparse.Namespace, players: int,
             steps: list[int]) -> RulesError:
    """A run stopped by a rule: where it happened, and its record (not for a replay: the
    record is the one being replayed)."""
    from .runner import Failed, report_failure

    if getattr(args, "script", None) is not None or not err.diagnostics[0].code.startswith("R"):
        return err
    return report_failure(rules, args.file, players,
                          Failed(args.seed, list(steps), err.diagnostics[0], err.made_up),
                          args.agents, None,
                          args.records)


def cmd_replay(args: argparse.Namespace) -> int:
    from .interpreter.records import check_rules, read_record, rule_file
    from .loader import load, load_named
    from .runner import Script

    record = read_record(args.record)
    settings = dict(record.settings)
    with lasting():
        if args.rules:  # named by the user: read as any rule file on the command line
            path = args.rules
            rules = load(path, settings or None)
        else:  # named by the record: only where `extends` may reach, never quoted
            path = str(rule_file(record, args.record))
            rules = load_named(path, "the record", settings or None)
    check_rules(record, rules)
    print(f"replaying {args.record}: {len(record.steps)} steps")
    return cmd_run(argparse.Namespace(
        file=path, settings=list(settings.items()), players=record.players, seed=record.seed,
        agents=record.agents or ["random"], json=False, records=None, script=Script(record),
        seat=None, all=False, loaded=rules))


def cmd_simulate(args: argparse.Namespace) -> int:
    from .balance.cli import simulate_command

    return simulate_command(args)


def cmd_report(args: argparse.Namespace) -> int:
    from .balance.cli import report_command

    return report_command(args)


def cmd_export(args: argparse.Namespace) -> int:
    from .balance.cli import export_command

    return export_command(args)


def cmd_perft(args: argparse.Namespace) -> int:
    from .interpreter.perft import perft
    from .loader import load

    with lasting():
        rules = load(args.file)
    game = rules.new_game(players=rules.check_players(args.players), seed=args.seed,
                          auto_chance=False)
    print(perft(game, args.depth))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .runner import agents_for
    from .terminal import play_at_terminal, read_save

    rules = _load(args)
    if args.load:
        game = read_save(rules, args.load)
        players, seed = game.players, game.seed
    else:
        players = rules.check_players(args.players)
        seed = args.seed
        game = rules.new_game(players=players, seed=seed, auto_chance=False, narrate=True)
    seats = set()
    for part in args.seats.split(","):
        try:
            seat = int(part)
        except ValueError:
            raise UsageError(f"--seats: expected seat numbers like 1 or 1,3, not "
                             f"{args.seats!r}") from None
        if not 1 <= seat <= players:
            raise UsageError(f"--seats: there is no seat {seat} in a game of {players}")
        seats.add(seat - 1)
    return play_at_terminal(game, agents_for(args.agents, players, seed), seats,
                            ask_forced=args.ask_forced, show_ids=args.ids)


def cmd_diff(args: argparse.Namespace) -> int:
    from .compare import diff
    from .variants import resolve

    lines = diff(resolve(args.a), resolve(args.b))
    print("\n".join(lines) if lines else f"{args.a} and {args.b} state the same rules")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .serve.app import Served, make_app
        from .serve.guard import served_names
        from .serve.table import Refused, Table
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in ("starlette", "uvicorn", "anyio"):
            raise
        raise UsageError("serving needs Starlette and uvicorn: pip install "
                         "'rulesdsl[serve]'") from None
    from .loader import load

    if not 0 <= args.bot_delay <= 60:
        raise UsageError("--bot-delay: expected seconds from 0 to 60")
    with lasting():
        games = [Served(f, load(f, dict(args.settings) or None)) for f in args.files]
    names, any_address = served_names(args.host, args.allow_host)
    app = make_app(games, bot_delay=args.bot_delay, hosts=names, any_address=any_address)
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    address = f"http://{shown}:{args.port}/"
    print(f"serving {', '.join(g.rules.name for g in games)}: open {address} in a browser "
          "(Ctrl-C stops)", flush=True)
    if args.seats is not None:
        try:
            table = Table(games[0].rules, games[0].file,
                          [k.strip() for k in args.seats.split(",")])
        except Refused as err:
            raise UsageError(f"--seats: {err}") from None
        key = app.state.server.add(table)
        print(f"a table of {table.rules.name}: {address}t/{key}", flush=True)
    # a WebSocket frame larger than this is refused before it is read whole; forwarded
    # headers believed only from the proxy named (uvicorn believes 127.0.0.1 by default,
    # so any local client could claim any address and escape the limits per address)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536,
                proxy_headers=args.proxy is not None, forwarded_allow_ips=args.proxy or "")
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    """The agents there are, each with its parameters and their defaults."""
    from .agents import REGISTRY, AgentError
    for name in REGISTRY.names():
        try:
            factory = REGISTRY.factory(name)
            params = REGISTRY.parameters(name)
        except AgentError as err:
            print(f"{name}: {err}")
            continue
        doc = (factory.__doc__ or "").strip().splitlines()
        print(f"{name}" + (f": {doc[0]}" if doc else ""))
        if params is None:
            print("  (it does not list its parameters)")
        for p in params or ():
            kind = "|".join(p.kind) if isinstance(p.kind, tuple) else p.kind
            default = str(p.default).lower() if isinstance(p.default, bool) else p.default
            print(f"  {p.name}={kind} (default {default}): {p.help}")
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from .catalogue import listing

    print("\n".join(listing()))
    return 0


def cmd_strength(args: argparse.Namespace) -> int:
    """A round robin among agents; every option is checked before the first game."""
    from .strength import DEFAULT_AGENTS, describe, describe_pairing, ladder

    text = args.agents or DEFAULT_AGENTS
    agents = [str(spec) for spec in _strength_agents(text)]
    rules = _load(args)
    players = rules.check_players(args.players)
    if len(set(agents)) != len(agents) or len(agents) < 2:
        raise UsageError(f"--agents: a round robin needs at least two different agents, "
                         f"not {text!r}")

    def show(pairing: Any) -> None:
        if not args.json:
            print(describe_pairing(pairing), file=sys.stderr, flush=True)

    out = ladder(args.file, agents, players, args.games, args.seed, args.workers,
                 dict(args.settings) or None, show, rules)
    print(json.dumps(out.to_json(), indent=1) if args.json else describe(out))
    return 0


def _strength_agents(text: str) -> list[AgentSpec]:
    try:
        return _agents(text)
    except argparse.ArgumentTypeError as err:
        raise UsageError(f"--agents: {err}") from None


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from .lsp.server import start
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise UsageError("the language server needs pygls: pip install 'rulesdsl[lsp]'") from None
    return start()


COMMANDS = {"check": cmd_check, "validate": cmd_validate, "ast": cmd_ast, "run": cmd_run,
            "replay": cmd_replay, "play": cmd_play, "simulate": cmd_simulate,
            "report": cmd_report, "export": cmd_export,
            "perft": cmd_perft, "diff": cmd_diff, "agents": cmd_agents, "games": cmd_games,
            "strength": cmd_strength, "serve": cmd_serve, "lsp": cmd_lsp}

# the arguments that name rule files, whatever the command: each may be a catalogue name
RULE_FILE_ARGUMENTS = ("file", "files", "a", "b", "rules")


def named_files(args: argparse.Namespace) -> None:
    """The catalogue names among the rule files of the command line made the files they
    name, before any work starts (a name the catalogue does not list is an error)."""
    from .catalogue import source

    args.names = {}  # the name each file was given by, for what a command says of it

    def named(given: str) -> str:
        found = source(given)
        if found != given:
            args.names[found] = given
        return found

    for key in RULE_FILE_ARGUMENTS:
        value = getattr(args, key, None)
        if isinstance(value, str):
            setattr(args, key, named(value))
        elif isinstance(value, list):
            setattr(args, key, [named(v) for v in value])


# Commands that read their files, answer and end run without Python's cycle collector, from
# the start to the end: what they make lives until they end (the modules they import, the
# rules' trees and code), and the collector, set off by the number of objects made, would
# look through all of it again and again for nothing (up to a tenth of the CPU time of a
# `check` after an edit; loader.py pauses it while a file is loaded, and this keeps it
# paused for the imports before and the examples after). `check` collects once between
# two files. The others have it back once their arguments are read: they play games,
# serve tables or edits for as long as they are asked to.
PAUSED = frozenset({"check", "ast", "diff", "agents", "games"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: the process's arguments); the exit code. The
    cycle collector is as it was afterwards."""
    collecting = gc.isenabled()
    try:
        return _main(argv, collecting)
    finally:
        if collecting:
            gc.enable()


def command() -> NoReturn:
    """The `rulesdsl` command (the entry point installed): `main`, in a process of its own
    (rules loaded for the rest of it are frozen: `lasting`), which ends without the
    collector back on (it would look through all the command made, at once, just before
    the process ends)."""
    global _own_process
    _own_process = True
    sys.exit(_main(None, gc.isenabled()))


def _main(argv: Sequence[str] | None, collecting: bool) -> int:
    gc.disable()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        include(args.include)
        named_files(args)
        if collecting and args.command not in PAUSED:
            gc.enable()
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"rulesdsl: error: {err}", file=sys.stderr)
        return 2
    except RulesError as err:
        print_diagnostics(err)
        return 1
    except KeyboardInterrupt:
        print("rulesdsl: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:
        from .agents import AgentError

        if isinstance(err, AgentError):  # an agent that cannot be made as named
            print(f"rulesdsl: error: {err}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    # `python -m rulesdsl.cli` runs this file as __main__, a second copy of the module: run
    # the module's own `command`, whose state (`_own_process`) the other modules see
    from rulesdsl.cli import command as run_command

    run_command()
