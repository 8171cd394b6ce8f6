"""Fuzzing: hostile and broken inputs of every kind, and what counts as handling them.

Used by tests/test_fuzz.py (hypothesis draws the random choices, a few hundred inputs per
run) and by benchmarks/fuzz.py (a seeded random generator, thousands of inputs, the
figures of docs/robustness.md). Five kinds of input:
- rule files: a game's file from games/, damaged (characters, lines, numbers, nesting);
- token soup: words and signs of the language in a random order, indented at random;
- saved games: a save of a game under games/, with a value somewhere changed, dropped or
  replaced (huge numbers, deep lists, text, floats, other kinds), or a save of another
  game with these rules' digest forged in;
- records: the same for a game record;
- command lines: commands of `rulesdsl` with bad and odd values;
- editor requests: a damaged rule file opened in the language server, then hover,
  definition, references, highlight, rename, completion, signature help, outline, folding
  and semantic tokens asked for at random places.
Each input goes through what a user would do with it (load, run the examples, play a
short game; load the save, view it, play on; replay the record; run the command; edit).
The only acceptable failure is a RulesError (a diagnostic), or for the language server an
error answer to the editor: anything else is a traceback.
A case that runs past its time limit is a hang.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.diagnostics import RulesError
from rulesdsl.interpreter.examples import run_examples
from rulesdsl.interpreter.records import make_record, parse_record, start, step

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted(ROOT.glob("games/*/*.rules"))
# a case that takes longer is a hang: far above the slowest case (about a second, measured
# by benchmarks/fuzz.py), so that a loaded machine or hypothesis's own tracing of a failing
# case cannot make an honest case look like one; a real hang never ends
SECONDS = 30.0
PLAY_DECISIONS = 60  # decisions of the short game played with a rule file that loads

# words and signs of the language (rules.lark), and some that are not
TOKENS = [
    "game", "players", "const", "setting", "counter", "board", "enum", "die", "dice",
    "define", "rule", "setup:", "play:", "rank", "example", "kind", "zone", "limit",
    "decisions", "extends", "replace", "remove", "as soon as", "per player", "secret",
    "holding", "square", "hexagon", "corners", "of", "triangles", "faces", "between",
    "and", "or", "not", "in", "where", "by", "as", "for", "each", "repeat", "times",
    "while", "turns", "from", "rounds", "choose", "optional", "any", "option", "if",
    "elif", "else", "then", "let", "roll", "set", "add", "to", "subtract", "place", "at",
    "clear", "win", "draw", "end game", "end turn", "break", "say", "expect", "pass",
    "shuffle", "move", "true", "false", "none", "player 1", "current", "players",
    "count(", "sum(", "max(", "min(", "all(", "any(", "first(", "filter(", "lines(",
    "length(", "x", "y", "score", "grid", "d6", "a1", "c3", "0", "1", "7", "-1", "100",
    "18446744073709551616", "9" * 40, '"text"', '"{x}"', '"{', '"', "(", ")", "[", "]",
    ",", ":", "=", "==", "!=", "<", ">=", "+", "-", "*", "/", "%", "..", "#", "\\",
    "\t", "  ", "\n", "\n    ", "\n        ", "\n            ", "é", "\x00", "\r",
]

# values a corrupted save or record may hold where something else was
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 7, 999, -(2 ** 63), 2 ** 64, 10 ** 30, 1.5, float("nan"),
    "", "x", "a1", "0", "rulesdsl-game/1", "rulesdsl-record/1", [], [0], [None],
    [[[[]]]], {}, {"a": 1}, [1, 2, 3], ["a1"], list(range(50)),
]

COMMANDS = ["check", "validate", "ast", "run", "replay", "play", "simulate", "perft", "diff"]
OPTIONS = ["--players", "--seed", "--agents", "--set", "--games", "--workers", "--depth",
           "--format", "--seats", "--load", "--budget", "--positions", "--seek", "--play",
           "--records", "--rules", "--json", "--no-examples", "--chance", "--bogus", "-h"]
BAD_NUMBERS = ["-1", "0", "-0", "x", "1.5", "", " ", "1e3", "0x10", "٣", "+2", "1_000",
               "-" + "9" * 30, "nan", "inf", "3 4", "\x00"]


class Hang(BaseException):
    """A case ran past its time limit (a BaseException: no guard of the engine, which
    turns Python errors inside rules into diagnostics, may take it for one)."""


@dataclass
class Outcome:
    """What one input came to: handled (a diagnostic or a normal end), or a traceback."""

    kind: str
    seconds: float
    traceback: str | None = None  # the last lines of the traceback, when there was one
    hang: bool = False
    input: Any = None


def _alarm(signum: int, frame: Any) -> None:
    where = []
    while frame is not None and len(where) < 3:
        name = frame.f_code.co_filename
        where.append(f"{name if name.startswith('<') else Path(name).name}:"
                     f"{frame.f_lineno} {frame.f_code.co_name}")
        frame = frame.f_back
    raise Hang(" <- ".join(where))


def _memory_cap(extra: int) -> Callable[[], None]:
    """Cap the address space at its size now plus `extra` bytes (a case that asks for
    more fails at once with MemoryError instead of swapping the machine); returns what
    lifts the cap again."""
    try:
        status = Path("/proc/self/status").read_text()
        now = int(next(line.split()[1] for line in status.splitlines()
                       if line.startswith("VmSize:"))) * 1024
    except (OSError, StopIteration, ValueError):
        return lambda: None
    old = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (now + extra, old[1]))
    return lambda: resource.setrlimit(resource.RLIMIT_AS, old)


def guarded(kind: str, case: Callable[[], None], seconds: float = SECONDS,
            given: Any = None, memory: int = 1 << 30) -> Outcome:
    """Run a case: any exception but RulesError is a traceback; past `seconds`, a hang;
    memory is capped at `memory` bytes (a gigabyte) more than the process holds when it
    starts."""
    old = signal.signal(signal.SIGALRM, _alarm)
    lift = _memory_cap(memory)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    out = Outcome(kind, 0.0, input=given)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            case()
    except RulesError:
        pass
    except Hang as hang:
        out.hang = True
        out.traceback = f"Hang: ran past {seconds} s at {hang}"
    except RecursionError as exc:
        out.traceback = _short(exc)
    except Exception as exc:  # the point: nothing else may escape
        out.traceback = _short(exc)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        lift()
    out.seconds = time.perf_counter() - start
    return out


def _short(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)[-3:]
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames))
    return f"{type(exc).__name__}: {str(exc)[:200]} at {where}"


# ---- rule files ------------------------------------------------------------------------------

def sources() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in GAME_FILES}


def damage(rng: random.Random, text: str) -> str:
    """One random damage: characters or lines cut, added, swapped; a number made huge;
    a line indented too far; brackets nested deep."""
    kind = rng.choice(["delete", "insert", "token", "swap", "duplicate", "cut", "number",
                       "indent", "nest", "repeat"])
    if not text:
        return rng.choice(TOKENS)
    i = rng.randrange(len(text))
    if kind == "delete":
        return text[:i] + text[min(len(text), i + rng.randint(1, 12)):]
    if kind == "insert":
        return text[:i] + rng.choice(":()[]{}\"\\,.=<>+-*/%# \t\n") + text[i:]
    if kind == "token":
        return text[:i] + " " + rng.choice(TOKENS) + " " + text[i:]
    if kind == "number":
        digits = [n for n in range(len(text)) if text[n].isdigit()]
        if digits:
            n = rng.choice(digits)
            return text[:n] + rng.choice(["4294967296", "18446744073709551616", "9" * 5000,
                                          "0", "-1", "999999"]) + text[n + 1:]
        return text
    if kind == "nest":
        depth = rng.choice([50, 500, 5000])
        return text[:i] + "(" * depth + "1" + ")" * depth + text[i:]
    lines = text.split("\n")
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    if kind == "swap":
        lines[a], lines[b] = lines[b], lines[a]
    elif kind == "duplicate":
        lines.insert(b, lines[a])
    elif kind == "indent":
        lines[a] = " " * rng.choice([1, 3, 8, 13, 40]) + lines[a]
    elif kind == "repeat":
        lines.insert(b, "    repeat 4294967296 times:\n        pass")
    else:
        del lines[a]
    return "\n".join(lines)


def damaged(rng: random.Random, text: str, least: int, most: int) -> str:
    """The text damaged `least` to `most` times (`damage`)."""
    for _ in range(rng.randint(least, most)):
        text = damage(rng, text)
    return text


def token_soup(rng: random.Random) -> str:
    words = [rng.choice(TOKENS) for _ in range(rng.randint(1, 80))]
    head = 'game "Soup"\nplayers 2\n' if rng.random() < 0.7 else ""
    return head + " ".join(words) + "\n"


def run_text(text: str, path: str) -> None:
    """What a user does with a rule file: check it, run its examples, play a game."""
    rules = rulesdsl.load_text(text, path=path)
    run_examples(rules)
    play_briefly(rules, 1)


def play_briefly(rules: rulesdsl.Rules, seed: int) -> None:
    game = rules.new_game(players=rules.player_range[0], seed=seed)
    rng = random.Random(seed)
    for _ in range(PLAY_DECISIONS):
        if game.over:
            break
        game.apply_index(rng.randrange(game.num_options()))
        game.decision  # noqa: B018  (its labels are shown to a player)


# ---- saves and records -----------------------------------------------------------------------

def games_to_corrupt(rng: random.Random, rules: rulesdsl.Rules) -> rulesdsl.Game:
    """A game of these rules at a random point (now and then, over)."""
    game = rules.new_game(players=rng.randint(*rules.player_range), seed=rng.randrange(100))
    steps = 10_000 if rng.random() < 0.1 else rng.randrange(30)
    for _ in range(steps):
        if game.over:
            break
        game.apply_index(rng.randrange(game.num_options()))
    return game


def corrupt(rng: random.Random, data: Any) -> Any:
    """The data with one value somewhere changed, dropped or given a deep nesting."""
    data = copy.deepcopy(data)
    paths: list[list] = []

    def collect(value: Any, path: list) -> None:
        paths.append(path)
        if isinstance(value, dict):
            for k, v in value.items():
                collect(v, path + [k])
        elif isinstance(value, list) and len(paths) < 2000:
            for k, v in enumerate(value):
                collect(v, path + [k])

    collect(data, [])
    path = rng.choice(paths)
    if not path:
        return rng.choice(ODD_VALUES)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = rng.random()
    if action < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif action < 0.25:
        nested: Any = []
        for _ in range(rng.choice([20, 1000, 100_000])):
            nested = [nested]
        parent[key] = nested
    elif action < 0.45 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] = parent[key] + rng.choice([-1, 1, 2, 100, -1000, 2 ** 64])
    else:
        parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    return data


def forged(rng: random.Random, loaded: dict[Path, rulesdsl.Rules]
           ) -> tuple[rulesdsl.Rules, dict]:
    """A save of one game with the digest of another game's rules written in: what the
    other rules must reject by its contents."""
    a, b = rng.sample(sorted(loaded), 2)
    data = games_to_corrupt(rng, loaded[a]).to_json()
    data["rules"] = loaded[b].digest
    return loaded[b], data


def run_save(rules: rulesdsl.Rules, data: Any) -> None:
    """What a user does with a save: load it, look at it, play on."""
    from rulesdsl.terminal import show_state

    game = rules.load_game(data)
    for p in range(game.players):
        game.view(p)
        show_state(game.view(p), rules)
    game.result  # noqa: B018
    json.dumps(game.to_json())
    rng = random.Random(0)
    for _ in range(20):
        if game.over:
            break
        game.decision  # noqa: B018
        game.apply_index(rng.randrange(game.num_options()))
    game.result  # noqa: B018


def record_of(game: rulesdsl.Game, path: Path) -> dict:
    return make_record(game.rules, str(path), game.players, game.seed, game.history).to_json()


def run_record(rules: rulesdsl.Rules, data: Any) -> None:
    record = parse_record(data)
    game = start(record, rules)
    for n in range(len(record.steps)):
        step(game, record, n)


# ---- command lines ---------------------------------------------------------------------------

def bad_argv(rng: random.Random, files: dict[str, str]) -> list[str]:
    """A command with a few options, some with bad values, on good or bad files."""
    argv = [rng.choice(COMMANDS + ["", "nosuch", "--help"])]
    for _ in range(rng.randint(0, 2)):
        argv.append(rng.choice(list(files.values())))
    for _ in range(rng.randint(0, 4)):
        option = rng.choice(OPTIONS)
        argv.append(option)
        if rng.random() < 0.8:
            argv.append(rng.choice(BAD_NUMBERS + list(files.values()) +
                                   ["random", "first,nosuch", "GOAL=abc", "NOSUCH=1",
                                    "GOAL=" + "9" * 50, "json", "1,9"]))
    rng.shuffle(argv[1:])
    return argv


def run_cli(argv: list[str]) -> None:
    """A command must end with an exit status, never with an exception."""
    sys.stdin = io.StringIO("quit\n")
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's --help
        code = exc.code if isinstance(exc.code, int) else 0
    finally:
        sys.stdin = sys.__stdin__
    if not isinstance(code, int):
        raise TypeError(f"main returned {code!r}")


# ---- editor requests -------------------------------------------------------------------------

EDITOR_REQUESTS = ("hover", "definition", "references", "highlight", "prepare_rename",
                   "rename", "completion", "signature", "outline", "folding", "tokens")
NEW_NAMES = ["x", "new_name", "", "1a", "play", "a b", "\u00e9t\u00e9", "x" * 300]


def editor_requests(rng: random.Random, text: str, n: int = 30) -> list[tuple]:
    """`n` requests at random places of the text: (request, line, character, a new name)."""
    lines = text.split("\n")
    out = []
    for _ in range(n):
        line = rng.randrange(len(lines) + 1)
        character = rng.randrange(len(lines[line]) + 2) if line < len(lines) else 0
        out.append((rng.choice(EDITOR_REQUESTS), line, character, rng.choice(NEW_NAMES)))
    return out


_editor: list[Any] = []


def editor() -> Any:
    """A language server of this process, its workspace the repository, that publishes
    nowhere (nothing to send the diagnostics to)."""
    if not _editor:
        from lsprotocol import types
        from pygls import uris

        from rulesdsl.lsp.server import RulesServer

        class Quiet(RulesServer):
            def text_document_publish_diagnostics(self, params: Any) -> None:
                """No editor to send them to."""

            def settle(self) -> None:
                """No event loop to schedule the collector's run on."""

        server = Quiet()
        # the `initialize` request's steps (the workspace made), as an editor's would run
        list(server.protocol.lsp_initialize(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=uris.from_fs_path(str(ROOT)))))
        _editor.append(server)
    return _editor[0]


