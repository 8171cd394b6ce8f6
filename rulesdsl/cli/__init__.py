"""The `rulesdsl` command line: check, validate, ast, run, replay, play, simulate, report,
export, diff, perft, agents, strength, games, serve, lsp.

Wherever a command takes a rule file, it takes the name of a shipped game too
(`rulesdsl play cromlech`, catalogue.py); a path that exists wins over a name.

Every bad input (a rule file, a saved game, an argument) ends with a message for people
and a non-zero exit, never a Python traceback: exit 1 for errors in the rules or the game,
exit 2 for a bad command line.

Stage: the tools, the last of them: this package imports every stage below it, lazily
(each command imports what it uses). arguments.py declares what each command takes; the
commands themselves, their table (`COMMANDS`) and `main` are here.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

# The cycle collector waits while these are imported (pydantic's modules, and all they
# make lives as long as the process: see `main`); then what is there is frozen (the
# collector's permanent generation), so that the collector, on again, does not look
# through all of it at once when it next runs.
_collecting = gc.isenabled()
gc.disable()
from .. import __version__  # noqa: E402
from ..diagnostics import RulesError, UsageError  # noqa: E402
from .arguments import (  # noqa: E402
    Parser,
    agent_specs,
    check_arguments,
    diff_arguments,
    export_arguments,
    no_arguments,
    one_file,
    perft_arguments,
    play_arguments,
    replay_arguments,
    report_arguments,
    run_arguments,
    serve_arguments,
    simulate_arguments,
    strength_arguments,
    validate_arguments,
)

if _collecting:
    gc.freeze()
    gc.enable()

if TYPE_CHECKING:
    from ..agents import AgentSpec
    from ..agents.play import Script
    from ..compile.backends import Backend
    from ..interpreter.game import Game, Rules

# The parser, the compiler and the agents are imported by the commands that use them, not
# here: `rulesdsl --help` and a mistyped argument answer without loading them.


def build_parser() -> Parser:
    p = Parser(prog="rulesdsl", description="Tabletop game rules as text: check them, run "
               "them, play them, measure them.")
    p.add_argument("--version", action="version", version=f"rulesdsl {__version__}")
    p.add_argument("--include", action="append", default=[], metavar="DIR",
                   help="a folder rule files may read from besides their own (for "
                        "'extends' and data files); may be given several times")
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    for name, command in COMMANDS.items():
        q = sub.add_parser(name, help=command.help)
        command.arguments(q)
        # --include after the command works too
        q.add_argument("--include", action="append", default=argparse.SUPPRESS,
                       metavar="DIR", help="a folder rule files may read from besides "
                       "their own; may be given several times")
    return p


def print_diagnostics(err: RulesError) -> None:
    print(err.render(), file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    from ..validate import checkcache

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
            diags, sources, summary = found
        else:
            from ..validate.checking import check

            if built and not gc.isenabled():  # the last file's trees and code (see PAUSED)
                gc.collect()
            checked = check(path, run_examples=not args.no_examples, play=args.play,
                            records=args.records, include=args.include)
            diags, sources, summary = checked.diagnostics, checked.sources, checked.summary
            built = True
            if not args.play:
                checkcache.remember(path, options, diags, sources, summary)
        errors = [d for d in diags if d.severity == "error"]
        failed = failed or bool(errors)
        if args.format == "json":
            out.extend(d.to_json() for d in diags)
            continue
        for d in diags:
            print(d.render(sources), file=sys.stderr)
        if not errors:
            name = getattr(args, "names", {}).get(path, path)
            print(f"{name}: ok ({summary})" if summary else f"{name}: ok")
    if args.format == "json":
        print(json.dumps({"diagnostics": out, "ok": not failed}, indent=2))
    else:
        n = sum(1 for _ in args.files)
        if failed:
            print(f"{'some' if n > 1 else 'the'} rule file{'s' if n > 1 else ''} "
                  "had errors", file=sys.stderr)
    return 1 if failed else 0


def cmd_validate(args: argparse.Namespace) -> int:
    from ..validate import Options, validate_file

    options = Options(games=args.games, agents=tuple(map(str, args.agents)), budget=args.budget,
                      positions=args.positions, seek=args.seek,
                      seed=args.seed, players=args.players, chance=args.chance,
                      records=args.records, settings=dict(args.settings) or None,
                      native=args.native, include=tuple(args.include))
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
    from .. import ast as A
    from ..grammar import parse_file

    tree, _ = parse_file(args.file)
    print(json.dumps(A.to_json(tree), indent=1))
    return 0


def _load(args: argparse.Namespace) -> Rules:
    from ..loader import lasting, load

    with lasting(_own_process):
        return load(args.file, dict(args.settings) or None, backend=_backend(args),
                    include=args.include)


def _backend(args: argparse.Namespace) -> Backend:
    """The plain path, or with --native the compiled one (compile/native.py)."""
    from ..loader import backend_for

    return backend_for(getattr(args, "native", False))


def cmd_run(args: argparse.Namespace) -> int:
    """One game, narrated as it is played: each line is printed when it is said, so a
    game that stops on an error keeps what was said before."""
    from ..agents.play import RecordEnded, agents_for, describe_result, play_out, seat_name

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

    from ..terminal import TerritoryWatch

    watch = TerritoryWatch(rules, seat)

    def flush(g: Game = game) -> None:
        nonlocal said
        # in the rule file's words: decisions told in the third person (words.py)
        new = g.screen_lines(said)
        said = len(g.log)
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
    from ..terminal import territories

    for line in territories(game.view(seat), rules):  # what tile-laying built
        say(line)
    for line in describe_result(game):
        say(line)
    return 0


def _replay_made_up(game: Game, made_up: Any, say: Callable[[str], None]) -> None:
    """The end of a record whose error happened in a game a bot made up: that game made
    again, and its steps taken to the error (raised as R012, as it was reported)."""
    from ..interpreter.observation import in_made_up_game
    from ..interpreter.records import play_made_up

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
    from ..agents.play import Failed, report_failure

    if getattr(args, "script", None) is not None or not err.diagnostics[0].code.startswith("R"):
        return err
    return report_failure(rules, args.file, players,
                          Failed(args.seed, list(steps), err.diagnostics[0], err.made_up),
                          args.agents, None,
                          args.records)


def cmd_replay(args: argparse.Namespace) -> int:
    from ..agents.play import Script
    from ..interpreter.records import check_rules, read_record, rule_file
    from ..loader import load, load_named

    record = read_record(args.record)
    settings = dict(record.settings)
    from ..loader import lasting

    with lasting(_own_process):
        if args.rules:  # named by the user: read as any rule file on the command line
            path = args.rules
            rules = load(path, settings or None, include=args.include)
        else:  # named by the record: only where `extends` may reach, never quoted
            path = str(rule_file(record, args.record, args.include))
            rules = load_named(path, "the record", settings or None, args.include)
    check_rules(record, rules)
    print(f"replaying {args.record}: {len(record.steps)} steps")
    return cmd_run(argparse.Namespace(
        file=path, settings=list(settings.items()), players=record.players, seed=record.seed,
        agents=record.agents or ["random"], json=False, records=None, script=Script(record),
        seat=None, all=False, loaded=rules))


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..balance.cli import simulate_command

    args.own_process = _own_process  # what it loads is kept to the end (`lasting`)
    return simulate_command(args)


def cmd_report(args: argparse.Namespace) -> int:
    from ..balance.cli import report_command

    return report_command(args)


def cmd_export(args: argparse.Namespace) -> int:
    from ..balance.cli import export_command

    return export_command(args)


def cmd_perft(args: argparse.Namespace) -> int:
    from ..interpreter.perft import perft
    from ..loader import lasting, load

    with lasting(_own_process):
        rules = load(args.file, include=args.include, backend=_backend(args))
    game = rules.new_game(players=rules.check_players(args.players), seed=args.seed,
                          auto_chance=False)
    print(perft(game, args.depth))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from ..agents.play import agents_for
    from ..terminal import play_at_terminal, read_save

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
                            ask_forced=args.ask_forced, show_ids=args.ids,
                            forced=args.forced)


def cmd_diff(args: argparse.Namespace) -> int:
    from ..resolve.compare import diff
    from ..resolve.variants import resolve

    lines = diff(resolve(args.a, include=args.include), resolve(args.b, include=args.include))
    print("\n".join(lines) if lines else f"{args.a} and {args.b} state the same rules")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..serve.app import Served, make_app
        from ..serve.guard import served_names
        from ..serve.table import Refused, Table
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in ("starlette", "uvicorn", "anyio"):
            raise
        raise UsageError("serving needs Starlette and uvicorn: pip install "
                         "'rulesdsl[serve]'") from None
    from ..loader import load

    if not 0 <= args.bot_delay <= 60:
        raise UsageError("--bot-delay: expected seconds from 0 to 60")
    from ..loader import lasting

    with lasting(_own_process):
        games = [Served(f, load(f, dict(args.settings) or None, include=args.include))
                 for f in args.files]
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
    from ..agents import REGISTRY, AgentError
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
    from ..resolve.catalogue import listing

    print("\n".join(listing()))
    return 0


def cmd_strength(args: argparse.Namespace) -> int:
    """A round robin among agents; every option is checked before the first game."""
    from ..agents.strength import DEFAULT_AGENTS, describe, describe_pairing, ladder

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
                 dict(args.settings) or None, show, rules, native=args.native)
    print(json.dumps(out.to_json(), indent=1) if args.json else describe(out))
    return 0


def _strength_agents(text: str) -> list[AgentSpec]:
    try:
        return agent_specs(text)
    except argparse.ArgumentTypeError as err:
        raise UsageError(f"--agents: {err}") from None


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import start
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise UsageError("the language server needs pygls: pip install 'rulesdsl[lsp]'") from None
    return start()


class Command(NamedTuple):
    """A command of the command line: its line in `rulesdsl --help`, what adds its
    arguments to its parser, and what runs it (the exit code)."""
    help: str
    arguments: Callable[[Parser], None]
    run: Callable[[argparse.Namespace], int]


# the commands, in the order `rulesdsl --help` lists them
COMMANDS: dict[str, Command] = {
    "check": Command("check rule files and run their examples", check_arguments, cmd_check),
    "validate": Command("play and explore the games of rule files: does every game end, "
                        "does every rule run, can every seat win", validate_arguments,
                        cmd_validate),
    "ast": Command("print the syntax tree of a rule file as JSON", one_file, cmd_ast),
    "run": Command("play one game with bots and narrate it", run_arguments, cmd_run),
    "replay": Command("play a game record again, narrated (a record of a game that went "
                      "wrong shows the same error)", replay_arguments, cmd_replay),
    "play": Command("play at the terminal; bots take the other seats", play_arguments,
                    cmd_play),
    "simulate": Command("play many games with bots and summarise them, with 95%% intervals; "
                        "several files: base and variants on the same seeds",
                        simulate_arguments, cmd_simulate),
    "report": Command("plots and an HTML page of a database of simulations",
                      report_arguments, cmd_report),
    "export": Command("the games of a database of simulations as CSV or Parquet",
                      export_arguments, cmd_export),
    "diff": Command("what rule file B changes, adds and removes from A", diff_arguments,
                    cmd_diff),
    "perft": Command("count the step sequences of exactly D steps", perft_arguments,
                     cmd_perft),
    "serve": Command("serve tables to play in a web browser, people and bots (needs pip "
                     "install 'rulesdsl[serve]')", serve_arguments, cmd_serve),
    "agents": Command("list the agents and their parameters", no_arguments, cmd_agents),
    "games": Command("list the shipped games and their variants, by the names every "
                     "command takes in place of a rule file", no_arguments, cmd_games),
    "strength": Command("a round robin among agents on a rule file: each one's share of "
                        "first places, with 95%% intervals, and its thinking time",
                        strength_arguments, cmd_strength),
    "lsp": Command("start the language server on stdin and stdout (for editors)",
                   no_arguments, cmd_lsp),
}

# the arguments that name rule files, whatever the command: each may be a catalogue name
RULE_FILE_ARGUMENTS = ("file", "files", "a", "b", "rules")


def named_files(args: argparse.Namespace) -> None:
    """The catalogue names among the rule files of the command line made the files they
    name, before any work starts (a name the catalogue does not list is an error)."""
    from ..resolve.catalogue import source

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


_own_process = False  # the command line runs as its own process (`command`), not in another


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
        named_files(args)
        if collecting and args.command not in PAUSED:
            gc.enable()
        return COMMANDS[args.command].run(args)
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
        from ..agents import AgentError

        if isinstance(err, AgentError):  # an agent that cannot be made as named
            print(f"rulesdsl: error: {err}", file=sys.stderr)
            return 2
        raise