def run_editor(text: str, path: str, requests: list[tuple]) -> None:
    """Open the text as the document at `path` (relative to the repository), ask each
    request, close it. The server's error answers (a name to rename that is not there)
    are answers."""
    from lsprotocol import types as T
    from pygls import uris
    from pygls.exceptions import JsonRpcException

    from rulesdsl.lsp import server as S

    ls = editor()
    uri = uris.from_fs_path(str(ROOT / path))
    doc = T.TextDocumentIdentifier(uri=uri)
    item = T.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)
    ls.workspace.put_text_document(item)
    asks: dict[str, Callable[[T.Position, str], Any]] = {
        "hover": lambda p, _: S.on_hover(ls, T.HoverParams(text_document=doc, position=p)),
        "definition": lambda p, _: S.on_definition(ls, T.DefinitionParams(
            text_document=doc, position=p)),
        "references": lambda p, _: S.on_references(ls, T.ReferenceParams(
            text_document=doc, position=p,
            context=T.ReferenceContext(include_declaration=True))),
        "highlight": lambda p, _: S.on_highlight(ls, T.DocumentHighlightParams(
            text_document=doc, position=p)),
        "prepare_rename": lambda p, _: S.on_prepare_rename(ls, T.PrepareRenameParams(
            text_document=doc, position=p)),
        "rename": lambda p, new: S.on_rename(ls, T.RenameParams(
            text_document=doc, position=p, new_name=new)),
        "completion": lambda p, _: S.on_completion(ls, T.CompletionParams(
            text_document=doc, position=p)),
        "signature": lambda p, _: S.on_signature(ls, T.SignatureHelpParams(
            text_document=doc, position=p)),
        "outline": lambda p, _: S.on_outline(ls, T.DocumentSymbolParams(text_document=doc)),
        "folding": lambda p, _: S.on_folding(ls, T.FoldingRangeParams(text_document=doc)),
        "tokens": lambda p, _: S.on_tokens(ls, T.SemanticTokensParams(text_document=doc)),
    }
    try:
        S.did_open(ls, T.DidOpenTextDocumentParams(text_document=item))
        for request, line, character, new in requests:
            with contextlib.suppress(JsonRpcException):
                asks[request](T.Position(line=line, character=character), new)
    finally:
        S.did_close(ls, T.DidCloseTextDocumentParams(text_document=doc))
        ls.workspace.remove_text_document(uri)
